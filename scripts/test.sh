#!/usr/bin/env bash
# Runs the test suite of a build: scripts/test.sh [BUILD_DIR] (default: build).
# Without a GPU (nvidia-smi -L fails) the tests labelled gpu are skipped.
# The exit status is ctest's.
set -uo pipefail

BUILD_DIR=${1:-build}

if nvidia-smi -L >/dev/null 2>&1; then
    echo "test: GPU found: running all tests"
    ctest --test-dir "$BUILD_DIR" --output-on-failure
else
    echo "test: no GPU: skipping tests labelled gpu"
    ctest --test-dir "$BUILD_DIR" --output-on-failure -LE gpu
fi
