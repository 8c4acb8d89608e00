#!/usr/bin/env python3
"""The counterbalance valve's stability map (tests/data/cbv_loop.yaml): the pilot ratio and the
load's mass on a grid, each point linearized at its steady descent (`hydrosweep linearize --at
t=T --json`, exact by automatic differentiation) and, where asked, simulated to measure the
descent's hunting in the time domain (the standard deviation of the rod speed over [T, t_end]).
Prints a Markdown table of the least damped oscillatory mode's real part (1/s; > 0: unstable)
and its frequency.

  python3 bench/bench_cbv_stability.py [--hs build/hydrosweep] [--at 1.5] [--time-domain]
"""
import argparse
import csv
import io
import json
import statistics
import subprocess
import sys

MODEL = "tests/data/cbv_loop.yaml"
RATIOS = [2, 3, 4, 5, 6, 6.5, 7, 8, 10, 12]
MASSES = [300, 450, 600]


def least_damped(hs, ratio, mass, at):
    """(real part 1/s, frequency Hz) of the oscillatory eigenvalue with the largest real part."""
    out = subprocess.run([hs, "linearize", MODEL, "--set", f"component.cbv.ratio={ratio}", "--set",
                          f"body.link1.mass={mass}kg", "--at", f"t={at}", "--json"],
                         check=True, capture_output=True, text=True).stdout
    ev = [e for e in json.loads(out)["eigenvalues"] if abs(e[1]) > 1e-6]
    re, im = max(ev)
    return re, abs(im) / (2.0 * 3.141592653589793)


def hunting(hs, ratio, mass, at):
    """The standard deviation of the rod speed sdot_lift (m/s) from t = at to the end."""
    out = subprocess.run([hs, "simulate", MODEL, "--set", f"component.cbv.ratio={ratio}", "--set",
                          f"body.link1.mass={mass}kg", "--every", "5"],
                         check=True, capture_output=True, text=True).stdout
    rows = [r for r in csv.DictReader(io.StringIO(out)) if float(r["t"]) >= at]
    return statistics.pstdev(float(r["sdot_lift"]) for r in rows)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hs", default="build/hydrosweep")
    ap.add_argument("--at", type=float, default=1.5)
    ap.add_argument("--time-domain", action="store_true")
    a = ap.parse_args()
    print("| pilot ratio | " + " | ".join(f"{m} kg" for m in MASSES) + " |")
    print("|---|" + "---|" * len(MASSES))
    for r in RATIOS:
        cells = []
        for m in MASSES:
            re, f = least_damped(a.hs, r, m, a.at)
            c = f"{re:+.1f} /s at {f:.1f} Hz"
            if a.time_domain:
                c += f", sdot std {1e3 * hunting(a.hs, r, m, a.at):.2f} mm/s"
            cells.append(c)
        print(f"| {r} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
