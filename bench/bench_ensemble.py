#!/usr/bin/env python3
"""Ensemble throughput (instance-steps per second) of every backend on the canonical workload.

Runs `hydrosweep run SWEEP -b BACKEND -n N` (default sweep: sweeps/friction_bulk_mc.yaml, the
seed 003 four-bar with Brown-McPhee friction, 10 s at dt = 1 ms: 10000 steps per instance),
and writes the figures as JSON + Markdown with machine, device, date and commit.

    reference     one core, LAPACK solves, generic engine         N = 16 (--ref-n)
    cpu           OpenMP batch, all cores, the engine specialised to the model (the default)
                  N = 1e3 (and 1e4 with --full; --cpu-sizes)
    cpu_modified  the same with simulation.newton: modified (tangent reuse)
    cpu_adaptive  the same with simulation.step: adaptive (the model's method and Newton: by
                  default ESDIRK4 with modified Newton; tolerance the model's or --rtol;
                  instance-steps are those of the output grid)
    cpu_generic   the same with the generic engine (HS_CPU_ENGINE=generic)
    gpu           the specialised kernel (NVRTC; the default path, HS_GPU_PATH=specialised)
                  N = 1e3 1e4 1e5 1e6 (--sizes)
    gpu_modified  the same with simulation.newton: modified
    gpu_adaptive  the same with simulation.step: adaptive
    gpu_cublas    batched cuBLAS Newton solves (HS_GPU_PATH=cublas)   same sizes
The GPU backends are skipped (and say so) where no GPU is usable. Before the first measured run
of a specialised engine a warm-up run of 8 instances of the same sweep (t_end is one of the
engine's constants) builds it (NVRTC or the host compiler; cached on disk), so that no figure
includes a compilation.

Each figure is one run's own report ("run: N instances in T s (... instance-steps/s)"): wall
time from sampling to the last results chunk written, model loading excluded; the process's
wall time is recorded beside it. A size whose run would take longer than --max-run-s
(projected from the previous size's rate) or than what is left of --budget-s is skipped and
recorded as such, so a lease-limited GPU session still ends with a report.

--accuracy K adds what each CPU backend's figures buy: the first K instances run again on it
(results kept) and once more as a reference (fixed steps of dt / 16, full Newton), and the
table gives the largest error over those instances of every trajectory signal (on its samples)
and of every statistic's value, against the reference. So an adaptive tolerance can be chosen
that matches the fixed 1 ms steps' accuracy, and the throughputs compared at that accuracy.

usage: bench/bench_ensemble.py [--build build] [--sweep sweeps/friction_bulk_mc.yaml]
           [--backends reference,cpu,cpu_modified,cpu_adaptive,cpu_generic,gpu,gpu_modified,gpu_adaptive,
                       gpu_cublas]
           [--sizes 1000,10000,100000,1000000]
           [--cpu-sizes 1000] [--ref-n 16] [--full] [--quick] [--gpu-chunk 262144]
           [--max-run-s 600] [--budget-s 0] [--rtol R] [--repeats R] [--accuracy K] [--out bench/results]
           [--commit C]
"""
import argparse, datetime, json, os, platform, re, shutil, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_single import cpu_name, results_base  # noqa: E402  (one definition for both benchmarks)
ALL_BACKENDS = ["reference", "cpu", "cpu_modified", "cpu_adaptive", "cpu_generic", "gpu", "gpu_modified",
                "gpu_adaptive", "gpu_cublas"]
GPU_PATH = {"gpu": "specialised", "gpu_modified": "specialised", "gpu_adaptive": "specialised",
            "gpu_cublas": "cublas"}
CPU_ENGINE = {"cpu": "specialised", "cpu_modified": "specialised", "cpu_adaptive": "specialised",
              "cpu_generic": "generic"}
MODIFIED = ("cpu_modified", "gpu_modified")  # simulation.newton: modified in their sweep copy
ADAPTIVE = ("cpu_adaptive", "gpu_adaptive")  # simulation.step: adaptive (default tolerances)


