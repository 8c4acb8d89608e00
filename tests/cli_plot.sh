#!/usr/bin/env bash
# cli_plot.sh -- `hydrosweep plot` (python/hydrosweep/plot.py) renders every kind headless:
# a fan chart (with the nominal instance simulated by hydrosweep itself, and with a given
# nominal CSV), a histogram, a scatter against a swept parameter, the status counts, and a
# `hydrosweep simulate` CSV; each PNG opens, is 800 x 500 pixels (8 x 5 in at 100 dpi) and is
# not blank (coloured pixels: the data, not only axes and text). The nominal line of a fan chart equals
# `hydrosweep simulate --from R --nominal`. Bad input exits 2 with the reason, a usage error
# 1, a missing matplotlib 4; nothing is written then.
# Usage: cli_plot.sh PATH/TO/hydrosweep   (from the repository root)
# Exit 77 (skipped) when no python3 has numpy, h5py and matplotlib
# (apt-get install python3-matplotlib python3-h5py; scripts/install-deps.sh installs them).
set -u
HS=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
ROOT=$(pwd)
. "$(dirname "${BASH_SOURCE[0]}")/lib_cli.sh"
need_python cli_plot numpy h5py matplotlib

# PNG check: opens, is W x H, and shows data, not only axes and text: more than 0.05 % of its
# pixels are coloured (max - min of R, G, B above 0.2; axes, text and a blank canvas are grey)
png_ok() {
  MPLBACKEND=Agg "$PY" - "$1" <<'EOF'
import sys
import matplotlib.image as mi
a = mi.imread(sys.argv[1])
h, w = a.shape[:2]
rgb = a[..., :3]
col = float(((rgb.max(axis=2) - rgb.min(axis=2)) > 0.2).mean())
print("%dx%d, %.1f %% coloured" % (w, h, 100 * col))
sys.exit(0 if (w, h) == (800, 500) and col > 0.0005 else 1)
EOF
}

cd "$tmp" || exit 1
"$HS" run "$ROOT/tests/data/sweep_python.yaml" -b cpu -o r.h5 --no-progress >run.log 2>&1 || { cat run.log; exit 1; }
"$HS" simulate "$ROOT/models/fourbar_rahikainen2018.yaml" --t-end 0.8 --every 10 -o sim.csv >/dev/null 2>&1

check() { # name, expected file, command...
  local name=$1 png=$2
  shift 2
  if "$@" >"$name.out" 2>&1 && [ -s "$png" ] && info=$(png_ok "$png"); then
    ok
    echo "  $name: $info"
  else
    bad "$name: $(tail -3 "$name.out") ${info:-}"
  fi
}
check fan fan.png "$HS" plot r.h5 --signal p_piston -o fan.png
grep -q "(fan, PNG)" fan.out && ok || bad "the default kind of a file with trajectories is fan"
check fan_given fan2.png "$HS" plot r.h5 --kind fan --signal crank_angle_dot --nominal sim.csv -o fan2.png
check fan_none fan3.png "$HS" plot r.h5 --kind fan --no-nominal -o fan3.png
check hist hist.png "$HS" plot r.h5 --kind hist --signal p_piston --stat max -o hist.png
check hist_tmax hist2.png "$HS" plot r.h5 --kind hist --signal crank_angle --stat t_max -o hist2.png
check scatter scatter.png "$HS" plot r.h5 --kind scatter --signal W_lift --param fluid.B_oil -o scatter.png
check status status.png "$HS" plot r.h5 --kind status -o status.png
check simulate sim.png "$HS" plot sim.csv --model "$ROOT/models/fourbar_rahikainen2018.yaml" -o sim.png

# the nominal line is `simulate --from R --nominal`, which runs the sweep's settings (0.8 s)
# with the model's own values: its first pressure is the model's equilibrium, 4.139958 MPa
"$HS" simulate --from r.h5 --nominal -o nom.csv >nom.log 2>&1 && grep -q "nominal instance" nom.log &&
  [ "$(tail -1 nom.csv | cut -d, -f1)" = "0.8" ] && [ "$(sed -n 2p nom.csv | cut -d, -f9)" = "4139958.0499" ] &&
  ok || bad "simulate --from R --nominal: $(tail -2 nom.log) / $(sed -n 2p nom.csv | cut -c1-80)"
