#!/usr/bin/env python3
"""The co-simulation configuration search of seed 004 Pub. III (Sect. 2.4.1; Tables 4 and 5) as
one batched run: the wall time of `hydrosweep run` of sweeps/cosim_search_single.yaml and
sweeps/cosim_search_double.yaml (every configuration x test input x H an instance of 1 s; the
program's own timer, median of R runs after one that builds the specialised engine) and of
`hydrosweep analyze cosim` on its results, on the cpu backend with every core (or -b BACKEND).
Issue target: the single crane's search in at most 5 minutes on the 2-core CI machine, 5 s on
a GPU. Written as JSON + Markdown with machine, date, commit and the commands.

usage: /usr/bin/python3 bench/bench_cosim_search.py [--build build] [--repeats 3] [--backend cpu]
                                                    [--out bench/results]
"""
import argparse, datetime, json, os, re, statistics, subprocess, sys, tempfile, time

from bench_single import cpu_name  # the machine's CPU model, as the other drivers name it

SWEEPS = ["sweeps/cosim_search_single.yaml", "sweeps/cosim_search_double.yaml"]


def run(hs, sweep, backend, out):
    """(instances, seconds) of one `hydrosweep run`, by its closing line."""
    cmd = [hs, "run", sweep, "-b", backend, "-o", out, "--no-progress"]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode:
        sys.exit("bench_cosim_search: %s failed: %s" % (" ".join(cmd), r.stderr[-500:]))
    m = re.search(r"^run: (\d+) instances in ([0-9.]+) s", r.stdout, re.M)
    return int(m.group(1)), float(m.group(2)), " ".join(cmd)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--backend", default="cpu")
    ap.add_argument("--out", default="bench/results")
    a = ap.parse_args()
    hs = os.path.join(a.build, "hydrosweep")
    commit = subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], capture_output=True, text=True).stdout.strip()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for sweep in SWEEPS:
            out = os.path.join(tmp, "s.h5")
            run(hs, sweep, a.backend, out)  # builds (or reads) the specialised engine
            times = []
            for _ in range(a.repeats):
                n, t, cmd = run(hs, sweep, a.backend, out)
                times.append(t)
            t0 = time.perf_counter()
            r = subprocess.run([hs, "analyze", "cosim", out], capture_output=True, text=True)
            ta = time.perf_counter() - t0
            if r.returncode:
                sys.exit("bench_cosim_search: analyze failed: %s" % r.stderr[-500:])
            rec = [l for l in r.stdout.splitlines() if l.startswith("recommended")]
            rows.append(dict(sweep=sweep, instances=n, run_s=statistics.median(times), runs_s=times, analyze_s=ta,
                             recommended=rec[0] if rec else "", command=cmd))
            print("%-36s %6d instances  run %.2f s (median of %d)  analyze %.2f s" % (sweep, n, rows[-1]["run_s"],
                                                                                   a.repeats, ta), flush=True)
    date = datetime.date.today().isoformat()
    base = os.path.join(a.out, "%s-cosim-search-%s-%s" % (date, a.backend, commit))
    meta = dict(date=date, commit=commit, cpu=cpu_name(), cores=os.cpu_count(), backend=a.backend,
                command="/usr/bin/python3 bench/bench_cosim_search.py " + " ".join(sys.argv[1:]))
    with open(base + ".json", "w") as f:
        json.dump(dict(meta=meta, rows=rows), f, indent=1)
    with open(base + ".md", "w") as f:
        f.write("# The co-simulation configuration search as one run (%s)\n\n" % date)
        f.write("Commit %s, %s (%d cores), backend %s, `%s`.\n\n" % (commit, meta["cpu"], meta["cores"], a.backend,
                                                                    meta["command"]))
        f.write("Run: `hydrosweep run SWEEP -b %s` (every core), its own timer, median of %d after one run that "
                "builds the specialised engine. Analyze: `hydrosweep analyze cosim` (python3, numpy, h5py), wall "
                "time. Issue target for the single crane: 5 min on the 2-core CI machine, 5 s on a GPU.\n\n"
                % (a.backend, a.repeats))
        f.write("| sweep | instances | run (s) | analyze (s) | recommended |\n|---|---|---|---|---|\n")
        for r in rows:
            f.write("| %s | %d | %.2f | %.2f | %s |\n" % (r["sweep"], r["instances"], r["run_s"], r["analyze_s"],
                                                        r["recommended"]))
    print("wrote", base + ".md")


if __name__ == "__main__":
    main()
