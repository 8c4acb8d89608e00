#!/usr/bin/env bash
# Runs the test suite of a build: scripts/test.sh [BUILD_DIR] (default: build).
# Without a GPU (nvidia-smi -L fails) the tests labelled gpu are skipped. The tests run
# in parallel, one per core (HS_TEST_JOBS=N sets another number): no test depends on
# another's files or on its timing, and on a 2-core CI machine this halves the wall time.
# The exit status is ctest's.
set -uo pipefail

BUILD_DIR=${1:-build}
JOBS=${HS_TEST_JOBS:-$(nproc 2>/dev/null || echo 1)}

if nvidia-smi -L >/dev/null 2>&1; then
    echo "test: GPU found: running all tests"
    ctest --test-dir "$BUILD_DIR" --output-on-failure -j"$JOBS"
else
    echo "test: no GPU: skipping tests labelled gpu"
    ctest --test-dir "$BUILD_DIR" --output-on-failure -LE gpu -j"$JOBS"
fi
