#!/usr/bin/env python3
"""Scale of seed 002's Riccati transfer matrix method: time per step against the number of
bodies, with Pinocchio's articulated-body algorithm and the step's semi-recursive formulation
on the same machine in the same run.

Family A, the seed's branch system (scripts/branch_system.py; Fig. 1 topology, ball joints,
3 degrees of freedom per body) from 10 to 33 334 bodies (100 002 degrees of freedom):
  - riccati: one acceleration evaluation (hs_capi_tree_time_accel: timed inside the library,
    no binding overhead) and one RK4 step (hs_capi_tree_rk4 over many steps: four evaluations
    and the state updates);
  - pin.aba on the same model (validation/val_riccati_pinocchio.py's map), timed by a Python
    loop (its call overhead included, measured on a 1-body model and reported), on a Data of
    ABA's own members (val_riccati_pinocchio.pin_data: createData's nv^3 tensors do not fit
    beyond a few hundred degrees of freedom), wherever Pinocchio's Model fits in half the
    memory (pin_model_fits: to 10 000 bodies of the branch system);
  - memory: the library's bytes per body (HS_TREE_BYTES_PER_BODY) and the process's peak
    resident size after each load.
Family B, a spatial chain of revolute joints (random axes, 2 to 10 000 bodies): riccati, pin.aba,
and the semi-recursive formulation (M and Q over the tree, a dense LU; up to HS_MAX_BODIES =
16 bodies, the step's fixed arrays).
The fitted log-log slope of family A's riccati time per step over N >= 100 is the O(N) claim
(issue: 1.0 +- 0.1). Writes JSON + Markdown + a log-log plot (PNG) with machine, date, commit.

usage: python3 bench/bench_riccati.py [--quick] [--out bench/results] [--plot docs/riccati_scale.png]
       (the C library: cmake --build build --target hydrosweep_capi, or HS_CAPI_LIB)
"""
import argparse, datetime, json, os, resource, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, os.pardir)
sys.path.insert(0, os.path.join(ROOT, "python"))
sys.path.insert(0, os.path.join(ROOT, "validation"))
sys.path.insert(0, os.path.join(ROOT, "scripts"))

import numpy as np  # noqa: E402

from bench_single import cpu_name  # noqa: E402
from branch_system import branch_system  # noqa: E402
from hydrosweep.tree import REVOLUTE, Tree  # noqa: E402

try:
    import pinocchio as pin
    import val_riccati_pinocchio as V
except ImportError:
    pin = None


def timeit(f, min_s=0.3):
    """Seconds per call of f, over enough calls to take min_s."""
    n = 1
    while True:
        t0 = time.perf_counter()
        for _ in range(n):
            f()
        dt = time.perf_counter() - t0
        if dt >= min_s:
            return dt / n
        n = max(n * 2, int(n * min_s / max(dt, 1e-9)) + 1)


def pin_model_fits(d):
    """Whether Pinocchio's Model of d fits in half of this machine's memory. It keeps, for every
    joint, the list of its supports and of its subtree (O(nbody x depth) indices, about 64 B per
    pair as measured: 3.2 GB for the 10 000-body branch system, whose depth is 9 996), so the
    33 334-body chain would need about 35 GB."""
    mem = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    return 64.0 * float(np.sum(V.depths(d))) <= 0.5 * mem


def pin_time(d, q, v):
    """Seconds per pin.aba on the Pinocchio model of d (on V.pin_data: the Data of its own
    members, which gives the full Data's result to the bit and fits at any size), or None
    when Pinocchio's Model does not fit (pin_model_fits)."""
    if pin is None or not pin_model_fits(d):
        return None
    model = V.pinocchio_model(d)
    data = V.pin_data(model)
    qp, vp = V.to_pinocchio(d, q, v)
    tau = np.zeros(model.nv)
    return timeit(lambda: pin.aba(model, data, qp, vp, tau))


def maxrss_mb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


