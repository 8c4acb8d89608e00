#!/usr/bin/env bash
# cli_analyze.sh -- Sobol' sensitivity indices: a sweep with method: saltelli samples exactly
# SALib's Saltelli design (SALib.sample.sobol.sample with scramble=False and the documented
# skip: bit-identical values), and `hydrosweep analyze sobol` gives, and stores in /sobol, the
# indices SALib.analyze.sobol computes from the same statistic with the same seed; bad input
# (not a saltelli sweep, an unknown signal, failed instances, --resamples, --conf or --seed out
# of range) exits 2 with the reason, no SALib exits 4; N = 16 base points draw the warning that
# the intervals are too wide (raise instances); and the whole chain (the C design, the analysis)
# gives Ishigami's known indices within their confidence intervals, without that warning.
# Usage: cli_analyze.sh PATH/TO/hydrosweep   (from the repository root)
# SALib is not a Debian package: it is installed into a virtual environment here by the recipe
# that `hydrosweep analyze --help` prints (and the README gives): a venv of Debian's python3 made
# with --system-site-packages, pip install --no-deps SALib multiprocess dill (from PyPI; numpy,
# scipy, pandas and matplotlib are Debian's: without --no-deps pip would bring a newer numpy that
# Debian's h5py cannot import); exit 77 (skipped) when that cannot be done (no network, no venv,
# no scipy). tests/cli_analyze_args.sh checks the options and the warning without SALib.
set -u
HS=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
ROOT=$(pwd)
. "$(dirname "${BASH_SOURCE[0]}")/lib_cli.sh"
PY=$(python_with numpy h5py pandas scipy venv)
if [ -z "$PY" ] || ! "$PY" -c "import ensurepip" >/dev/null 2>&1; then
  echo "cli_analyze: SKIPPED: no python3 with numpy, h5py, pandas, scipy and venv (scripts/install-deps.sh)"
  exit 77
fi
# the recipe of `hydrosweep analyze --help`, V being the venv: its venv and pip lines
"$HS" analyze --help >"$tmp/help.log" 2>&1
mkvenv=$(sed -n 's#^ *\(/usr/bin/python3 -m venv --system-site-packages\) V$#\1#p' "$tmp/help.log")
pipargs=$(sed -n 's#^ *V/bin/pip install \(--no-deps SALib.*\)$#\1#p' "$tmp/help.log")
if [ -z "$mkvenv" ] || [ -z "$pipargs" ] || ! grep -qF "pip install $pipargs" "$ROOT/README.md"; then
  bad "analyze --help (and the README) give no recipe of the form '/usr/bin/python3 -m venv --system-site-packages V'" \
      "'V/bin/pip install --no-deps SALib ...': $(cat "$tmp/help.log")"
  finish cli_analyze
  exit 1
fi
mkvenv=${mkvenv/\/usr\/bin\/python3/$PY}
if ! $mkvenv "$tmp/venv" >"$tmp/venv.log" 2>&1 ||
   ! timeout 120 "$tmp/venv/bin/pip" install -q $pipargs >"$tmp/pip.log" 2>&1; then
  echo "cli_analyze: SKIPPED: SALib could not be installed from PyPI: $(tail -2 "$tmp/pip.log" 2>/dev/null)"
  exit 77
fi
VPY=$tmp/venv/bin/python
cd "$tmp" || exit 1
"$HS" run "$ROOT/tests/data/sweep_saltelli.yaml" -b cpu -o s.h5 --no-progress >run.log 2>&1 && ok || bad "run: $(tail -3 run.log)"
# the design is SALib's, bit for bit
"$VPY" - <<'PYEOF' && ok || bad "design differs from SALib's"
import sys, warnings
warnings.simplefilter("ignore")
import h5py, numpy as np
from SALib.sample import sobol
f = h5py.File("s.h5")
P = f["params"][()]
assert f.attrs["method"] in (b"saltelli", "saltelli"), f.attrs["method"]
prob = {"num_vars": 3, "names": ["B", "eta", "Cv"], "bounds": [[1e9, 2e9], [0.8, 0.95], [1.5e-8, 3e-8]]}
X = sobol.sample(prob, 16, calc_second_order=True, scramble=False, skip_values=16)
if not np.array_equal(X, P):
    print("max difference", np.abs(X - P).max()); sys.exit(1)
PYEOF
out=$(HS_PYTHON=$VPY "$HS" analyze sobol s.h5 --signal p_piston --stat max --seed 5 2>&1); rc=$?
[ $rc -eq 0 ] && grep -q "rank  parameter" <<<"$out" && grep -q "stored: s.h5:/sobol/p_piston/max" <<<"$out" && ok ||
  bad "analyze rc $rc: $out"
# N = 16 base points: intervals as wide as the indices, and S1 above ST: the warning says so
grep -q "^hydrosweep analyze: warning: the confidence intervals are wide against the indices (.*N = 16 base points is too few for reliable indices; raise \`instances\` in the sweep file" <<<"$out" &&
  ok || bad "no warning of too few base points: $out"
