#!/usr/bin/env bash
# cli_linearize.sh -- `hydrosweep linearize` (host/cli/cli_linearize.c): the seed 001 four-bar's
# sizes, independent coordinate and eigenvalues as text (17 significant digits, two zeros,
# -1/tau) and as JSON (size, jacobian rows, eigenvalues as [re, im], the same values as the
# text), --compare and --fd-sweep, --at t=T, --set; bad arguments exit 1 and bad models or
# parameters 2 with the reason, a point that cannot be reached 3.
# Usage: cli_linearize.sh PATH/TO/hydrosweep   (from the repository root)
set -u
HS=$1
M=models/fourbar3d_agundez2023.yaml
. "$(dirname "${BASH_SOURCE[0]}")/lib_cli.sh"

out=$("$HS" linearize "$M" 2>&1); rc=$?
[ $rc -eq 0 ] && ok || bad "linearize rc $rc: $out"
grep -q "n = 3 coordinates, m = 2 independent holonomic constraints (of 5 equations), l = 0 nonholonomic, r = 3 pressures, 0 friction states, u = 1 spools" <<<"$out" && ok || bad "sizes line: $out"
grep -q "Jacobian: 6 x 6" <<<"$out" && ok || bad "Jacobian size"
grep -q "independent coordinates: phi2" <<<"$out" && ok || bad "independent coordinate"
[ "$(grep -cE '^ +[0-9]+  0 +0 ' <<<"$out")" -eq 2 ] && ok || bad "two exact zeros: $out"
grep -qE '^ +[0-9]+  -222\.2222222222222 +0 ' <<<"$out" && ok || bad "-1/tau = -222.2222222222222 with 16+ digits"
grep -q "p_valve              2820478.97" <<<"$out" && ok || bad "equilibrium pressure"

# JSON: parses, size 6, 6 x 6 rows, eigenvalues equal to the text's to the last digit
PY=$(python_with json)
if [ -n "$PY" ]; then
  "$HS" linearize "$M" --json >"$tmp/l.json" 2>&1 && ok || bad "json rc"
  "$PY" - "$tmp/l.json" <<<"$out" <<'PYEOF' && ok || bad "json content"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["size"] == 6 and j["sizes"]["m"] == 2 and j["independent"] == ["phi2"], j["sizes"]
assert len(j["jacobian"]) == 6 and all(len(r) == 6 for r in j["jacobian"])
ev = j["eigenvalues"]
assert len(ev) == 6 and all(len(e) == 2 for e in ev)
assert sum(1 for e in ev if e == [0, 0]) == 2, ev
assert any(abs(e[0] + 1 / 0.0045) < 1e-9 and e[1] == 0 for e in ev), ev
assert j["mode"].count("spool") == 1 and j["method"] == "exact" and j["at_rest"] is True
PYEOF
else
  echo "cli_linearize: no python3: the JSON checks skipped"
fi

# the counterparts agree; the step sweep converges
out=$("$HS" linearize "$M" --compare --fd-sweep 2>&1); rc=$?
[ $rc -eq 0 ] && ok || bad "compare rc $rc"
grep -qE "compare: conventional \(10 x 10, central differences\): eigenvalues differ from these by at most [0-9.]+e-(0[7-9]|1[0-9]) relative; its 4 extra eigenvalues" <<<"$out" && ok || bad "conventional: $out"
grep -qE "^  1e-06 +[0-9.]+e-1[2-9] " <<<"$out" && ok || bad "fd sweep at 1e-6: $out"

# friction scaled by 1/100 (seed 001's third scenario): an oscillating pair
out=$("$HS" linearize "$M" --set cylinder.lift.friction.Fc=2.1 --set cylinder.lift.friction.Fs=8.3 \
      --set cylinder.lift.friction.sigma2=3.3 2>&1)
grep -qE "0\.01[0-9]+ +86\.[0-9]+ " <<<"$out" && ok || bad "low friction: damping 0.016, 87 Hz: $out"