_MEM_PROBE = """
import resource, sys
sys.path.insert(0, sys.argv[2])
import numpy as np
from hydrosweep.tree import Tree, lib


def status(key):
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1])


lib()
base = status("VmRSS")
try:  # reset the peak (VmHWM) to the current resident size, so that the imports' peak is not it
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")
except OSError:
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
t = Tree.load(sys.argv[1])
q, v = t.state0()
t.rk4(q, v, 1e-3, 2)
t.accel(q, v)
print(base, status("VmHWM"))
"""


def tree_memory_mb(path):
    """The peak memory a tree's load, RK4 steps and an evaluation add to a fresh process (MB):
    the library's arrays, work and stages, measured rather than taken from
    HS_TREE_BYTES_PER_BODY (a fresh process, so that Pinocchio's models elsewhere in this
    run do not count)."""
    out = subprocess.run([sys.executable, "-c", _MEM_PROBE, path, os.path.join(ROOT, "python")],
                         capture_output=True, text=True, check=True).stdout.split()
    return (int(out[1]) - int(out[0])) / 1024.0


def family_a(sizes, tmp):
    rows = []
    for n in sizes:
        N = 2 * n - 1
        path = os.path.join(tmp, f"branch_{N}.yaml")
        with open(path, "w") as f:
            f.write(branch_system(N, t_end=0.1))
        t = Tree.load(path)
        rss = tree_memory_mb(path)
        q, v = t.state0()
        rng = np.random.default_rng(n)
        # an evaluation is timed at a moving state (every velocity term non-zero; its cost does not
        # depend on the values), the RK4 steps from the seed's state at rest: a long chain under
        # its own weight is stiff at its top (the large example below), which the timing must not meet
        vm = v + 0.01 * rng.normal(size=t.nv)
        # the least of 5 timings of at least ~0.1 s each: this machine (a shared VM) is noisy, and
        # a neighbour's burst only ever adds time
        nrep = max(3, int(2e5 / n))
        ta = min(t.time_accel(q, vm, nrep) for _ in range(5))
        nsteps = max(2, int(0.12 / (4.0 * ta)))
        ts = float("inf")
        for _ in range(5):
            t0 = time.perf_counter()
            t.rk4(q, v, 1e-3, nsteps)
            ts = min(ts, (time.perf_counter() - t0) / nsteps)
        tp = pin_time(t.arrays(), q, vm)
        row = dict(bodies=n, N=N, dof=t.nv, riccati_accel_s=ta, riccati_step_s=ts, pin_aba_s=tp,
                   ratio_riccati_over_pin=(ta / tp if tp else None), tree_mem_mb=rss)
        rows.append(row)
        print(f"A {n:>6} bodies {t.nv:>6} dof  riccati {ta * 1e6:>10.1f} us/eval {ts * 1e3:>9.3f} ms/step"
              f"  pin.aba {'%10.1f us' % (tp * 1e6) if tp else '   (no fit)'}"
              f"  ratio {'%.2f' % row['ratio_riccati_over_pin'] if tp else '-'}  memory {rss:.1f} MB", flush=True)
        t.close()
    return rows


def family_b(sizes):
    rows = []
    for n in sizes:
        rng = np.random.default_rng(1000 + n)
        d = V.random_tree(rng, n, chain_bias=1.0, kinds=(REVOLUTE,), pk=(1.0,)) if pin else None
        if d is None:
            break
        t = Tree.make(d["parent"], d["jtype"], d["mass"], d["com"], d["inertia"], d["at_parent"], d["at_child"],
                      d["axis"], d["rot0"].reshape(n, 9), d["gravity"])
        q, v = V.random_state(rng, d)
        ta = t.time_accel(q, v, max(3, int(2e5 / n)))
        tsr, vsr = t.time_semirecursive(q, v, max(3, int(2e5 / n)))
        tp = pin_time(d, q, v)
        if vsr is not None:
            vd, _ = t.accel(q, v)
            assert np.max(np.abs(vd - vsr)) <= 1e-9 * max(1, np.max(np.abs(vsr)))
        rows.append(dict(bodies=n, dof=n, riccati_accel_s=ta, semirecursive_s=tsr, pin_aba_s=tp))
        print(f"B {n:>6} bodies  riccati {ta * 1e6:>9.2f} us  semi-recursive "
              f"{'%9.2f us' % (tsr * 1e6) if tsr else '        -'}  pin.aba {'%9.2f us' % (tp * 1e6) if tp else '(no fit)'}",
              flush=True)
        t.close()
    return rows


