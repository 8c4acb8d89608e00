#!/usr/bin/env bash
# cli_analyze_args.sh -- `hydrosweep analyze sobol` without SALib (tests/cli_analyze.sh needs
# it from PyPI): the options are checked before SALib is imported (resamples an integer 2 ..
# 10^6, conf strictly between 0 and 1, seed 1 .. 2^32 - 1; the bootstrap within half the
# machine's memory), with exit status 2 from the CLI and ValueError from hydrosweep.analyze.sobol;
# and the warning that the intervals are wide against the indices (too few base points N:
# raise instances in the sweep), from the rule (analyze.accuracy_warning) and through the CLI
# with a stand-in SALib whose indices are those of N = 16 (the design of
# tests/data/sweep_saltelli.yaml).
# Usage: cli_analyze_args.sh PATH/TO/hydrosweep   (from the repository root)
# Exit 77 (skipped) without a python3 with numpy, h5py and pandas.
set -u
HS=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
ROOT=$(pwd)
. "$(dirname "${BASH_SOURCE[0]}")/lib_cli.sh"
need_python cli_analyze_args numpy h5py pandas
cd "$tmp" || exit 1
if "$PY" -c "import SALib" >/dev/null 2>&1; then
  echo "cli_analyze_args: note: $PY has SALib; the stand-in is put before it"
fi
# a stand-in SALib: its sobol.analyze returns the indices SALib 1.6 gives for p_piston max of
# tests/data/sweep_saltelli.yaml with seed 5 (S1 above ST, intervals as wide as the values)
mkdir -p salib/SALib/analyze
: >salib/SALib/__init__.py
: >salib/SALib/analyze/__init__.py
cat >salib/SALib/analyze/sobol.py <<'PYEOF'
import numpy as np
def analyze(problem, Y, calc_second_order=True, num_resamples=100, conf_level=0.95, print_to_console=False, seed=None):
    D = problem["num_vars"]
    out = {"S1": np.array([0.3104, 0.0, 0.7319]), "S1_conf": np.array([0.2276, 0.0030, 0.5701]),
           "ST": np.array([0.0999, 0.0, 0.7454]), "ST_conf": np.array([0.0694, 0.0, 0.3619])}
    out = {k: v[:D] for k, v in out.items()}
    out["S2"] = out["S2_conf"] = np.full((D, D), np.nan)
    return out
PYEOF
"$HS" run "$ROOT/tests/data/sweep_saltelli.yaml" -b cpu -o s.h5 --no-progress >run.log 2>&1 && ok || bad "run: $(tail -3 run.log)"

# the CLI: bad options exit 2 with the reason, before SALib (the stand-in) is used
expect2() { # expect2 GREP ARGS...: analyze exits 2 and says GREP
  local want=$1; shift
  PYTHONPATH=$tmp/salib HS_PYTHON=$PY "$HS" analyze sobol s.h5 --signal p_piston --no-store "$@" >e.log 2>&1
  local rc=$?
  [ $rc -eq 2 ] && grep -qF -- "$want" e.log && ! grep -q "Traceback" e.log && ok || bad "analyze $* : rc $rc: $(cat e.log)"
}
R="bootstrap resamples (--resamples) must be 2 .. 1000000"
expect2 "$R, not 0" --resamples 0
expect2 "$R, not -1" --resamples -1
expect2 "$R, not 1000000000000" --resamples 1e12
expect2 "$R, not 1000000000000" --resamples 1000000000000
expect2 "$R, not 1 " --resamples 1
expect2 "argument --resamples: not an integer: '2.5'" --resamples 2.5
expect2 "confidence level (--conf) must be strictly between 0 and 1 (e.g. 0.95), not 1.5" --conf 1.5
expect2 "confidence level (--conf) must be strictly between 0 and 1 (e.g. 0.95), not nan" --conf nan
expect2 "confidence level (--conf) must be strictly between 0 and 1 (e.g. 0.95), not inf" --conf inf
expect2 "confidence level (--conf) must be strictly between 0 and 1 (e.g. 0.95), not 0.0" --conf 0
expect2 "seed of the bootstrap (--seed) must be 1 .. 4294967295, not -5" --seed -5
expect2 "seed of the bootstrap (--seed) must be 1 .. 4294967295, not 0" --seed 0
expect2 "seed of the bootstrap (--seed) must be 1 .. 4294967295, not 4294967296" --seed 4294967296
# good options: the table, then the warning (N = 16 is too few), exit 0
PYTHONPATH=$tmp/salib HS_PYTHON=$PY "$HS" analyze sobol s.h5 --signal p_piston --no-store --resamples 1000000 \
  --conf 0.9 --seed 4294967295 >o.log 2>e.log; rc=$?
