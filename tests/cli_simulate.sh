#!/usr/bin/env bash
# cli_simulate.sh -- the `hydrosweep simulate` and `info` commands as a user runs them:
# CSV header names, row count, summary, --set/--t-end/--dt overrides, and clear errors with
# non-zero exit codes for bad input. Usage: cli_simulate.sh PATH/TO/hydrosweep
set -u
HS=${1:?usage: cli_simulate.sh HYDROSWEEP}
. "$(dirname "${BASH_SOURCE[0]}")/lib_cli.sh"
expect() { # expect DESCRIPTION COMMAND...: command succeeds
  local d=$1; shift
  if "$@" >/dev/null 2>&1; then ok; else bad "$d"; fi
}

# --- simulate the four-bar for 0.1 s
"$HS" simulate models/fourbar_rahikainen2018_mech.yaml --t-end 0.1 -o "$tmp/fb.csv" >"$tmp/sum.txt" 2>&1
rc=$?
[ $rc -eq 0 ] && ok || bad "simulate exit code $rc"
head -1 "$tmp/fb.csv" | grep -qx 't,crank_angle,crank_angle_dot,coupler_angle,coupler_angle_dot,boom_angle,boom_angle_dot,E_kin,E_pot,W_ext,E_balance,phi_norm,newton_iters' \
  && ok || bad "CSV header: $(head -1 "$tmp/fb.csv")"
rows=$(($(wc -l <"$tmp/fb.csv") - 1))
[ "$rows" -eq 101 ] && ok || bad "expected 101 rows (t = 0 .. 0.1 s), got $rows"
tail -1 "$tmp/fb.csv" | grep -q '^0\.1,' && ok || bad "last row at t = 0.1: $(tail -1 "$tmp/fb.csv")"
grep -q 'newton iters' "$tmp/sum.txt" && grep -q 'max |E_balance|' "$tmp/sum.txt" \
  && grep -q 'max phi_norm' "$tmp/sum.txt" && grep -q 'wall time' "$tmp/sum.txt" \
  && ok || bad "summary lines missing: $(cat "$tmp/sum.txt")"
# the crank angle starts at exactly -30 deg (held at z0)
awk -F, 'NR==2 { d = $2 + 0.5235987755982988; exit !(d < 1e-15 && d > -1e-15) }' "$tmp/fb.csv" \
  && ok || bad "first crank angle is not -30 deg"
# the crank falls (released from rest): angle decreases
awk -F, 'NR==2 {a=$2} END { exit !($2 < a) }' "$tmp/fb.csv" && ok || bad "crank does not move"

# --- --set, --dt, --every
"$HS" simulate models/fourbar_rahikainen2018_mech.yaml --t-end 0.05 --dt 5e-3 --every 2 \
  --set body.boom.mass=300kg -o "$tmp/b.csv" >/dev/null 2>&1 && ok || bad "overrides run"
rows=$(($(wc -l <"$tmp/b.csv") - 1))
[ "$rows" -eq 6 ] && ok || bad "--every 2 with 10 steps: want rows at steps 0,2,..,10 = 6, got $rows"

# --- CSV to stdout, summary to stderr
"$HS" simulate models/double_pendulum.yaml --t-end 0.01 2>/dev/null | head -1 | grep -q '^t,' \
  && ok || bad "CSV on stdout"

