#!/usr/bin/env bash
# cli_bad_inputs.sh -- hostile inputs: every one must be refused at once (exit 2, within a
# second) with the file, line and key where there is one; never a crash, a hang or a silent
# acceptance. Usage: cli_bad_inputs.sh PATH/TO/hydrosweep
#   1. the corpus tests/bad_inputs/ (cases.tsv: file, line, key, message): non-UTF-8 bytes and
#      control characters, step counts, integer parameters, sizes, the sweep's model: key;
#   2. single-byte insertions (bytes that are not UTF-8 or not YAML text) into every shipped
#      model and sweep: the error names the line of the byte;
#   3. inputs that cannot be files: FIFOs, devices, directories, a file too large;
#   4. command-line overrides: --t-end, --dt, --set of integer parameters;
#   5. outputs: /dev/full, a full disk (ulimit -f with SIGXFSZ ignored), directories, a FIFO;
#   6. the thread count; 7. two runs writing the same results file.
set -u
HS=${1:?usage: cli_bad_inputs.sh HYDROSWEEP}
HS=$(cd "$(dirname "$HS")" && pwd)/$(basename "$HS")
. "$(dirname "${BASH_SOURCE[0]}")/lib_cli.sh"
BAD=tests/bad_inputs
MAX_S=${HS_BAD_INPUT_MAX_S:-1} # "at once": seconds a refusal may take beyond the program's start
# The program's own start-up, the slowest of three `--version` runs: a CUDA build spends about
# 0.2 s initialising its runtime and an AddressSanitizer build 0.5 s more (with the leak check
# at exit), however small the input. A refusal may take MAX_S beyond twice that (two of these
# run at once when ctest runs tests in parallel); a hang is still killed after 10 s.
START_MS=0
for _ in 1 2 3; do
  t0=${EPOCHREALTIME/./}
  "$HS" --version >/dev/null 2>&1
  t1=${EPOCHREALTIME/./}
  ms=$(((t1 - t0) / 1000))
  [ "$ms" -gt "$START_MS" ] && START_MS=$ms
done
LIMIT_MS=$((MAX_S * 1000 + 2 * START_MS))

# refused EXPECT_RC DESC -- COMMAND...: exit EXPECT_RC within LIMIT_MS (a hang is killed
# after 10 s), no crash; stderr in $tmp/err for further checks.
refused() {
  local want=$1 desc=$2 t0 t1 rc ms
  shift 3
  t0=${EPOCHREALTIME/./}
  timeout -k 1 10 "$@" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  t1=${EPOCHREALTIME/./}
  ms=$(((t1 - t0) / 1000))
  if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
    bad "$desc: hangs (killed after 10 s)"
    return 1
  fi
  if [ "$rc" -ne "$want" ]; then
    bad "$desc: exit $rc, want $want: $(head -c 400 "$tmp/err")"
    return 1
  fi
  if [ "$ms" -gt "$LIMIT_MS" ]; then
    bad "$desc: took $ms ms (the limit: $LIMIT_MS ms, ${MAX_S} s beyond twice the start-up of $START_MS ms)"
    return 1
  fi
  return 0
}
# has DESC TEXT: the last command's stderr contains TEXT
has() {
  if grep -qF -- "$2" "$tmp/err"; then ok; else bad "$1: no '$2' in: $(head -c 400 "$tmp/err")"; fi
}

# --- 1. the corpus ------------------------------------------------------------------------
ncase=0
while IFS=$'\t' read -r file line key msg only; do
  case "$file" in '#'* | '') continue ;; esac
  ncase=$((ncase + 1))
  case "$file" in
  model_*) cmds=("info" "simulate") ;;
  sweep_*) cmds=("run" "validate") ;;
  *) bad "cases.tsv: $file is neither model_* nor sweep_*"; continue ;;
  esac
  # a run's size is the run's (validate samples a few instances of any sweep)
  [ -n "$only" ] && IFS=, read -r -a cmds <<<"$only"
  for c in "${cmds[@]}"; do
    rm -rf "$tmp/o" && mkdir "$tmp/o"
    case "$c" in
    simulate) args=(-o "$tmp/o/x.csv") ;;
    run) args=(-o "$tmp/o/x.h5" --no-progress) ;;
    *) args=() ;;
    esac
    if refused 2 "$c $file" -- "$HS" "$c" "$BAD/$file" "${args[@]}"; then
      d="$c $file"
      grep -qF -- "$BAD/$file:$line:" "$tmp/err" && ok || bad "$d: not at line $line: $(head -c 300 "$tmp/err")"
      if [ "$key" != - ]; then has "$d" "key '$key'"; fi
      has "$d" "$msg"
      [ -z "$(ls -A "$tmp/o")" ] && ok || bad "$d: created $(ls "$tmp/o")"
    fi
  done
