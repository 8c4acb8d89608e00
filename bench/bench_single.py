#!/usr/bin/env python3
"""Single-instance speed on one CPU core: wall time of each case model's work cycle with
`hydrosweep simulate` (the generic engine), median of R repeats; then the engine specialised to
the model (the cpu backend's default, host/engine/kernel_spec.h) on the seed 003 and Pub. I cycles,
full and modified Newton, timed per instance over `hydrosweep run -n 32 --threads 1` after a
warm-up run has built it. Written as JSON + Markdown with machine, date and commit.

With --baseline DIR (another build, e.g. of an earlier commit) the specialised runs alternate
between the two builds, repeat by repeat, and the table gives the baseline's time and the ratio:
a machine's speed varies from day to day by more than most changes gain (bench/README.md), so
a change is judged by the ratio on one machine at one time, not by figures taken on different
days.

With --all-models the specialised runs cover every shipped model (models/*.yaml but the riccati
trees, which have no specialised engine), full Newton, instead of the two seed cycles.

usage: bench/bench_single.py [--build build] [--repeats 5] [--out bench/results]
                             [--baseline DIR] [--all-models] [--spec-n 32]
"""
import argparse, datetime, glob, json, os, platform, re, statistics, subprocess, sys, tempfile

MODELS = [
    ("fourbar_jaiswal2021_friction", []),  # seed 003, Brown-McPhee (the reference case)
    ("fourbar_jaiswal2021_friction", ["--set", "integrator.newton=modified"]),
    ("fourbar_jaiswal2021_friction", ["--set", "cylinder.lift.friction.model=lugre_modified"]),
    ("fourbar_rahikainen2018", []),
    ("fourbar_rahikainen2018", ["--set", "integrator.newton=modified"]),
    ("fourbar_jaiswal2021", []),
    ("quickreturn_jaiswal2021", []),
    ("crane_rahikainen2020_single", []),
    ("fourbar_rahikainen2018_mech", []),
]


def cpu_name():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def results_base(out, name, commit):
    """The stem of a benchmark's .json and .md: out/name (out made), or out/name-commit when
    an earlier run of the same day wrote out/name.md (it is kept)."""
    os.makedirs(out, exist_ok=True)
    base = os.path.join(out, name)
    return base + f"-{commit}" if os.path.exists(base + ".md") else base


# integrator settings of the specialised runs: newton, and "full_extrapolated" for full Newton
# with integrator.predictor: extrapolated
SPEC_MODELS = [("fourbar_jaiswal2021_friction", "full"), ("fourbar_jaiswal2021_friction", "full_extrapolated"),
               ("fourbar_jaiswal2021_friction", "modified"), ("fourbar_rahikainen2018", "full"),
               ("fourbar_rahikainen2018", "full_extrapolated"), ("fourbar_rahikainen2018", "modified")]
SPEC_SETTINGS = {"full": "  newton: full\n", "modified": "  newton: modified\n",
                 "full_extrapolated": "  newton: full\n  predictor: extrapolated\n"}
SPEC_N = 32


def spec_once(exe, model, newton, tmp):
    """Per-instance seconds of the specialised cpu engine: run -n SPEC_N --threads 1 of a sweep
    of the model with the integrator settings SPEC_SETTINGS[newton] (the run's own timer)."""
    text = open(f"models/{model}.yaml").read()
    text = re.sub(r"^integrator:\n", "integrator:\n" + SPEC_SETTINGS[newton], text, flags=re.M)
    mpath = os.path.join(tmp, f"{model}-{newton}.yaml")
    with open(mpath, "w") as f:
        f.write(text)
    spath = os.path.join(tmp, "sweep.yaml")
    with open(spath, "w") as f:
        f.write(f"model: {mpath}\ninstances: {SPEC_N}\n")
    r = subprocess.run([exe, "run", spath, "-b", "cpu", "--threads", "1", "-o", os.path.join(tmp, "r.h5"),
                        "--no-progress"], capture_output=True, text=True,
                       env=dict(os.environ, HS_CPU_ENGINE="specialised"))
    if r.returncode != 0 or "using the generic engine" in r.stderr:
        sys.exit(f"bench: specialised run of {model} failed:\n{r.stdout}{r.stderr}")
    wall = float(re.search(r"instances in ([0-9.]+) s", r.stdout).group(1))
    for q in glob.glob(os.path.join(tmp, "r.*")):
        os.remove(q)
    return wall / SPEC_N


def run_once(exe, model, extra):
    with tempfile.NamedTemporaryFile(suffix=".csv") as out:
        r = subprocess.run([exe, "simulate", f"models/{model}.yaml", *extra, "--every", "1000",
                            "-o", out.name], capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"bench: {model} failed:\n{r.stdout}{r.stderr}")
    get = lambda key: re.search(key + r"\s+(.*)", r.stdout).group(1)
    steps = int(re.match(r"(\d+)", get("steps")).group(1))
    dt = float(re.search(r"dt = ([0-9.eE+-]+)", get("steps")).group(1))
    wall = float(get("wall time").split()[0])
    iters = float(re.search(r"mean ([0-9.]+)", get("newton iters")).group(1))
    return steps, dt, wall, iters