# --- errors: exit codes and messages
"$HS" simulate models/does_not_exist.yaml >/dev/null 2>"$tmp/e1"; rc=$?
[ $rc -eq 2 ] && grep -q 'does_not_exist' "$tmp/e1" && ok || bad "missing file: rc $rc, $(cat "$tmp/e1")"
"$HS" simulate models/fourbar_rahikainen2018_mech.yaml --set body.nope.mass=1 >/dev/null 2>"$tmp/e2"; rc=$?
[ $rc -eq 2 ] && grep -q 'body.nope.mass' "$tmp/e2" && ok || bad "unknown parameter: rc $rc, $(cat "$tmp/e2")"
"$HS" simulate models/fourbar_rahikainen2018_mech.yaml --set body.boom.mass=-1 >/dev/null 2>"$tmp/e3"; rc=$?
[ $rc -eq 2 ] && ok || bad "negative mass accepted: rc $rc"
"$HS" simulate models/fourbar_rahikainen2018_mech.yaml --bogus >/dev/null 2>"$tmp/e4"; rc=$?
[ $rc -eq 1 ] && grep -q -- '--bogus' "$tmp/e4" && ok || bad "unknown option: rc $rc"
"$HS" frobnicate >/dev/null 2>&1; rc=$?
[ $rc -eq 1 ] && ok || bad "unknown command rc $rc"
printf 'name: x\nbodies:\n  - name: a\n    mass: 1\n    shape: point\n    colour: red\n' >"$tmp/bad.yaml"
"$HS" simulate "$tmp/bad.yaml" >/dev/null 2>"$tmp/e5"; rc=$?
[ $rc -eq 2 ] && grep -q 'bad.yaml:6:' "$tmp/e5" && grep -q 'colour' "$tmp/e5" \
  && ok || bad "unknown key: rc $rc, $(cat "$tmp/e5")"
# a run whose Newton iteration fails is flagged with exit 3 and keeps the rows so far
"$HS" simulate models/fourbar_rahikainen2018_mech.yaml --set integrator.max_iter=1 \
  --set integrator.tol_position=1e-16 -o "$tmp/f.csv" >"$tmp/fs.txt" 2>&1; rc=$?
[ $rc -eq 3 ] && grep -q 'FAILED' "$tmp/fs.txt" && [ "$(wc -l <"$tmp/f.csv")" -ge 2 ] \
  && ok || bad "Newton failure: rc $rc, $(cat "$tmp/fs.txt")"
# ... and says so on stderr (the summary with -o goes to stdout)
"$HS" simulate models/fourbar_rahikainen2018_mech.yaml --set integrator.max_iter=1 \
  --set integrator.tol_position=1e-16 -o "$tmp/f.csv" >/dev/null 2>"$tmp/fe.txt"; rc=$?
[ $rc -eq 3 ] && grep -q 'error: the integration FAILED at t = ' "$tmp/fe.txt" && ok ||
  bad "Newton failure on stderr: rc $rc, $(cat "$tmp/fe.txt")"

# --- a hydraulic model: pressure, spool and cylinder columns; static start of Pub. I
"$HS" simulate models/fourbar_rahikainen2018.yaml --t-end 0.6 -o "$tmp/h.csv" >"$tmp/hs.txt" 2>&1 \
  && ok || bad "hydraulic model runs: $(cat "$tmp/hs.txt")"
head -1 "$tmp/h.csv" | grep -q ',p_valve,p_piston,p_rod,U_dcv,s_lift,sdot_lift,F_lift,Ffric_lift,W_lift,E_kin,' \
  && ok || bad "hydraulic CSV header: $(head -1 "$tmp/h.csv")"
python3 - "$tmp/h.csv" <<'PY' && ok || bad "Pub. I static start / valve opening in the CSV"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
r0, r = rows[0], rows[-1]
assert abs(float(r0["p_piston"]) - 4.14e6) < 5e3, r0["p_piston"]      # Pub. I Table 2
assert float(r0["p_valve"]) == float(r0["p_piston"]) and float(r0["p_rod"]) == 3.5e6
assert float(rows[500]["U_dcv"]) == 0.0 and float(r["U_dcv"]) > 5.0   # U_ref steps at 0.5 s
assert abs(float(r0["s_lift"]) - 0.8660254) < 1e-6                    # s0 (Table 1)
assert float(r["W_lift"]) != 0.0 and abs(float(r["E_balance"])) < 1.0
PY
grep -q 'max |W_cyl|' "$tmp/hs.txt" && ok || bad "summary has max |W_cyl|"
"$HS" simulate models/fourbar_jaiswal2021_friction.yaml --t-end 0.01 \
  --set cylinder.lift.friction.model=lugre >/dev/null 2>&1 && ok || bad "friction model by --set"
