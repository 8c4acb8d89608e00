#!/usr/bin/env bash
# cli_full_disk.sh -- a disk that fills at the end of a run (issue 47, class 4): on a small
# tmpfs sized across the end phase (the last chunks, the CSV, the ensemble, the close), `run`
# either finishes or fails with exit 3 and the error, leaving a .part that `--resume` (with
# room) finishes into the same results as a run that never failed; never a .part that cannot
# be opened, never a final file without its CSV. Needs root and tmpfs (mount); exit 77
# (skipped) where they cannot be had. Usage: cli_full_disk.sh PATH/TO/hydrosweep
set -u
HS=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
S=$(pwd)/tests/data/sweep_small.yaml
. "$(dirname "${BASH_SOURCE[0]}")/lib_cli.sh"
mnt=$tmp/mnt
mkdir -p "$mnt"
if ! mount -t tmpfs -o size=64k tmpfs "$mnt" 2>/dev/null; then
  echo "cli_full_disk: skipped (cannot mount a tmpfs: not root, or no mount namespace)"
  exit 77
fi
trap 'umount "$mnt" 2>/dev/null; rm -rf "$tmp"' EXIT
umount "$mnt"
"$HS" run "$S" -o "$tmp/ref.h5" --no-progress >/dev/null 2>&1 || bad "the reference run"
h=$(($(stat -c %s "$tmp/ref.h5") / 1024))
c=$(($(stat -c %s "$tmp/ref.csv") / 1024))
nfail=0
nfin=0
for kb in $(seq $((h - 8)) 12 $((h + c + 200))); do
  mount -t tmpfs -o size=${kb}k tmpfs "$mnt" || { bad "mount ${kb}k"; continue; }
  "$HS" run "$S" -o "$mnt/r.h5" --no-progress >"$tmp/o.txt" 2>&1
  rc=$?
  if [ $rc -eq 0 ]; then
    nfin=$((nfin + 1))
    [ -e "$mnt/r.csv" ] && ! [ -e "$mnt/r.h5.part" ] && ok || bad "${kb}k: finished without its CSV or with a .part"
    umount "$mnt"
    continue
  fi
  [ $rc -eq 3 ] && grep -q 'No space left on device' "$tmp/o.txt" && ok || bad "${kb}k: rc $rc $(tail -2 "$tmp/o.txt")"
  [ ! -e "$mnt/r.h5" ] && ok || bad "${kb}k: a final file after a failure"
  if [ -e "$mnt/r.h5.part" ]; then
    nfail=$((nfail + 1))
    cp "$mnt/r.h5.part" "$tmp/r.h5.part"
    umount "$mnt"
    mount -t tmpfs -o size=$((4 * (h + c) + 400))k tmpfs "$mnt"
    cp "$tmp/r.h5.part" "$mnt/r.h5.part"
    "$HS" run "$S" -o "$mnt/r.h5" --resume --no-progress >"$tmp/o.txt" 2>&1 && ok ||
      bad "${kb}k: the .part left does not resume: $(tail -2 "$tmp/o.txt")"
    for d in /status /stats/crank_angle /ensemble/crank_angle /params; do
      h5diff -q "$tmp/ref.h5" "$mnt/r.h5" $d $d >/dev/null 2>&1 && ok || bad "${kb}k: resumed $d differs"
    done
    cmp -s "$tmp/ref.csv" "$mnt/r.csv" && ok || bad "${kb}k: resumed CSV differs"
  fi
  umount "$mnt"
done
[ $nfail -ge 3 ] && [ $nfin -ge 1 ] && ok || bad "the sizes cover the end phase: $nfail left a .part, $nfin finished"
# simulate -o is written whole or not at all: on a disk that fills, exit 2, the file that was
# at the path unchanged, no .part left
mount -t tmpfs -o size=64k tmpfs "$mnt" || bad "mount 64k"
echo "an older CSV" >"$mnt/sim.csv"
"$HS" simulate models/fourbar_jaiswal2021_friction.yaml --t-end 2 -o "$mnt/sim.csv" >"$tmp/o.txt" 2>&1; rc=$?
[ $rc -eq 2 ] && grep -q 'No space left on device' "$tmp/o.txt" && ok || bad "simulate on a full disk: rc $rc $(tail -2 "$tmp/o.txt")"
[ "$(cat "$mnt/sim.csv")" = "an older CSV" ] && ! [ -e "$mnt/sim.csv.part" ] && ok || bad "simulate: the old CSV changed or a .part left"
"$HS" simulate models/fourbar_jaiswal2021_friction.yaml --t-end 0.01 -o "$mnt/sim.csv" >/dev/null 2>&1 &&
  [ "$(wc -l <"$mnt/sim.csv")" -eq 12 ] && ! [ -e "$mnt/sim.csv.part" ] && ok || bad "simulate with room: $(wc -l <"$mnt/sim.csv") lines"
umount "$mnt"
finish cli_full_disk "$nfail sizes left a .part that resumed, $nfin finished"
