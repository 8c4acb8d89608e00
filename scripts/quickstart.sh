#!/usr/bin/env bash
# The README's first command, after install and build: runs the default Monte Carlo sweep
# (sweeps/friction_bulk_mc.yaml: seal friction and bulk moduli of the seed 003 four-bar,
# 10 s work cycle at dt = 1 ms) and prints the ensemble summary. On a machine with a usable
# GPU it runs the sweep's 100000 instances there; otherwise it runs N instances on the CPU
# cores (default 400: 9 s on two cores, measured). Usage: scripts/quickstart.sh [BUILD_DIR] [N]
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${1:-build}
N=${2:-400}
HS="$BUILD/hydrosweep"
[ -x "$HS" ] || HS="$ROOT/$BUILD/hydrosweep"
if nvidia-smi -L >/dev/null 2>&1 && "$HS" run --help >/dev/null 2>&1; then
    echo "quickstart: GPU found: the full sweep on it"
    exec "$HS" run "$ROOT/sweeps/friction_bulk_mc.yaml" -b auto -o friction_bulk_mc.h5
fi
echo "quickstart: no GPU: $N instances on the CPU cores (the sweep has 100000; -n sets any number)"
exec "$HS" run "$ROOT/sweeps/friction_bulk_mc.yaml" -b cpu -n "$N" -o friction_bulk_mc.h5