"$HS" simulate models/fourbar_jaiswal2021_friction.yaml --set cylinder.lift.friction.model=magic \
  >/dev/null 2>"$tmp/e6"; rc=$?
[ $rc -eq 2 ] && grep -q 'lugre' "$tmp/e6" && ok || bad "unknown friction model: rc $rc, $(cat "$tmp/e6")"

# --- help and info
expect "simulate --help" "$HS" simulate --help
"$HS" simulate --help | grep -q 'E_balance' && ok || bad "help lists columns"
"$HS" info models/fourbar_rahikainen2018_mech.yaml >"$tmp/info.txt" 2>&1 && ok || bad "info runs"
for p in body.boom.mass joint.crank_angle.z0 integrator.dt gravity.y cut.C.at_b.x; do
  grep -q "^ *$p " "$tmp/info.txt" && ok || bad "info lists $p"
done

# --- singular perturbation (seed 004 Pub. II): the valve volume switched by --set; info names it;
# a volume that is not between one valve port and one throttle is refused with the reason
SV=models/fourbar_rahikainen2018_smallvalve.yaml
"$HS" info "$SV" --set volume.valve.model=singular_perturbation 2>&1 |
  grep -q "Newton unknowns:  6 (5 integrated, 1 algebraic: the singular-perturbation pressure of valve)" && ok ||
  bad "info names the singular-perturbation volume"
"$HS" simulate "$SV" --set volume.valve.model=singular_perturbation --set integrator.dt=8ms --set integrator.max_iter=100 \
  --every 100000 >"$tmp/sp.txt" 2>&1 && grep -q "steps            875 of 875" "$tmp/sp.txt" && ok || bad "SP at 8 ms: $(cat "$tmp/sp.txt")"
"$HS" simulate "$SV" --set volume.piston.model=singular_perturbation >/dev/null 2>"$tmp/e7"; rc=$?
[ $rc -eq 2 ] && grep -q "volume.piston.model.*between one valve port and one throttle.*cylinder chamber" "$tmp/e7" && ok ||
  bad "SP on a chamber refused: rc $rc, $(cat "$tmp/e7")"
"$HS" simulate "$SV" --set volume.valve.model=singular_perturbation --set volume.valve.gamma_plus=0 >/dev/null 2>"$tmp/e8"; rc=$?
[ $rc -eq 2 ] && grep -q "gamma_plus must be in (0, 1000)" "$tmp/e8" && ok || bad "gamma_plus 0 refused: rc $rc, $(cat "$tmp/e8")"
"$HS" linearize "$SV" --set volume.valve.model=singular_perturbation >/dev/null 2>"$tmp/e9"; rc=$?
[ $rc -ne 0 ] && grep -q "handles lumped volumes only" "$tmp/e9" && ok || bad "linearize refuses SP: rc $rc, $(cat "$tmp/e9")"

# --- co-simulation (kernels/hs_cosim.h): info says the configuration; the CSV ends with the
# residual columns, E_res starting at 0 and growing; a diverging configuration fails with the
# status table's description (exit 3)
CR=models/crane_rahikainen2020_single.yaml
"$HS" info "$CR" --set integrator.coupling=cosim --set cosim.extrapolation=integrate >"$tmp/ci.txt" 2>&1 &&
  grep -q '^coupling: *cosim (H = dt = 0.001 s; mechanics i3al_p, extrapolation 0; hydraulics trapezoidal, h_hyd 0.0001 s, extrapolation integrate; forces exchanged)' "$tmp/ci.txt" \
  && ok || bad "info names the co-simulation: $(grep -i coupl "$tmp/ci.txt")"