def large_example(tmp, Ns=(999, 66667)):
    """Seed 002 Sect. 5.2: the branch system run for 0.1 s at dt = 1 ms on one core (RK4), from
    its initial state (at rest) and from a moving one; time and energy drift."""
    rows = []
    for N in Ns:
        path = os.path.join(tmp, f"large_{N}.yaml")
        with open(path, "w") as f:
            f.write(branch_system(N, t_end=0.1))
        t = Tree.load(path)
        for label in ("at rest (the seed's)", "swinging in its plane", "moving out of its plane"):
            q, v = t.state0()
            v = v.copy()
            # the whole tree set swinging from the ceiling joint (body N), 0.01 rad/s about the
            # plane's normal (its nu_z) or about the rod's other transverse axis (nu_y): random
            # rates on every joint would add up over thousands of joints to absurd speeds
            if label == "swinging in its plane":
                v[2] += 0.01
            elif label == "moving out of its plane":
                v[1] += 0.01
            e0 = sum(t.energy(q, v))
            ek0 = t.energy(q, v)[0]
            t0 = time.perf_counter()
            try:
                q1, v1 = t.rk4(q, v, 1e-3, 100)
                e1, failed = sum(t.energy(q1, v1)), None
            except Exception as e:  # diverged: reported, not hidden
                e1, failed = float("nan"), str(e)
            wall = time.perf_counter() - t0
            rows.append(dict(N=N, bodies=t.nbody, dof=t.nv, start=label, wall_s=wall, E0=e0, Ekin0=ek0, E1=e1,
                             drift_rel=abs(e1 - e0) / abs(e0), failed=failed))
            print(f"large example N = {N} ({t.nbody} bodies, {t.nv} dof), {label}: 100 steps of 1 ms in {wall:.2f} s, "
                  f"energy {e0:.9g} -> {e1:.9g} J (relative drift {rows[-1]['drift_rel']:.2e}, E_kin(0) {ek0:.3g} J)"
                  f"{'; FAILED: ' + failed if failed else ''}", flush=True)
        t.close()
    return rows


def slope(rows, key, nmin):
    pts = [(r["bodies"], r[key]) for r in rows if r["bodies"] >= nmin and r.get(key)]
    x, y = np.log([p[0] for p in pts]), np.log([p[1] for p in pts])
    return float(np.polyfit(x, y, 1)[0])


