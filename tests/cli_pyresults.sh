#!/usr/bin/env bash
# cli_pyresults.sh -- hydrosweep.open_results (python/hydrosweep/results.py) against the file
# itself: params, status (decoded), stats (xarray Dataset), traj(signal) and ensemble hold the
# very values of the HDF5 datasets (bit for bit), with the instances as the index, the units of
# the parameters and signals, and the finished mask of the status bits; an interrupted run's
# .part opens with partial=True (unwritten rows NaN, status -1) and is refused without it, as
# are a missing file and an unknown trajectory, with the reason.
# Usage: cli_pyresults.sh PATH/TO/hydrosweep   (from the repository root)
# Exit 77 (skipped) when no python3 has numpy, h5py, pandas and xarray
# (apt-get install python3-pandas python3-xarray; scripts/install-deps.sh installs them).
set -u
HS=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
ROOT=$(pwd)
. "$(dirname "${BASH_SOURCE[0]}")/lib_cli.sh"
need_python cli_pyresults numpy h5py pandas xarray
cd "$tmp" || exit 1
"$HS" run "$ROOT/tests/data/sweep_python.yaml" -b cpu -o r.h5 --no-progress >run.log 2>&1 || { cat run.log; exit 1; }
"$HS" run "$ROOT/tests/data/sweep_python.yaml" -b cpu -o p.h5 --no-progress --stop-after 1 >part.log 2>&1 ||
  { cat part.log; exit 1; }

PYTHONPATH=$ROOT/python "$PY" - <<'EOF'
import sys
import h5py
import numpy as np
import hydrosweep as hs
from hydrosweep.results import ResultsError

npass = nfail = 0


def check(cond, what):
    global npass, nfail
    if cond:
        npass += 1
    else:
        nfail += 1
        print("FAIL:", what)


def same(a, b):
    a, b = np.asarray(a), np.asarray(b)
    return a.shape == b.shape and np.array_equal(a, b, equal_nan=True)


f = h5py.File("r.h5", "r")
r = hs.open_results("r.h5")
inst = f["instance"][()]
check(r.complete and "20 instances, 9 finished" in repr(r), "repr: %r" % r)

p = r.params
names = [n.decode() for n in f["params"].attrs["names"]]
check(list(p.columns) == names and same(p.index.values, inst) and p.index.name == "instance",
      "params: columns %s, index instance" % list(p.columns))
check(same(p.values, f["params"][()]), "params: the stored values")
check(p.attrs["units"] == {"fluid.B_oil": "Pa", "integrator.max_iter": ""}, "params units %s" % p.attrs["units"])

s = r.status
st = f["status"][()]
check(same(s["status"].values, st), "status values")
check(same(s["finished"].values, (st & ~(512 | 1024)) == 0), "finished = no failure bit")
check(set(s.loc[s.status == 128, "bits"]) == {"invalid"} and set(s.loc[s.status == 1, "bits"]) == {"maxiter"}
      and set(s.loc[s.status == 0, "bits"]) == {""}, "bits decoded: %s" % sorted(set(s.bits)))
for col in ("steps", "newton_mean", "newton_max", "rejected_steps"):
    check(same(s[col].values, f[col][()]), "status." + col)

ds = r.stats
cols = [c.decode() for c in f.attrs["columns"]]
for sig in ("crank_angle", "p_piston", "W_lift"):
    vcols = [i for i, c in enumerate(cols) if c != "t_max"]
    check(ds[sig].dims == ("instance", "statistic") and same(ds[sig].values, f["stats/" + sig][()][:, vcols]),
          "stats %s: the stored values" % sig)
    check(same(r.t_max[sig].values, f["stats/" + sig][()][:, cols.index("t_max")])
          and r.t_max[sig].attrs["units"] == "s", "t_max %s: the stored times, in s" % sig)
check(list(ds["statistic"].values) == [c for c in cols if c != "t_max"] and same(ds["instance"].values, inst),
      "stats coordinates: the statistics in the signal's unit")
