#!/usr/bin/env bash
# Runs the test suite of a build: scripts/test.sh [BUILD_DIR] (default: build).
# Without a GPU (nvidia-smi -L fails) the tests labelled gpu are skipped. The tests labelled
# long (every shipped kernel's build, the long validations: minutes each) are left out too;
# HS_TEST_LONG=1 runs them as well (CI does: .ci/run), `ctest -L long` runs them alone. The tests run
# in parallel, one per core (HS_TEST_JOBS=N sets another number): no test depends on
# another's files or on its timing, and on a 2-core CI machine this halves the wall time.
# The exit status is ctest's.
set -uo pipefail

BUILD_DIR=${1:-build}
JOBS=${HS_TEST_JOBS:-$(nproc 2>/dev/null || echo 1)}

skip=long
[ "${HS_TEST_LONG:-0}" = 1 ] && skip=
if nvidia-smi -L >/dev/null 2>&1; then
    echo "test: GPU found${skip:+; skipping tests labelled long}"
else
    echo "test: no GPU: skipping tests labelled gpu${skip:+ and long}"
    skip=gpu${skip:+|$skip}
fi
if [ -n "$skip" ]; then
    ctest --test-dir "$BUILD_DIR" --output-on-failure -LE "$skip" -j"$JOBS"
else
    ctest --test-dir "$BUILD_DIR" --output-on-failure -j"$JOBS"
fi