# a nonholonomic constraint (l = 1): the knife-edge pendulum hanging at rest, 5 x 5 with one
# spurious zero; the conventional counterpart 6 x 6 with 2(m + l) = 2 near-zeros
KE="models/knife_edge_pendulum.yaml --set joint.j1.z0=-90deg --set joint.j2.z0=0 --set joint.j3.z0=0 --set joint.j3.zdot0=0 --at t=0"
out=$("$HS" linearize $KE --compare 2>&1); rc=$?
[ $rc -eq 0 ] && ok || bad "knife edge rc $rc: $out"
grep -q "m = 0 independent holonomic constraints (of 0 equations), l = 1 nonholonomic" <<<"$out" && ok || bad "knife edge sizes: $out"
grep -q "Jacobian: 5 x 5" <<<"$out" && ok || bad "knife edge: 5 x 5"
grep -q "independent coordinates: j2 j3; rates fixed by the nonholonomic constraints (z_ad, eq. 29): j1" <<<"$out" && ok || bad "knife edge partition: $out"
[ "$(grep -cE '^ +[0-9]+  0 +0 ' <<<"$out")" -eq 1 ] && ok || bad "knife edge: one spurious zero: $out"
grep -qE "^ +[0-9]+  [-0-9.e]+ +5\.42494239600755[0-9]* " <<<"$out" && grep -qE "^ +[0-9]+  [-0-9.e]+ +9\.87354419648788[0-9]* " <<<"$out" && ok || bad "knife edge: +-5.4249i, +-9.8735i: $out"
grep -qE "compare: conventional \(6 x 6, central differences\): eigenvalues differ from these by at most [0-9.]+e-(09|1[0-9]) relative; its 1 extra eigenvalues and its 1 matched to these zeros are at most [0-9.]+e-0[5-9] in modulus" <<<"$out" && ok || bad "knife edge conventional: $out"
if [ -n "$PY" ]; then
  "$HS" linearize $KE --json >"$tmp/k.json" 2>&1 && ok || bad "knife edge json rc"
  "$PY" - "$tmp/k.json" <<'PYEOF' && ok || bad "knife edge json content"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["size"] == 5 and j["sizes"]["l"] == 1 and j["independent"] == ["j2", "j3"] and j["rate_dependent"] == ["j1"], j
assert sum(1 for e in j["eigenvalues"] if e == [0, 0]) == 1, j["eigenvalues"]
assert len(j["jacobian"]) == 5 and j["states"] == ["j2", "j3", "j2_dot", "j3_dot", "j1"], j.get("states")
PYEOF
fi

# a moving state of a simulation
out=$("$HS" linearize models/fourbar_rahikainen2018.yaml --at t=2 --method fd 2>&1); rc=$?
[ $rc -eq 0 ] && grep -q "the simulated state at t = 2 s" <<<"$out" && ok || bad "--at t=2: $out"

# a mechanism that gravity moves has no static equilibrium there: said, not hidden
out=$("$HS" linearize models/double_pendulum.yaml 2>&1); rc=$?
[ $rc -eq 0 ] && grep -q "which is NOT a static equilibrium" <<<"$out" && ok || bad "not at rest: $out"

# bad input: usage 1, model or parameter 2, unreachable point 3, each with its reason
chk() { # want_rc pattern args...
  local want=$1 pat=$2
  shift 2
  local o r
  o=$("$HS" linearize "$@" 2>&1); r=$?
  if [ $r -eq "$want" ] && grep -q -- "$pat" <<<"$o"; then ok; else bad "linearize $* -> rc $r (want $want, '$pat'): $o"; fi
}
chk 1 "--at takes 'equilibrium' or 't=T'" "$M" --at rest
chk 1 "--at t=T needs a time T >= 0" "$M" --at t=-1
chk 1 "--method takes exact, fd or conventional" "$M" --method ad
chk 1 "--fd-step needs a number in (0, 1)" "$M" --fd-step 2
chk 1 "unknown option '--bogus'" "$M" --bogus
chk 1 "usage: hydrosweep linearize" 
chk 2 "nonexistent.yaml" nonexistent.yaml
chk 2 "cylinder.lift.friction.Fq" "$M" --set cylinder.lift.friction.Fq=1
# the components (kernels/hs_components.h): models/crane_pump_relief.yaml's pump line, with the
# valve closed, is a capacitance C (the line's V/Be and the accumulator's V_g/(n p) plus the
# oil it holds) discharged by the relief valve's gradient Q_nom/dp_override and the pump's
# leakage: its eigenvalue is -G/C, computed here from the model's numbers
out=$("$HS" linearize models/crane_pump_relief.yaml 2>&1); rc=$?
[ $rc -eq 0 ] && ok || bad "linearize crane_pump_relief rc $rc: $out"
lam=$(awk 'BEGIN { p = 8.25e6; V0 = 0.5e-3; pp = 5e6; n = 1.4; B = 1.5e9;
  vg = V0 * (pp / p)^(1 / n); C = 1e-4 / B + 1e-4 / 1.5e9 + vg / (n * p) + (V0 - vg) / B;
  qg = 7e-6 * 1450 / 60; G = (20e-3 / 60) / 10e5 + (1 - 0.95) * qg / 200e5; printf "%.10g", -G / C }')
awk -v lam="$lam" '/^ +[0-9]+  -?[0-9.e+-]+ +0 +1.000000 +0 +pressure/ { if (($2 - lam) / lam < 1e-3 && ($2 - lam) / lam > -1e-3) f = 1 }
  END { exit !f }' <<<"$out" && ok || bad "the pump line's eigenvalue -G/C = $lam 1/s: $out"

