#!/usr/bin/env bash
# Prepares, on this machine (no GPU needed), everything scripts/gpu_session.sh would otherwise
# spend a GPU window on, so that the window measures instead of compiling (issue 29):
#   - .devlibs/ (scripts/fetch_devlibs.sh), unless there;
#   - build-gpu/: hydrosweep and the gpu-labelled test (test_conformance_gpu_cu) built with CUDA
#     for sm_90 (the H100 and H200), MPI off (its library and daemons are not on the GPU
#     machine): minutes a window should not spend;
#   - its NVRTC cache (build-gpu/kernel-cache, keyed by NVRTC's version, the architecture and the
#     source): the specialised kernels gpu_session.sh builds and the ptxas figures it asks for;
#   - the build trimmed to what the session runs (the two programs, ctest's files, the cache,
#     CMakeCache.txt), every shared library they need checked to be in .devlibs/, CUDA or the
#     base system, and build-gpu/HS_CARRY written: the commit, this checkout's path (the
#     session links it to its own when they differ, so that ctest's absolute paths hold), the
#     date and the toolchain.
#   - both packed into .gpucarry.tar.xz (git-ignored), which travels with the repository
#     under the 64 MiB a device call takes (this script says the sizes).
# Then, through the device tool:
#   run(command="tar -xJf .gpucarry.tar.xz && HS_COMMIT=<commit> bash scripts/gpu_session.sh",
#       carry=[".gpucarry.tar.xz"], timeout_s=560)
#
#   scripts/gpu_prepare.sh [--jobs N] [--no-figures]
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
JOBS=$(nproc)
FIGURES=1
while [ $# -gt 0 ]; do
    case "$1" in
    --jobs) JOBS=$2; shift ;;
    --no-figures) FIGURES=0 ;;
    -h|--help) sed -n '2,25p' "$0"; exit 0 ;;
    *) echo "gpu_prepare: unknown option $1" >&2; exit 1 ;;
    esac
    shift
done
BUILD=build-gpu
LOG=${TMPDIR:-/tmp}/hs-gpu-prepare.log
T0=$(date +%s)
phase() { echo "gpu_prepare: $1 ($(($(date +%s) - T0)) s)"; }

NVCC=$(command -v nvcc || true)
[ -z "$NVCC" ] && [ -x /usr/local/cuda/bin/nvcc ] && NVCC=/usr/local/cuda/bin/nvcc
[ -n "$NVCC" ] || { echo "gpu_prepare: needs nvcc (the CUDA toolkit)" >&2; exit 1; }

[ -f .devlibs/MANIFEST ] || { phase "fetching .devlibs"; bash scripts/fetch_devlibs.sh; }

phase "building $BUILD (CUDA, sm_90)"
cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DHS_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 \
    -DCMAKE_CUDA_COMPILER="$NVCC" -DHS_MPI=OFF -DHS_WERROR=OFF >"$LOG" 2>&1 ||
    { tail -20 "$LOG"; exit 1; }
cmake --build "$BUILD" -j"$JOBS" --target hydrosweep test_conformance_gpu_cu >>"$LOG" 2>&1 ||
    { grep -E "error|Error" "$LOG" | head -20; exit 1; }
phase "built"