def gpu_names():
    """nvidia-smi -L lines, or [] when no GPU (or no driver) is there."""
    try:
        r = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return []
    return [l.strip() for l in r.stdout.splitlines() if l.strip()] if r.returncode == 0 else []


def commit_of(explicit):
    if explicit:
        return explicit
    r = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short=12", "HEAD"], capture_output=True,
                       text=True)
    c = r.stdout.strip()
    if not c:
        return os.environ.get("HS_COMMIT", "unknown")
    d = subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "--untracked-files=no"],
                       capture_output=True, text=True).stdout.strip()
    return c + ("-dirty" if d else "")


def slug(s):
    return re.sub(r"[^a-z0-9]+", "-", s.lower()).strip("-")[:48] or "unknown"


def sweep_copy(src, dst, t_end=None, chunk=None, newton=None, step=None, extra=None):
    """The sweep file with its model path made absolute (the copy lives elsewhere) and,
    optionally, simulation.t_end, simulation.newton, simulation.step, the simulation keys of
    extra (a dict: method, rtol) and chunk replaced. Line-based: keeps the file's comments."""
    sdir = os.path.dirname(os.path.abspath(src))
    lines = open(src).read().split("\n")
    out, have_chunk, have_sim, i = [], False, False, 0
    while i < len(lines):
        line = lines[i]
        m = re.match(r"^model:\s*([^#\s]+)(.*)$", line)
        if m:
            line = f"model: {os.path.normpath(os.path.join(sdir, m.group(1)))}{m.group(2)}"
        if re.match(r"^chunk:", line):
            have_chunk = True
            if chunk:
                line = f"chunk: {chunk}"
        if re.match(r"^simulation:", line) and t_end:
            have_sim = True
            if "{" in line:  # flow style: simulation: {t_end: 10 s, dt: 1 ms}
                if re.search(r"\bt_end:", line):
                    line = re.sub(r"(\bt_end:\s*)[^,}]+", rf"\g<1>{t_end}", line)
                else:
                    line = line.replace("{", f"{{t_end: {t_end}, ", 1)
            else:  # block style: indented keys follow
                out.append(line)
                at = len(out)
                i += 1
                done = False
                while i < len(lines) and (lines[i].startswith((" ", "\t")) or not lines[i].strip()):
                    if re.match(r"^\s+t_end:", lines[i]):
                        lines[i] = re.sub(r"(t_end:\s*)[^#]*", rf"\g<1>{t_end}  ", lines[i])
                        done = True
                    out.append(lines[i])
                    i += 1
                if not done:
                    out.insert(at, f"  t_end: {t_end}")
                continue
        out.append(line)
        i += 1
    if chunk and not have_chunk:
        out.append(f"chunk: {chunk}")
    if t_end and not have_sim:
        out.append(f"simulation: {{t_end: {t_end}}}")
    for key, val in [("newton", newton), ("step", step)] + list((extra or {}).items()):
        if not val:
            continue
        for k, line in enumerate(out):
            if re.match(r"^simulation:\s*\{", line):  # a key given is replaced, else added
                if re.search(rf"[{{,]\s*{key}:", line):
                    out[k] = re.sub(rf"([{{,]\s*{key}:\s*)[^,}}]+", rf"\g<1>{val}", line)
                else:
                    out[k] = line.replace("{", f"{{{key}: {val}, ", 1)
                break
            if re.match(r"^simulation:\s*(#.*)?$", line):
                j = k + 1
                while j < len(out) and out[j].startswith((" ", "\t")):
                    if re.match(rf"^\s+{key}:", out[j]):
                        out[j] = re.sub(rf"({key}:\s*)[^#]*", rf"\g<1>{val}  ", out[j])
                        break
                    j += 1
                else:
                    out.insert(k + 1, f"  {key}: {val}")
                break
        else:
            out.append(f"simulation: {{{key}: {val}}}")
    with open(dst, "w") as f:
        f.write("\n".join(out))


