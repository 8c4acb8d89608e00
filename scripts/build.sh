#!/usr/bin/env bash
# Configures (Release) and builds hydrosweep: scripts/build.sh [BUILD_DIR] (default: build).
# nvcc on PATH: -DHS_CUDA=ON; only at /usr/local/cuda/bin: its path is passed to cmake as
# well; no nvcc at all: -DHS_CUDA=OFF. HS_CUDA is always given explicitly, so a build
# directory configured before with the other setting follows what is installed now.
# Warnings are errors (-DHS_WERROR=ON) only in CI (CI=true, as .ci/run runs) or when asked
# (HS_WERROR=1): a user's build must not fail on a newer compiler's new warnings. HS_WERROR
# is always given explicitly too. CC picks the C compiler as usual (CC=clang).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD_DIR=${1:-build}

args=(-S "$ROOT" -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release)
if command -v nvcc >/dev/null 2>&1; then
    echo "build: CUDA on (nvcc: $(command -v nvcc))"
    args+=(-DHS_CUDA=ON)
elif [ -x /usr/local/cuda/bin/nvcc ]; then
    echo "build: CUDA on (nvcc: /usr/local/cuda/bin/nvcc)"
    args+=(-DHS_CUDA=ON -DCMAKE_CUDA_COMPILER=/usr/local/cuda/bin/nvcc)
else
    echo "build: no nvcc found: CUDA off"
    args+=(-DHS_CUDA=OFF)
fi

if [ "${CI:-}" = true ] || [ "${HS_WERROR:-0}" = 1 ]; then
    echo "build: warnings are errors (HS_WERROR=ON)"
    args+=(-DHS_WERROR=ON)
else
    args+=(-DHS_WERROR=OFF)
fi

cmake "${args[@]}"
cmake --build "$BUILD_DIR" -j"$(nproc)"
