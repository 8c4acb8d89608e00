#!/usr/bin/env bash
# cli_checksums.sh -- bytes flipped in a results file (what a disk, a copy or a transfer error
# does) are an error wherever the file is read, never silently used (docs/results-format.md,
# Checksums): `hydrosweep merge` with a shard whose /status, /stats/<signal> or /params has a
# flipped byte, `run --resume` of a .part whose finished chunk has one, and `hydrosweep plot`
# of a file with one exit non-zero with the dataset's name and the chunk in the message, and
# write no output; the intact files merge, resume and plot.
# The byte is found where HDF5 stored the chunk: `h5ls -va` lists every chunk's address.
# A chunk zeroed or erased (every stored byte 0 or 0xFF, its Fletcher32 included) passes
# Fletcher32 but not the chunk's CRC-32 in /crc: merge, resume and plot name it the same way.
# Usage: cli_checksums.sh PATH/TO/hydrosweep   (from the repository root)
# Exit 77 (skipped) without h5ls (apt-get install hdf5-tools); the plot case is skipped without
# a python3 with numpy, h5py and matplotlib.
set -u
HS=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
ROOT=$(pwd)
. "$(dirname "${BASH_SOURCE[0]}")/lib_cli.sh"
if ! command -v h5ls >/dev/null 2>&1; then
  echo "cli_checksums: SKIPPED: no h5ls (apt-get install hdf5-tools)"
  exit 77
fi
cd "$tmp" || exit 1
SW=$ROOT/tests/data/sweep_small.yaml # 24 instances, chunks of 8
run() { "$HS" run "$SW" -b cpu --no-progress "$@" >run.log 2>&1 || { cat run.log; exit 1; }; }
run --shard 0/2 -o s0.h5
run --shard 1/2 -o s1.h5
run -o whole.h5

# flip FILE DATASET CHUNK BYTE: XORs 0x5a into byte BYTE of chunk CHUNK of DATASET's raw data
flip() {
  local addr size
  read -r size addr < <(h5ls -va "$1/$2" |
    awk -v c="$3" '/^ *0x[0-9a-f]+ +[0-9]+ +[0-9]+ +\[/ { if (n++ == c) { print $2, $3; exit } }')
  if [ -z "${addr:-}" ] || [ "$4" -ge "$size" ]; then
    echo "flip: no byte $4 in chunk $3 of $2 in $1"
    return 1
  fi
  local b
  b=$(od -An -tu1 -j $((addr + $4)) -N1 "$1" | tr -d ' ')
  printf "$(printf '\\%03o' $((b ^ 0x5a)))" | dd of="$1" bs=1 seek=$((addr + $4)) conv=notrunc status=none
}

# fill FILE DATASET CHUNK BYTE: every stored byte of chunk CHUNK of DATASET, its Fletcher32
# checksum included, set to BYTE (0 or 255: a lost write, an erased block), which Fletcher32
# cannot see (its checksum of zeros is 0, of 0xFF bytes 0xFFFFFFFF): /crc must
fill() {
  local addr size
  read -r size addr < <(h5ls -va "$1/$2" |
    awk -v c="$3" '/^ *0x[0-9a-f]+ +[0-9]+ +[0-9]+ +\[/ { if (n++ == c) { print $2, $3; exit } }')
  [ -n "${addr:-}" ] || { echo "fill: no chunk $3 of $2 in $1"; return 1; }
  head -c "$size" /dev/zero | { if [ "$4" = 255 ]; then tr '\0' '\377'; else cat; fi; } |
    dd of="$1" bs=1 seek="$addr" conv=notrunc status=none
}

# expect NAME STATUS TEXT... -- CMD...: exit STATUS (non-zero: any non-zero) and every TEXT in
# the output
expect() {
  local name=$1 want=$2 out st t
  shift 2
  local texts=()
  while [ "$1" != "--" ]; do texts+=("$1"); shift; done
  shift
  out=$("$@" 2>&1)
  st=$?
  if { [ "$want" = nonzero ] && [ "$st" -eq 0 ]; } || { [ "$want" != nonzero ] && [ "$st" -ne "$want" ]; }; then
    bad "$name: exit $st (want $want): $out"
    return
  fi
  for t in "${texts[@]}"; do
    case $out in
      *"$t"*) ;;
      *) bad "$name: no '$t' in: $out"; return ;;
    esac
  done
  ok
}

# which checksum sees a damage: a flipped byte Fletcher32, a zeroed or erased chunk (data and
# Fletcher32 both) only the CRC-32 of /crc
sum_of() { [ "$1" = flip ] && echo Fletcher32 || echo CRC-32; }

# --- merge: one shard's /status, /stats/<signal>, /params damaged (damage dataset chunk byte)
for case in "flip status 1 5" "flip stats/p_piston 0 77" "flip params 1 3" "fill status 1 255" \
            "fill stats/p_piston 0 0" "fill params 1 255" "fill steps 0 0"; do
  set -- $case
  cp s1.h5 bad.h5
  "$1" bad.h5 "$2" "$3" "$4" || bad "$1 $2"
  expect "merge, /$2 chunk $3: $1 $4" nonzero "bad.h5" "dataset /$2: checksum mismatch ($(sum_of "$1")) in chunk $3" -- \
    "$HS" merge m.h5 s0.h5 bad.h5
  [ ! -e m.h5 ] && [ ! -e m.h5.part ] && ok || bad "merge, /$2 damaged: an output was left"
