#!/usr/bin/python3
"""read_results.py -- open a hydrosweep results file with numpy and h5py and print it.

    /usr/bin/python3 examples/read_results.py RESULTS.h5 [--signal NAME] [--instance I]
                                                  [--csv [CSV]] [--rows N]
    (or examples/read_results.py ..., which runs /usr/bin/python3: Debian's, with the numpy and
    h5py that scripts/install-deps.sh installs; a python3 without them, e.g. a venv's first on
    PATH, re-runs the script with /usr/bin/python3 when that one has them)

`hydrosweep run SWEEP -o out.h5` writes out.h5 (HDF5) and out.csv (one row per instance).
This script prints, from out.h5:
  - the run's attributes (model, sweep, method, seed, backend, device, n_total, complete, ...),
  - the swept parameters (names, units) and the table of their sampled values,
  - every instance's status, with its failure bits decoded into names,
  - the per-instance statistics of every recorded signal (/stats/<signal>),
  - the stored ensemble quantiles (/ensemble/<signal>),
  - one trajectory (/traj/<signal>), if the sweep recorded any.
Options:
  --signal NAME  only this signal (statistics, quantiles, and its trajectory if recorded)
  --instance I   the instance (global index, as in /instance and `hydrosweep simulate --from
                 out.h5 --instance I`) whose statistics and trajectory are shown; default: the
                 first instance that finished (status 0 or warnings only)
  --csv [CSV]    also check that the CSV summary (default: the file beside out.h5, out.csv)
                 holds exactly the same numbers as the HDF5 file
  --rows N       print at most N rows of the long tables (default 10; 0: all)
Exit status: 0 fine; 1 the file cannot be read (missing, not a results file, an interrupted
run's .part) or the CSV does not match; 2 usage error.

The file layout is described in docs/results-format.md. Everything here uses only numpy and
h5py (Debian 12: apt-get install python3-numpy python3-h5py), and the functions above main()
can be imported: `sys.path.insert(0, "examples"); import read_results`.
"""
import argparse
import csv
import math
import os
import sys

# The interpreter scripts/install-deps.sh provides numpy and h5py for (Debian's python3-numpy
# and python3-h5py); a python3 earlier on PATH (a venv, pyenv) may lack them.
SYSTEM_PYTHON = "/usr/bin/python3"

try:
    import numpy as np
    import h5py
except ImportError as e:  # a clear message instead of a traceback
    here = os.path.realpath(sys.executable or "")
    if (__name__ == "__main__" and not os.environ.get("HS_READ_RESULTS_REEXEC")
            and os.access(SYSTEM_PYTHON, os.X_OK) and here != os.path.realpath(SYSTEM_PYTHON)):
        # the first python3 on PATH lacks them: run this script with Debian's python3, once
        sys.stderr.write("read_results.py: %s has no numpy/h5py (%s); running with %s\n"
                         % (sys.executable, e, SYSTEM_PYTHON))
        os.environ["HS_READ_RESULTS_REEXEC"] = "1"
        os.execv(SYSTEM_PYTHON, [SYSTEM_PYTHON, os.path.abspath(__file__)] + sys.argv[1:])
    sys.exit("read_results.py: error: %s: this script needs numpy and h5py: run it with %s "
             "(Debian 12: apt-get install python3-numpy python3-h5py, as scripts/install-deps.sh "
             "does), or pip install numpy h5py into the python3 you use" % (e, SYSTEM_PYTHON))

# The file-level reading (format version, status bits, opening with the reasons a file is
# refused) is the package's: python/hydrosweep/results.py, beside this repository's examples/.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "python"))
from hydrosweep.results import (FORMAT_VERSION, ResultsError, csv_path_for,  # noqa: E402
                                decode_status, open_results, status_bits, text, texts, warning_mask)


# ------------------------------------------------------------------------------------------
# reading


def run_info(f):
    """The root attributes as a dict of Python values (strings decoded)."""
    info = {}
    for key, v in f.attrs.items():
        if isinstance(v, h5py.Empty) or (isinstance(v, np.ndarray) and v.dtype.kind == "S"):
            info[key] = texts(v)
        elif isinstance(v, (bytes, np.bytes_)):
            info[key] = text(v)
        else:
            info[key] = v.item() if hasattr(v, "item") and np.ndim(v) == 0 else v
    return info