"$HS" info "$CR" | grep -q '^coupling' && bad "info of a monolithic model prints a coupling line" || ok
"$HS" simulate "$CR" --set integrator.coupling=cosim --t-end 1 -o "$tmp/cs.csv" >/dev/null 2>&1 && ok || bad "cosim simulate"
head -1 "$tmp/cs.csv" | grep -q ',phi_norm,newton_iters,P_res_lift,E_res_lift,E_res,Q_throttle,P_loss_throttle,Q_dcv_A,Q_dcv_B,P_loss_dcv$' && ok || bad "cosim CSV header: $(head -1 "$tmp/cs.csv")"
awk -F, 'NR == 2 { e0 = $NF } END { exit !(e0 == 0 && $NF > 0) }' "$tmp/cs.csv" && ok || bad "E_res from 0 to > 0: $(sed -n '2p;$p' "$tmp/cs.csv" | awk -F, '{print $NF}')"
"$HS" simulate "$CR" --set integrator.coupling=cosim --set signal.U_ref.kind=sine --set signal.U_ref.a=5 \
  --set signal.U_ref.f=2 --set cosim.extrapolation=3 --set cosim.mechanics_extrapolation=3 --set cosim.h_hyd=0.2ms \
  --dt 2ms --t-end 1 -o "$tmp/cd.csv" >"$tmp/cd.txt" 2>&1; rc=$?
[ $rc -eq 3 ] && grep -q 'FAILED at t = .*co-simulation: the hydraulic subsystem diverged' "$tmp/cd.txt" && ok ||
  bad "a diverging co-simulation: rc $rc, $(tail -2 "$tmp/cd.txt")"

# --- outputs.every, a key of every model file (trees add outputs.bodies): the CSV's default
# row spacing, --every overrides it; 1 s at dt 1 ms: 1000 steps, every 50: 20 rows + t = 0
DP=models/double_pendulum.yaml
{ cat "$DP"; printf 'outputs: {every: 50}\n'; } >"$tmp/dp50.yaml"
"$HS" simulate "$tmp/dp50.yaml" --t-end 1 -o "$tmp/dp50.csv" >/dev/null 2>&1 && [ "$(wc -l <"$tmp/dp50.csv")" -eq 22 ] &&
  ok || bad "outputs.every 50: $(wc -l <"$tmp/dp50.csv") lines"
"$HS" simulate "$tmp/dp50.yaml" --t-end 1 --every 100 -o "$tmp/dp100.csv" >/dev/null 2>&1 &&
  [ "$(wc -l <"$tmp/dp100.csv")" -eq 12 ] && ok || bad "--every over outputs.every: $(wc -l <"$tmp/dp100.csv") lines"
sed -n '1p;$p' "$tmp/dp50.csv" >"$tmp/dp50.ends"; sed -n '1p;$p' "$tmp/dp100.csv" >"$tmp/dp100.ends"
cmp -s "$tmp/dp50.ends" "$tmp/dp100.ends" && ok || bad "the last row does not depend on the spacing"
for v in 0 2.5 -3; do
  { cat "$DP"; printf 'outputs: {every: %s}\n' "$v"; } >"$tmp/dpb.yaml"
  "$HS" simulate "$tmp/dpb.yaml" >/dev/null 2>"$tmp/dpb.txt"; rc=$?
  [ $rc -eq 2 ] && grep -q "dpb.yaml:[0-9]*:[0-9]*: error: key 'outputs.every': every must be a whole number of steps >= 1" "$tmp/dpb.txt" &&
    ok || bad "outputs.every $v: rc $rc, $(cat "$tmp/dpb.txt")"
done
{ cat "$DP"; printf 'outputs: {bodies: [link1]}\n'; } >"$tmp/dpc.yaml"
"$HS" info "$tmp/dpc.yaml" >/dev/null 2>"$tmp/dpc.txt"; rc=$?
[ $rc -eq 2 ] && grep -q "key 'outputs.bodies': unknown key (allowed here: every)" "$tmp/dpc.txt" && ok ||
  bad "outputs.bodies on a model that is no tree: rc $rc, $(cat "$tmp/dpc.txt")"

finish cli_simulate
