#!/usr/bin/env bash
# cli_stability.sh -- stability maps (outputs.eigenvalues; sweeps/stability_grid.yaml): every
# instance linearized at its own static equilibrium, /eig written (re, im, max_real,
# min_damping, status); the same values on the cpu and reference backends and from shards
# merged; one instance equal to `hydrosweep linearize` with its values; the map's character
# (overdamped at soft oil, oscillatory at low static friction and stiff oil); the Python
# reader (Results.eig) and `hydrosweep plot --kind stability`.
# Usage: cli_stability.sh PATH/TO/hydrosweep   (from the repository root)
# Exit 77 (skipped) when no python3 has numpy and h5py.
set -u
HS=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
ROOT=$(pwd)
. "$(dirname "${BASH_SOURCE[0]}")/lib_cli.sh"
need_python cli_stability numpy h5py
S=$ROOT/sweeps/stability_grid.yaml
cd "$tmp" || exit 1
for b in cpu reference; do
  "$HS" run "$S" -b $b -o $b.h5 --no-progress >$b.log 2>&1 && ok || { bad "run -b $b: $(tail -3 $b.log)"; }
done
"$HS" run "$S" -b cpu -o s0.h5 --shard 0/2 --no-progress >/dev/null 2>&1 &&
  "$HS" run "$S" -b cpu -o s1.h5 --shard 1/2 --no-progress >/dev/null 2>&1 &&
  "$HS" merge m.h5 s0.h5 s1.h5 >/dev/null 2>&1 && ok || bad "shards and merge"
# an interrupted run resumed: chunks of 16, two written, then the rest
sed 's/^seed: 1$/seed: 1\nchunk: 16/' "$S" >chunked.yaml
sed -i "s#^model: ../models/#model: $ROOT/models/#" chunked.yaml
"$HS" run chunked.yaml -b cpu -o r.h5 --stop-after 2 --no-progress >/dev/null 2>&1 &&
  [ -f r.h5.part ] && "$HS" run chunked.yaml -b cpu -o r.h5 --resume --no-progress >/dev/null 2>&1 && ok ||
  bad "stop-after and resume"
# instance 13: F_s = the grid's second value, B_oil its second (F_s varies fastest)
"$HS" linearize "$ROOT/models/fourbar3d_agundez2023.yaml" --set cylinder.lift.friction.Fs=285.22727272727275 \
  --set fluid.B_oil=1000000000 --json >one.json 2>&1 && ok || bad "linearize one: $(cat one.json)"

"$PY" - <<'PYEOF' && ok || bad "the /eig datasets"
import json, sys
import h5py, numpy as np
c, r, m, rs = h5py.File("cpu.h5"), h5py.File("reference.h5"), h5py.File("m.h5"), h5py.File("r.h5")
assert c.attrs["eig_size"] == 6, c.attrs["eig_size"]
for k in ("re", "im", "max_real", "min_damping", "status"):
    a = c["eig/" + k][()]
    for o, name in ((r, "reference"), (m, "merged shards"), (rs, "resumed")):
        b = o["eig/" + k][()]
        assert a.shape == b.shape and np.array_equal(a, b, equal_nan=True), (k, name)
st = c["eig/status"][()]
assert (st == 0).all(), st
re, im = c["eig/re"][()], c["eig/im"][()]
assert re.shape == (72, 6)
# sorted by decreasing real part, two exact zeros, -1/tau in every instance
assert (np.diff(re, axis=1) <= 0).all()
assert ((re == 0) & (im == 0)).sum(axis=1).tolist() == [2] * 72
assert (np.abs(re + 1 / 0.0045) < 1e-9).any(axis=1).all()
P = c["params"][()]
md, mr = c["eig/min_damping"][()], c["eig/max_real"][()]
# soft oil (500 MPa): overdamped everywhere; stiff oil and low static friction: oscillatory
assert np.all(md[P[:, 1] == 5e8] == 1.0), md[P[:, 1] == 5e8]
low = (P[:, 1] == 3e9) & (P[:, 0] == 210.0)
assert md[low][0] < 0.6, md[low]
assert (mr < 0).all(), mr.max()
# instance 13 equals hydrosweep linearize with its values
j = json.load(open("one.json"))
assert abs(P[13, 0] - 285.22727272727275) < 1e-9 and P[13, 1] == 1e9, P[13]
ev = np.array(j["eigenvalues"])
assert np.allclose(ev[:, 0], re[13], rtol=1e-12, atol=0) and np.allclose(ev[:, 1], im[13], rtol=1e-12, atol=0), (ev, re[13], im[13])
print("eig ok: min damping %.4f .. %.4f" % (md.min(), md.max()))
PYEOF