done
expect "merge of the intact shards" 0 -- "$HS" merge m.h5 s0.h5 s1.h5
# the merged file equals the single run's (h5diff: datasets and attributes)
if command -v h5diff >/dev/null 2>&1; then
  h5diff -c whole.h5 m.h5 /status >/dev/null 2>&1 && h5diff whole.h5 m.h5 /stats/p_piston >/dev/null 2>&1 &&
    h5diff whole.h5 m.h5 /crc >/dev/null 2>&1 && ok || bad "the merged file differs from the single run's"
fi

# --- resume: a flipped byte in a finished chunk of the .part (2 of 3 chunks written)
"$HS" run "$SW" -b cpu --no-progress -o p.h5 --stop-after 2 >stop.log 2>&1
[ -f p.h5.part ] && [ ! -e p.h5 ] && ok || bad "--stop-after 2 left no .part: $(tail -3 stop.log)"
for case in "flip status 1 9" "flip stats/W_lift 0 100" "flip params 0 30" "flip traj/p_piston 1 200" \
            "fill status 1 255" "fill stats/W_lift 0 255" "fill traj/p_piston 1 0"; do
  set -- $case
  cp p.h5.part q.h5.part
  "$1" q.h5.part "$2" "$3" "$4" || bad "$1 $2"
  expect "resume, /$2 chunk $3: $1 $4" nonzero "q.h5.part" "dataset /$2: checksum mismatch ($(sum_of "$1")) in chunk $3" -- \
    "$HS" run "$SW" -b cpu --no-progress -o q.h5 --resume
  [ -f q.h5.part ] && [ ! -e q.h5 ] && ok || bad "resume, /$2 damaged: the .part was not left as it was"
done
cp p.h5.part q.h5.part
expect "resume of the intact .part" 0 -- "$HS" run "$SW" -b cpu --no-progress -o q.h5 --resume
[ -f q.h5 ] && cmp -s q.csv whole.csv && ok || bad "the resumed run's CSV differs from the single run's"

# --- /params re-derived from the stored sweep (merge, resume): a value changed with every
# checksum rewritten to match (what neither Fletcher32 nor /crc can see)
PYH=$(python_with numpy h5py)
if [ -n "$PYH" ]; then
  # forge FILE: /params[9][1] += 1, HDF5 rewriting its Fletcher32, /crc[1][params] recomputed
  forge() {
    "$PYH" - "$1" <<'PYEOF'
import sys, zlib, h5py, numpy as np
with h5py.File(sys.argv[1], "r+") as f:
    p = f["params"][()]
    p[9, 1] += 1.0
    f["params"][...] = p
    names = [n.decode() for n in f["crc"].attrs["datasets"]]
    k, ch = names.index("/params"), int(f.attrs["chunk"])
    crc = f["crc"][()]
    crc[1, k] = zlib.crc32(np.ascontiguousarray(p[ch:2 * ch], "<f8").tobytes())
    f["crc"][...] = crc
PYEOF
  }
  cp s1.h5 bad.h5
  forge bad.h5
  expect "merge, a /params value forged" 2 "bad.h5" "/params[9][1] (instance 21," "its sweep gives" -- \
    "$HS" merge m2.h5 s0.h5 bad.h5
  [ ! -e m2.h5 ] && ok || bad "merge of a forged /params left an output"
  cp p.h5.part q.h5.part
  forge q.h5.part
  expect "resume, a /params value forged" nonzero "q.h5.part" "/params[9][1] (instance 9," "its sweep gives" -- \
    "$HS" run "$SW" -b cpu --no-progress -o q.h5 --resume
  rm -f q.h5.part
else
  echo "cli_checksums: /params forgery cases skipped (no python3 with numpy, h5py)"
fi

# --- plot (python/hydrosweep/results.py): a flipped byte in the data drawn
PY=$(python_with numpy h5py matplotlib)
if [ -n "$PY" ]; then
  export HS_PYTHON=$PY
  cp whole.h5 badp.h5
  flip badp.h5 stats/p_piston 2 8 || bad "flip stats/p_piston"
  expect "plot hist, /stats/p_piston flipped" nonzero "badp.h5" \
    "dataset /stats/p_piston: checksum mismatch (Fletcher32) in chunk 2 (rows 16..23)" -- \
    "$HS" plot badp.h5 --kind hist --signal p_piston -o h.png
  [ ! -e h.png ] && ok || bad "plot of a damaged file wrote h.png"
  cp whole.h5 badp.h5
  flip badp.h5 status 0 2 || bad "flip status"
  expect "plot status, /status flipped" nonzero "dataset /status: checksum mismatch (Fletcher32) in chunk 0 (rows 0..7)" -- \
    "$HS" plot badp.h5 --kind status -o s.png
  cp whole.h5 badp.h5
  fill badp.h5 status 1 255 || bad "fill status"
  expect "plot status, /status chunk 1 erased" nonzero "dataset /status: checksum mismatch (CRC-32) in chunk 1 (rows 8..15)" -- \
    "$HS" plot badp.h5 --kind status -o s.png
  cp whole.h5 badp.h5
  fill badp.h5 stats/p_piston 2 255 || bad "fill stats/p_piston"
  expect "plot hist, /stats/p_piston chunk 2 erased" nonzero "dataset /stats/p_piston: checksum mismatch (CRC-32) in chunk 2" -- \
    "$HS" plot badp.h5 --kind hist --signal p_piston -o h.png
  expect "plot of the intact file" 0 -- "$HS" plot whole.h5 --kind hist --signal p_piston -o h.png
else
  echo "cli_checksums: plot cases skipped (no python3 with numpy, h5py, matplotlib)"
fi
finish cli_checksums
