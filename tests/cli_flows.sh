#!/usr/bin/env bash
# cli_flows.sh -- the circuit's flows and losses as signals (issue 48; kernels/hs_energy.h
# hs_element_signal): `info --columns` lists Q_ (m^3/s) and P_loss_ (W) of every throttle,
# valve section (Q_<valve>_A, _B into its ports) and component with a flow of its own (no
# accumulator); in the excavator's `simulate` CSV, the elements' losses and the seals' (Ffric
# sdot), integrated by the trapezoidal rule over every step, equal W_loss (the audit) to 1e-9;
# a sweep records them with statistics and trajectories, its table shows flows in L/min, and
# `validate` (cpu against the reference backend) passes; in a CUDA build the emulated device
# gives the cpu's results (h5diff within 1e-6 relative). simulate's energy table (each
# element's energy in, lost and stored, the seals' and the volumes') sums to the energy audit.
# Usage: cli_flows.sh PATH/TO/hydrosweep
set -u
HS=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
ROOT=$(pwd)
. "$(dirname "${BASH_SOURCE[0]}")/lib_cli.sh"
PY=$(python_with json) || PY=python3
M=$ROOT/models/excavator_front.yaml
cd "$tmp"

"$HS" info "$M" --columns >cols.txt 2>&1 && ok || bad "info --columns: $(head -3 cols.txt)"
for c in "Q_boom_valve_A m^3/s" "Q_boom_valve_B m^3/s" "P_loss_boom_valve W" "Q_pump m^3/s" "P_loss_pump W" \
         "Q_relief m^3/s" "P_loss_relief W"; do
  grep -qx "$c" cols.txt && ok || bad "info --columns lacks '$c'"
done
! grep -q '^Q_accumulator\|^P_loss_accumulator' cols.txt && ok || bad "an accumulator has no flow signal of its own"

"$HS" simulate "$M" --t-end 3 -o ex.csv >sim.txt 2>&1 && ok || bad "simulate: $(tail -3 sim.txt)"
"$PY" - ex.csv <<'PY' && ok || bad "the elements' losses do not integrate to W_loss"
import csv, sys
r = list(csv.DictReader(open(sys.argv[1])))
keys = [k for k in r[0] if k.startswith("P_loss_")]
cyl = [k[6:] for k in r[0] if k.startswith("Ffric_")]
def P(x):
    return sum(float(x[k]) for k in keys) + sum(float(x["Ffric_" + c]) * float(x["sdot_" + c]) for c in cyl)
W = sum(0.5 * (float(r[i]["t"]) - float(r[i - 1]["t"])) * (P(r[i]) + P(r[i - 1])) for i in range(1, len(r)))
Wl = float(r[-1]["W_loss"])
print("cli_flows: integrated losses %.12g J, W_loss %.12g J" % (W, Wl))
sys.exit(0 if len(keys) == 5 and Wl > 1e4 and abs(W - Wl) <= 1e-9 * Wl else 1)
PY

# simulate's energy table: the elements' rows, the seals' and the volumes' sum to the audit
# (printed to 6 digits: equal with fixed steps; with adaptive steps the table integrates the
# samples on dt's grid and the audit the steps: within 1 % of the larger of in and lost)
table_sums() { # FILE TOL
  "$PY" - "$1" "$2" <<'PY'
import sys
rows = {l.split()[0]: [float(v) for v in l.split()[-3:]] for l in open(sys.argv[1])
        if l.startswith("  sum ") or l.startswith("  energy audit ")}
s, a = rows.get("sum"), rows.get("energy")
scale = max(abs(a[0]), abs(a[1])) if a else 0.0
sys.exit(0 if s and a and scale > 0 and all(abs(x - y) <= float(sys.argv[2]) * scale for x, y in zip(s, a)) else 1)
PY
}
table_sums sim.txt 1e-6 && grep -q '^  pump (pressure_compensated_pump) ' sim.txt && grep -q '^  seals and end stops ' sim.txt &&
  ok || bad "the excavator's energy table: $(grep -A12 'energy by element' sim.txt)"
for f in tests/data/crane_hose.yaml tests/data/slew_motor.yaml; do
  "$HS" simulate "$ROOT/$f" -o t.csv >t.txt 2>&1 && table_sums t.txt 1e-6 && ok || bad "$f: energy table $(grep -A12 'energy by element' t.txt)"
done
"$HS" simulate "$ROOT/models/crane_pump_relief.yaml" --set integrator.step=adaptive -o t.csv >t.txt 2>&1 &&
  table_sums t.txt 1e-2 && ok || bad "adaptive steps: energy table $(grep -A12 'energy by element' t.txt)"

cat >fl.yaml <<EOF2
model: $M
instances: 4
seed: 5
method: monte_carlo
simulation: {t_end: 3 s, dt: 1 ms}
parameters:
  component.relief.p_crack: {uniform: [25.65 MPa, 28.35 MPa]}
outputs:
  signals: [Q_pump, P_loss_pump, Q_boom_valve_A, Q_arm_valve_B, P_loss_arm_valve, Q_relief, P_loss_relief, W_loss]
  trajectories: {every: 100, signals: [Q_pump, P_loss_arm_valve]}
EOF2
"$HS" run fl.yaml -o c.h5 --no-progress >run.txt 2>&1 && grep -q '4 instances, 4 finished, 0 failed' run.txt && ok ||
  bad "a sweep of flows: $(head -5 run.txt)"
grep -q '^  Q_pump .* L/min$' run.txt && grep -q '^  P_loss_pump .* W$' run.txt && ok || bad "the table: flows in L/min, losses in W: $(cat run.txt)"
"$HS" validate fl.yaml --sample 2 >val.txt 2>&1 && grep -q 'validate: passed' val.txt && ok ||
  bad "validate, cpu against the reference: $(tail -3 val.txt)"
EMU=$(dirname "$HS")/tests/hydrosweep_gpu_emul
if [ -x "$EMU" ] && command -v h5diff >/dev/null; then
  "$EMU" run fl.yaml -b gpu -o g.h5 --no-progress >gpu.txt 2>&1 && ok || bad "the emulated device: $(tail -3 gpu.txt)"
  for d in /stats/Q_pump /stats/P_loss_arm_valve /stats/Q_relief /traj/Q_pump /traj/P_loss_arm_valve; do
    h5diff -q -p 1e-6 c.h5 g.h5 "$d" "$d" >/dev/null 2>&1 && ok || bad "emulated device vs cpu: $d differs"
  done
else
  echo "cli_flows: the emulated device's run skipped (a build without CUDA)"
fi
finish cli_flows