# Results.eig and the stability plot
PYP=$(python_with numpy h5py pandas xarray)
if [ -n "$PYP" ]; then
  PYTHONPATH=$ROOT/python "$PYP" -c "
import hydrosweep as hs
r = hs.open_results('cpu.h5')
e = r.eig
assert e['re'].shape == (72, 6) and e['min_damping'].shape == (72,) and int(e['status'].max()) == 0
assert e['re'].attrs['units'] == '1/s'
" && ok || bad "Results.eig"
fi
PYM=$(python_with numpy h5py matplotlib)
if [ -n "$PYM" ]; then
  "$HS" plot cpu.h5 --kind stability -o map.png >plot.log 2>&1 && [ -s map.png ] && ok || bad "plot stability: $(cat plot.log)"
  MPLBACKEND=Agg "$PYM" -c "
import matplotlib.image as mi
a = mi.imread('map.png'); h, w = a.shape[:2]
rgb = a[..., :3]; col = float(((rgb.max(axis=2) - rgb.min(axis=2)) > 0.2).mean())
assert (w, h) == (800, 500) and col > 0.05, (w, h, col)
" && ok || bad "map.png size or blank"
  "$HS" plot cpu.h5 --kind stability --param fluid.B_oil --param cylinder.lift.friction.Fs --what max_real -o map2.png \
    >/dev/null 2>&1 && ok || bad "plot stability max_real"
  "$HS" plot cpu.h5 --kind stability --param nope -o bad.png >plot.log 2>&1; rc=$?
  [ $rc -eq 2 ] && grep -q "'nope' was not swept" plot.log && ok || bad "plot stability bad param rc $rc: $(cat plot.log)"
  "$HS" run "$ROOT/tests/data/sweep_small.yaml" -b cpu -o noeig.h5 --no-progress >/dev/null 2>&1
  "$HS" plot noeig.h5 --kind stability -o bad.png >plot.log 2>&1; rc=$?
  [ $rc -eq 2 ] && grep -q "no eigenvalues" plot.log && ok || bad "plot stability without /eig rc $rc: $(cat plot.log)"
fi
# a model with a nonholonomic constraint (l = 1): the knife-edge pendulum hanging at rest over
# the skate's mass and link2's length; 5 eigenvalues each, one of them the spurious zero,
# the same on both backends; the nominal instance's pair +-5.4249423960075i of
# `hydrosweep linearize` (tests/cli_linearize.sh)
sed -e 's/^\(    z0: \)-75 deg /\1-90 deg /; s/^\(    z0: \)15 deg /\10 deg /; s/^\(    z0: \)5 deg /\10 deg /' \
  "$ROOT/models/knife_edge_pendulum.yaml" >ke.yaml
printf 'model: ke.yaml\nmethod: grid\nsimulation: {t_end: 0.2 s}\nparameters:\n  body.skate.mass: {range: {from: 1 kg, to: 3 kg, n: 3}}\n  body.link2.length: {range: {from: 0.6 m, to: 1.0 m, n: 3}}\noutputs:\n  signals: [j1]\n  eigenvalues: true\n' >ke_map.yaml
for b in cpu reference; do
  "$HS" run ke_map.yaml -b $b -o ke_$b.h5 --no-progress >ke_$b.log 2>&1 && ok || bad "knife edge map -b $b: $(tail -3 ke_$b.log)"
done
"$PY" - <<'PYEOF' && ok || bad "knife edge map content"
import h5py, numpy as np
c, r = h5py.File("ke_cpu.h5"), h5py.File("ke_reference.h5")
assert c.attrs["eig_size"] == 5, c.attrs["eig_size"]
assert (c["eig/status"][:] == 0).all(), c["eig/status"][:]
re, im = c["eig/re"][:], c["eig/im"][:]
assert all(((re[i] == 0) & (im[i] == 0)).sum() == 1 for i in range(9)), (re, im)
assert np.abs(re).max() < 1e-10 * np.abs(im).max()
assert np.allclose(c["eig/im"][:], r["eig/im"][:], rtol=1e-9, atol=1e-9 * np.abs(im).max())
nominal = np.abs(im[4])   # skate 2 kg, link2 0.8 m: the model's values
assert np.isclose(nominal, 5.4249423960075, rtol=1e-12).sum() == 2, nominal
PYEOF
finish cli_stability
