#!/usr/bin/env bash
# cli_pip.sh -- `pip install .` as a user runs it: in a clean copy of the sources (the files git
# tracks or would track: no build/, no egg-info, uncommitted work included), into a virtual
# environment of the python3 first on PATH (a pyenv or conda Python as well as Debian's; not
# --system-site-packages), with setuptools, numpy, h5py, pandas and xarray from PyPI. Checks:
# the install succeeds in under 180 s (printed); its log has the build's stage lines and CMake's
# progress (what `pip install -v .` shows); no setuptools deprecation warning; the wheel is
# tagged py3-none-<platform> (it carries a shared library and a program), not py3-none-any,
# with the license BSD-3-Clause; the `hydrosweep` command and `python -m hydrosweep` run the
# program built into the package (--version, info); `import hydrosweep` from outside the
# sources loads the installed package and its library (load_model); and `hydrosweep.plot`
# without matplotlib names matplotlib and the extra [plot].
# Usage: cli_pip.sh PATH/TO/hydrosweep   (from the repository root; the argument is not used:
# the package builds its own program)
# Exit 77 (skipped): no python3 >= 3.9 with venv, or PyPI cannot be reached (no network: pip
# download of setuptools fails within 60 s).
# ctest label pip (tests/CMakeLists.txt): run alone (RUN_SERIAL), so that the time measured is
# the install's own; scripts/sanitize.sh leaves it out (it builds nothing of the sanitized tree).
set -u
ROOT=$(pwd)
. "$(dirname "${BASH_SOURCE[0]}")/lib_cli.sh"
LIMIT=180
PY=$(command -v python3 2>/dev/null)
if [ -z "$PY" ] || ! "$PY" -c 'import sys; sys.exit(sys.version_info < (3, 9))' 2>/dev/null; then
  echo "cli_pip: SKIPPED: no python3 >= 3.9 on PATH"
  exit 77
fi
V=$tmp/venv
if ! "$PY" -m venv "$V" >"$tmp/venv.log" 2>&1; then
  echo "cli_pip: SKIPPED: $PY -m venv failed: $(tail -2 "$tmp/venv.log")"
  exit 77
fi
if ! timeout 60 "$V/bin/pip" download -q --no-deps --no-cache-dir --timeout 10 --retries 0 -d "$tmp/probe" setuptools \
     >"$tmp/probe.log" 2>&1; then
  echo "cli_pip: SKIPPED: PyPI cannot be reached (pip download setuptools: $(tail -1 "$tmp/probe.log"))"
  exit 77
fi
echo "cli_pip: $("$V/bin/python" --version 2>&1) ($PY), $("$V/bin/pip" --version | cut -d' ' -f1-2)"

# a clean copy of the sources
mkdir "$tmp/src" && (cd "$ROOT" && git ls-files -co --exclude-standard -z | tar --null -T - -cf -) |
  tar -xf - -C "$tmp/src" && [ -f "$tmp/src/setup.py" ] && [ ! -e "$tmp/src/build" ] && ok ||
  bad "copy of the sources"

# pip install . (the console as a user sees it; the verbose log to a file)
t0=$(date +%s.%N)
(cd "$tmp/src" && timeout 600 "$V/bin/pip" install --log "$tmp/pip-verbose.log" .) >"$tmp/pip.log" 2>&1
rc=$?
t=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.0f", b - a }')
build=$(grep -o 'hydrosweep build \[ *[0-9.]* s\]: done' "$tmp/pip-verbose.log" 2>/dev/null | grep -o '[0-9.]* s' | tail -1)
echo "cli_pip: pip install . took $t s (limit $LIMIT s; the C build ${build:-?} of it, $(nproc) cores)"
if [ $rc -eq 0 ]; then ok; else bad "pip install . rc $rc: $(tail -30 "$tmp/pip.log")"; fi
[ "$t" -lt "$LIMIT" ] && ok || bad "pip install . took $t s, more than $LIMIT s"
for s in '\[1/3\] configuring' '\[2/3\] building' '\[3/3\] copying' '\[ *[0-9]*%\] Building C object' \
         'Built target hydrosweep_capi' 'Built target hydrosweep$'; do
  grep -q "$s" "$tmp/pip-verbose.log" && ok || bad "the build's log has no line '$s'"
done
! grep -q "SetuptoolsDeprecationWarning\|egg_base" "$tmp/pip-verbose.log" && ok ||
  bad "deprecation warnings: $(grep -m3 "SetuptoolsDeprecationWarning\|egg_base" "$tmp/pip-verbose.log")"
[ -z "$(cd "$tmp/src" && find . -path ./build -prune -o -name '*.egg-info' -print)" ] && ok ||
  bad "the build left an egg-info outside build/"

# the wheel: platform-tagged, licensed
SITE=$("$V/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["platlib"])')
DI=$(ls -d "$SITE"/hydrosweep-*.dist-info 2>/dev/null | head -1)
tag=$(sed -n 's/^Tag: //p' "$DI/WHEEL" 2>/dev/null)
[ -n "$tag" ] && [ "${tag%-any}" = "$tag" ] && [ "${tag#py3-none-}" != "$tag" ] &&
  grep -q "^Root-Is-Purelib: false" "$DI/WHEEL" && ok || bad "wheel tag '$tag': $(cat "$DI/WHEEL" 2>&1)"
echo "cli_pip: wheel tag $tag"
grep -qE "^License(-Expression)?: BSD-3-Clause" "$DI/METADATA" 2>/dev/null && ok ||
  bad "license: $(grep -i '^license' "$DI/METADATA" 2>&1)"

# the hydrosweep command and python -m hydrosweep
out=$("$V/bin/hydrosweep" --version 2>&1) && grep -q "^hydrosweep [0-9]" <<<"$out" && ok ||
  bad "hydrosweep --version: $out"
out=$("$V/bin/python" -m hydrosweep --version 2>&1) && grep -q "^hydrosweep [0-9]" <<<"$out" && ok ||
  bad "python -m hydrosweep --version: $out"
out=$("$V/bin/hydrosweep" info models/double_pendulum.yaml 2>&1) && grep -q "double_pendulum" <<<"$out" && ok ||
  bad "hydrosweep info: $out"
out=$("$V/bin/python" -m hydrosweep info models/double_pendulum.yaml 2>&1) && grep -q "double_pendulum" <<<"$out" && ok ||
  bad "python -m hydrosweep info: $out"

# the package from outside the sources: the installed one, with its own library
out=$(cd "$tmp" && "$V/bin/python" - "$ROOT/models/double_pendulum.yaml" "$SITE" 2>&1 <<'PYEOF'
import os, sys
import hydrosweep
from hydrosweep import _capi
site = os.path.realpath(sys.argv[2])
assert os.path.realpath(hydrosweep.__file__).startswith(site), hydrosweep.__file__
m = hydrosweep.load_model(sys.argv[1])
lib = os.path.realpath(_capi.lib()._name)
assert lib.startswith(site), lib
print(m.name, len(m.params), lib)
try:
    import matplotlib  # noqa: F401
    print("matplotlib present")
except ImportError:
    try:
        hydrosweep.plot
        sys.exit("hydrosweep.plot imported without matplotlib")
    except ImportError as e:
        assert "matplotlib" in str(e) and "hydrosweep[plot]" in str(e), str(e)
        print("plot without matplotlib:", e)
PYEOF
) && grep -q "^double_pendulum " <<<"$out" && ok || bad "import hydrosweep: $out"
finish cli_pip "pip install . in $t s"