done <"$BAD/cases.tsv"
[ "$ncase" -ge 30 ] && ok || bad "only $ncase corpus cases read"
# a file that is not YAML of ours at all is refused as such: no line of it is repeated
for c in validate run; do
  "$HS" "$c" "$BAD/sweep_model_not_yaml.yaml" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  [ $rc -eq 2 ] && grep -q "not a hydrosweep model file" "$tmp/err" && ! grep -q "SECRET\|root:\|daemon" "$tmp/err" "$tmp/out" &&
    ok || bad "$c: rc $rc, the password file's text echoed or not refused as such: $(cat "$tmp/err")"
done
"$HS" info /etc/passwd >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && ! grep -q "root:\|/bin/" "$tmp/err" && ok || bad "info /etc/passwd echoes it: $(cat "$tmp/err")"
"$HS" info "$BAD/model_long_key.yaml" >"$tmp/out" 2>"$tmp/err"
! grep -q "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx" "$tmp/err" && ok ||
  bad "a 300-character key echoed"

# --- 2. single-byte insertions into the shipped files --------------------------------------
# insert FILE POS BYTE OUT: OUT is FILE with the byte (printf escape) inserted at offset POS
insert() {
  { head -c "$2" "$1"; printf "$3"; tail -c +$(($2 + 1)) "$1"; } >"$4"
}
# Seven places in every file, one of the four bytes at each, taken in turn (file i, place k:
# byte (i + k) mod 4), so that every file gets every byte and every byte every place class:
# one program start per insertion (0.7 s under AddressSanitizer), 4x fewer than all four at
# every place, which added ten minutes to the sanitizer run and no code path
nins=0
bytes=('\377' '\303' '\001' '\177')
i=0
for m in models/*.yaml sweeps/*.yaml; do
  size=$(wc -c <"$m")
  case "$m" in sweeps/*) cmd=validate ;; *) cmd=info ;; esac
  i=$((i + 1))
  for k in 1 2 3 4 5 6 7; do
    pos=$((size * k / 8))
    for b in "${bytes[$(((i + k) % 4))]}"; do
      f=$tmp/ins_$(basename "$m")
      insert "$m" "$pos" "$b" "$f"
      # a sweep names its model relative to itself: keep the line numbers, fix the path
      case "$m" in sweeps/*) sed -i "s#^model: \.\./#model: $PWD/#" "$f" ;; esac
      line=$(($(head -c "$pos" "$m" | tr -cd '\n' | wc -c) + 1))
      nins=$((nins + 1))
      if refused 2 "$m + byte $b at $pos" -- "$HS" "$cmd" "$f"; then
        grep -qF -- "$f:$line:" "$tmp/err" && ok || bad "$m + byte $b at $pos: not at line $line: $(head -c 300 "$tmp/err")"
      fi
    done
  done
done
[ "$nins" -ge 150 ] && ok || bad "only $nins insertions"

# --- 3. inputs that cannot be files ---------------------------------------------------------
mkfifo "$tmp/fifo"
for c in info simulate; do
  refused 2 "$c FIFO" -- "$HS" "$c" "$tmp/fifo" && has "$c FIFO" "FIFO"
  refused 2 "$c /dev/zero" -- "$HS" "$c" /dev/zero && has "$c /dev/zero" "character device"
  refused 2 "$c /dev/urandom" -- "$HS" "$c" /dev/urandom && has "$c /dev/urandom" "character device"
  refused 2 "$c directory" -- "$HS" "$c" models && has "$c directory" "is a directory"
done
for c in run validate; do
  refused 2 "$c FIFO" -- "$HS" "$c" "$tmp/fifo" && has "$c FIFO" "sweep file is a FIFO"
  refused 2 "$c /dev/zero" -- "$HS" "$c" /dev/zero && has "$c /dev/zero" "character device"
  refused 2 "$c directory" -- "$HS" "$c" sweeps && has "$c directory" "is a directory"
done
printf 'model: %s\ninstances: 2\n' "$tmp/fifo" >"$tmp/sweep_fifo.yaml"
refused 2 "a FIFO as the sweep's model" -- "$HS" run "$tmp/sweep_fifo.yaml" -o "$tmp/f.h5" &&
  has "model: FIFO" "$tmp/sweep_fifo.yaml:1:8:" && has "model: FIFO" "key 'model'"
truncate -s 17M "$tmp/big.yaml"
refused 2 "a 17 MiB model" -- "$HS" info "$tmp/big.yaml" && has "17 MiB model" "more than the 16777216 bytes"
: >"$tmp/empty.yaml"
refused 2 "an empty model" -- "$HS" info "$tmp/empty.yaml" && has "empty model" "empty.yaml:1:1:"
rm -f "$tmp"/*.h5*

# --- 4. command-line overrides --------------------------------------------------------------
M=$BAD/ok_pendulum.yaml
refused 2 "--t-end 1e300" -- "$HS" simulate "$M" --t-end 1e300 -o "$tmp/x.csv" &&
  has "--t-end 1e300" "key 'integrator.t_end'" && has "--t-end 1e300" "at most 1e+09 steps"
refused 2 "--dt 1e-300" -- "$HS" simulate "$M" --dt 1e-300 -o "$tmp/x.csv" &&
  has "--dt 1e-300" "key 'integrator.dt'" && has "--dt 1e-300" "at most 1e+09 steps"
refused 2 "--set integrator.dt=1e-300s" -- "$HS" simulate "$M" --set integrator.dt=1e-300s -o "$tmp/x.csv" &&
  has "--set dt" "key 'integrator.dt'"
refused 2 "--set integrator.t_end=1e9" -- "$HS" simulate "$M" --set integrator.t_end=1e9 -o "$tmp/x.csv" &&
  has "--set t_end" "key 'integrator.t_end'"
refused 2 "--set max_iter=2.0003" -- "$HS" simulate "$M" --set integrator.max_iter=2.0003 -o "$tmp/x.csv" &&
  has "--set max_iter" "key 'integrator.max_iter'" && has "--set max_iter" "integer"
refused 2 "--set max_iter=1e300" -- "$HS" simulate "$M" --set integrator.max_iter=1e300 -o "$tmp/x.csv" &&
  has "--set max_iter big" "key 'integrator.max_iter'"
refused 2 "enum 1.5" -- "$HS" simulate models/fourbar_jaiswal2021_friction.yaml \
  --set cylinder.lift.friction.model=1.5 -o "$tmp/x.csv" && has "enum 1.5" "cylinder.lift.friction.model"
# the test inputs' rules (kernels/hs_test_input.h) on every route: --set refused (exit 2,
# the parameter named), a swept value breaking one flags its instance (status 128), the
# others run
CR=models/crane_rahikainen2020_single.yaml
refused 2 "--set signal.U_ref.d=-1" -- "$HS" simulate "$CR" --set signal.U_ref.kind=impulse --set signal.U_ref.d=-1 \
  -o "$tmp/x.csv" && has "--set d" "signal.U_ref.d" && has "--set d" "must be a finite time > 0 s"
refused 2 "--set signal.U_ref.f=0" -- "$HS" simulate "$CR" --set "signal.U_ref.f=0 Hz" -o "$tmp/x.csv" &&
  has "--set f" "signal.U_ref.f"
refused 2 "--set signal.U_ref.kind=stair" -- "$HS" simulate "$CR" --set signal.U_ref.kind=stair -o "$tmp/x.csv" &&
  has "--set kind" "signal.U_ref.kind"
cat >"$tmp/ti.yaml" <<EOF
model: $PWD/$CR
method: grid
simulation: {t_end: 20 ms, dt: 1 ms}
parameters:
  signal.U_ref.kind: {values: [ramp]}
  signal.U_ref.t_rise: {values: [0 s, 0.5 s, -1 s]}
outputs:
  signals: [theta1]
EOF
"$HS" run "$tmp/ti.yaml" -o "$tmp/ti.h5" --no-progress >"$tmp/out" 2>&1
cut -d, -f1,2 "$tmp/ti.csv" 2>/dev/null | tr '\n' ' ' | grep -q '^instance,status 0,128 1,0 2,128 $' && ok ||
  bad "swept t_rise 0 and -1 s: those instances flagged invalid (128), the other runs: $(cut -d, -f1,2 "$tmp/ti.csv" 2>/dev/null | tr '\n' ' ') $(tail -2 "$tmp/out")"
# --t-end and --dt are applied together: their order does not matter
"$HS" simulate "$M" --t-end 0.02 --dt 1e-3 -o "$tmp/x.csv" >/dev/null 2>&1 &&
  "$HS" simulate "$M" --dt 1e-3 --t-end 0.02 -o "$tmp/y.csv" >/dev/null 2>&1 && cmp -s "$tmp/x.csv" "$tmp/y.csv" &&
  [ "$(wc -l <"$tmp/x.csv")" -eq 22 ] && ok || bad "--t-end/--dt in either order"

# a path longer than 255 characters is refused with that reason, never cut (the messages
# would name another file)
long=$tmp/$(printf '%0130d' 0)/$(printf '%0130d' 1)
mkdir -p "$long" && cp "$M" "$long/m.yaml"
refused 2 "a model path of ${#long} + 7 characters" -- "$HS" info "$long/m.yaml" &&
  has "long path" "more than the 255 a path may have"
rm -rf "$tmp/$(printf '%0130d' 0)"
# --set NAME without its value is a usage error (exit 1) for every command that takes --set
for c in simulate info linearize kernel; do
  refused 1 "$c --set NAME" -- "$HS" "$c" "$M" --set integrator.rtol && has "$c --set NAME" "needs NAME=VALUE"
done
refused 1 "info --set=NAME" -- "$HS" info "$M" --set=integrator.rtol
# kernel --arch: checked against the architectures NVRTC lists, before any compilation (a
# build without CUDA has no NVRTC: there `kernel` refuses every call with exit 3)
if "$HS" --version | grep -q '^cuda: yes'; then
  for a in sm_9 sm_1000 sm_12 sm_90x 'sm_90;x' 90; do
    refused 1 "kernel --arch $a" -- "$HS" kernel "$M" --arch "$a" &&
      has "kernel --arch $a" "not an architecture this NVRTC compiles for"
  done
fi

# --- 5. outputs -----------------------------------------------------------------------------
refused 2 "simulate -o /dev/full" -- "$HS" simulate "$M" --t-end 0.5 -o /dev/full &&
  has "-o /dev/full" "/dev/full" && has "-o /dev/full" "character device, not a regular file"
refused 2 "simulate > /dev/full" -- bash -c "'$HS' simulate '$M' --t-end 0.5 >/dev/full" &&
  has "> /dev/full" "No space left on device"
refused 2 "info > /dev/full" -- bash -c "'$HS' info '$M' >/dev/full" &&
  has "info > /dev/full" "No space left on device"
mkdir "$tmp/dir.csv" "$tmp/dir.h5"
refused 2 "simulate -o DIR" -- "$HS" simulate "$M" -o "$tmp/dir.csv" && has "simulate -o DIR" "is a directory"
refused 2 "simulate -o FIFO" -- "$HS" simulate "$M" -o "$tmp/fifo" &&
  has "-o FIFO" "FIFO (named pipe), not a regular file"
S=tests/data/sweep_small.yaml
refused 2 "run -o DIR" -- "$HS" run "$S" -o "$tmp/dir.h5" --no-progress &&
  has "run -o DIR" "is a directory" && has "run -o DIR" "$tmp/dir.h5"
[ ! -e "$tmp/dir.h5.part" ] && ok || bad "run -o DIR created a .part"
# a device as the results file, through a link in $tmp: a binary without the check would
# write dev.h5.part and rename it over the link, never over the device itself
ln -s /dev/full "$tmp/dev.h5"
refused 2 "run -o a link to a device" -- "$HS" run "$S" -o "$tmp/dev.h5" --no-progress &&
  has "run -o a device" "symbolic link (to /dev/full)"
[ ! -e "$tmp/dev.h5.part" ] && [ -L "$tmp/dev.h5" ] && ok || bad "run -o a device created files"
# a hard link planted where a run writes (the .part of the results or of the CSV, the final
# name, a simulate CSV, a merge output): refused before anything is written, the file it shares
# unchanged (issue 47, class 1: a link at OUT.h5.part had the run destroy the linked file)
printf 'precious\n' >"$tmp/precious"
for name in hl.h5.part hl.csv.part hl.h5 hl.csv; do
  rm -f "$tmp"/hl.*
  ln "$tmp/precious" "$tmp/$name"
  refused 2 "run with a hard link at $name" -- "$HS" run "$S" -o "$tmp/hl.h5" --no-progress &&
    has "hard link at $name" "has 2 hard links"
  [ "$(cat "$tmp/precious")" = precious ] && ok || bad "hard link at $name: the linked file changed"
done
rm -f "$tmp"/hl.*
ln "$tmp/precious" "$tmp/hl.csv"
refused 2 "simulate -o a hard link" -- "$HS" simulate "$M" --t-end 0.1 -o "$tmp/hl.csv" &&
  has "simulate -o a hard link" "has 2 hard links"
[ "$(cat "$tmp/precious")" = precious ] && ok || bad "simulate -o a hard link: the linked file changed"
rm -f "$tmp/hl.csv"
mkdir "$tmp/r.csv"
refused 2 "run with a directory where the CSV goes" -- "$HS" run "$S" -o "$tmp/r.h5" --no-progress &&
  has "CSV dir" "r.csv" && has "CSV dir" "is a directory"
[ ! -e "$tmp/r.h5.part" ] && [ ! -e "$tmp/r.h5" ] && ok || bad "nothing created before a refused run"
rmdir "$tmp/r.csv"
# an output that is an input (copies in $tmp: a binary without the check overwrites them)
cp "$M" "$tmp/m.yaml" && ln "$tmp/m.yaml" "$tmp/m_link.csv" # a hard link: the same file
sed "s#^model: .*#model: m.yaml#" "$BAD/sweep_max_iter_uniform.yaml" |
  sed 's#integrator.max_iter: {uniform: \[2, 3\]}#body.link1.mass: {uniform: [1, 2]}#' >"$tmp/s.yaml"
refused 2 "simulate -o the model" -- "$HS" simulate "$tmp/m.yaml" -o "$tmp/m_link.csv" &&
  has "-o model" "is the model file itself"
cmp -s "$M" "$tmp/m.yaml" && ok || bad "simulate -o the model changed it"
"$HS" validate "$tmp/s.yaml" --sample 1 >/dev/null 2>&1 && ok || bad "the sweep copy is valid"
refused 2 "run -o the sweep" -- "$HS" run "$tmp/s.yaml" -o "$tmp/s.yaml" --no-progress &&
  has "run -o sweep" "is the input file"
refused 2 "run -o the model" -- "$HS" run "$tmp/s.yaml" -o "$tmp/m.yaml" --no-progress &&
  has "run -o model" "is the input file"
cmp -s "$M" "$tmp/m.yaml" && ok || bad "run -o the model changed it"
sed 's/^seed: 1/method: sobol/' "$tmp/s.yaml" >"$tmp/sob.yaml"
refused 2 "run -n beyond sobol's range" -- "$HS" run "$tmp/sob.yaml" -n 5000000000 -o "$tmp/sob.h5" &&
  has "-n sobol" "key '-n'" && has "-n sobol" "method sobol takes 1 to 4294967295"
# a full disk: files limited to a few KiB (SIGXFSZ ignored, so writes fail with EFBIG)
for kb in 1 4 16 40; do
  (trap '' XFSZ; ulimit -f $kb; exec "$HS" run "$S" -o "$tmp/full.h5" --no-progress) >"$tmp/out" 2>"$tmp/err"
  rc=$?
  [ $rc -eq 3 ] && grep -q 'File too large' "$tmp/err" && ok ||
    bad "run on a full disk ($kb KiB): exit $rc (want 3, no crash): $(head -c 300 "$tmp/err")"
  [ ! -e "$tmp/full.h5.part" ] && [ ! -e "$tmp/full.h5" ] && ok || bad "full disk ($kb KiB): files left"
done
# merge on a full disk, at every size up to the merged file's: fails with neither file left
# (the CSV is renamed into place only after the results file: never a CSV without its .h5)
"$HS" run "$S" --shard 0/2 -o "$tmp/sh0.h5" --no-progress >/dev/null 2>&1 &&
  "$HS" run "$S" --shard 1/2 -o "$tmp/sh1.h5" --no-progress >/dev/null 2>&1 &&
  "$HS" merge "$tmp/whole.h5" "$tmp/sh0.h5" "$tmp/sh1.h5" >/dev/null 2>&1 || bad "shards and their merge"
kbw=$((($(stat -c %s "$tmp/whole.h5") + 1023) / 1024))
nfail=0
for kb in 1 8 $(seq $((kbw > 24 ? kbw - 24 : 2)) 2 $((kbw + 1))); do
  rm -f "$tmp"/fm.*
  (trap '' XFSZ; ulimit -f $kb; exec "$HS" merge "$tmp/fm.h5" "$tmp/sh0.h5" "$tmp/sh1.h5") >"$tmp/out" 2>"$tmp/err"
  rc=$?
  if [ $rc -eq 0 ]; then
    [ -e "$tmp/fm.h5" ] && [ -e "$tmp/fm.csv" ] && [ ! -e "$tmp/fm.h5.part" ] && [ ! -e "$tmp/fm.csv.part" ] && ok ||
      bad "merge with $kb KiB: exit 0 but files $(ls "$tmp"/fm.* 2>/dev/null | tr '\n' ' ')"
  else
    nfail=$((nfail + 1))
    grep -q 'File too large' "$tmp/err" && [ -z "$(ls "$tmp"/fm.* 2>/dev/null)" ] && ok ||
      bad "merge on a full disk ($kb KiB): exit $rc, files left: $(ls "$tmp"/fm.* 2>/dev/null | tr '\n' ' ') $(head -c 200 "$tmp/err")"
  fi
done
[ $nfail -ge 3 ] && ok || bad "merge on a full disk: only $nfail sizes failed (the sizes tried do not test it)"
(trap '' XFSZ; ulimit -f 8; exec "$HS" simulate "$M" --t-end 2 -o "$tmp/full.csv") >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] && grep -q 'File too large' "$tmp/err" && grep -q 'full.csv' "$tmp/err" && ok ||
  bad "simulate on a full disk: exit $rc: $(head -c 300 "$tmp/err")"

# memory: the limits of the process (ulimit -v, a cgroup), not the machine's RAM, bound a run's
# chunk and a tree's bodies, at the key responsible (hs_mem_available); not in a sanitizer
# build, whose shadow memory alone is more than such a limit
if ! grep -q -- "-fsanitize" "$(dirname "$HS")/CMakeCache.txt" 2>/dev/null; then
# the limits above what the program needs to start (a CUDA build maps cuBLAS: hundreds of MB)
kb0=131072
while [ $kb0 -lt 8388608 ] && ! bash -c 'ulimit -v $1; exec "$0" --version' "$HS" $kb0 >/dev/null 2>&1; do
  kb0=$((kb0 + 65536))
done
sed -e "s#\.\./\.\./models#$PWD/models#" -e 's/^instances: 24/instances: 100000/' -e 's/^chunk: 8/chunk: 100000/' \
  -e 's/trajectories: {every: 50, signals: \[p_piston\]}/trajectories: {every: 1, signals: [p_piston, crank_angle]}/' \
  tests/data/sweep_small.yaml >"$tmp/bigchunk.yaml"
"$HS" validate "$tmp/bigchunk.yaml" >/dev/null 2>&1 && ok || bad "a 0.67 GB chunk fits this machine"
refused 2 "a 0.67 GB chunk with 400 MB of address space to spare" -- bash -c 'ulimit -v $2; exec "$0" validate "$1"' \
  "$HS" "$tmp/bigchunk.yaml" $((kb0 + 400000)) && has "chunk under ulimit -v" "outputs.trajectories.every" &&
  has "chunk under ulimit -v" "more than this process may still map (ulimit -v)"
printf '%s\n' 'name: big_chain' 'chains:' '  - name: c' '    count: 300000' '    parent: ground' \
  '    body: {shape: beam, mass: 1 kg, length: 1 m, width: 0.01 m, height: 0.01 m}' \
  '    joint: {type: revolute, axis: [0, 0, 1], at_parent: [1, 0, 0]}' \
  'integrator: {formulation: riccati, dt: 1 ms, t_end: 0.01 s}' >"$tmp/bigchain.yaml"
refused 2 "300000 bodies (0.66 GB) with 1 GB of address space to spare" -- bash -c 'ulimit -v $2; exec "$0" info "$1"' \
  "$HS" "$tmp/bigchain.yaml" $((kb0 + 1000000)) && has "chain under ulimit -v" "bigchain.yaml:4:12: error: key 'chains'" &&
  has "chain under ulimit -v" "more than half of what this process may still map (ulimit -v)"
fi

# --- 6. threads -----------------------------------------------------------------------------
refused 1 "run --threads 100000" -- "$HS" run "$S" -o "$tmp/t.h5" --threads 100000 && has "--threads" "too many"
refused 1 "validate --threads 100000" -- "$HS" validate "$S" --threads 100000 && has "validate --threads" "too many"
refused 1 "validate --threads abc" -- "$HS" validate "$S" --threads abc
refused 2 "OMP_NUM_THREADS=100000" -- env OMP_NUM_THREADS=100000 "$HS" run "$S" -o "$tmp/t.h5" --no-progress &&
  has "OMP_NUM_THREADS" "OMP_NUM_THREADS"
[ ! -e "$tmp/t.h5.part" ] && ok || bad "a refused thread count created a file"
refused 1 "--shard 1/2x" -- "$HS" run "$S" -o "$tmp/t.h5" --shard 1/2x

# --- 7. two runs writing the same results ---------------------------------------------------
# a sweep of about 3-5 s on one thread (the first run must still be writing when the others
# start)
cat >"$tmp/slow.yaml" <<EOF
model: $PWD/models/fourbar_rahikainen2018.yaml
instances: 1500
seed: 7
chunk: 30
simulation: {t_end: 0.8 s, dt: 2 ms}
parameters:
  fluid.B_oil: {lognormal: {median: 1500 MPa, sigma_log: 0.2}}
outputs:
  signals: [crank_angle, p_piston]
EOF
"$HS" run "$tmp/slow.yaml" -o "$tmp/ref.h5" --threads 1 --no-progress >/dev/null 2>&1 || bad "reference run"
"$HS" run "$tmp/slow.yaml" -o "$tmp/c.h5" --threads 1 --no-progress >"$tmp/a.out" 2>&1 &
apid=$!
for _ in $(seq 200); do [ -e "$tmp/c.h5.part" ] && break; sleep 0.02; done
if kill -0 $apid 2>/dev/null && [ -e "$tmp/c.h5.part" ]; then
  refused 2 "a second run on the same -o" -- "$HS" run "$tmp/slow.yaml" -o "$tmp/c.h5" --threads 1 --no-progress &&
    has "second run" "locked" && has "second run" "c.h5.part"
  refused 2 "a resume of the running run" -- "$HS" run "$tmp/slow.yaml" -o "$tmp/c.h5" --resume --threads 1 --no-progress &&
    has "resume while running" "locked"
  kill -0 $apid 2>/dev/null && ok || bad "the first run ended before the others were refused (too fast to test)"
else
  bad "the first run did not start writing"
fi
wait $apid
rc=$?
[ $rc -eq 0 ] && ok || bad "the first run: exit $rc: $(cat "$tmp/a.out")"
h5diff -q "$tmp/ref.h5" "$tmp/c.h5" >/dev/null 2>&1 && ok || bad "the first run's file differs from a lone run's"
# a file replaced behind the writer's back is never reported as a success
rm -f "$tmp/c.h5" "$tmp/c.csv"
"$HS" run "$tmp/slow.yaml" -o "$tmp/c.h5" --threads 1 --no-progress >"$tmp/a.out" 2>&1 &
apid=$!
for _ in $(seq 200); do [ -e "$tmp/c.h5.part" ] && break; sleep 0.02; done
cp "$tmp/ref.h5" "$tmp/other" && mv -f "$tmp/other" "$tmp/c.h5.part"
wait $apid
rc=$?
[ $rc -eq 3 ] && grep -q 'replaced by another process' "$tmp/a.out" && [ ! -e "$tmp/c.h5" ] && ok ||
  bad "a replaced .part: exit $rc, $(cat "$tmp/a.out")"

finish cli_bad_inputs "$ncase corpus files, $nins insertions; a refusal within $LIMIT_MS ms"
