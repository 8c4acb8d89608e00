#!/usr/bin/env bash
# cli_springs.sh -- joints' springs and dampers (joints[].spring) and payloads (payloads[])
# through the command line:
# `info` lists joint.NAME.spring.k, .c and .z_rest with their units; a Monte Carlo sweep over
# the stiffnesses and a damper of tests/data/joint_springs.yaml runs, passes `validate` (cpu
# against the reference backend), and in a CUDA build the emulated device gives the cpu's
# statistics (h5diff 1e-6); the same for a sweep over the payload's mass and point of
# tests/data/payload_pick.yaml. Usage: cli_springs.sh PATH/TO/hydrosweep
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
"$HS" info "$ROOT/tests/data/payload_pick.yaml" >pinfo.txt 2>&1 && grep -q '^payload.log.mass  *20  *kg' pinfo.txt && ok ||
  bad "info lacks payload.log.mass: $(grep payload pinfo.txt)"
monte_carlo_sweep pp.yaml "$ROOT/tests/data/payload_pick.yaml" 6 4 "1.2 s" "theta, E_balance" \
  "payload.log.mass: {uniform: [10 kg, 30 kg]}" "payload.log.at.x: {uniform: [0.8 m, 1 m]}"
EMU=$(dirname "$HS")/tests/hydrosweep_gpu_emul
for s in mc pp; do sweep_agrees "$HS" $s; done
if [ ! -x "$EMU" ]; then
  echo "cli_springs: the emulated device's run skipped (a build without CUDA)"
fi
finish cli_springs