def instances_table(f):
    """The per-instance (row) datasets: dict of numpy arrays, one entry per row of the file."""
    return {
        "instance": f["instance"][()],        # int64 (nrun): global instance indices
        "status": f["status"][()],            # int32 (nrun): 0 or failure bits
        "steps": f["steps"][()],              # int64 (nrun): accepted time steps
        "newton_mean": f["newton_mean"][()],  # float64 (nrun): Newton iterations per step
        "newton_max": f["newton_max"][()],    # int32 (nrun): most iterations of one step
        "rejected_steps": f["rejected_steps"][()],  # int64 (nrun): steps rejected (adaptive)
        "params": f["params"][()],            # float64 (nrun x nparam): sampled values, SI
    }


def param_names_units(f):
    return texts(f["params"].attrs["names"]), texts(f["params"].attrs["units"])


def stats(f, signal):
    """(columns, values): /stats/<signal> is nrun x ncol, its columns named by its attribute
    columns (min, max, final, mean, rms, t_max: always in this order, only those stored)."""
    d = f["stats"][signal]
    return texts(d.attrs["columns"]), d[()]


def ensemble(f, signal):
    """(columns, quantile levels, values): /ensemble/<signal> is ncol x 3: for every stored
    statistic, its 5/50/95 % quantiles over the instances with status 0."""
    d = f["ensemble"][signal]
    return texts(d.attrs["columns"]), d.attrs["quantiles"][()], d[()]


def trajectory(f, signal):
    """(time, values): /traj/time (ntime) and /traj/<signal> (nrun x ntime); samples after an
    instance failed are NaN."""
    return f["traj"]["time"][()], f["traj"][signal][()]


def check_csv(f, csv_path):
    """Compares the CSV summary with the HDF5 file: the header, the row count and every value
    (the CSV prints doubles with 17 significant digits, so they must be bit-identical; nan
    stands for NaN). Returns a list of problems (empty: identical)."""
    if not os.path.exists(csv_path):
        return ["%s: no such file" % csv_path]
    tab = instances_table(f)
    pnames, _ = param_names_units(f)
    signals = texts(f.attrs["signals"])
    header = ["instance", "status", "steps", "newton_mean", "newton_max", "rejected_steps"] + pnames
    cols = [tab["instance"], tab["status"], tab["steps"], tab["newton_mean"], tab["newton_max"],
            tab["rejected_steps"]]
    cols += [tab["params"][:, j] for j in range(len(pnames))]
    for s in signals:
        names, vals = stats(f, s)
        header += ["%s_%s" % (s, c) for c in names]
        cols += [vals[:, j] for j in range(len(names))]
    with open(csv_path, newline="") as fh:
        rows = list(csv.reader(fh))
    problems = []
    if not rows or rows[0] != header:
        return ["%s: header %s differs from the expected %s"
                % (csv_path, rows[0] if rows else "(empty)", header)]
    if len(rows) - 1 != tab["instance"].size:
        return ["%s: %d data rows, the HDF5 file has %d"
                % (csv_path, len(rows) - 1, tab["instance"].size)]
    for i, row in enumerate(rows[1:]):
        if len(row) != len(header):
            problems.append("row %d: %d fields, expected %d" % (i + 1, len(row), len(header)))
            continue
        for j, (field, col) in enumerate(zip(row, cols)):
            want = col[i]
            got = float(field)
            same = (math.isnan(got) and math.isnan(want)) or got == want
            if not same:
                problems.append("row %d (instance %s), column %s: CSV %s, HDF5 %r"
                                % (i + 1, row[0], header[j], field, want))
        if len(problems) > 20:
            problems.append("... (stopped after 20 differences)")
            break
    return problems


# ------------------------------------------------------------------------------------------
# printing


def fmt(x):
    """A number for the tables: integers as such, others with 6 significant digits."""
    if isinstance(x, (int, np.integer)):
        return str(int(x))
    return "%.6g" % x


def _is_number(s):
    try:
        float(s)
        return True
    except ValueError:
        return s == ""


