#!/usr/bin/env bash
# cli_limits.sh -- a model at the sizes a six-section machine needs (issue 48, kernels/hs_hd.h
# HS_MAX_*; tests/data/gen_limits_model.py): 32 bodies, 48 volumes, 16 valves, 12 cylinders,
# 24 throttles, 32 components, a sweep recording 64 signals (16 with trajectories). `info`
# reports each size against its limit; `simulate` runs it with the energy audit closed; `run`
# on the cpu backend finishes every instance with the 64 signals in the CSV; `validate`
# (cpu against the reference backend) passes; in a CUDA build the emulated device's `run -b
# gpu` gives the cpu run's results (h5diff within 1e-6 relative).
# Usage: cli_limits.sh PATH/TO/hydrosweep
set -u
HS=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
ROOT=$(pwd)
. "$(dirname "${BASH_SOURCE[0]}")/lib_cli.sh"
PY=$(python_with json) || PY=python3
cd "$tmp"
"$PY" "$ROOT/tests/data/gen_limits_model.py" . || { bad "the generator"; finish cli_limits; exit 1; }

"$HS" info limits_model.yaml >info.txt 2>&1 && ok || bad "info: $(head -5 info.txt)"
grep -q '^limits: *bodies 32/32, volumes 48/48, sources 2/12, throttles 24/24, valves 16/16, cylinders 12/12, components 32/32,' info.txt &&
  grep -q '^components: *32 (12 relief_valve, 12 check_valve, 8 accumulator; states: 0)' info.txt && ok ||
  bad "info reports the sizes against the limits: $(grep -E '^(limits|components)' info.txt)"

"$HS" simulate limits_model.yaml -o s.csv >sim.txt 2>&1 && grep -q 'steps            600 of 600' sim.txt && ok ||
  bad "simulate: $(tail -3 sim.txt)"
# the energy audit closes: |in - lost - stored - actuators' work| within 1e-9 of the energy in
"$PY" - sim.txt <<'PY' && ok || bad "energy audit: $(grep 'energy audit' sim.txt)"
import re, sys
t = open(sys.argv[1]).read()
m = re.search(r"energy audit +in ([-0-9.e+]+) J.*max \|in - lost - stored - actuators' work\| ([-0-9.e+]+) J", t)
sys.exit(0 if m and float(m.group(1)) > 1e3 and float(m.group(2)) < 1e-9 * float(m.group(1)) else 1)
PY

"$HS" run limits_sweep.yaml -o c.h5 --no-progress >run.txt 2>&1 && grep -q '4 instances, 4 finished, 0 failed' run.txt && ok ||
  bad "run on the cpu: $(head -5 run.txt)"
[ "$(head -1 c.csv | tr ',' '\n' | grep -c '_final$')" -eq 64 ] && ok || bad "64 signals in the CSV: $(head -c 300 c.csv)"
"$HS" validate limits_sweep.yaml --sample 2 >val.txt 2>&1 && grep -q 'validate: passed' val.txt && ok ||
  bad "validate, cpu against the reference: $(tail -3 val.txt)"

EMU=$(dirname "$HS")/tests/hydrosweep_gpu_emul
if [ -x "$EMU" ] && command -v h5diff >/dev/null; then
  "$EMU" run limits_sweep.yaml -b gpu -o g.h5 --no-progress >gpu.txt 2>&1 && ok || bad "the emulated device: $(tail -3 gpu.txt)"
  n=0
  for d in $(h5ls -r c.h5 | awk '$2 == "Dataset" {print $1}'); do
    case $d in /crc | *E_balance) continue ;; esac
    h5diff -q -p 1e-6 c.h5 g.h5 "$d" "$d" >/dev/null 2>&1 || { bad "emulated device vs cpu: $d differs"; n=$((n + 1)); }
  done
  [ $n -eq 0 ] && ok
else
  echo "cli_limits: the emulated device's run skipped (a build without CUDA)"
fi
finish cli_limits
