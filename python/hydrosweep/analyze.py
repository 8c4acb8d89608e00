"""hydrosweep.analyze -- sensitivity indices of a sweep's results, computed by SALib.

    python3 -m hydrosweep.analyze sobol RESULTS.h5 --signal p_piston --stat max
    (the same as `hydrosweep analyze sobol RESULTS.h5 --signal p_piston --stat max`)

  sobol(res, signal, stat="max", num_resamples=1000, conf_level=0.95, seed=1, store=True)
        first-order and total Sobol' indices (and second-order ones) of one statistic of a
        signal over the swept parameters, with bootstrap confidence intervals:
        SALib.analyze.sobol.analyze on the results of a sweep with method: saltelli, whose
        instances are SALib's Saltelli design (sobol.sample with scramble=False; the C
        sampler makes the same values, docs/sweep-format.md). Returns a pandas DataFrame
        (parameter x S1, S1_conf, ST, ST_conf) by decreasing ST; with store=True also writes
        /sobol/<signal>/<stat>/{S1, S1_conf, ST, ST_conf, S2, S2_conf} into the results file
        (docs/results-format.md).
Needs numpy, h5py, pandas and SALib (pip install SALib; Debian 12 has no package of it).
"""
import argparse
import sys

import numpy as np

from ._paths import check_output_path

from .results import ResultsError, open_results, texts


def _problem_and_y(f, signal, stat):
    method = f.attrs.get("method")
    method = method.decode() if isinstance(method, bytes) else str(method)
    if method != "saltelli":
        raise ResultsError("%s: Sobol' indices need a sweep with method: saltelli (this one is %s)"
                           % (f.filename, method))
    if int(f.attrs.get("complete", 0)) != 1:
        raise ResultsError("%s: the run is not complete" % f.filename)
    names = texts(f["params"].attrs["names"])
    sigs = texts(f.attrs["signals"])
    cols = texts(f.attrs["columns"])
    if signal not in sigs:
        raise ResultsError("%s: no signal '%s' (recorded: %s)" % (f.filename, signal, ", ".join(sigs)))
    if stat not in cols:
        raise ResultsError("%s: no statistic '%s' (stored: %s)" % (f.filename, stat, ", ".join(cols)))
    y = np.array(f["stats/" + signal][()][:, cols.index(stat)], dtype=float)
    st = f["status"][()]
    bad = int(np.count_nonzero((st & ~(512 | 1024)) != 0) + np.count_nonzero(~np.isfinite(y)))
    if bad:
        raise ResultsError("%s: %d instances failed or have no value: Sobol' indices need every instance of "
                           "the design (hydrosweep plot --kind status shows why)" % (f.filename, bad))
    D = len(names)
    if D < 1 or y.size % (2 * D + 2):
        raise ResultsError("%s: %d instances are not a Saltelli design of %d parameters" % (f.filename, y.size, D))
    problem = {"num_vars": D, "names": names, "bounds": [[0.0, 1.0]] * D}
    return problem, y


def sobol(res, signal, stat="max", num_resamples=1000, conf_level=0.95, seed=1, store=True, y=None):
    """First-order, total and second-order Sobol' indices of `stat` of `signal` (see the module
    docstring); a DataFrame by decreasing total index. y: another output of the design's
    instances (an array, one value per instance, in instance order) instead of the stored
    statistic, e.g. a function of /params (then nothing is stored)."""
    import pandas as pd
    try:
        from SALib.analyze import sobol as salib_sobol
    except ImportError as e:
        raise ResultsError("SALib is not installed (pip install SALib): %s" % e)
    import importlib.metadata
    import h5py
    path = res if isinstance(res, str) else getattr(res, "path", None) or res.filename
    with open_results(path) as f:
        if y is None:
            problem, y = _problem_and_y(f, signal, stat)
        else:
            problem, _ = _problem_and_y(f, signal, stat)
            y = np.asarray(y, dtype=float)
            if y.shape != (f["params"].shape[0],) or not np.isfinite(y).all():
                raise ResultsError("y must hold one finite value per instance (%d)" % f["params"].shape[0])
            store = False
    Si = salib_sobol.analyze(problem, y, calc_second_order=True, num_resamples=int(num_resamples),
                             conf_level=float(conf_level), print_to_console=False, seed=int(seed))
    names = problem["names"]
    df = pd.DataFrame({k: np.asarray(Si[k]) for k in ("S1", "S1_conf", "ST", "ST_conf")},
                      index=pd.Index(names, name="parameter"))
    df = df.sort_values("ST", ascending=False)
    df.attrs.update(signal=signal, stat=stat, N=y.size // (2 * len(names) + 2), num_resamples=int(num_resamples),
                    conf_level=float(conf_level), seed=int(seed))
    if store:
        version = importlib.metadata.version("SALib")
        check_output_path(path, "results file (the indices are stored in it; --no-store does not)")
        with h5py.File(path, "r+") as f:
            g = f.require_group("sobol").require_group(signal)
            if stat in g:
                del g[stat]
            h = g.create_group(stat)
            for k in ("S1", "S1_conf", "ST", "ST_conf", "S2", "S2_conf"):
                h.create_dataset(k, data=np.asarray(Si[k], dtype=float))
            h.attrs["names"] = np.array([n.encode() for n in names])
            h.attrs["num_resamples"] = int(num_resamples)
            h.attrs["conf_level"] = float(conf_level)
            h.attrs["seed"] = int(seed)
            h.attrs["N"] = int(df.attrs["N"])
            h.attrs["salib_version"] = version
    return df


def main(argv=None):
    p = argparse.ArgumentParser(prog="hydrosweep analyze", description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="what", required=True)
    s = sub.add_parser("sobol", help="first-order and total Sobol' indices (SALib) of a saltelli sweep")
    s.add_argument("input", help="results file of a sweep with method: saltelli")
    s.add_argument("--signal", required=True, help="recorded signal, e.g. p_piston")
    s.add_argument("--stat", default="max", help="statistic: min, max, final, mean, rms, t_max (default max)")
    s.add_argument("--resamples", type=int, default=1000, help="bootstrap resamples (default 1000)")
    s.add_argument("--conf", type=float, default=0.95, help="confidence level (default 0.95)")
    s.add_argument("--seed", type=int, default=1, help="seed of the bootstrap (default 1)")
    s.add_argument("--no-store", action="store_true", help="do not write /sobol into the results file")
    a = p.parse_args(argv)
    try:
        df = sobol(a.input, a.signal, a.stat, a.resamples, a.conf, a.seed, store=not a.no_store)
    except (ResultsError, OSError, ValueError) as e:
        sys.stderr.write("hydrosweep analyze: error: %s\n" % e)
        return 2
    print("Sobol' indices of %s of %s (%s): N = %d base points, %d bootstrap resamples, %g %% confidence; by SALib"
          % (a.stat, a.signal, a.input, df.attrs["N"], a.resamples, 100 * a.conf))
    print("  %4s  %-40s %10s %10s %10s %10s" % ("rank", "parameter", "S1", "+-", "ST", "+-"))
    for k, (name, r) in enumerate(df.iterrows()):
        print("  %4d  %-40s %10.4f %10.4f %10.4f %10.4f" % (k + 1, name, r.S1, r.S1_conf, r.ST, r.ST_conf))
    if not a.no_store:
        print("stored: %s:/sobol/%s/%s" % (a.input, a.signal, a.stat))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:  # the table piped into head and the like
        sys.stderr.close()
        sys.exit(0)