e = r.ensemble
check(str(e.sel(signal="p_piston", statistic="t_max")["units"].values) == "s"
      and str(e.sel(signal="p_piston", statistic="max")["units"].values) == "Pa", "ensemble: each statistic's unit")
check(ds["p_piston"].attrs["units"] == "Pa" and ds["crank_angle"].attrs["units"] == "rad"
      and ds["W_lift"].attrs["units"] == "J", "stats units")
arr = ds[["crank_angle", "p_piston", "W_lift"]].to_array("signal")
check(arr.dims == ("signal", "instance", "statistic") and arr.shape == (3, 20, len(vcols)), "to_array: %s" % (arr.dims,))
check(float(ds["p_piston"].sel(instance=0, statistic="max")) == f["stats/p_piston"][0, cols.index("max")],
      "stats.sel by instance and statistic")

t = r.traj("p_piston")
check(t.dims == ("instance", "time") and same(t["time"].values, f["traj/time"][()])
      and same(t.values, f["traj/p_piston"][()]) and t.attrs["units"] == "Pa", "traj p_piston")
check(r.traj("crank_angle_dot").attrs["units"] == "rad/s", "traj units of a joint rate")
try:
    r.traj("W_lift")
    check(False, "traj of an unrecorded trajectory raises")
except ResultsError as e:
    check("no trajectory of 'W_lift'" in str(e), "traj error names the signal: %s" % e)

e = r.ensemble
check(e.dims == ("signal", "statistic", "quantile") and list(e["quantile"].values) == [0.05, 0.5, 0.95],
      "ensemble dims")
for sig in ("crank_angle", "p_piston", "W_lift"):
    check(same(e.sel(signal=sig).values, f["ensemble/" + sig][()]), "ensemble %s" % sig)
# the plots take the Results object too
try:
    import matplotlib
    matplotlib.use("Agg")
    import hydrosweep.plot as hp
    fig = hp.fan(r, "p_piston")
    check(sorted(l.get_label() for l in fig.axes[0].get_lines()) == ["each instance's peak (every step)", "median"],
          "plot.fan(Results): the median line and the peaks")
    fig = hp.hist(r, "p_piston", "max")
    check(len(fig.axes) == 2, "plot.hist(Results): histogram and ECDF")
except ImportError:
    print("  (no matplotlib: the plots of a Results object not checked)")
r.close()

# an interrupted run
try:
    hs.open_results("p.h5")
    check(False, "a .part is refused without partial=True")
except ResultsError as ex:
    check("interrupted run" in str(ex) and "--resume" in str(ex), "the .part refusal says why: %s" % ex)
q = hs.open_results("p.h5", partial=True)
g = h5py.File("p.h5.part", "r")
chunk = int(g.attrs["chunk"])
done = g["done"][()]
rows = np.repeat(done.astype(bool), chunk)[:20]
check(not q.complete and int(done.sum()) == 1 and "INCOMPLETE" in repr(q), "partial: 1 chunk written")
check(same(q.status["status"].values[rows], g["status"][()][rows]) and (q.status["status"].values[~rows] == -1).all()
      and not q.finished[~rows].any(), "partial: unwritten rows status -1, not finished")
check(np.isnan(q.stats["p_piston"].values[~rows]).all()
      and same(q.stats["p_piston"].values[rows], g["stats/p_piston"][()][rows][:, vcols]), "partial: unwritten stats NaN")
check(np.isnan(q.params.values[~rows]).all(), "partial: unwritten params NaN")
q.close()
try:
    hs.open_results("missing.h5")
    check(False, "a missing file raises")
except ResultsError as ex:
    check("no such file" in str(ex), "missing file: %s" % ex)

print("cli_pyresults: %d passed, %d failed (%s)" % (npass, nfail, sys.executable))
sys.exit(1 if nfail else 0)
EOF
