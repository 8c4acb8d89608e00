#!/usr/bin/env bash
# cli_cavitation.sh -- entrained air and cavitation (kernels/hs_fluid.h) through the command
# line: `info` lists fluid.air_fraction and fluid.polytropic_index; simulate of the overrunning
# load tests/data/cavitation_lower.yaml prints no cavitation warning with 0.2 % air and warns
# with none (--set fluid.air_fraction=0); a Monte Carlo sweep over the air fraction, the bulk
# modulus and the polytropic index runs, passes `validate` (cpu against the reference backend),
# keeps every instance's rod-side minimum at or above p_vapour (1 kPa), and in a CUDA build the
# emulated device gives the cpu's statistics (h5diff 1e-6); `linearize` works on the cavitating
# state. Usage: cli_cavitation.sh PATH/TO/hydrosweep
set -u
HS=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
ROOT=$(pwd)
. "$(dirname "${BASH_SOURCE[0]}")/lib_cli.sh"
need_python cli_cavitation h5py
cd "$tmp"
M=$ROOT/tests/data/cavitation_lower.yaml

"$HS" info "$M" >info.txt 2>&1 && ok || bad "info: $(head -3 info.txt)"
grep -q '^fluid.air_fraction  *0.002 ' info.txt && grep -q '^fluid.polytropic_index  *1 ' info.txt && ok ||
  bad "info lists the air's parameters: $(grep fluid info.txt)"
"$HS" simulate "$M" -o air.csv >air.txt 2>&1 && ok || bad "simulate: $(tail -3 air.txt)"
! grep -q 'WARNING.*cavitation' air.txt && ok || bad "0.2 % air: a cavitation warning: $(grep cavitation air.txt)"
"$HS" simulate "$M" --set fluid.air_fraction=0 -o none.csv >none.txt 2>&1 && ok || bad "simulate, no air: $(tail -3 none.txt)"
grep -q 'WARNING          cavitation: p_rod fell below fluid.p_vapour' none.txt && ok ||
  bad "no air: no cavitation warning: $(grep -i warn none.txt)"

monte_carlo_sweep mc.yaml "$M" 6 5 "0.6 s" "p_rod, p_piston, theta1, Q_feed" \
  "fluid.air_fraction: {uniform: [0.001, 0.005]}" "fluid.B_oil: {uniform: [1.2 GPa, 1.8 GPa]}" \
  "fluid.polytropic_index: {uniform: [1, 1.4]}"
sweep_agrees "$HS" mc
"$PY" -c '
import sys, h5py
d = h5py.File(sys.argv[1])["stats/p_rod"]
lo = d[:, list(d.attrs["columns"]).index(b"min")]
print("cli_cavitation: rod-side minima %.0f..%.0f Pa" % (lo.min(), lo.max()))
sys.exit(0 if lo.min() >= 1e3 and lo.max() < 1e4 else 1)' mc.h5 && ok || bad "the rod side's minima not at the floor"
[ -x "$(dirname "$HS")/tests/hydrosweep_gpu_emul" ] || echo "cli_cavitation: the emulated device's run skipped (a build without CUDA)"
"$HS" linearize "$M" --at t=0.3 --json >lin.json 2>lin.err && ok || bad "linearize: $(tail -3 lin.err)"
"$PY" -c '
import sys, json, math
e = json.load(open(sys.argv[1]))["eigenvalues"]
sys.exit(0 if e and all(math.isfinite(a) and math.isfinite(b) for a, b in e) else 1)' lin.json && ok ||
  bad "linearize: eigenvalues not finite"
finish cli_cavitation
