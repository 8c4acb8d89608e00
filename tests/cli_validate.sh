#!/usr/bin/env bash
# cli_validate.sh -- `hydrosweep validate` on every shipped sweep (sweeps/*.yaml) passes on
# the CPU: a small evenly spaced sample (--sample 4: instances 0, n/4, n/2, 3n/4) on the cpu
# batch backend against the reference backend. Newton iteration counts are reported apart and
# bounded (a count flips where rounding moves a convergence test across its threshold), never
# checked against --rtol; physical signals and status bits are. The options are checked too.
# Usage: cli_validate.sh PATH/TO/hydrosweep   (from the repository root)
set -u
HS=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
ROOT=$(pwd)
. "$(dirname "${BASH_SOURCE[0]}")/lib_cli.sh"
cd "$tmp"

n=0
for sw in "$ROOT"/sweeps/*.yaml; do
  n=$((n + 1))
  name=$(basename "$sw" .yaml)
  "$HS" validate "$sw" -b cpu --sample 4 >"$name.txt" 2>&1; rc=$?
  [ $rc -eq 0 ] && grep -q '^validate: passed' "$name.txt" && ok ||
    bad "validate $name: rc $rc: $(cat "$name.txt")"
  grep -q "^validate: 4 instances of .* on cpu " "$name.txt" && ok || bad "validate $name: names 4 instances on cpu: $(head -1 "$name.txt")"
  # a newton_iters signal is shown as iterations, never marked against rtol
  if grep -q '^newton_iters ' "$name.txt"; then
    grep -q '^newton_iters .*(iterations: reported, not checked)$' "$name.txt" && ok ||
      bad "validate $name: newton_iters reported apart: $(grep '^newton_iters' "$name.txt")"
  fi
  grep -q '^  mean per step  largest difference .* bound 1.0e-02' "$name.txt" &&
    grep -q '^  max per step   largest difference [0-9]* (bound 1)' "$name.txt" && ok ||
    bad "validate $name: iteration report with its bounds: $(cat "$name.txt")"
done
[ $n -ge 2 ] && ok || bad "shipped sweeps found: $n"

# a signal tolerance no two solvers meet fails, and says why (exit 4)
SW=$ROOT/sweeps/friction_bulk_mc.yaml
"$HS" validate "$SW" -b cpu --sample 1 --rtol 0 >r0.txt 2>&1; rc=$?
[ $rc -eq 4 ] && grep -q '^validate: FAILED (signals beyond rtol' r0.txt && grep -q '> rtol$' r0.txt && ok ||
  bad "--rtol 0 fails on the signals: rc $rc $(cat r0.txt)"
# options
for args in "--sample 0" "--rtol -1" "--rtol x" "--iter-rtol" "--iter-rtol nan" "--threads 0" "-b reference" "--bogus"; do
  # shellcheck disable=SC2086
  "$HS" validate "$SW" $args >o.txt 2>&1; rc=$?
  [ $rc -eq 1 ] && ok || bad "validate $args: rc $rc (want 1): $(cat o.txt)"
done
# a nonholonomic model (models/knife_edge_pendulum.yaml): the specialised and generic cpu
# engines against the reference backend, over the skate's mass and heading
printf 'model: %s\ninstances: 8\nparameters:\n  body.skate.mass: {uniform: [1 kg, 3 kg]}\n  joint.j3.z0: {uniform: [-20 deg, 20 deg]}\n' \
  "$ROOT/models/knife_edge_pendulum.yaml" >ke.yaml
for eng in specialised generic; do
  HS_CPU_ENGINE=$eng "$HS" validate ke.yaml -b cpu --sample 4 >"ke_$eng.txt" 2>&1; rc=$?
  [ $rc -eq 0 ] && grep -q '^validate: passed' "ke_$eng.txt" && ok || bad "validate knife edge ($eng): rc $rc: $(cat "ke_$eng.txt")"
done
"$HS" validate --help | grep -q -- '--iter-rtol Q' && "$HS" validate --help | grep -q 'by at most 1' && ok ||
  bad "validate --help states the iteration bounds"

finish cli_validate
