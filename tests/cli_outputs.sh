#!/usr/bin/env bash
# cli_outputs.sh -- files are written only where asked, never through a link (host/base/fileio.h
# hs_check_output_file; python/hydrosweep/_paths.py): for every file hydrosweep creates or
# resumes -- the results .h5 and its .part, the CSV summary and its .part, a merge output, the
# simulate CSV, a plot, the kernel cache, the Sobol' indices stored into a results file -- a
# symbolic link planted at the name (to a victim file in the scratch directory) is refused with
# a message that says so, the victim keeps its bytes and the link stays a link. Devices and
# directories are refused as outputs; `plot -o NAME` writes NAME itself.
# Usage: cli_outputs.sh PATH/TO/hydrosweep   (from the repository root)
set -u
HS=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
ROOT=$(pwd)
S=$ROOT/tests/data/sweep_small.yaml
M=$ROOT/models/double_pendulum.yaml
. "$(dirname "${BASH_SOURCE[0]}")/lib_cli.sh"
cd "$tmp"

# refused_as PATTERN WHAT CMD...: exit 2 and PATTERN (grep) in its message (in err.txt)
refused_as() {
  local pat=$1 what=$2
  shift 2
  "$@" >out.txt 2>err.txt
  local rc=$?
  [ $rc -eq 2 ] && grep -q "$pat" err.txt && ok || bad "$what: exit $rc (want 2, '$pat'): $(head -c 400 err.txt)"
}
# refused WHAT CMD...: a symbolic link refused
refused_link() { refused_as "symbolic link" "$@"; }
victim_intact() { # WHAT: the victim keeps its text, and LINK (if given) is still a link
  [ "$(cat victim.txt)" = "precious" ] && ok || bad "$1: the victim was written through the link"
  if [ -n "${2:-}" ]; then [ -L "$2" ] && ok || bad "$1: the link $2 was replaced"; fi
}
fresh() { rm -rf ./*; echo precious >victim.txt; }

# --- run: the .h5, its .part, the CSV and the CSV's .part
fresh; ln -s victim.txt r.h5.part
refused_link "run with a link at OUT.h5.part" "$HS" run "$S" -o r.h5 --no-progress
victim_intact ".h5.part" r.h5.part
[ ! -e r.h5 ] && [ ! -e r.csv ] && ok || bad ".h5.part link: files were made"
fresh; ln -s victim.txt r.csv.part
refused_link "run with a link at OUT.csv.part" "$HS" run "$S" -o r.h5 --no-progress
victim_intact ".csv.part" r.csv.part
[ ! -e r.h5 ] && [ ! -e r.h5.part ] && ok || bad ".csv.part link: refused only after the run"
fresh; ln -s victim.txt r.h5
refused_link "run -o LINK" "$HS" run "$S" -o r.h5 --no-progress
victim_intact "-o LINK" r.h5
fresh; ln -s victim.txt r.csv
refused_link "run with a link at OUT.csv" "$HS" run "$S" -o r.h5 --no-progress
victim_intact ".csv link" r.csv
# a dangling link is a link too (O_CREAT would create its target)
fresh; ln -s nowhere.txt r.h5.part
refused_link "run with a dangling link at OUT.h5.part" "$HS" run "$S" -o r.h5 --no-progress
[ ! -e nowhere.txt ] && ok || bad "the dangling link's target was created"
# -o a link to the standard output (what /dev/stdout is; a link of our own here, so that a
# binary with the defect replaces nothing outside the scratch directory): refused, nothing
# written to stdout
fresh; ln -s /proc/self/fd/1 out_link
"$HS" run "$S" -o out_link --no-progress >stdout.txt 2>err.txt
rc=$?
[ $rc -eq 2 ] && grep -q "symbolic link" err.txt && ! grep -q HDF stdout.txt && [ -L out_link ] &&
  [ ! -e out_link.csv ] && ok || bad "run -o LINK-to-stdout: exit $rc: $(head -c 300 err.txt)"
# a FIFO and a directory (a device is refused as a FIFO is: not a regular file; cli_bad_inputs
# tries /dev/full, which is never opened for writing here)
refused_dev() { refused_as "not a regular file\|is a directory" "$@"; }
mkfifo f.h5
refused_dev "run -o FIFO" "$HS" run "$S" -o f.h5 --no-progress
[ -p f.h5 ] && [ ! -e f.csv ] && [ ! -e f.h5.part ] && ok || bad "run -o FIFO made files"
mkdir dir.h5
refused_dev "run -o DIR" "$HS" run "$S" -o dir.h5 --no-progress

# --- resume: a .part that became a link
fresh
"$HS" run "$S" -o p.h5 --stop-after 1 --no-progress >/dev/null 2>&1
mv p.h5.part real.part && ln -s real.part p.h5.part
refused_link "resume through a link at .part" "$HS" run "$S" -o p.h5 --resume --no-progress
[ -L p.h5.part ] && [ ! -e p.h5 ] && ok || bad "resume through a link: files changed"

# --- merge into a LINK
fresh
"$HS" run "$S" --shard 0/2 -o s0.h5 --no-progress >/dev/null 2>&1 &&
  "$HS" run "$S" --shard 1/2 -o s1.h5 --no-progress >/dev/null 2>&1 || bad "shards"
ln -s victim.txt m.h5
refused_link "merge to a LINK" "$HS" merge m.h5 s0.h5 s1.h5
victim_intact "merge -o LINK" m.h5
"$HS" merge m2.h5 s0.h5 s1.h5 >/dev/null 2>&1 && [ -f m2.h5 ] && ok || bad "merge to a new name"

# --- simulate -o
fresh; ln -s victim.txt x.csv
refused_link "simulate -o LINK" "$HS" simulate "$M" --t-end 0.01 -o x.csv
victim_intact "simulate -o LINK" x.csv
mkfifo fifo
refused_dev "simulate -o FIFO" "$HS" simulate "$M" --t-end 0.01 -o fifo
[ -p fifo ] && ok || bad "simulate -o FIFO replaced the FIFO"

# --- plot: the file named, or refused
PY=$(python_with numpy h5py matplotlib) || PY=
if [ -n "$PY" ]; then
  fresh
  "$HS" run "$S" -o r.h5 --no-progress >/dev/null 2>&1 || bad "run for the plots"
  export HS_PYTHON=$PY
  "$HS" plot r.h5 --kind status -o noext >out.txt 2>err.txt && [ -f noext ] && [ ! -e noext.png ] &&
    [ "$(head -c 4 noext | tail -c 3)" = PNG ] && grep -q "wrote noext" out.txt && ok ||
    bad "plot -o NAME writes NAME as a PNG: $(cat err.txt out.txt) $(ls)"
  ln -s victim.txt p.png
  refused_link "plot -o LINK" "$HS" plot r.h5 --kind status -o p.png
  victim_intact "plot -o LINK" p.png
  mkdir d
  "$HS" plot r.h5 --kind status -o d >out.txt 2>err.txt
  [ $? -eq 2 ] && grep -q "directory" err.txt && [ ! -e d.png ] && ok || bad "plot -o DIR: $(cat err.txt) $(ls)"
  mkfifo pf
  "$HS" plot r.h5 --kind status -o pf >out.txt 2>err.txt
  [ $? -eq 2 ] && grep -q "not a regular file" err.txt && [ -p pf ] && [ ! -e pf.png ] && ok ||
    bad "plot -o FIFO: $(cat err.txt)"
  unset HS_PYTHON
else
  echo "cli_outputs: plot cases skipped (no python3 with numpy, h5py, matplotlib)"
fi

# --- the kernel cache: an entry that is a link is never followed (read, loaded or written
#     through); it is built again and the link replaced by the cache's own file
fresh
export HS_KERNEL_CACHE=$tmp/kc
"$HS" run "$S" -o k1.h5 --no-progress >/dev/null 2>&1 || bad "run with a fresh kernel cache"
n=0
for e in kc/*.so; do
  [ -f "$e" ] || continue
  n=$((n + 1))
  mv "$e" "$e.orig" && ln -s "$tmp/victim.txt" "$e"
done
[ $n -ge 1 ] && ok || bad "no cached object in kc/: $(ls kc)"
"$HS" run "$S" -o k2.h5 --no-progress >out.txt 2>err.txt && ok || bad "run with links in the cache: $(cat err.txt)"
victim_intact "kernel cache"
for e in kc/*.so; do [ -L "$e" ] && bad "cache entry $e is still a link"; done
cmp -s k1.csv k2.csv && ok || bad "results with a rebuilt cache entry differ"
unset HS_KERNEL_CACHE

# --- analyze: the indices are not stored through a link
PYS=$(python_with numpy h5py pandas SALib) || PYS=
if [ -n "$PYS" ]; then
  fresh
  sed 's/^method: .*//' "$ROOT/sweeps/friction_bulk_sobol.yaml" >/dev/null
  "$HS" run "$ROOT/sweeps/friction_bulk_sobol.yaml" -n 40 -o sob.h5 --no-progress >/dev/null 2>&1 || bad "sobol run"
  ln -s sob.h5 sob_link.h5
  cp sob.h5 sob_before.h5
  HS_PYTHON=$PYS "$HS" analyze sobol sob_link.h5 --signal "$(HS_PYTHON= "$PYS" -c 'import h5py; print(h5py.File("sob.h5")["/"].attrs["signals"][0].decode())')" --resamples 10 >out.txt 2>err.txt
  [ $? -eq 2 ] && grep -q "symbolic link" err.txt && ok || bad "analyze --store through a link: $(cat err.txt)"
  h5diff -q sob.h5 sob_before.h5 >/dev/null 2>&1 && ok || bad "analyze wrote into the link's target"
fi

finish cli_outputs