# a motor (tests/data/slew_motor.yaml at rest, valve closed): the slewing inertia J on the two
# trapped lines is the 2 x 2 system [zdot; dp]' = [[-c/J, i k/J], [-2 i k Be/V, -2 G Be/V]]
# (k = D/(2 pi), i the gear ratio, G the leakage, Be the lines' effective bulk modulus), c the
# torque's slope in the joint rate at rest, i^2 (k (1 - eta_hm) |dp|_s / omega_s + damping) with
# |dp|_s = 0.5 bar at dp = 0: its complex pair in closed form, to 1e-8
out=$("$HS" linearize tests/data/slew_motor.yaml 2>&1); rc=$?
[ $rc -eq 0 ] && ok || bad "linearize slew_motor rc $rc: $out"
pair=$(awk 'BEGIN { k = 50e-6 / (2 * 3.141592653589793); i = 80; J = 4e4 + 8000 * 0.16;
  c = i * i * (k * 0.1 * 0.5e5 / 1.0 + 0.02); E = 1 / (1 / 1.5e9 + 1 / 1e9) / 1e-3; G = 2e-12;
  a = -c / J; b = i * k / J; cc = -2 * i * k * E; d = -2 * G * E; tr = a + d; det = a * d - b * cc;
  printf "%.12g %.12g", tr / 2, sqrt(det - tr * tr / 4) }')
awk -v re="${pair% *}" -v im="${pair#* }" '/pressure\+mechanical/ { if ((($2 - re) / re)^2 < 1e-16 && (($3 - im) / im)^2 < 1e-16) f++ }
  END { exit f != 1 }' <<<"$out" && ok || bad "the slewing mode ${pair}: $out"
out=$("$HS" linearize tests/data/slew_motor.yaml --at t=1 --compare 2>&1)
grep -qE "compare: fd \(5 x 5, central differences\): eigenvalues differ from these by at most [0-9.]+e-(0[7-9]|1[0-9]) relative" <<<"$out" &&
  ok || bad "slew_motor at t = 1 s, exact against fd: $out"
# a hose (tests/data/hose_line.yaml: 4 segments between two sources, linearised about its
# steady laminar flow): the lumped line's eigenvalues in closed form, to 1e-9 relative: -a and
# -a/2 +- i sqrt(w_k^2 - a^2/4), w_k = (2 c / l) sin(k pi / 8), k = 1..3, c = sqrt(Be / rho),
# a = 32 nu / d^2 (docs/model-format.md, hose)
out=$("$HS" linearize tests/data/hose_line.yaml 2>&1); rc=$?
[ $rc -eq 0 ] && ok || bad "linearize hose_line rc $rc: $out"
awk 'BEGIN { Be = 1 / (1 / 1.5e9 + 1 / 1e9); c = sqrt(Be / 850); a = 32 * 46e-6 / 1e-4; pi = 3.141592653589793;
    for (k = 1; k <= 3; ++k) { w = 2 * c * sin(k * pi / 8); im[k] = sqrt(w * w - a * a / 4) } }
  /^ +[0-9]+  -?[0-9]/ && NF >= 6 { re = $2; i = $3 < 0 ? -$3 : $3;
    if (i == 0 && re != 0 && ((re + a) / a)^2 < 1e-18) f0++;
    for (k = 1; k <= 3; ++k) if (((re + a / 2) / (a / 2))^2 < 1e-18 && ((i - im[k]) / im[k])^2 < 1e-18) f[k]++ }
  END { exit !(f0 == 1 && f[1] == 2 && f[2] == 2 && f[3] == 2) }' <<<"$out" &&
  ok || bad "the hose's eigenvalues against the lumped line's closed form: $out"
out=$("$HS" linearize tests/data/hose_line.yaml --compare 2>&1)
grep -qE "compare: fd \(9 x 9, central differences\): eigenvalues differ from these by at most [0-9.]+e-(0[7-9]|1[0-9]) relative" <<<"$out" &&
  ok || bad "hose_line, exact against fd: $out"
# load-sensing sections (tests/data/crane_ls2.yaml at 1 s: both compensators regulating, the
# pump sensing the higher load): automatic differentiation through them agrees with differences
out=$("$HS" linearize tests/data/crane_ls2.yaml --at t=1 --compare 2>&1)
grep -qE "compare: fd \(14 x 14, central differences\): eigenvalues differ from these by at most [0-9.]+e-(0[7-9]|1[0-9]) relative" <<<"$out" &&
  ok || bad "crane_ls2 at t = 1 s, exact against fd: $out"

chk 3 "outside the simulated span" "$M" --at t=100
# an implausible value is warned of, as info and simulate warn of it
"$HS" linearize "$M" --set fluid.B_oil=1 >/dev/null 2>"$tmp/lw.txt"
grep -q 'warning: implausible values: fluid.B_oil = 1 Pa' "$tmp/lw.txt" && ok || bad "linearize warns of B_oil = 1 Pa: $(cat "$tmp/lw.txt")"
finish cli_linearize
