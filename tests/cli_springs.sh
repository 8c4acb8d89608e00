#!/usr/bin/env bash
# cli_springs.sh -- joints' springs and dampers (joints[].spring) through the command line:
# `info` lists joint.NAME.spring.k, .c and .z_rest with their units; a Monte Carlo sweep over
# the stiffnesses and a damper of tests/data/joint_springs.yaml runs, passes `validate` (cpu
# against the reference backend), and in a CUDA build the emulated device gives the cpu's
# statistics (h5diff 1e-6). Usage: cli_springs.sh PATH/TO/hydrosweep
set -u
HS=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
ROOT=$(pwd)
. "$(dirname "${BASH_SOURCE[0]}")/lib_cli.sh"
cd "$tmp"
M=$ROOT/tests/data/joint_springs.yaml

"$HS" info "$M" >info.txt 2>&1 && ok || bad "info: $(head -3 info.txt)"
for p in "joint.x.spring.k  *10000  *N/m" "joint.x.spring.c  *20  *N s/m" "joint.theta.spring.k  *800  *N m/rad" \
  "joint.theta.spring.z_rest  *0  *rad"; do
  grep -q "^$p" info.txt && ok || bad "info lacks '$p': $(grep spring info.txt)"
done
monte_carlo_sweep mc.yaml "$M" 6 3 "1 s" "x, theta" "joint.x.spring.k: {uniform: [8 kN/m, 12 kN/m]}" \
  "joint.theta.spring.k: {uniform: [600 N m/rad, 1000 N m/rad]}" "joint.theta.spring.c: {uniform: [1 N m s/rad, 3 N m s/rad]}"
"$HS" run mc.yaml -o mc.h5 --no-progress >run.txt 2>&1 && grep -q 'finished, 0 failed' run.txt && ok ||
  bad "the sweep: $(head -5 run.txt)"
"$HS" validate mc.yaml --sample 2 >val.txt 2>&1 && grep -q 'validate: passed' val.txt && ok ||
  bad "validate, cpu against the reference: $(tail -3 val.txt)"
EMU=$(dirname "$HS")/tests/hydrosweep_gpu_emul
if [ -x "$EMU" ] && command -v h5diff >/dev/null; then
  "$EMU" run mc.yaml -b gpu -o g.h5 --no-progress >gpu.txt 2>&1 && ok || bad "the emulated device: $(tail -3 gpu.txt)"
  h5diff -q -p 1e-6 mc.h5 g.h5 /stats /stats >/dev/null 2>&1 && ok || bad "emulated device vs cpu: /stats differs"
else
  echo "cli_springs: the emulated device's run skipped (a build without CUDA)"
fi
finish cli_springs
