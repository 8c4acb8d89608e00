#!/usr/bin/env python3
"""Work-precision diagram: error against time of one instance on one CPU core, for the coupled
models' work cycles, integrated by
  - hydrosweep with fixed steps dt = 4 ms .. 0.125 ms (the seeds' scheme),
  - hydrosweep with adaptive steps at rtol = atol = 1e-2 .. 1e-8 (integrator.step: adaptive),
  - both again with modified Newton (integrator.newton: modified),
  - SUNDIALS IDA (the independent reference of validation/ida_reference.c: absolute planar
    coordinates, index-1 form, variable order and step) at rtol 1e-3 .. 1e-9,
against a tight reference: IDA at rtol 1e-10 (the issue's choice). The errors are the maximum
over the output grid (every OUT_DT) of |crank angle error| (rad) and |piston pressure error|
(Pa). Each time is the best of R runs of validation/precision_point (model loading excluded,
the same process and compiler for both solvers). Writes a table (JSON + Markdown) and a PNG
(matplotlib, when installed) under bench/results with machine, date and commit.

usage: bench/bench_precision.py [--build build] [--repeats 3] [--models seed003,pub1]
                                [--quick] [--out bench/results]

The Markdown also gives, per model, a matched-accuracy table: at crank errors 1e-3 .. 1e-7 rad,
pressure errors 1e5 .. 1e1 Pa and the accuracy of the default fixed 1 ms steps, the fastest
hydrosweep point and the fastest IDA point meeting the level, and their ratio.
"""
import argparse, csv, datetime, json, os, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_single import cpu_name, results_base  # noqa: E402  (one definition for the benchmarks)

MODELS = {
    # name: (file, t_end, output grid, the piston-side volume's column in the CSV, label)
    "seed003": ("models/fourbar_jaiswal2021_friction.yaml", 10.0, 4e-3, "p1",
                "seed 003 four-bar (Brown-McPhee), 10 s cycle"),
    "pub1": ("models/fourbar_rahikainen2018.yaml", 7.0, 4e-3, "p1", "Pub. I four-bar, 7 s cycle"),
}
FIXED = [4e-3, 2e-3, 1e-3, 5e-4, 2.5e-4, 1.25e-4]
ADAPTIVE = [1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8]
# the higher-order methods and IDA at half decades too, so that the matched-accuracy table below
# compares points that lie close to each level on both sides
HALF = [c * 10.0 ** -e for e in range(2, 10) for c in (3.0, 1.0)]
ESDIRK = [v for v in HALF if 1e-8 <= v <= 1e-2]
IDA = [v for v in HALF if 1e-9 <= v <= 1e-3]
REF_RTOL = 1e-10
# the accuracy levels: crank angle 1e-3 .. 1e-7 rad; pressures at the ones those reach
LEVELS_CRANK = [1e-3, 1e-4, 1e-5, 1e-6, 1e-7]
LEVELS_P = [1e5, 1e4, 1e3, 1e2, 1e1]