def print_table(header, rows, indent="  "):
    """Columns of numbers right-aligned, others left-aligned."""
    w = [max(len(str(r[k])) for r in [header] + rows) for k in range(len(header))]
    right = [all(_is_number(str(r[k])) for r in rows) for k in range(len(header))]
    for r in [header] + rows:
        cells = [str(c).rjust(w[k]) if right[k] else str(c).ljust(w[k]) for k, c in enumerate(r)]
        print(indent + "  ".join(cells).rstrip())


def limited(n, rows_max):
    """Row indices to print (all if rows_max is 0) and whether some were left out."""
    k = n if rows_max <= 0 else min(n, rows_max)
    return range(k), k < n


def main(argv=None):
    ap = argparse.ArgumentParser(
        description="Print a hydrosweep results file (HDF5) with numpy + h5py; layout in "
                    "docs/results-format.md.")
    ap.add_argument("file", help="results file written by `hydrosweep run` (out.h5)")
    ap.add_argument("--signal", help="only this signal (statistics, quantiles, trajectory)")
    ap.add_argument("--instance", type=int,
                    help="global instance index to show (default: the first finished one)")
    ap.add_argument("--csv", nargs="?", const="", metavar="CSV",
                    help="check the CSV summary (default: the .csv beside the file)")
    ap.add_argument("--rows", type=int, default=10,
                    help="rows of the long tables to print (default 10, 0: all)")
    a = ap.parse_args(argv)

    try:
        f = open_results(a.file)
    except ResultsError as e:
        print("read_results.py: error: %s" % e, file=sys.stderr)
        return 1
    with f:
        info = run_info(f)
        tab = instances_table(f)
        pnames, punits = param_names_units(f)
        signals, tsignals = info.get("signals", []), info.get("traj_signals", [])
        nrun = tab["instance"].size
        status = tab["status"]
        bits = status_bits(f)

        # --- which signal(s) and which instance
        if a.signal is not None and a.signal not in signals and a.signal not in tsignals:
            print("read_results.py: error: %s: no signal %r; recorded: %s; with trajectories: "
                  "%s" % (a.file, a.signal, ", ".join(signals) or "none",
                          ", ".join(tsignals) or "none"), file=sys.stderr)
            return 1
        if a.instance is not None:
            hit = np.nonzero(tab["instance"] == a.instance)[0]
            if hit.size == 0:
                print("read_results.py: error: %s: instance %d is not in this file (it holds "
                      "[%d, %d) of %d)" % (a.file, a.instance, info["i_begin"], info["i_end"],
                                           info["n_total"]), file=sys.stderr)
                return 1
            row = int(hit[0])
        else:
            ok_rows = np.nonzero((status & ~warning_mask(bits)) == 0)[0]
            row = int(ok_rows[0]) if ok_rows.size else 0
        inst = int(tab["instance"][row]) if nrun else None

        # --- the run
        print("file: %s (format_version %d, %s)" % (a.file, info["format_version"],
              "complete" if info.get("complete") == 1 else "INCOMPLETE"))
        print("run:")
        nchunk = f["done"].size
        for key, val in [
            ("model", "%s (%s)" % (info["model_name"], info.get("model_path", "?"))),
            ("sweep", info.get("sweep_path", "?")),
            ("method", info.get("method", "?")),
            ("seed", info.get("seed", "?")),
            ("backend", info.get("backend", "?")),
            ("device", info.get("device", "?")),
            ("version", "%s (commit %s)" % (info.get("version", "?"), info.get("commit", "?"))),
            ("n_total", info["n_total"]),
            ("rows", "%d: instances [%d, %d)%s" % (nrun, info["i_begin"], info["i_end"],
                     "" if nrun == info["n_total"] else " (a shard of the sweep)")),
            ("chunk", "%d instances (%d chunks, %d written)"
                      % (info["chunk"], nchunk, int(np.count_nonzero(f["done"][()])))),
            ("complete", info.get("complete")),
        ]:
            print("  %-9s %s" % (key, val))

        # --- parameters and their sampled values
        print("parameters (%d): %s" % (len(pnames), ", ".join(
            "%s [%s]" % (n, u or "-") for n, u in zip(pnames, punits)) or "none"))
        if pnames:
            rng, more = limited(nrun, a.rows)
            print_table(["instance", "status"] + pnames,
                        [[fmt(tab["instance"][i]), fmt(status[i])] +
                         [fmt(v) for v in tab["params"][i]] for i in rng])
            if more:
                print("  ... %d more rows (--rows 0 prints all)" % (nrun - len(rng)))

        # --- status: counts per bit (checked against the attributes of /ensemble) and the
        #     failed instances
        ens_attrs = f["ensemble"].attrs
        W = warning_mask(bits)
        nfail = int(np.count_nonzero(status & ~W))
        nwarn = int(np.count_nonzero(((status & W) != 0) & ((status & ~W) == 0)))
        print("status: %d instances, %d finished (%d with warnings), %d failed"
              % (nrun, nrun - nfail, nwarn, nfail))
        rows = []
        for bit, name, kind, meaning in bits:
            cnt = int(np.count_nonzero(status & bit))
            stored = ens_attrs.get(("warned_" if kind == "warning" else "failed_") + name)
            note = "" if stored is None or int(stored) == cnt else \
                "  (file says %d!)" % int(stored)
            rows.append([str(bit), name, str(cnt) + note, meaning])
        print_table(["bit", "name", "count", "meaning"], rows)
        bad = np.nonzero((status & ~W) != 0)[0]
        if bad.size:
            rng, more = limited(bad.size, a.rows)
            print("  failed instances:")
            print_table(["instance", "status", "bits", "steps"],
                        [[fmt(tab["instance"][i]), fmt(status[i]),
                          "+".join(decode_status(status[i], bits)), fmt(tab["steps"][i])]
                         for i in bad[list(rng)]], indent="    ")
            if more:
                print("    ... %d more" % (bad.size - len(rng)))

        show = [a.signal] if a.signal in signals else ([] if a.signal else signals)

        # --- per-instance statistics of the chosen instance
        if show and nrun:
            cols = stats(f, show[0])[0]
            print("stats of instance %d (row %d; status %d%s), /stats/<signal>[%d, :]:"
                  % (inst, row, status[row],
                     " " + "+".join(decode_status(status[row], bits)) if status[row] else "", row))
            print_table(["signal"] + cols,
                        [[s] + [fmt(v) for v in stats(f, s)[1][row]] for s in show])

        # --- ensemble quantiles, as stored
        if show:
            where = ens_attrs.get("quantiles_on")  # "host" or "gpu (Thrust)"; newer files
            print("ensemble quantiles over the %d finished instances%s:"
                  % (int(ens_attrs.get("finished", nrun - nfail)),
                     "" if where is None else " (computed on %s)" % text(where)))
            rows = []
            for s in show:
                cols, levels, q = ensemble(f, s)
                for c, name in enumerate(cols):
                    rows.append([s if c == 0 else "", name] + [fmt(v) for v in q[c]])
            print_table(["signal", "stat"] + ["%g%%" % (100 * p) for p in levels], rows)

        # --- one trajectory
        tsig = a.signal if a.signal in tsignals else (None if a.signal else
                                                      (tsignals[0] if tsignals else None))
        if tsig is not None and nrun:
            t, y = trajectory(f, tsig)
            print("trajectory %s of instance %d (%d samples, /traj/%s[%d, :]):"
                  % (tsig, inst, t.size, tsig, row))
            print_table(["t", tsig], [["%.9g" % t[k], "%.9g" % y[row, k]]
                                      for k in range(t.size)])
        elif a.signal is not None and tsignals:
            print("trajectory: none recorded for %s (trajectories: %s)"
                  % (a.signal, ", ".join(tsignals)))
        elif not tsignals:
            print("trajectory: none recorded (the sweep has no outputs.trajectories)")

        # --- the CSV summary beside the file
        if a.csv is not None:
            path = a.csv or csv_path_for(a.file)
            problems = check_csv(f, path)
            if problems:
                print("read_results.py: error: CSV check: %s differs from %s:\n  %s"
                      % (path, a.file, "\n  ".join(problems)), file=sys.stderr)
                return 1
            ncol = 5 + len(pnames) + sum(len(stats(f, s)[0]) for s in signals)
            print("CSV check: %s matches: %d rows x %d columns, every value identical"
                  % (path, nrun, ncol))
    return 0


if __name__ == "__main__":
    sys.exit(main())
