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
        num_resamples: an integer 2 .. 10^6 (the intervals are the resamples' standard
        deviation, which needs two; SALib's bootstrap holds about 96 x N x num_resamples bytes
        at once, which must stay under half this machine's memory); conf_level: a number
        strictly between 0 and 1; seed: an integer 1 .. 2^32 - 1 (SALib takes 0 as no seed, and
        the intervals would not repeat). Others raise ValueError before SALib is imported.
        When the intervals are wide against the indices (accuracy_warning: too few base points
        N) a SobolAccuracyWarning is issued and its text is df.attrs["warning"].
Needs numpy, h5py, pandas and SALib. SALib is not a Debian 12 package; with Debian's numpy,
h5py, pandas and scipy: /usr/bin/python3 -m venv --system-site-packages V && V/bin/pip install
--no-deps SALib multiprocess dill (without --no-deps pip installs a newer numpy into V, which
Debian's h5py cannot import); where hydrosweep itself was installed by pip: pip install SALib.
"""
import argparse
import math
import numbers
import os
import sys
import warnings

import numpy as np

from . import cosim_search
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


MAX_RESAMPLES = 10 ** 6
MAX_SEED = 2 ** 32 - 1
# bytes SALib's bootstrap holds at once per base point and resample (measured with tracemalloc,
# SALib 1.6: 96.2 for N = 1024 and 2048, 1000 and 2000 resamples, 3 and 6 parameters)
BOOTSTRAP_BYTES = 96


class SobolAccuracyWarning(UserWarning):
    """The confidence intervals of the indices are wide against the indices themselves: too
    few base points N for the indices to be told apart (accuracy_warning)."""


def _integer(v, what):
    if not isinstance(v, bool):
        if isinstance(v, numbers.Integral):
            return int(v)
        if isinstance(v, numbers.Real) and math.isfinite(v) and float(v).is_integer():
            return int(v)
    raise ValueError("%s must be an integer, not %r" % (what, v))


def check_options(num_resamples, conf_level, seed):
    """(num_resamples, conf_level, seed) as int, float, int when each is in its range (see
    sobol), else ValueError naming the option, its value and the range. Needs no SALib."""
    k = _integer(num_resamples, "the number of bootstrap resamples (--resamples)")
    if not 2 <= k <= MAX_RESAMPLES:
        raise ValueError("the number of bootstrap resamples (--resamples) must be 2 .. %d, not %d (the intervals "
                         "are the resamples' standard deviation; 1000 is usual)" % (MAX_RESAMPLES, k))
    if isinstance(conf_level, bool) or not isinstance(conf_level, numbers.Real):
        raise ValueError("the confidence level (--conf) must be a number, not %r" % (conf_level,))
    c = float(conf_level)
    if not (math.isfinite(c) and 0.0 < c < 1.0):
        raise ValueError("the confidence level (--conf) must be strictly between 0 and 1 (e.g. 0.95), not %r" % c)
    sd = _integer(seed, "the seed of the bootstrap (--seed)")
    if not 1 <= sd <= MAX_SEED:
        raise ValueError("the seed of the bootstrap (--seed) must be 1 .. %d, not %d (SALib takes 0 as no seed: "
                         "the intervals would change from run to run)" % (MAX_SEED, sd))
    return k, c, sd


def _check_memory(N, k):
    """ValueError when SALib's bootstrap of N base points and k resamples would need more than
    half of this machine's memory."""
    need = float(BOOTSTRAP_BYTES) * N * k
    try:
        phys = float(os.sysconf("SC_PHYS_PAGES")) * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return
    if phys > 0 and need > 0.5 * phys:
        raise ValueError("%d bootstrap resamples of N = %d base points need about %.1f GiB (SALib holds about %d "
                         "bytes per base point and resample), more than half of this machine's memory (%.1f GiB): "
                         "use fewer resamples (--resamples)" % (k, N, need / 2 ** 30, BOOTSTRAP_BYTES, phys / 2 ** 30))


def accuracy_warning(df, N=None):
    """The text of a warning when the confidence intervals of a sobol() DataFrame are wide
    against its indices, else None. Wide: an index that matters (ST or S1 at least a tenth of
    the largest ST) whose interval is more than half the index; or S1 above ST by more than
    both intervals together (S1 <= ST holds for the exact indices); or indices that are not
    finite. Each says the design has too few base points N."""
    S1, S1c, ST, STc = (np.asarray(df[k], dtype=float) for k in ("S1", "S1_conf", "ST", "ST_conf"))
    names = list(df.index)
    why = []
    if not (np.isfinite(S1).all() and np.isfinite(ST).all()):
        why.append("indices that are not finite (is the statistic constant over the design?)")
    else:
        top = float(np.max(ST)) if ST.size else 0.0
        for i, name in enumerate(names):
            if ST[i] >= 0.1 * top and STc[i] > 0.5 * abs(ST[i]):
                why.append("%s: ST %.3g +- %.3g" % (name, ST[i], STc[i]))
            elif S1[i] >= 0.1 * top and S1c[i] > 0.5 * abs(S1[i]):
                why.append("%s: S1 %.3g +- %.3g" % (name, S1[i], S1c[i]))
            elif S1[i] - ST[i] > S1c[i] + STc[i]:
                why.append("%s: S1 %.3g +- %.3g above ST %.3g +- %.3g" % (name, S1[i], S1c[i], ST[i], STc[i]))
    if not why:
        return None
    N = int(df.attrs.get("N", 0)) if N is None else int(N)
    D = len(names)
    return ("the confidence intervals are wide against the indices (%s): N = %d base points is too few for "
            "reliable indices; raise `instances` in the sweep file (instances = N x (2D + 2) = %d x %d here; "
            "4 times the base points roughly halves the intervals)"
            % ("; ".join(why[:4]) + ("; ..." if len(why) > 4 else ""), N, N, 2 * D + 2))


def sobol(res, signal, stat="max", num_resamples=1000, conf_level=0.95, seed=1, store=True, y=None):
    """First-order, total and second-order Sobol' indices of `stat` of `signal` (see the module
    docstring); a DataFrame by decreasing total index. y: another output of the design's
    instances (an array, one value per instance, in instance order) instead of the stored
    statistic, e.g. a function of /params (then nothing is stored)."""
    num_resamples, conf_level, seed = check_options(num_resamples, conf_level, seed)
    import pandas as pd
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
    names = problem["names"]
    N = y.size // (2 * len(names) + 2)
    _check_memory(N, num_resamples)
    try:
        from SALib.analyze import sobol as salib_sobol
    except ImportError as e:
        raise ResultsError("SALib cannot be imported (%s: %s); it is not a Debian 12 package: /usr/bin/python3 -m venv "
                           "--system-site-packages V && V/bin/pip install --no-deps SALib multiprocess dill"
                           % (type(e).__name__, e))
    Si = salib_sobol.analyze(problem, y, calc_second_order=True, num_resamples=num_resamples,
                             conf_level=conf_level, print_to_console=False, seed=seed)
    df = pd.DataFrame({k: np.asarray(Si[k]) for k in ("S1", "S1_conf", "ST", "ST_conf")},
                      index=pd.Index(names, name="parameter"))
    df = df.sort_values("ST", ascending=False)
    df.attrs.update(signal=signal, stat=stat, N=N, num_resamples=num_resamples, conf_level=conf_level, seed=seed)
    warn = accuracy_warning(df, N)
    if warn:
        df.attrs["warning"] = warn
        warnings.warn(warn, SobolAccuracyWarning, stacklevel=2)
    if store:
        version = importlib.metadata.version("SALib")
        check_output_path(path, "results file (the indices are stored in it; --no-store does not)")
        with h5py.File(path, "r+") as f:
            g = f.require_group("sobol").require_group(signal)
            if stat in g:
                del g[stat]
            h = g.create_group(stat)
            for k in ("S1", "S1_conf", "ST", "ST_conf", "S2", "S2_conf"):
                # checksummed like every dataset the engine writes (docs/results-format.md)
                h.create_dataset(k, data=np.asarray(Si[k], dtype=float), fletcher32=True)
            h.attrs["names"] = np.array([n.encode() for n in names])
            h.attrs["num_resamples"] = int(num_resamples)
            h.attrs["conf_level"] = float(conf_level)
            h.attrs["seed"] = int(seed)
            h.attrs["N"] = int(df.attrs["N"])
            h.attrs["salib_version"] = version
    return df


def _int_arg(text):
    """An integer option: decimal, or a number written with an exponent that is an integer
    (1e6); the range is check_options'."""
    try:
        return int(text)
    except ValueError:
        pass
    try:
        v = float(text)
    except ValueError:
        v = math.nan
    if math.isfinite(v) and v.is_integer():
        return int(v)
    raise argparse.ArgumentTypeError("not an integer: %r" % text)


def main(argv=None):
    p = argparse.ArgumentParser(prog="hydrosweep analyze", description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="what", required=True)
    s = sub.add_parser("sobol", help="first-order and total Sobol' indices (SALib) of a saltelli sweep")
    s.add_argument("input", help="results file of a sweep with method: saltelli")
    s.add_argument("--signal", required=True, help="recorded signal, e.g. p_piston")
    s.add_argument("--stat", default="max", help="statistic: min, max, final, mean, rms, t_max (default max)")
    s.add_argument("--resamples", type=_int_arg, default=1000, help="bootstrap resamples, 2 .. 10^6 (default 1000)")
    s.add_argument("--conf", type=float, default=0.95, help="confidence level, strictly between 0 and 1 "
                   "(default 0.95)")
    s.add_argument("--seed", type=_int_arg, default=1, help="seed of the bootstrap, 1 .. 2^32 - 1 (default 1)")
    s.add_argument("--no-store", action="store_true", help="do not write /sobol into the results file")
    c = sub.add_parser("cosim", help="each co-simulation configuration's largest stable H (Pub. III Table 4) from "
                       "a cosim_search sweep")
    c.add_argument("input", help="results file of a sweep with method: cosim_search")
    c.add_argument("--json", action="store_true", help="print the whole analysis as JSON instead of the tables")
    c.add_argument("--max-order", type=float, default=cosim_search.DEFAULT_MAX_ORDER,
                   help="the linear region's largest local order of E_res in H (default %g)"
                   % cosim_search.DEFAULT_MAX_ORDER)
    c.add_argument("--floor", type=float, default=cosim_search.DEFAULT_FLOOR,
                   help="residuals at most this (J) are in the linear region (default %g)" % cosim_search.DEFAULT_FLOOR)
    a = p.parse_args(argv)
    if a.what == "cosim":
        try:
            r = cosim_search.search(a.input, a.max_order, a.floor)
        except (ResultsError, OSError, ValueError) as e:
            sys.stderr.write("hydrosweep analyze: error: %s\n" % e)
            return 2
        print(cosim_search.to_json(r) if a.json else cosim_search.format_table(r))
        return 0
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", SobolAccuracyWarning)  # printed below, after the table
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
    if df.attrs.get("warning"):
        sys.stdout.flush()
        sys.stderr.write("hydrosweep analyze: warning: %s\n" % df.attrs["warning"])
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:  # the table piped into head and the like
        sys.stderr.close()
        sys.exit(0)