def load(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    head = rows[0]
    return {k: [float(r[j]) for r in rows[1:]] for j, k in enumerate(head)}


def point(exe, model, t_end, out_dt, mode, value, reps, tmp):
    out = os.path.join(tmp, f"{mode}-{value:g}.csv")
    r = subprocess.run([exe, model, str(t_end), str(out_dt), mode, repr(value), str(reps), out],
                       capture_output=True, text=True)
    if r.returncode != 0:
        return None, (r.stderr.strip() or r.stdout.strip())
    res = json.loads(r.stdout.strip().splitlines()[-1])
    res["samples"] = load(out)
    return res, None


def errors(a, ref, pcol):
    ez = max(abs(x - y) for x, y in zip(a["z0"], ref["z0"]))
    ep = max(abs(x - y) for x, y in zip(a[pcol], ref[pcol]))
    return ez, ep


def commit():
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    except OSError:
        return "unknown"


def plot(results, png):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("bench_precision: matplotlib not installed: no plot (apt-get install python3-matplotlib)")
        return False
    names = list(results)
    fig, axes = plt.subplots(2, len(names), figsize=(6 * len(names), 9), squeeze=False)
    style = {"fixed": ("o-", "hydrosweep, fixed dt"), "adaptive": ("s-", "hydrosweep, adaptive trapezoidal"),
             "fixed_modified": ("o:", "hydrosweep, fixed dt, modified Newton"),
             "adaptive_modified": ("s:", "hydrosweep, adaptive trapezoidal, modified Newton"),
             "esdirk4": ("D-", "hydrosweep, adaptive esdirk4"),
             "esdirk4_modified": ("D:", "hydrosweep, adaptive esdirk4, modified Newton (the adaptive default)"),
             "ida": ("^--", "SUNDIALS IDA")}
    for c, name in enumerate(names):
        for r, (key, unit) in enumerate([("err_crank", "rad"), ("err_p", "Pa")]):
            ax = axes[r][c]
            for mode, (mk, lab) in style.items():
                pts = [p for p in results[name]["points"] if p["mode"] == mode and p.get(key)]
                if not pts:
                    continue
                ax.loglog([p[key] for p in pts], [p["seconds"] * 1e3 for p in pts], mk, label=lab)
            ax.set_xlabel(f"max error, {'crank angle' if key == 'err_crank' else 'piston pressure'} ({unit})")
            ax.set_ylabel("time, one instance, one core (ms)")
            ax.set_title(results[name]["label"], fontsize=10)
            ax.grid(True, which="both", alpha=0.3)
            ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(png, dpi=110)
    return True


def cheapest(points, key, level, modes):
    """The fastest point of the given modes whose error is at most level, or None."""
    ok = [p for p in points if p["mode"] in modes and "failed" not in p and p[key] <= level]
    return min(ok, key=lambda p: p["seconds"]) if ok else None


def matched(points):
    """Rows (what, level, hydrosweep point, IDA point, ratio) at the issue's accuracy levels: the
    cheapest point of any hydrosweep method against IDA's cheapest, each meeting the level; and
    at the accuracy of the default fixed 1 ms steps (crank and pressure together)."""
    ours = ("fixed", "adaptive", "fixed_modified", "adaptive_modified", "esdirk4", "esdirk4_modified")
    rows = []
    for key, levels in (("err_crank", LEVELS_CRANK), ("err_p", LEVELS_P)):
        for lv in levels:
            h, i = cheapest(points, key, lv, ours), cheapest(points, key, lv, ("ida",))
            rows.append((key, lv, h, i, h["seconds"] / i["seconds"] if h and i else None))
    d = [p for p in points if p["mode"] == "fixed" and p["value"] == 1e-3 and "failed" not in p]
    if d:
        ez, ep = d[0]["err_crank"], d[0]["err_p"]
        both = [p for p in points if "failed" not in p and p["err_crank"] <= ez and p["err_p"] <= ep]
        h = min((p for p in both if p["mode"] in ours), key=lambda p: p["seconds"], default=None)
        i = min((p for p in both if p["mode"] == "ida"), key=lambda p: p["seconds"], default=None)
        rows.append(("default", (ez, ep), h, i, h["seconds"] / i["seconds"] if h and i else None))
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--models", default="seed003,pub1")
    ap.add_argument("--quick", action="store_true", help="two points per method (a smoke test)")
    ap.add_argument("--out", default="bench/results")
    a = ap.parse_args()
    exe = os.path.join(a.build, "validation", "precision_point")
    if not os.access(exe, os.X_OK):
        sys.exit(f"bench_precision: {exe} not found: build with SUNDIALS (scripts/install-deps.sh)")
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name in a.models.split(","):
            model, t_end, out_dt, pcol, label = MODELS[name]
            ref, err = point(exe, model, t_end, out_dt, "ida", REF_RTOL, 1, tmp)
            if ref is None:
                sys.exit(f"bench_precision: reference of {name}: {err}")
            pts = []
            plan = ([("fixed", v) for v in FIXED] + [("adaptive", v) for v in ADAPTIVE] +
                    [("fixed_modified", v) for v in FIXED] + [("adaptive_modified", v) for v in ADAPTIVE] +
                    [("esdirk4", v) for v in ESDIRK] + [("esdirk4_modified", v) for v in ESDIRK] +
                    [("ida", v) for v in IDA])
            if a.quick:
                plan = [("fixed", 2e-3), ("fixed", 1e-3), ("adaptive", 1e-3), ("adaptive", 1e-4),
                        ("adaptive_modified", 1e-4), ("esdirk4_modified", 1e-4), ("ida", 1e-4), ("ida", 1e-5)]
            for mode, v in plan:
                res, err = point(exe, model, t_end, out_dt, mode, v, a.repeats, tmp)
                if res is None:
                    print(f"  {name} {mode} {v:g}: failed: {err}")
                    pts.append({"mode": mode, "value": v, "failed": err})
                    continue
                ez, ep = errors(res["samples"], ref["samples"], pcol)
                del res["samples"]
                res.update(err_crank=ez, err_p=ep)
                pts.append(res)
                print(f"  {name} {mode:17s} {v:<8g} {res['seconds'] * 1e3:9.2f} ms  steps {res['steps']:6d} "
                      f"(rejected {res['rejected']:4d})  crank {ez:.2e} rad  p {ep:.2e} Pa", flush=True)
            results[name] = {"model": model, "t_end": t_end, "out_dt": out_dt, "label": label, "points": pts,
                             "reference": f"IDA rtol {REF_RTOL:g}", "reference_seconds": ref["seconds"]}
    date = datetime.date.today().isoformat()
    stem = results_base(a.out, f"{date}-precision-cpu" + ("-quick" if a.quick else ""), commit())
    meta = {"date": date, "commit": commit(), "machine": cpu_name(), "repeats": a.repeats,
            "command": " ".join(["python3"] + sys.argv)}
    with open(stem + ".json", "w") as f:
        json.dump({"meta": meta, "results": results}, f, indent=1)
    png = plot(results, stem + ".png")
    with open(stem + ".md", "w") as f:
        f.write(f"# Work-precision, one instance, one core ({date}, commit {meta['commit']})\n\n")
        f.write(f"Machine: {meta['machine']}. Command: `{meta['command']}`. Time: best of {a.repeats} runs of "
                "validation/precision_point (model loading excluded). Error: max over the output grid of |crank "
                f"angle - reference| and |piston pressure - reference|; reference: IDA at rtol {REF_RTOL:g}. "
                "Absolute tolerances (adaptive and IDA): rtol x (1 rad, 1 rad/s, 1 MPa, 10 V, 1 mm).\n\n")
        if png:
            f.write(f"![work-precision]({os.path.basename(stem)}.png)\n\n")
        for name, r in results.items():
            f.write(f"## {r['label']} ({r['model']}, t_end {r['t_end']:g} s, output every {r['out_dt'] * 1e3:g} ms)\n\n")
            f.write("| method | dt or rtol | time (ms) | steps | rejected | Newton/step | crank error (rad) | "
                    "p_piston error (Pa) |\n|---|---|---|---|---|---|---|---|\n")
            for p in r["points"]:
                if "failed" in p:
                    f.write(f"| {p['mode']} | {p['value']:g} | failed: {p['failed']} | | | | | |\n")
                    continue
                f.write(f"| {p['mode']} | {p['value']:g} | {p['seconds'] * 1e3:.2f} | {p['steps']} | {p['rejected']} | "
                        f"{p['newton_mean']:.2f} | {p['err_crank']:.2e} | {p['err_p']:.2e} |\n")
            f.write("\n")
            f.write("Matched accuracy: at each level, the fastest hydrosweep point (any method above) and the "
                    "fastest IDA point whose error is at most the level; ratio = hydrosweep time / IDA time. "
                    "*default*: both errors at most those of the default fixed 1 ms steps.\n\n"
                    "| error | level | hydrosweep | ms | IDA rtol | ms | ratio |\n|---|---|---|---|---|---|---|\n")
            for key, lv, h, i, q in matched(r["points"]):
                what = {"err_crank": "crank (rad)", "err_p": "p_piston (Pa)", "default": "fixed 1 ms"}[key]
                lvs = f"{lv[0]:.1e} rad, {lv[1]:.1e} Pa" if key == "default" else f"{lv:.0e}"
                hs = f"{h['mode']} {h['value']:g} | {h['seconds'] * 1e3:.2f}" if h else "none | "
                ids = f"{i['value']:g} | {i['seconds'] * 1e3:.2f}" if i else "none | "
                f.write(f"| {what} | {lvs} | {hs} | {ids} | {q:.2f} |\n" if q else f"| {what} | {lvs} | {hs} | {ids} | |\n")
            f.write("\n")
    print(f"bench_precision: {stem}.md, .json" + (", .png" if png else ""))


if __name__ == "__main__":
    main()
