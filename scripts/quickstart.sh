#!/usr/bin/env bash
# The README's first command, after install and build: runs the default Monte Carlo sweep
# (sweeps/friction_bulk_mc.yaml: seal friction and bulk moduli of the seed 003 four-bar,
# 10 s work cycle at dt = 1 ms) and prints the ensemble summary. On a machine with a usable
# GPU it runs the sweep's 100000 instances there; otherwise it runs N instances on the CPU
# cores (default 400: 9 s on two cores, measured).
# The results go to out/ in the repository (ignored by git; HS_OUT=DIR picks another
# directory): out/friction_bulk_mc.h5 and out/friction_bulk_mc.csv.
# Usage: scripts/quickstart.sh [BUILD_DIR] [N]
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${1:-build}
N=${2:-400}
OUT=${HS_OUT:-$ROOT/out}
HS="$BUILD/hydrosweep"
[ -x "$HS" ] || HS="$ROOT/$BUILD/hydrosweep"
mkdir -p "$OUT"
RES="$OUT/friction_bulk_mc.h5"
if nvidia-smi -L >/dev/null 2>&1 && "$HS" run --help >/dev/null 2>&1; then
    echo "quickstart: GPU found: the full sweep on it"
    "$HS" run "$ROOT/sweeps/friction_bulk_mc.yaml" -b auto -o "$RES"
else
    echo "quickstart: no GPU: $N instances on the CPU cores (the sweep has 100000; -n sets any number)"
    "$HS" run "$ROOT/sweeps/friction_bulk_mc.yaml" -b cpu -n "$N" -o "$RES"
fi
echo "quickstart: results in $RES and ${RES%.h5}.csv; print them with:" \
     "/usr/bin/python3 $ROOT/examples/read_results.py $RES"
