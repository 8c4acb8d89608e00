#!/usr/bin/env bash
# cli_pyfind.sh -- the interpreter that `hydrosweep plot` and `hydrosweep analyze` run
# (host/cli/cli_plot.c find_python): $HS_PYTHON alone when set; else the package's interpreter
# ($HS_PACKAGE_PYTHON, set by the pip-installed command), /usr/bin/python3 and python3 on PATH,
# the first that imports what the command needs. One that fails an import (here a stand-in whose
# h5py raises "ImportError: numpy.core.multiarray failed to import", as Debian's h5py does under
# a newer numpy that `pip install SALib` brought into a --system-site-packages venv) is passed
# over for the next; when none works the error names each interpreter tried and the import that
# failed in it, with exit status 4; an explicit HS_PYTHON that fails is not replaced.
# Usage: cli_pyfind.sh PATH/TO/hydrosweep   (from the repository root)
# Exit 77 (skipped) without /usr/bin/python3 with numpy, h5py and matplotlib (Debian 12:
# scripts/install-deps.sh).
set -u
HS=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
ROOT=$(pwd)
. "$(dirname "${BASH_SOURCE[0]}")/lib_cli.sh"
if ! /usr/bin/python3 -c "import numpy, h5py, matplotlib" >/dev/null 2>&1; then
  echo "cli_pyfind: SKIPPED: /usr/bin/python3 lacks numpy, h5py or matplotlib (scripts/install-deps.sh)"
  exit 77
fi
cd "$tmp" || exit 1
# the stand-in: Debian's python3 with an h5py that fails to import, logging how it is run
mkdir -p fakemods/h5py bad good
echo 'raise ImportError("numpy.core.multiarray failed to import (stand-in)")' >fakemods/h5py/__init__.py
cat >bad/python3 <<EOF
#!/bin/sh
echo "\$*" | head -c 60 >>"$tmp/bad.log"; echo >>"$tmp/bad.log"
PYTHONPATH=$tmp/fakemods\${PYTHONPATH:+:\$PYTHONPATH} exec /usr/bin/python3 "\$@"
EOF
# a working python3 that logs how it is run (and drops the stand-in's modules from PYTHONPATH)
cat >good/python3 <<EOF
#!/bin/sh
echo "\$*" | head -c 60 >>"$tmp/good.log"; echo >>"$tmp/good.log"
PYTHONPATH=\$(printf %s "\$PYTHONPATH" | sed "s#$tmp/fakemods##; s#::*#:#g; s#^:##; s#:\\\$##") exec /usr/bin/python3 "\$@"
EOF
chmod +x bad/python3 good/python3
"$HS" simulate "$ROOT/models/double_pendulum.yaml" -o dp.csv >sim.log 2>&1 && ok || bad "simulate: $(tail -3 sim.log)"
unset HS_PYTHON HS_PACKAGE_PYTHON

# 1. the package's interpreter fails to import h5py: the next (/usr/bin/python3) draws
rm -f bad.log
HS_PACKAGE_PYTHON=$tmp/bad/python3 "$HS" plot dp.csv -o a.png >e.log 2>&1; rc=$?
[ $rc -eq 0 ] && [ -s a.png ] && ok || bad "failing HS_PACKAGE_PYTHON: rc $rc: $(cat e.log)"
grep -q "^-c " bad.log && ! grep -q "^-m " bad.log && ok || bad "the failing interpreter ran the module: $(cat bad.log 2>&1)"

# 2. /usr/bin/python3 fails (its h5py broken through PYTHONPATH): python3 on PATH draws
rm -f good.log
PYTHONPATH=$tmp/fakemods PATH=$tmp/good:$PATH "$HS" plot dp.csv -o b.png >e.log 2>&1; rc=$?
[ $rc -eq 0 ] && [ -s b.png ] && grep -q "^-m hydrosweep.plot" good.log && ok ||
  bad "python3 on PATH after a failing /usr/bin/python3: rc $rc: $(cat e.log) $(cat good.log 2>&1)"

# 3. every one fails: each is named with the import that failed in it, exit 4
PYTHONPATH=$tmp/fakemods PATH=$tmp/bad:$PATH HS_PACKAGE_PYTHON=/bin/false "$HS" plot dp.csv -o c.png >e.log 2>&1; rc=$?
msg="import h5py failed: ImportError: numpy.core.multiarray failed to import (stand-in)"
[ $rc -eq 4 ] && grep -q "no python3 with numpy, h5py and matplotlib" e.log &&
  grep -qF "/bin/false (the package's interpreter, HS_PACKAGE_PYTHON): exit status 1" e.log &&
  grep -qF "/usr/bin/python3: $msg" e.log && grep -qF "$tmp/bad/python3 (python3 on PATH): $msg" e.log && [ ! -e c.png ] &&
  ok || bad "no interpreter works: rc $rc: $(cat e.log)"

# 4. an explicit HS_PYTHON that fails: named with its failed import, and not replaced
rm -f bad.log
HS_PYTHON=$tmp/bad/python3 "$HS" plot dp.csv -o d.png >e.log 2>&1; rc=$?
[ $rc -eq 4 ] && grep -qF "$tmp/bad/python3 (HS_PYTHON): $msg" e.log && grep -q "HS_PYTHON, when set, is the only" e.log &&
  [ "$(grep -c . e.log)" -eq 3 ] && [ ! -e d.png ] && ! grep -q "^-m " bad.log && ok ||
  bad "failing HS_PYTHON: rc $rc: $(cat e.log)"
HS_PYTHON=$tmp/nonexistent/python3 "$HS" plot dp.csv -o d.png >e.log 2>&1; rc=$?
[ $rc -eq 4 ] && grep -qF "$tmp/nonexistent/python3 (HS_PYTHON): not found" e.log && ok ||
  bad "missing HS_PYTHON: rc $rc: $(cat e.log)"

# a program that only echoes its arguments (exit 0) is no interpreter that passed
HS_PYTHON=/bin/echo "$HS" plot dp.csv -o d.png >e.log 2>&1; rc=$?
[ $rc -eq 4 ] && grep -qF "/bin/echo (HS_PYTHON): not a Python interpreter?" e.log && [ ! -e d.png ] && ok ||
  bad "HS_PYTHON=/bin/echo: rc $rc: $(cat e.log)"

# 5. analyze: the failed import named, and the working SALib recipe (pip install --no-deps)
HS_PYTHON=$tmp/bad/python3 "$HS" analyze sobol x.h5 --signal s >e.log 2>&1; rc=$?
[ $rc -eq 4 ] && grep -qF "(HS_PYTHON): $msg" e.log && grep -qF "pip install --no-deps SALib multiprocess dill" e.log &&
  ok || bad "analyze with a failing HS_PYTHON: rc $rc: $(cat e.log)"
"$HS" analyze --help >h.log 2>&1 && grep -qF "pip install --no-deps SALib multiprocess dill" h.log &&
  grep -qF -- "--system-site-packages" h.log && ok || bad "analyze --help has no working SALib recipe: $(cat h.log)"
finish cli_pyfind