def plot(a, b, path, meta):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(7, 4.8))
    n = [r["bodies"] for r in a]
    ax.loglog(n, [r["riccati_step_s"] for r in a], "o-", label="Riccati TMM, RK4 step (ball joints, seed's branch system)")
    ax.loglog(n, [r["riccati_accel_s"] for r in a], "s-", label="Riccati TMM, one acceleration evaluation")
    # the rows that have the figure (the revolute chain's Riccati times: all of them)
    for rows, key, style, label in [
            (a, "pin_aba_s", "^--", "Pinocchio ABA, one evaluation (branch system; to 10 000 bodies, its Model's limit here)"),
            (b, "semirecursive_s", "v:", "semi-recursive (dense M, LU; revolute chain, <= 16 bodies)"),
            (b, "riccati_accel_s", "x:", "Riccati TMM, one evaluation (revolute chain)"),
            (b, "pin_aba_s", "+:", "Pinocchio ABA, one evaluation (revolute chain)")]:
        pts = [(r["bodies"], r[key]) for r in rows if r[key] or key == "riccati_accel_s"]
        if pts:
            ax.loglog(*zip(*pts), style, label=label)
    ref = np.array([n[0], n[-1]], dtype=float)
    ax.loglog(ref, a[0]["riccati_step_s"] * ref / ref[0], color="0.7", lw=0.8, label="slope 1")
    ax.set_xlabel("bodies")
    ax.set_ylabel("seconds")
    ax.set_title(f"Open trees, one core ({meta['cpu']}), commit {meta['commit']}", fontsize=9)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="sizes up to 1000 bodies")
    ap.add_argument("--out", default=os.path.join(ROOT, "bench", "results"))
    ap.add_argument("--plot", default=None, help="also write the plot here (e.g. docs/riccati_scale.png)")
    a = ap.parse_args()
    commit = subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], capture_output=True, text=True,
                            cwd=ROOT).stdout.strip()
    sizes_a = [10, 32, 100, 316, 1000, 3162, 10000, 33334] if not a.quick else [10, 32, 100, 316, 1000]
    sizes_b = [2, 4, 8, 16, 100, 1000, 10000] if not a.quick else [2, 4, 8, 16, 100, 1000]
    overhead = None
    if pin is not None:
        m1 = pin.Model()
        m1.appendBodyToJoint(m1.addJoint(0, pin.JointModelRZ(), pin.SE3.Identity(), "j"), pin.Inertia.Random(),
                             pin.SE3.Identity())
        d1 = m1.createData()
        z = np.zeros(1)
        overhead = timeit(lambda: pin.aba(m1, d1, z, z, z))
    with tempfile.TemporaryDirectory() as tmp:
        ra = family_a(sizes_a, tmp)
        rl = large_example(tmp, (999,) if a.quick else (999, 66667))
    rb = family_b(sizes_b) if pin is not None else []
    s_all = slope(ra, "riccati_step_s", 0)
    s_step, s_acc = slope(ra, "riccati_step_s", 100), slope(ra, "riccati_accel_s", 100)
    s_cache = slope([r for r in ra if r["bodies"] <= 3162], "riccati_step_s", 100)
    print(f"log-log slope of the RK4 step: all N (the issue's range) {s_all:.3f}; N >= 100 {s_step:.3f} "
          f"(evaluation {s_acc:.3f}); 100 <= N <= 3162 {s_cache:.3f}")
    big = [r["ratio_riccati_over_pin"] for r in ra if r["bodies"] >= 1000 and r["ratio_riccati_over_pin"]]
    ratio_max = max(big) if big else None
    # memory = a + b N by least squares over every size: b the bytes per body, a the
    # allocator's and the page tables' constant; linear if the largest deviation is small
    nb = np.array([r["bodies"] for r in ra], dtype=float)
    mb = np.array([r["tree_mem_mb"] * 1048576.0 for r in ra])
    mem_b, mem_a = np.polyfit(nb, mb, 1)
    mem_dev = float(np.max(np.abs(mem_a + mem_b * nb - mb)) / np.max(mb))
    print(f"Riccati / pin.aba at N >= 1000: at most {ratio_max if ratio_max is None else '%.2f' % ratio_max}; "
          f"memory {mem_a / 1048576:.2f} MB + {mem_b:.0f} B per body (largest deviation {100 * mem_dev:.1f} % "
          f"of the largest)")
    date = datetime.date.today().isoformat()
    meta = dict(ratio_max_n1000=ratio_max, memory_bytes_per_body=mem_b, memory_const_bytes=mem_a, memory_dev=mem_dev, date=date, commit=commit, cpu=cpu_name(), cores=os.cpu_count(),
                pinocchio=(pin.__version__ if pin else None), pin_call_overhead_s=overhead,
                slope_step_all=s_all, slope_step=s_step, slope_accel=s_acc, slope_step_to_3162=s_cache, command="python3 bench/bench_riccati.py" + (" --quick" if a.quick else ""))
    os.makedirs(a.out, exist_ok=True)
    base = os.path.join(a.out, f"{date}-riccati-scale-{commit}")
    with open(base + ".json", "w") as f:
        json.dump(dict(meta=meta, branch_system=ra, revolute_chain=rb, large_example=rl), f, indent=1)
    with open(base + ".md", "w") as f:
        f.write(f"# Riccati transfer matrix method: time per step against bodies ({date}, commit {commit})\n\n")
        f.write(f"CPU: {meta['cpu']}, one core. Pinocchio {meta['pinocchio']} (pip `pin`), "
                f"its Python call overhead {overhead * 1e6 if overhead else float('nan'):.2f} us (a 1-body pin.aba; included in its times). "
                f"Command: `{meta['command']}`.\n\n")
        f.write("## A. The seed's branch system (ball joints; scripts/branch_system.py)\n\n")
        f.write("| bodies | dof | Riccati eval (us) | Riccati RK4 step (ms) | us per body and step | pin.aba (us) | Riccati / ABA | memory (MB) | bytes per body |\n|---|---|---|---|---|---|---|---|---|\n")
        for r in ra:
            f.write(f"| {r['bodies']} | {r['dof']} | {r['riccati_accel_s'] * 1e6:.1f} | {r['riccati_step_s'] * 1e3:.3f} | "
                    f"{r['riccati_step_s'] * 1e6 / r['bodies']:.2f} | "
                    f"{'%.1f' % (r['pin_aba_s'] * 1e6) if r['pin_aba_s'] else 'Model does not fit'} | "
                    f"{'%.2f' % r['ratio_riccati_over_pin'] if r['ratio_riccati_over_pin'] else '-'} | {r['tree_mem_mb']:.1f} | "
                    f"{r['tree_mem_mb'] * 1048576 / r['bodies']:.0f} |\n")
        f.write(f"\nFitted log-log slope of the RK4 step over every N above ({ra[0]['bodies']} to {ra[-1]['bodies']} "
                f"bodies, the issue's range): **{s_all:.3f}**; over N >= 100 bodies: RK4 step **{s_step:.3f}**, "
                f"evaluation {s_acc:.3f}; "
                f"over 100 <= N <= 3162 (the tree and its work, about 1 kB per body, in this machine's caches): "
                f"{s_cache:.3f} "
                f"(issue: 1.0 +- 0.1).\n\n"
                f"Riccati evaluation / pin.aba at N >= 1000 bodies: at most "
                f"**{'%.2f' % ratio_max if ratio_max else '-'}** (issue: <= 1.0). pin.aba runs on a Data of its own "
                f"members (validation/val_riccati_pinocchio.py, pin_data; createData's nv^3 tensors do not fit); at "
                f"33 334 bodies Pinocchio's Model itself (every joint's supports and subtree, O(N x depth)) would need "
                f"about 35 GB.\n\n"
                f"Memory: what a tree's load, RK4 steps and an evaluation add to a fresh process's peak (tree_memory_mb); "
                f"the least-squares line over every size is {mem_a / 1048576:.2f} MB + **{mem_b:.0f} B per body**, off "
                f"the measurements by at most {100 * mem_dev:.1f} % of the largest (HS_TREE_BYTES_PER_BODY: the "
                f"library's own count).\n\n")
        f.write("## B. A spatial chain of revolute joints\n\n| bodies | Riccati eval (us) | semi-recursive (us) | pin.aba (us) |\n|---|---|---|---|\n")
        for r in rb:
            f.write(f"| {r['bodies']} | {r['riccati_accel_s'] * 1e6:.2f} | "
                    f"{'%.2f' % (r['semirecursive_s'] * 1e6) if r['semirecursive_s'] else '- (more than 16 bodies)'} | "
                    f"{'%.2f' % (r['pin_aba_s'] * 1e6) if r['pin_aba_s'] else 'Model does not fit'} |\n")
        f.write("\n## The seed's large example (Sect. 5.2): 0.1 s at dt = 1 ms, RK4, one core\n\n"
                "| N | bodies | dof | start | wall (s) | E0 (J) | E_kin(0) (J) | E(0.1 s) (J) | relative energy drift |\n|---|---|---|---|---|---|---|---|---|\n")
        for r in rl:
            f.write(f"| {r['N']} | {r['bodies']} | {r['dof']} | {r['start']} | {r['wall_s']:.2f} | {r['E0']:.9g} | "
                    f"{r['Ekin0']:.3g} | {r['E1']:.9g} | "
                    f"{('%.2e' % r['drift_rel']) if not r['failed'] else 'diverged: ' + r['failed']} |\n")
    png = base + ".png"
    plot(ra, rb, png, meta)
    if a.plot:
        plot(ra, rb, a.plot, meta)
    print(f"wrote {base}.json, .md, .png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