# the stored indices equal SALib's own analysis of the same column with the same seed
"$VPY" - <<'PYEOF' && ok || bad "stored indices differ from SALib's"
import sys, warnings
warnings.simplefilter("ignore")
import h5py, numpy as np
from SALib.analyze import sobol
f = h5py.File("s.h5")
cols = [c.decode() for c in f.attrs["columns"]]
Y = f["stats/p_piston"][()][:, cols.index("max")]
names = [n.decode() for n in f["params"].attrs["names"]]
Si = sobol.analyze({"num_vars": 3, "names": names, "bounds": [[0, 1]] * 3}, Y, calc_second_order=True,
                   num_resamples=1000, conf_level=0.95, seed=5)
g = f["sobol/p_piston/max"]
for k in ("S1", "S1_conf", "ST", "ST_conf", "S2"):
    a, b = g[k][()], np.asarray(Si[k])
    if not np.array_equal(a, b, equal_nan=True):
        print(k, a, b); sys.exit(1)
assert [n.decode() for n in g.attrs["names"]] == names and g.attrs["N"] == 16 and g.attrs["seed"] == 5
# checksummed like the engine's datasets
assert all(g[k].fletcher32 for k in ("S1", "S1_conf", "ST", "ST_conf", "S2", "S2_conf")), "fletcher32"
# the valve's flow coefficient drives the peak piston pressure of the valve opening most
assert names[int(np.argmax(g["ST"][()]))] == "valve.dcv.Cv", g["ST"][()]
PYEOF
# an analytic function of the design: Ishigami's (a = 7, b = 0.1) on x = gravity in
# [-pi, pi]^3 (a model that one step suffices for), whose indices are known: S1 = 0.3139,
# 0.4424, 0 and ST = 0.5576, 0.4424, 0.2437 (Saltelli et al. 2008, Sect. 4.9)
cat >ishigami.yaml <<YEOF
model: $ROOT/models/double_pendulum.yaml
method: saltelli
instances: 8192
seed: 1
simulation: {t_end: 1 ms, dt: 1 ms}
parameters:
  gravity.x: {uniform: [-3.141592653589793, 3.141592653589793]}
  gravity.y: {uniform: [-3.141592653589793, 3.141592653589793]}
  gravity.z: {uniform: [-3.141592653589793, 3.141592653589793]}
outputs:
  signals: [j1]
YEOF
"$HS" run ishigami.yaml -b cpu -o ish.h5 --no-progress >ish.log 2>&1 && ok || bad "ishigami run: $(tail -3 ish.log)"
PYTHONPATH=$ROOT/python "$VPY" - <<'PYEOF' && ok || bad "Ishigami indices"
import warnings
warnings.simplefilter("ignore")
import h5py, numpy as np
from hydrosweep import analyze
X = h5py.File("ish.h5")["params"][()]
y = np.sin(X[:, 0]) + 7 * np.sin(X[:, 1]) ** 2 + 0.1 * X[:, 2] ** 4 * np.sin(X[:, 0])
df = analyze.sobol("ish.h5", "j1", "max", y=y, seed=2)
assert "warning" not in df.attrs, df.attrs["warning"]  # N = 8192: narrow intervals
df = df.loc[["gravity.x", "gravity.y", "gravity.z"]]
S1, ST = [0.3139, 0.4424, 0.0], [0.5576, 0.4424, 0.2437]
for k, (name, r) in enumerate(df.iterrows()):
    print("  %s: S1 %.4f +- %.4f (known %.4f), ST %.4f +- %.4f (known %.4f)"
          % (name, r.S1, r.S1_conf, S1[k], r.ST, r.ST_conf, ST[k]))
    assert abs(r.S1 - S1[k]) <= r.S1_conf and abs(r.ST - ST[k]) <= r.ST_conf, name
PYEOF

# bad input
HS_PYTHON=$VPY "$HS" analyze sobol s.h5 --signal nope >e.log 2>&1; rc=$?
[ $rc -eq 2 ] && grep -q "no signal 'nope'" e.log && ok || bad "unknown signal rc $rc: $(cat e.log)"
"$HS" run "$ROOT/tests/data/sweep_small.yaml" -b cpu -o mc.h5 --no-progress >/dev/null 2>&1
HS_PYTHON=$VPY "$HS" analyze sobol mc.h5 --signal p_piston >e.log 2>&1; rc=$?
[ $rc -eq 2 ] && grep -q "need a sweep with method: saltelli" e.log && ok || bad "not saltelli rc $rc: $(cat e.log)"
for a in "--resamples 0" "--resamples -1" "--resamples 1e12" "--conf 1.5" "--conf nan" "--seed -5"; do
  HS_PYTHON=$VPY "$HS" analyze sobol s.h5 --signal p_piston --no-store $a >e.log 2>&1; rc=$?
  [ $rc -eq 2 ] && grep -q "^hydrosweep analyze: error: the .* must be" e.log && ! grep -q Traceback e.log && ok ||
    bad "analyze $a: rc $rc: $(cat e.log)"
done
HS_PYTHON=/nonexistent/python "$HS" analyze sobol s.h5 --signal p_piston >e.log 2>&1; rc=$?
[ $rc -eq 4 ] && grep -qF "/nonexistent/python (HS_PYTHON): not found" e.log &&
  grep -qF "pip install --no-deps SALib multiprocess dill" e.log && ok || bad "no SALib rc $rc: $(cat e.log)"
"$HS" analyze >e.log 2>&1; rc=$?
[ $rc -eq 1 ] && grep -q "usage: hydrosweep analyze sobol" e.log && ok || bad "usage rc $rc"
finish cli_analyze