# the shared libraries the programs need: each in .devlibs/, the CUDA toolkit, or a base system
BASE_RE='^(libc|libm|libmvec|libpthread|libdl|librt|libresolv|libutil|ld-linux-x86-64|libgcc_s|libstdc\+\+|libz|libgomp)\.so'
CUDA_RE='^lib(cudart|nvrtc|nvrtc-builtins|cublas|cublasLt|cusolver|cusparse|curand|nvJitLink)\.so'
missing=0
for exe in "$BUILD/hydrosweep" "$BUILD/tests/test_conformance_gpu_cu"; do
    for so in $(readelf -d "$exe" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
        [[ $so =~ $BASE_RE || $so =~ $CUDA_RE ]] && continue
        if [ -z "$(find .devlibs -name "$so" -print -quit)" ]; then
            echo "gpu_prepare: $exe needs $so, which is not in .devlibs/ (add its package to scripts/fetch_devlibs.sh)" >&2
            missing=1
        fi
    done
done
[ "$missing" = 0 ] || exit 1

# the NVRTC cache: the ptxas figures gpu_session.sh asks for, and the specialised kernels its
# runs load (`hydrosweep kernel` leaves the run's cubin beside its figures): the benchmark's
# sweeps as bench_ensemble.py writes them (modified Newton and adaptive steps are engines of
# their own), the co-simulation grid and search, and the sweeps validated on the GPU
export HS_KERNEL_CACHE=$ROOT/$BUILD/kernel-cache
if [ "$FIGURES" = 1 ]; then
    phase "kernels and figures into $HS_KERNEL_CACHE"
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    python3 - "$tmp" <<'PY'
import os, sys
sys.path.insert(0, "bench")
from bench_ensemble import sweep_copy
t = sys.argv[1]
sweep_copy("sweeps/friction_bulk_mc.yaml", os.path.join(t, "modified.yaml"), chunk=262144, newton="modified")
sweep_copy("sweeps/friction_bulk_mc.yaml", os.path.join(t, "adaptive.yaml"), chunk=262144, step="adaptive")
PY
    "$BUILD/hydrosweep" kernel sweeps/friction_bulk_mc.yaml --json >/dev/null
    for f in "$tmp/modified.yaml" "$tmp/adaptive.yaml" sweeps/cosim_configurations.yaml \
             sweeps/cosim_search_single.yaml sweeps/ball_chain_mc.yaml sweeps/crane_supply_mc.yaml \
             sweeps/excavator_mc.yaml; do
        "$BUILD/hydrosweep" kernel "$f" >/dev/null
    done
    "$BUILD/hydrosweep" kernel models/branch_system_rui2020.yaml >/dev/null
    phase "kernels cached: $(ls "$HS_KERNEL_CACHE" | grep -c '\.cubin$') cubins, $(ls "$HS_KERNEL_CACHE" | grep -c '\.fig$') figures"
fi

# trim: the programs, ctest's files, the cache and CMakeCache.txt
phase "trimming $BUILD"
find "$BUILD" -mindepth 1 \( -name CMakeFiles -o -name '*.a' -o -name '_deps' \) -prune -exec rm -rf {} +
find "$BUILD" -type f ! -path "$BUILD/kernel-cache/*" ! -name CTestTestfile.cmake ! -name CMakeCache.txt \
    ! -path "$BUILD/hydrosweep" ! -path "$BUILD/tests/test_conformance_gpu_cu" -delete
find "$BUILD" -mindepth 1 -type d -empty -delete
{
    echo "commit=$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)$(git diff --quiet HEAD 2>/dev/null || echo -dirty)"
    echo "source_dir=$ROOT"
    echo "date=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "host=$(uname -srm)"
    echo "nvcc=$("$NVCC" --version | tail -1)"
    echo "cc=$(cc --version | head -1)"
} >"$BUILD/HS_CARRY"

# one archive of both (shared libraries and cubins compress 3-4x): what travels is the
# repository and this file, well under the 64 MiB a device call takes
phase "packing $BUILD and .devlibs into .gpucarry.tar.xz"
rm -f .gpucarry.tar.xz
tar -cf - "$BUILD" .devlibs | xz -6 -T"$JOBS" >.gpucarry.tar.xz
tree_kib=$(git ls-files -z | du -c -k --files0-from=- 2>/dev/null | tail -1 | cut -f1)
b=$(du -sk "$BUILD" | cut -f1)
d=$(du -sk .devlibs | cut -f1)
x=$(du -sk .gpucarry.tar.xz | cut -f1)
echo "gpu_prepare: $BUILD $((b / 1024)) MiB + .devlibs $((d / 1024)) MiB -> .gpucarry.tar.xz $((x / 1024)) MiB;" \
     "with the repository ($((tree_kib / 1024)) MiB) $(((x + tree_kib) / 1024)) MiB travel (limit 64)"
[ $((x + tree_kib)) -lt $((60 * 1024)) ] || { echo "gpu_prepare: too large to travel" >&2; exit 1; }
phase "done"
cat "$BUILD/HS_CARRY"
echo "gpu_prepare: then run(command=\"tar -xJf .gpucarry.tar.xz && HS_COMMIT=$(git rev-parse --short=12 HEAD 2>/dev/null) bash scripts/gpu_session.sh\", carry=[\".gpucarry.tar.xz\"], timeout_s=560)"
