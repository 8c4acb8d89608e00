#!/usr/bin/env bash
# Builds hydrosweep with AddressSanitizer + UndefinedBehaviorSanitizer (gcc) in BUILD_DIR
# (default build-asan) and runs the test suite without the gpu label: every engine function,
# the CLI, the validation programs and the GPU backends on the emulated device
# (tests/gpu_emul), whose kernels then run instrumented on the host, so an out-of-bounds
# access in kernel code shows up here as on no real GPU.
#   scripts/sanitize.sh [BUILD_DIR]
# Exit status: ctest's; 0 with a message when this machine cannot run sanitized programs
# (the probe fails), in which case nothing was checked.
# Thrust's CPP backend binds references to null tag objects (harmless, never read):
# tests/ubsan.supp suppresses exactly that check in thrust's headers.
set -uo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD_DIR=${1:-build-asan}
SAN="-fsanitize=address,undefined"

probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
printf '#include <stdlib.h>\nint main(void){char *p = malloc(4); p[0] = 0; free(p); return p == 0;}\n' >"$probe/p.c"
if ! cc $SAN "$probe/p.c" -o "$probe/p" 2>"$probe/err" || ! ASAN_OPTIONS=detect_leaks=0 "$probe/p" 2>>"$probe/err"; then
    echo "sanitize: sanitized programs do not build or run on this machine; nothing checked:"
    head -3 "$probe/err"
    exit 0
fi
# LeakSanitizer needs to stop the process's threads (ptrace); some containers forbid it
leaks=1
ASAN_OPTIONS=detect_leaks=1 "$probe/p" >/dev/null 2>&1 || { leaks=0; echo "sanitize: LeakSanitizer unavailable here: leaks not checked"; }

flags="$SAN -fno-omit-frame-pointer -g"
# gcc's middle-end warnings misfire on sanitizer-instrumented code (format-truncation of a
# checked vsnprintf and the like); the Release build keeps them
flags+=" -Wno-format-truncation -Wno-stringop-overflow -Wno-maybe-uninitialized"
# --as-needed explicitly: gcc drops its default --as-needed when sanitizing (Debian, Ubuntu), and
# then every library on the link line is loaded at start, the CUDA driver stub included
# (CUDA::nvrtc pulls it in); without a GPU driver no test would start
args=(-S "$ROOT" -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_C_FLAGS=$flags"
      "-DCMAKE_CXX_FLAGS=$flags" "-DCMAKE_EXE_LINKER_FLAGS=$SAN -Wl,--as-needed"
      "-DCMAKE_SHARED_LINKER_FLAGS=$SAN -Wl,--as-needed")
# warnings as errors as scripts/build.sh decides: in CI (CI=true) or when asked (HS_WERROR=1)
if [ "${CI:-}" = true ] || [ "${HS_WERROR:-0}" = 1 ]; then
    args+=(-DHS_WERROR=ON)
else
    args+=(-DHS_WERROR=OFF)
fi
# the device code of the .cu files never runs here (no GPU; the emulated device compiles the
# same sources with the host compiler): PTX only, no ptxas (CMAKE_CUDA_ARCHITECTURES 90-virtual)
if command -v nvcc >/dev/null 2>&1; then
    args+=(-DHS_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90-virtual)
elif [ -x /usr/local/cuda/bin/nvcc ]; then
    args+=(-DHS_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90-virtual -DCMAKE_CUDA_COMPILER=/usr/local/cuda/bin/nvcc)
else
    args+=(-DHS_CUDA=OFF)
fi
mkdir -p "$BUILD_DIR"
echo "sanitize: building with $SAN in $BUILD_DIR"
if ! { cmake "${args[@]}" && cmake --build "$BUILD_DIR" -j"$(nproc)" &&
       cmake --build "$BUILD_DIR" --target hydrosweep_capi; } >"$BUILD_DIR/sanitize-build.log" 2>&1; then
    echo "sanitize: build FAILED; last lines of $BUILD_DIR/sanitize-build.log:"
    tail -20 "$BUILD_DIR/sanitize-build.log"
    exit 2
fi
export ASAN_OPTIONS="detect_leaks=$leaks"
# the engine the cpu backend compiles at run time is instrumented too, at -O1 (the option
# AddressSanitizer's documentation recommends): an instrumented -O3 build of it takes about
# 3x as long to compile (17.6 s against 6.2 s for the seed 003 four-bar), and the tests
# build dozens; the results are the same to the bit (-ffp-contract=off, no fast math)
export HS_CC_FLAGS="$SAN -fno-omit-frame-pointer -O1"
# the Python tree tests (tests/cli_tree.sh) load the sanitized C library, its runtime preloaded
# into python (a sanitized library must come after it); --as-needed above keeps the CUDA driver
# stub, which no code here calls, out of its needs (no libcuda.so.1 on a machine without a GPU)
HS_SAN_PRELOAD=$(cc -print-file-name=libasan.so)
if [ -f "$HS_SAN_PRELOAD" ]; then
    export HS_SAN_PRELOAD HS_SAN_CAPI_LIB="$(cd "$BUILD_DIR" && pwd)/libhydrosweep_capi.so"
else
    echo "sanitize: no libasan.so to preload into python: the Python tree tests use the normal library"
fi
export UBSAN_OPTIONS="suppressions=$ROOT/tests/ubsan.supp:print_stacktrace=1:halt_on_error=1"
# -LE pip: tests/cli_pip.sh installs the package with its own (uninstrumented) build; the normal
# build's test run has it. -LE long: the long validations (label long) run in the normal
# build only: they add minutes here and no code path the other tests do not take.
ctest --test-dir "$BUILD_DIR" --output-on-failure -LE 'gpu|pip|long' -j"$(nproc)"