"$HS" simulate --from r.h5 --nominal --instance 2 -o x.csv >x.log 2>&1
[ $? -eq 1 ] && grep -q "either --instance I or --nominal" x.log && ok || bad "--nominal with --instance is a usage error"
"$HS" simulate "$ROOT/models/fourbar_rahikainen2018.yaml" --nominal -o x.csv >x.log 2>&1
[ $? -eq 1 ] && grep -q "goes with --from" x.log && ok || bad "--nominal without --from is a usage error"

# bad input: exit 2, the reason, no PNG
expect() { # code, message piece, command...
  local code=$1 msg=$2
  shift 2
  rm -f e.png
  "$@" >e.out 2>&1
  local rc=$?
  if [ $rc -eq "$code" ] && grep -q -- "$msg" e.out && [ ! -e e.png ]; then ok; else
    bad "expected exit $code and '$msg' from $*: got $rc: $(tail -2 e.out)"; fi
}
expect 2 "no such file" "$HS" plot nothere.h5 -o e.png
expect 2 "was not recorded" "$HS" plot r.h5 --kind hist --signal p_nothing -o e.png
expect 2 "was not stored" "$HS" plot r.h5 --kind hist --signal p_piston --stat median -o e.png
expect 2 "was not swept" "$HS" plot r.h5 --kind scatter --param fluid.rho -o e.png
expect 2 "no trajectory of 'W_lift'" "$HS" plot r.h5 --kind fan --signal W_lift -o e.png
cp r.h5 r2.h5.part
expect 2 "interrupted run" "$HS" plot r2.h5.part -o e.png
expect 1 "usage: hydrosweep plot" "$HS" plot r.h5
cp r.h5 keep.h5
"$HS" plot keep.h5 -o keep.h5 >e.out 2>&1
[ $? -eq 2 ] && grep -q "would be overwritten" e.out && cmp -s keep.h5 r.h5 && ok || bad "-o the results file itself: refused, file kept: $(tail -1 e.out)"
"$HS" plot r.h5 -o nodir/x.png >e.out 2>&1
[ $? -eq 2 ] && grep -q "nodir/x.png" e.out && ok || bad "-o into a missing directory: exit 2 naming it: $(tail -1 e.out)"
expect 4 "no python3 with numpy, h5py and matplotlib" env HS_PYTHON=/bin/false "$HS" plot r.h5 -o e.png

# the same functions from Python: hs.plot.fan returns a Figure of the same size
PYTHONPATH=$ROOT/python MPLBACKEND=Agg "$PY" - <<'EOF' >py.out 2>&1 && ok || bad "hydrosweep.plot from Python: $(tail -3 py.out)"
import hydrosweep.plot as hp
fig = hp.fan("r.h5", "p_piston", nominal="nom.csv")
w, h = fig.get_size_inches() * fig.dpi
assert (round(w), round(h)) == (800, 500), (w, h)
lines = {l.get_label(): l for l in fig.axes[0].get_lines()}
assert sorted(lines) == ["each instance's peak (every step)", "median", "nominal"], sorted(lines)
import h5py, numpy as np
f = h5py.File("r.h5", "r")
t = f["traj/time"][()]
xn = lines["nominal"].get_xdata()
assert np.allclose(xn, t, rtol=0, atol=1e-12), (xn, t)  # the dense nominal, at the sample times
# the peak dots are the per-instance maxima at full step resolution, not the sampled ones
ym = lines["each instance's peak (every step)"].get_ydata()
cols = [c.decode() if isinstance(c, bytes) else c for c in f.attrs["columns"]]
pmax = f["stats/p_piston"][()][:, cols.index("max")]
pmax = pmax[hp._finished(f)[1]]
pmax = pmax[np.isfinite(pmax)]
k = hp._signal_scale(f, "p_piston")[0]
assert len(ym) == len(pmax) and np.isclose(ym.max(), pmax.max() * k, rtol=1e-12), (ym.max(), pmax.max(), k)
print("ok")
EOF

finish cli_plot "$PY"