RUN_RE = re.compile(r"run: (\d+) instances in ([0-9.]+) s \(([0-9.eE+-]+) instances/s, "
                    r"([0-9.eE+-]+) instance-steps/s[^)]*\)")
HEAD_RE = re.compile(r"backend (\S+) on (.*), (\d+) steps each")
ENS_RE = re.compile(r"ensemble: (\d+) instances, (\d+) finished(?: \(status 0\))?, (\d+) failed")


def run_one(exe, sweep, backend, n, tmpdir, threads, timeout, keep=None):
    """One hydrosweep run; a dict of its figures, or of the reason it failed. keep: a path
    where its results file stays (else it is removed)."""
    env = dict(os.environ)
    b = backend
    if backend in GPU_PATH:
        env["HS_GPU_PATH"] = GPU_PATH[backend]
        env["HS_GPU_VERBOSE"] = "1"  # the launch shape goes into the record
        b = "gpu"
    if backend in CPU_ENGINE:
        env["HS_CPU_ENGINE"] = CPU_ENGINE[backend]
        env["HS_CPU_VERBOSE"] = "1"
        b = "cpu"
    out = keep or os.path.join(tmpdir, f"{backend}-{n}.h5")
    cmd = [exe, "run", sweep, "-b", b, "-n", str(n), "-o", out, "--no-progress"]
    if b == "cpu" and threads:
        cmd += ["--threads", str(threads)]
    t0 = time.monotonic()
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout)
    except subprocess.TimeoutExpired:
        return dict(ok=False, error=f"timed out after {timeout:.0f} s")
    wall_proc = time.monotonic() - t0
    for p in (out, out + ".part", os.path.splitext(out)[0] + ".csv"):
        if os.path.exists(p) and not (keep and p == out):
            os.remove(p)
    text = r.stdout + r.stderr
    m = RUN_RE.search(text)
    if r.returncode != 0 or not m:
        tail = "\n".join(text.strip().splitlines()[-5:])
        return dict(ok=False, error=f"exit {r.returncode}: {tail}")
    h = HEAD_RE.search(text)
    e = ENS_RE.search(text)
    launch = [l for l in text.splitlines() if l.startswith(("gpu ", "gpu: running the generic", "cpu: using"))]
    return dict(ok=True, instances=int(m.group(1)), wall_s=float(m.group(2)),
                instances_per_s=float(m.group(3)), instance_steps_per_s=float(m.group(4)),
                wall_process_s=round(wall_proc, 3), steps_per_instance=int(h.group(3)) if h else None,
                device=h.group(2) if h else None, finished=int(e.group(2)) if e else None,
                failed=int(e.group(3)) if e else None, launch=" | ".join(launch) or None,
                command=(f"HS_GPU_PATH={env['HS_GPU_PATH']} " if b == "gpu" else "")
                + (f"HS_CPU_ENGINE={env['HS_CPU_ENGINE']} " if b == "cpu" else "")
                + f"hydrosweep run SWEEP{' (simulation.newton: modified)' if backend in MODIFIED else ''}"
                + f"{' (simulation.step: adaptive)' if backend in ADAPTIVE else ''} "
                  f"-b {b} -n {n} -o OUT.h5 --no-progress")


# the accuracy reference: fixed steps REF_DIV times smaller than the sweep's dt (full Newton), so
# that its extremes are sampled on a grid that fine and its own error is REF_DIV^2 times the
# fixed steps'; its trajectories every REF_DIV times as many steps: at the same times
REF_DIV = 16