def main():
    global SPEC_N
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--out", default="bench/results")
    ap.add_argument("--baseline", default=None, help="a second build: specialised runs interleaved with it")
    ap.add_argument("--all-models", action="store_true", help="specialised runs of every shipped model")
    ap.add_argument("--spec-n", type=int, default=32, help="instances per specialised run")
    a = ap.parse_args()
    SPEC_N = a.spec_n
    spec_models = SPEC_MODELS
    if a.all_models:
        spec_models = [(os.path.basename(m)[:-5], "full") for m in sorted(glob.glob("models/*.yaml"))
                       if not re.search(r"^  formulation: riccati", open(m).read(), re.M)
                       and re.search(r"^integrator:\n", open(m).read(), re.M)]
    exe = os.path.join(a.build, "hydrosweep")
    bexe = os.path.join(a.baseline, "hydrosweep") if a.baseline else None
    bcommit = None
    if bexe:
        r = subprocess.run([bexe, "--version"], capture_output=True, text=True)
        bcommit = (r.stdout.strip() or r.stderr.strip() or "unknown").splitlines()[0]
    commit = subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], capture_output=True,
                            text=True).stdout.strip() or "unknown"
    rows = []
    for model, extra in MODELS:
        walls = []
        for _ in range(a.repeats):
            steps, dt, wall, iters = run_once(exe, model, extra)
            walls.append(wall)
        med = statistics.median(walls)
        rows.append(dict(model=model, options=" ".join(extra), steps=steps, dt=dt,
                         simulated_s=steps * dt, wall_median_s=med, wall_min_s=min(walls),
                         realtime_factor=steps * dt / med, steps_per_s=steps / med,
                         mean_newton_iters=iters))
        print(f"{model:34s} {' '.join(extra)[-40:]:40s} {steps*dt:5.1f} s simulated in "
              f"{med*1e3:8.1f} ms (x{steps*dt/med:7.0f} real time)", flush=True)
    spec_rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for model, newton in spec_models:
            spec_once(exe, model, newton, tmp)  # warm-up: builds (or finds) the engine
            if bexe:
                spec_once(bexe, model, newton, tmp)
            walls, bwalls = [], []
            for _ in range(a.repeats):
                walls.append(spec_once(exe, model, newton, tmp))
                if bexe:
                    bwalls.append(spec_once(bexe, model, newton, tmp))
            med = statistics.median(walls)
            row = dict(model=model, newton=newton, wall_median_s=med, wall_min_s=min(walls))
            if bexe:
                row.update(baseline_median_s=statistics.median(bwalls), baseline_min_s=min(bwalls),
                           ratio_median=med / statistics.median(bwalls))
            spec_rows.append(row)
            print(f"{model:34s} specialised, newton {newton:17s} {med*1e3:8.1f} ms per instance "
                  f"(run -n {SPEC_N} --threads 1)"
                  + (f"; baseline {row['baseline_median_s']*1e3:.1f} ms, ratio {row['ratio_median']:.3f}"
                     if bexe else ""), flush=True)
    stamp = datetime.datetime.now(datetime.timezone.utc)
    meta = dict(date=stamp.isoformat(timespec="seconds"), commit=commit, machine=cpu_name(),
                cores_used=1, repeats=a.repeats, baseline=bcommit,
                tool="hydrosweep simulate (generic engine, one core); hydrosweep run (specialised engine)")
    base = results_base(a.out, f"{stamp:%Y-%m-%d}-single-instance-cpu", commit)
    with open(base + ".json", "w") as f:
        json.dump(dict(meta=meta, results=rows, specialised=spec_rows), f, indent=2)
    with open(base + ".md", "w") as f:
        f.write(f"# Single-instance speed, one CPU core\n\n"
                f"- date: {meta['date']}\n- commit: {commit}\n- machine: {meta['machine']}, one core\n"
                f"- command: `python3 bench/bench_single.py --repeats {a.repeats}"
                + (" --all-models" if a.all_models else "") + (f" --spec-n {SPEC_N}" if a.spec_n != 32 else "")
                + "` (median of the "
                f"wall time printed by `hydrosweep simulate`, which excludes loading)"
                + (f"\n- baseline: `--baseline` build of {bcommit}, its specialised runs interleaved "
                   "with these, repeat by repeat" if bexe else "") + "\n\n"
                "| model | options | simulated | steps | wall (median) | x real time | mean Newton iters |\n"
                "|---|---|---|---|---|---|---|\n")
        for r in rows:
            f.write(f"| {r['model']} | {r['options'] or '-'} | {r['simulated_s']:.1f} s | {r['steps']} | "
                    f"{r['wall_median_s']*1e3:.1f} ms | {r['realtime_factor']:.0f} | {r['mean_newton_iters']:.3f} |\n")
        f.write(f"\nThe engine specialised to the model (the cpu backend's default), one core: "
                f"`HS_CPU_ENGINE=specialised hydrosweep run -n {SPEC_N} --threads 1` of a sweep without "
                "parameters, the run's own time divided by the instances (after a warm-up run that "
                "builds the engine; the run's time includes the results file).\n\n"
                "| model | integrator.newton (full_extrapolated: full, predictor extrapolated) | "
                "per instance (median) | min |" + (" baseline (median) | ratio |" if bexe else "")
                + "\n|---|---|---|---|" + ("---|---|" if bexe else "") + "\n")
        for r in spec_rows:
            f.write(f"| {r['model']} | {r['newton']} | {r['wall_median_s']*1e3:.1f} ms | {r['wall_min_s']*1e3:.1f} ms |"
                    + (f" {r['baseline_median_s']*1e3:.1f} ms | {r['ratio_median']:.3f} |" if bexe else "") + "\n")
    print(f"wrote {base}.json and {base}.md")


if __name__ == "__main__":
    main()