[ $rc -eq 0 ] && grep -q "N = 16 base points, 1000000 bootstrap resamples, 90 % confidence" o.log && ok ||
  bad "good options: rc $rc: $(cat o.log e.log)"
grep -q "^hydrosweep analyze: warning: the confidence intervals are wide against the indices (valve.dcv.Cv: S1 0.732 +- 0.57; fluid.B_oil: ST 0.0999 +- 0.0694): N = 16 base points is too few for reliable indices; raise \`instances\` in the sweep file" e.log &&
  ok || bad "no warning of too few base points: $(cat e.log)"

# the Python function: ValueError before the file is read and before SALib is imported
PYTHONPATH=$ROOT/python "$PY" - <<'PYEOF' && ok || bad "hydrosweep.analyze.sobol option checks"
import math, os, sys
import pandas as pd
from hydrosweep import analyze
bad = [dict(num_resamples=0), dict(num_resamples=-1), dict(num_resamples=1e12), dict(num_resamples=1),
       dict(num_resamples="10"), dict(num_resamples=True), dict(num_resamples=2.5), dict(conf_level=1.5),
       dict(conf_level=math.nan), dict(conf_level=-0.1), dict(conf_level="0.9"), dict(seed=-5), dict(seed=0),
       dict(seed=2 ** 32), dict(seed=1.5)]
for kw in bad:
    try:
        analyze.sobol("no-such-file.h5", "p_piston", **kw)
    except ValueError as e:
        assert "must be" in str(e), (kw, e)
    else:
        sys.exit("accepted %r" % kw)
assert "SALib" not in sys.modules
assert analyze.check_options(1e3, 0.95, 7) == (1000, 0.95, 7)
# the bootstrap's memory: 96 bytes per base point and resample, at most half the machine's
phys = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
analyze._check_memory(16, 10 ** 6)
try:
    analyze._check_memory(int(phys // 96 // 10 ** 6) + 1, 10 ** 6)
    sys.exit("no memory error")
except ValueError as e:
    assert "GiB" in str(e) and "--resamples" in str(e), e
# the warning's rule
def df(rows, N):
    d = pd.DataFrame(rows, columns=["parameter", "S1", "S1_conf", "ST", "ST_conf"]).set_index("parameter")
    d.attrs["N"] = N
    return d
# Ishigami's indices at N = 8192 (tests/cli_analyze.sh): narrow intervals, a parameter without
# first-order effect: no warning
ish = df([("x1", 0.3139, 0.02, 0.5576, 0.025), ("x2", 0.4424, 0.025, 0.4424, 0.02),
          ("x3", 0.0003, 0.012, 0.2437, 0.012)], 8192)
assert analyze.accuracy_warning(ish) is None, analyze.accuracy_warning(ish)
# an uninfluential parameter with a relatively wide interval on a tiny index: no warning
assert analyze.accuracy_warning(df([("a", 0.9, 0.05, 0.95, 0.05), ("b", 0.001, 0.01, 0.002, 0.003)], 4096)) is None
w = analyze.accuracy_warning(df([("a", 0.6, 0.1, 0.7, 0.5), ("b", 0.1, 0.05, 0.2, 0.05)], 16))
assert w and "a: ST 0.7 +- 0.5" in w and "N = 16 base points is too few" in w and "instances" in w, w
w = analyze.accuracy_warning(df([("a", 0.9, 0.05, 0.5, 0.05)], 64))  # S1 above ST beyond the intervals
assert w and "a: S1 0.9 +- 0.05 above ST 0.5 +- 0.05" in w, w
w = analyze.accuracy_warning(df([("a", math.nan, math.nan, math.nan, math.nan)], 64))
assert w and "not finite" in w, w
PYEOF
finish cli_analyze_args
