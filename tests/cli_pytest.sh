#!/usr/bin/env bash
# cli_pytest.sh -- the Python package as a user installs it: a virtual environment (with the
# system's numpy, h5py, pandas, xarray, matplotlib), `pip install --no-build-isolation
# --no-deps .` from the repository (setup.py builds the shared library libhydrosweep_capi.so in
# this build directory: HS_CMAKE_BUILD_DIR), then pytest on python/tests against the installed
# package and this hydrosweep program (HS_EXE); then the README's pip block verbatim.
# Usage: cli_pytest.sh PATH/TO/hydrosweep   (from the repository root)
# Exit 77 (skipped) without python3's venv and pytest (apt-get install python3-venv
# python3-pytest; scripts/install-deps.sh installs them), or in a sanitizer build (its shared
# library cannot be loaded into an uninstrumented python3).
set -u
HS=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
BUILD=$(dirname "$HS")
ROOT=$(pwd)
. "$(dirname "${BASH_SOURCE[0]}")/lib_cli.sh"
if grep -q -- "-fsanitize" "$BUILD/CMakeCache.txt" 2>/dev/null; then
  echo "cli_pytest: SKIPPED: a sanitizer build (the Python package is tested in the normal build)"
  exit 77
fi
PY=$(python_with numpy h5py pandas xarray pytest venv)
if [ -z "$PY" ] || ! "$PY" -c "import ensurepip" >/dev/null 2>&1; then
  echo "cli_pytest: SKIPPED: no python3 with numpy, h5py, pandas, xarray, pytest and venv" \
       "(apt-get install python3-venv python3-pytest python3-pandas python3-xarray python3-h5py)"
  exit 77
fi
"$PY" -m venv --system-site-packages "$tmp/venv" >"$tmp/venv.log" 2>&1 && ok ||
  { bad "venv: $(tail -3 "$tmp/venv.log")"; finish cli_pytest; exit 1; }
# a copy of the sources, so that the build leaves nothing in the repository (setup.py's
# build/ of setuptools, the egg-info)
mkdir "$tmp/src" && git -C "$ROOT" ls-files -z --cached --others --exclude-standard | (cd "$ROOT" && xargs -0 cp --parents -t "$tmp/src") 2>/dev/null ||
  cp -r "$ROOT/." "$tmp/src"
if HS_CMAKE_BUILD_DIR=$BUILD "$tmp/venv/bin/pip" install --no-build-isolation --no-deps "$tmp/src" \
     >"$tmp/pip.log" 2>&1; then
  ok
else
  bad "pip install: $(tail -20 "$tmp/pip.log")"
  finish cli_pytest
  exit 1
fi
# from outside the source tree: the installed package, not python/
cd "$tmp" || exit 1
if HS_EXE=$HS HS_ROOT=$ROOT MPLBACKEND=Agg "$tmp/venv/bin/python" -m pytest -q -p no:cacheprovider \
     "$ROOT/python/tests" >"$tmp/pytest.log" 2>&1; then
  ok
  tail -1 "$tmp/pytest.log"
else
  bad "pytest: $(tail -40 "$tmp/pytest.log")"
fi
# the README's pip block, verbatim, in a copy of the sources whose build/ is this build
# (Debian's python3 first on PATH, as on a fresh machine)
awk '/^```sh$/{b=1; t=""; next} /^```$/{if (b && t ~ /pip install/) {printf "%s", t; exit} b=0; next} b{t=t $0 "\n"}' \
  "$ROOT/README.md" >"$tmp/readme_pip.sh"
if [ -s "$tmp/readme_pip.sh" ]; then
  rm -rf "$tmp/src/build" && ln -s "$BUILD" "$tmp/src/build"
  if (cd "$tmp/src" && PATH=/usr/bin:$PATH bash -e "$tmp/readme_pip.sh") >"$tmp/readme.log" 2>&1; then
    ok
  else
    bad "the README's pip block: $(tail -15 "$tmp/readme.log")"
  fi
else
  bad "no pip block in README.md"
fi
finish cli_pytest
