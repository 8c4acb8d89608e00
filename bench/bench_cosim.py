#!/usr/bin/env python3
"""Monolithic coupling against co-simulation (seed 004 Pub. III; the dissertation's Ch. 4 open
question) on the single- and double-actuator cranes' 4 s work cycles: for each scheme and step,
the accuracy against a fine monolithic reference (dt = 25 us: the largest |s - s_ref| of every
cylinder on the 10 ms grid) and the time per simulated second, on one core (`hydrosweep
simulate`, the program's own timer, median of R repeats) and as an ensemble (`hydrosweep run`
of N instances varying the oil's bulk modulus, cpu backend, every core: instances per second
and core-seconds per simulated second). Written as JSON + Markdown with machine, date, commit
and the commands.

usage: /usr/bin/python3 bench/bench_cosim.py [--build build] [--repeats 3] [--n 64] [--out bench/results]
"""
import argparse, datetime, io, json, os, platform, re, statistics, subprocess, sys, tempfile

import numpy as np
import pandas as pd

from bench_single import cpu_name  # the machine's CPU model, as the other drivers name it

MODELS = ["crane_rahikainen2020_single", "crane_rahikainen2020_double"]
STEPS = [1e-3, 5e-4, 2.5e-4]
# (label, --set options) of each scheme; cosim: h_hyd = H / 10, trapezoidal hydraulics
SCHEMES = [("monolithic", []),
           ("cosim force m=2", ["integrator.coupling=cosim", "cosim.exchange=force", "cosim.extrapolation=2"]),
           ("cosim pressures m=2", ["integrator.coupling=cosim", "cosim.exchange=pressures",
                                    "cosim.extrapolation=2"])]


def simulate(hs, model, dt, sets, repeats):
    """The CSV (a DataFrame) and the median wall time of `hydrosweep simulate`."""
    args = [hs, "simulate", model, "--dt", repr(dt)]
    for s in sets:
        args += ["--set", s]
    if any(s.startswith("integrator.coupling=cosim") for s in sets):
        args += ["--set", "cosim.h_hyd=%r" % (dt / 10)]
    walls, csv = [], None
    for _ in range(repeats):
        r = subprocess.run(args, capture_output=True, text=True, check=True)
        csv = r.stdout
        m = re.search(r"^wall time\s+([0-9.eE+-]+) s", r.stderr, re.M)
        walls.append(float(m.group(1)))
    return pd.read_csv(io.StringIO(csv)), statistics.median(walls), " ".join(args)


def s_error(df, ref, cyls):
    grid = np.arange(0.0, ref.t.iloc[-1] + 1e-9, 0.01)
    return max(np.abs(np.interp(grid, df.t, df["s_" + c]) - np.interp(grid, ref.t, ref["s_" + c])).max()
               for c in cyls)


def ensemble(hs, model, dt, sets, n, tmp):
    """instances per second of `hydrosweep run` over n instances (B_oil 1.2-1.8 GPa), cpu backend,
    the second of two runs (the first builds the engine specialised to the sweep, then cached)."""
    sw = os.path.join(tmp, "sw.yaml")
    sim = "{dt: %r s%s}" % (dt, ", coupling: cosim" if sets else "")
    params = "  fluid.B_oil: {uniform: [1200 MPa, 1800 MPa]}\n"
    for s in sets:
        k, v = s.split("=")
        if k.startswith("cosim."):
            params += "  %s: {values: [%s]}\n" % (k, v)
    if sets:
        params += "  cosim.h_hyd: {values: [%r]}\n" % (dt / 10)
    with open(sw, "w") as f:
        f.write("model: %s\nmethod: latin_hypercube\ninstances: %d\nseed: 1\nsimulation: %s\nparameters:\n%s"
                "outputs:\n  signals: [E_balance]\n" % (os.path.abspath(model), n, sim, params))
    out = os.path.join(tmp, "r.h5")
    cmd = [hs, "run", sw, "-b", "cpu", "-o", out, "--no-progress"]
    for _ in range(2):  # the first run builds the specialised engine (cached): the second is timed
        for f in (out, out[:-3] + ".csv"):
            if os.path.exists(f):
                os.remove(f)
        r = subprocess.run(cmd, capture_output=True, text=True, check=True)
    m = re.search(r"(\d+) instances in ([0-9.]+) s", r.stderr + r.stdout)
    return int(m.group(1)) / float(m.group(2)), " ".join(cmd)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--n", type=int, default=64)
    ap.add_argument("--out", default="bench/results")
    a = ap.parse_args()
    hs = os.path.join(a.build, "hydrosweep")
    commit = subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], capture_output=True, text=True).stdout.strip()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in MODELS:
            model = "models/%s.yaml" % name
            ref, _, _ = simulate(hs, model, 2.5e-5, [], 1)
            cyls = [c[2:] for c in ref.columns if c.startswith("s_")]
            for label, sets in SCHEMES:
                for dt in STEPS:
                    df, wall, cmd = simulate(hs, model, dt, sets, a.repeats)
                    rate, ecmd = ensemble(hs, model, dt, sets, a.n, tmp)
                    rows.append(dict(model=name, scheme=label, step=dt, error_s=s_error(df, ref, cyls),
                                     wall_per_sim_s=wall / ref.t.iloc[-1], ensemble_inst_per_s=rate,
                                     command=cmd, ensemble_command=ecmd))
                    print("%-28s %-20s %.2e  err %.3e m  %.4f s/s  %.1f inst/s" % (
                        name, label, dt, rows[-1]["error_s"], rows[-1]["wall_per_sim_s"], rate), flush=True)
    date = datetime.date.today().isoformat()
    base = os.path.join(a.out, "%s-cosim-vs-monolithic-cpu-%s" % (date, commit))
    meta = dict(date=date, commit=commit, cpu=cpu_name(), cores=os.cpu_count(),
                command="/usr/bin/python3 bench/bench_cosim.py " + " ".join(sys.argv[1:]))
    with open(base + ".json", "w") as f:
        json.dump(dict(meta=meta, rows=rows), f, indent=1)
    with open(base + ".md", "w") as f:
        f.write("# Monolithic coupling against co-simulation, the cranes' 4 s cycles (%s)\n\n" % date)
        f.write("Commit %s, %s (%d cores), `%s`.\n\n" % (commit, meta["cpu"], meta["cores"], meta["command"]))
        f.write("Error: the largest |s - s_ref| of every cylinder on the 10 ms grid against monolithic "
                "dt = 25 us. Time: `hydrosweep simulate`'s wall time per simulated second, one core, "
                "median of %d. Ensemble: `hydrosweep run` of %d instances (B_oil drawn in 1.2-1.8 GPa), cpu "
                "backend on every core, the second of two runs (the first builds the specialised engine). Co-simulation: H = dt, h_hyd = H/10, trapezoidal hydraulics, "
                "mechanics' extrapolation 0, hydraulics' 2.\n\n" % (a.repeats, a.n))
        f.write("| model | scheme | dt = H (ms) | error in s (m) | s per simulated s (1 core) | ensemble instances/s |\n")
        f.write("|---|---|---|---|---|---|\n")
        for r in rows:
            f.write("| %s | %s | %g | %.2e | %.4f | %.1f |\n" % (r["model"], r["scheme"], r["step"] * 1e3, r["error_s"],
                                                                r["wall_per_sim_s"], r["ensemble_inst_per_s"]))
    print("wrote", base + ".md")


if __name__ == "__main__":
    main()