def errors_against(path, ref_path):
    """{signal: (largest |error| of its trajectory samples, of its statistics other than t_max)}
    over the instances both files hold, for the trajectory signals, against the reference file;
    a sample that is NaN in one file and not in the other counts as an infinite error."""
    import h5py, numpy as np
    out = {}
    with h5py.File(path, "r") as a, h5py.File(ref_path, "r") as r:
        ia, ir = a["instance"][()], r["instance"][()]
        common, ja, jr = np.intersect1d(ia, ir, return_indices=True)
        cols = [c.decode() if isinstance(c, bytes) else c for c in a.attrs["columns"]]
        keep = [k for k, c in enumerate(cols) if c != "t_max"]
        for s in a["traj"]:
            if s == "time":
                continue
            def worst(x, y):
                d = np.abs(x - y)
                d[np.isnan(x) != np.isnan(y)] = np.inf
                return float(np.nanmax(d)) if d.size else float("nan")
            et = worst(a["traj"][s][()][ja], r["traj"][s][()][jr])
            es = (worst(a["stats"][s][()][ja][:, keep], r["stats"][s][()][jr][:, keep])
                  if s in a["stats"] and s in r["stats"] else float("nan"))
            out[s] = (et, es)
    return out, len(common)


def accuracy_rows(exe, sweep, t_end, backends, sweep_of, k, tmpdir, threads):
    """The errors of each CPU backend's first k instances against the reference (--accuracy)."""
    try:
        import h5py  # noqa: F401
    except ImportError:
        return [dict(backend="-", error="h5py not installed (apt-get install python3-h5py)")]
    ref_sweep = os.path.join(tmpdir, "sweep-reference-accuracy.yaml")
    text = open(sweep).read()
    m = re.search(r"^simulation:.*\bdt:\s*([0-9.eE+-]+)\s*(ms|s)\b", text, re.M | re.S)
    if not m:
        return [dict(backend="reference", error="the sweep gives no simulation.dt (in s or ms)")]
    dt_s = float(m.group(1)) * {"s": 1.0, "ms": 1e-3}[m.group(2)]
    sweep_copy(sweep, ref_sweep, t_end=t_end, newton="full", step="fixed",
               extra={"dt": f"{dt_s / REF_DIV:.12g} s"})
    text = re.sub(r"(\bevery:\s*)(\d+)", lambda q: f"{q.group(1)}{int(q.group(2)) * REF_DIV}", open(ref_sweep).read())
    with open(ref_sweep, "w") as f:
        f.write(text)
    ref = os.path.join(tmpdir, "accuracy-reference.h5")
    r = run_one(exe, ref_sweep, "cpu", k, tmpdir, threads, 3600, keep=ref)
    if not r.get("ok"):
        print(f"  accuracy: the reference failed: {r.get('error')}", flush=True)
        return [dict(backend="reference", error=r.get("error"))]
    rows = []
    for b in backends:
        if b not in CPU_ENGINE:
            continue
        out = os.path.join(tmpdir, f"accuracy-{b}.h5")
        r = run_one(exe, sweep_of(b), b, k, tmpdir, threads, 3600, keep=out)
        if not r.get("ok"):
            rows.append(dict(backend=b, error=r.get("error")))
            continue
        e, n = errors_against(out, ref)
        rows.append(dict(backend=b, instances=n, errors=e))
        print(f"  accuracy {b:12s} " + "  ".join(f"{s}: traj {v[0]:.2e} stats {v[1]:.2e}" for s, v in e.items()),
              flush=True)
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default="build", help="build directory holding hydrosweep")
    ap.add_argument("--exe", default=None, help="the hydrosweep program to run (default: BUILD/hydrosweep; "
                    "scripts/gpu_session.sh's rehearsal passes the emulated device's)")
    ap.add_argument("--sweep", default=os.path.join(ROOT, "sweeps", "friction_bulk_mc.yaml"))
    ap.add_argument("--backends", default=",".join(ALL_BACKENDS))
    ap.add_argument("--sizes", default="1000,10000,100000,1000000", help="N of the GPU backends")
    ap.add_argument("--cpu-sizes", default=None, help="N of the cpu backend (default 1000; "
                    "1000,10000 with --full)")
    ap.add_argument("--ref-n", type=int, default=16, help="N of the reference backend")
    ap.add_argument("--full", action="store_true", help="also N = 1e4 on the cpu backend")
    ap.add_argument("--quick", action="store_true",
                    help="t_end = 1 s (a temporary sweep copy): a smoke test, not the workload")
    ap.add_argument("--gpu-chunk", type=int, default=262144,
                    help="sweep chunk for the GPU runs (instances per backend call; the "
                    "sweep's 4096 would leave most of a large GPU idle); 0: the sweep's")
    ap.add_argument("--threads", type=int, default=0, help="cpu backend threads (0: all cores)")
    ap.add_argument("--max-run-s", type=float, default=600.0,
                    help="skip a size whose projected run time exceeds this")
    ap.add_argument("--budget-s", type=float, default=0.0,
                    help="total time for all runs (0: no limit); later sizes are skipped")
    ap.add_argument("--out", default=os.path.join(ROOT, "bench", "results"))
    ap.add_argument("--commit", default=None, help="commit to record (default: git, or $HS_COMMIT)")
    ap.add_argument("--rtol", default=None, help="simulation.rtol of the adaptive backends (default: the model's)")
    ap.add_argument("--repeats", type=int, default=1,
                    help="runs per row, the fastest kept (a shared or noisy machine)")
    ap.add_argument("--accuracy", type=int, default=0, metavar="K",
                    help="errors of each CPU backend's first K instances against a tight reference")
    a = ap.parse_args()

    exe = os.path.abspath(a.exe or os.path.join(a.build, "hydrosweep"))
    if not os.access(exe, os.X_OK):
        sys.exit(f"bench: no executable {exe} (build first: scripts/build.sh {a.build})")
    if not os.path.exists(a.sweep):
        sys.exit(f"bench: no sweep file {a.sweep}")
    backends = [b.strip() for b in a.backends.split(",") if b.strip()]
    for b in backends:
        if b not in ALL_BACKENDS:
            sys.exit(f"bench: unknown backend {b} ({', '.join(ALL_BACKENDS)})")
    gpu_sizes = [int(float(s)) for s in a.sizes.split(",") if s.strip()]
    cpu_sizes = [int(float(s)) for s in (a.cpu_sizes or ("1000,10000" if a.full else "1000")).split(",")]
    gpus = gpu_names()
    commit = commit_of(a.commit)
    stamp = datetime.datetime.now(datetime.timezone.utc)
    t_start = time.monotonic()
    tmpdir = tempfile.mkdtemp(prefix="hs-bench-")
    t_end = "1 s" if a.quick else None
    sweeps = {}
    ad = {"rtol": a.rtol} if a.rtol else None
    # a copy per path: the GPU ones with --gpu-chunk, MODIFIED with modified Newton, ADAPTIVE
    # with adaptive steps (and --rtol)
    for b in ("cpu", "gpu", "cpu_modified", "gpu_modified", "cpu_adaptive", "gpu_adaptive"):
        sweeps[b] = os.path.join(tmpdir, "sweep-%s.yaml" % b.replace("_", "-"))
        sweep_copy(a.sweep, sweeps[b], t_end=t_end, chunk=(a.gpu_chunk or None) if b.startswith("gpu") else None,
                   newton="modified" if b in MODIFIED else None, step="adaptive" if b in ADAPTIVE else None,
                   extra=ad if b in ADAPTIVE else None)
    sweep_of = lambda b: sweeps.get(b) or sweeps["gpu" if b.startswith("gpu") else "cpu"]
    chunk_of = lambda path: (re.search(r"^chunk:\s*(\d+)", open(path).read(), re.M) or [None, "1024"])[1]

    # CPU rows first, then the GPU paths size by size: a budget that runs out leaves
    # comparable rows of every path at the sizes that ran
    plan = [("reference", a.ref_n)] if "reference" in backends else []
    plan += [(b, n) for n in cpu_sizes for b in backends if b in CPU_ENGINE]
    plan += [(b, n) for n in gpu_sizes for b in backends if b in GPU_PATH]
    rows = []
    print(f"bench: {os.path.basename(a.sweep)}{' (quick: t_end 1 s)' if a.quick else ''}, "
          f"commit {commit}, CPU {cpu_name()} ({os.cpu_count()} cores), GPU "
          f"{'; '.join(gpus) if gpus else 'none'}", flush=True)
    last_rate = {}
    try:
        for b, n in plan:
            row = dict(backend=b, n=n, sweep_chunk=int(chunk_of(sweep_of(b))))
            if b.startswith("gpu") and not gpus:
                row.update(ok=False, skipped="no GPU (nvidia-smi -L found none)")
            elif b not in last_rate and b != "reference":
                # a warm-up of 8 instances builds the specialised engine (cached), so that the
                # timed runs do not include its compile. It runs the timed sweep itself: t_end, like
                # every value no instance varies, is a constant of the specialised engine, so a
                # shorter warm-up (it was 10 ms) built another engine and left the compile in the
                # first timed run; every setting of newton, step and method is an engine of its own
                run_one(exe, sweep_of(b), b, 8, tmpdir, a.threads, 900)
            elif b in last_rate and last_rate[b][0] > 0 and not (b in GPU_PATH and last_rate[b][2] < 30):
                # linear in N from the last size; not for a GPU path whose last size took
                # under 30 s: below one wave of resident threads (~5e4 on an H100) its time
                # hardly grows with N, so the projection would skip the sizes that matter
                # (the run's own timeout still bounds it)
                proj = n * last_rate[b][1] / last_rate[b][0]  # instance-steps over rate
                left = a.budget_s - (time.monotonic() - t_start) if a.budget_s > 0 else None
                if proj > a.max_run_s:
                    row.update(ok=False, skipped=f"projected {proj:.0f} s > --max-run-s {a.max_run_s:.0f}")
                elif left is not None and proj > left:
                    row.update(ok=False, skipped=f"projected {proj:.0f} s > {left:.0f} s left of --budget-s")
            if "skipped" not in row:
                left = a.budget_s - (time.monotonic() - t_start) if a.budget_s > 0 else None
                if left is not None and left <= 5:
                    row.update(ok=False, skipped="--budget-s used up")
                else:
                    timeout = min(a.max_run_s * 1.5 + 60, left if left is not None else 1e9)
                    best = None
                    for _ in range(max(1, a.repeats)):
                        r1 = run_one(exe, sweep_of(b), b, n, tmpdir, a.threads, timeout)
                        if not r1.get("ok"):
                            best = r1
                            break
                        if best is None or r1["wall_s"] < best["wall_s"]:
                            best = r1
                    row.update(best, repeats=max(1, a.repeats))
                    if row.get("ok"):
                        last_rate[b] = (row["instance_steps_per_s"], row["steps_per_instance"] or 1,
                                        row["wall_s"])
            rows.append(row)
            if row.get("ok"):
                print(f"  {b:10s} N={n:<8d} {row['wall_s']:9.2f} s  {row['instances_per_s']:11.1f} inst/s  "
                      f"{row['instance_steps_per_s']:10.3g} inst-steps/s  failed {row['failed']}", flush=True)
            else:
                print(f"  {b:10s} N={n:<8d} {row.get('skipped') or 'FAILED: ' + row.get('error', '?')}",
                      flush=True)
        acc = (accuracy_rows(exe, a.sweep, t_end, backends, sweep_of, a.accuracy, tmpdir, a.threads)
               if a.accuracy > 0 else [])
    finally:
        shutil.rmtree(tmpdir, ignore_errors=True)

    gpu_dev = next((r["device"] for r in rows if r.get("ok") and r["backend"].startswith("gpu")), None)
    device = gpu_dev or (gpus[0] if gpus else None)
    dslug = slug(re.sub(r"\(.*", "", gpu_dev) if gpu_dev else (re.sub(r"^GPU \d+: |\(UUID.*", "", gpus[0])
                                                                if gpus else "cpu-" + cpu_name()))
    meta = dict(date=stamp.isoformat(timespec="seconds"), commit=commit,
                machine=f"{cpu_name()} ({os.cpu_count()} cores)", gpu=device, nvidia_smi=gpus,
                sweep=os.path.relpath(os.path.abspath(a.sweep), ROOT), quick=a.quick,
                t_end="1 s (--quick)" if a.quick else "the sweep's",
                tool="hydrosweep run (figures are the run's own report; model loading excluded)",
                total_s=round(time.monotonic() - t_start, 1), rtol_adaptive=a.rtol,
                accuracy_reference=(f"fixed steps of dt / {REF_DIV}, full Newton, first {a.accuracy} "
                                    "instances" if a.accuracy > 0 else None))
    base = results_base(a.out, f"{stamp:%Y-%m-%d}-ensemble-{dslug}{'-quick' if a.quick else ''}", commit)
    with open(base + ".json", "w") as f:
        json.dump(dict(meta=meta, results=rows, accuracy=acc), f, indent=2)
    with open(base + ".md", "w") as f:
        f.write(f"# Ensemble throughput{' (quick smoke test: t_end 1 s)' if a.quick else ''}\n\n"
                f"- date: {meta['date']}\n- commit: {commit}\n- machine: {meta['machine']}\n"
                f"- GPU: {device or 'none'}\n- sweep: `{meta['sweep']}` ({meta['t_end']})\n"
                f"- command: `python3 bench/bench_ensemble.py {' '.join(sys.argv[1:])}`\n"
                "- figures: `hydrosweep run`'s own report (sampling, backend, results writing; "
                f"not model loading), the fastest of {max(1, a.repeats)} run(s); GPU runs use sweep chunk "
                f"{a.gpu_chunk or 'of the sweep'}\n"
                f"- adaptive backends: rtol {a.rtol or 'of the model'}\n\n"
                "| backend | N | chunk | wall | instances/s | instance-steps/s | failed | note |\n"
                "|---|---|---|---|---|---|---|---|\n")
        for r in rows:
            if r.get("ok"):
                f.write(f"| {r['backend']} | {r['n']} | {r['sweep_chunk']} | {r['wall_s']:.2f} s | "
                        f"{r['instances_per_s']:.1f} | {r['instance_steps_per_s']:.3g} | {r['failed']} | "
                        f"{(r['launch'] or '').replace('|', '/')} |\n")
            else:
                f.write(f"| {r['backend']} | {r['n']} | {r['sweep_chunk']} | - | - | - | - | "
                        f"{(r.get('skipped') or 'failed: ' + r.get('error', '')).replace(chr(10), ' ').replace('|', '/')} |\n")
        if acc:
            sigs = next((list(r["errors"]) for r in acc if "errors" in r), [])
            f.write(f"\n## Accuracy (--accuracy {a.accuracy})\n\nThe largest error over the first {a.accuracy} "
                    f"instances against {meta['accuracy_reference'].split(', first')[0]}: of each trajectory "
                    "signal on its samples, and of its statistics (t_max left out).\n\n| backend | instances | "
                    + " | ".join(f"{s} trajectory | {s} statistics" for s in sigs) + " |\n|---|---|"
                    + "---|---|" * len(sigs) + "\n")
            for r in acc:
                if "errors" not in r:
                    f.write(f"| {r['backend']} | failed: {str(r.get('error')).replace(chr(10), ' ')} |\n")
                    continue
                f.write(f"| {r['backend']} | {r['instances']} | " + " | ".join(
                    f"{r['errors'][s][0]:.2e} | {r['errors'][s][1]:.2e}" for s in sigs) + " |\n")
    print(f"wrote {base}.json and {base}.md")
    return 0 if all(r.get("ok") or r.get("skipped") for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
