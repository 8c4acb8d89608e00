#!/usr/bin/env bash
# cli_progress.sh -- what `hydrosweep run` shows while it runs, and how it stops, as a user
# sees it:
#  - on a terminal (a pseudo-terminal from util-linux `script`): a progress line within the
#    first 1.5 s with a count below the total, rewritten in place (\r) with several distinct
#    counts, ended with a newline;
#  - stderr to a file: a line per 10 % of the instances, each ending in a newline, no \r;
#    --no-progress: nothing; validate: no progress lines;
#  - SIGINT after the first chunks: exit 130, every written chunk kept, and the printed
#    command (run exactly as printed) finishes the run with the datasets of an uninterrupted
#    run (h5diff); SIGTERM on a shard: exit 143, the command names the shard; two SIGINTs: the
#    process ends at once and the .part still resumes.
# Usage: cli_progress.sh PATH/TO/hydrosweep
set -u
HS=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
ROOT=$(pwd)
SW=$ROOT/tests/data/sweep_small.yaml
. "$(dirname "${BASH_SOURCE[0]}")/lib_cli.sh"
cd "$tmp"
command -v h5diff >/dev/null || { echo "cli_progress: h5diff not found (apt-get install hdf5-tools)"; exit 1; }
PY=$(command -v python3 || true)
same_h5() { h5diff -q "$1" "$2" >/dev/null 2>&1; }

# a sweep of a few seconds on two cores: 10 s of the seed 003 four-bar per instance, chunks
# of 8 instances (about 40 ms of CPU per instance); 2 s in a sanitizer build, whose engine
# runs about 8x slower (the same few seconds, not minutes)
T_END=10
grep -q -- "-fsanitize" "$(dirname "$HS")/CMakeCache.txt" 2>/dev/null && T_END=2
cat >slow.yaml <<EOF
model: $ROOT/models/fourbar_jaiswal2021_friction.yaml
instances: 120
seed: 11
chunk: 8
simulation: {t_end: $T_END s, dt: 1 ms}
parameters:
  cylinder.lift.friction.Fc: {uniform: [168 N, 252 N]}
  fluid.B_oil: {lognormal: {median: 1550 MPa, sigma_log: 0.15}}
outputs:
  signals: [p_piston, E_balance]
EOF

# --- 1. a terminal ------------------------------------------------------------------------------
if command -v script >/dev/null && [ -n "$PY" ]; then
  # the pseudo-terminal's output with the time each piece arrived
  "$PY" - "$HS" "$ROOT/sweeps/friction_bulk_mc.yaml" >tty.txt 2>&1 <<'EOF'
import os, re, select, subprocess, sys, time
hs, sweep = sys.argv[1], sys.argv[2]
cmd = "exec '%s' run '%s' -n 120 -o t.h5" % (hs, sweep)
t0 = time.monotonic()
p = subprocess.Popen(["script", "-qfec", cmd, "/dev/null"], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE)
buf, seen = b"", []  # seen: (seconds, count, total) of every progress text, as it arrived
fd = p.stdout.fileno()
while True:
    r, _, _ = select.select([fd], [], [], 30.0)
    if not r:
        break
    chunk = os.read(fd, 65536)
    if not chunk:
        break
    t = time.monotonic() - t0
    old = len(re.findall(rb"run: (\d+)/(\d+) instances", buf))
    buf += chunk
    for m in re.findall(rb"run: (\d+)/(\d+) instances", buf)[old:]:
        seen.append((t, int(m[0]), int(m[1])))
rc = p.wait()
counts = sorted({c for _, c, _ in seen})
first = next(((t, c) for t, c, n in seen if c < n), None)
print("exit", rc)
print("updates", len(seen), "distinct", len(counts), "first_below_total", first)
print("carriage_returns", buf.count(b"\r"))
print("final_newline", bool(re.search(rb"run: 120/120 instances[^\r\n]*\r?\n", buf)))
print("raw", repr(buf[:300]))
ok = rc == 0 and first is not None and first[0] <= 1.5 and len(counts) >= 3 and buf.count(b"\r") >= 3
print("OK" if ok else "FAILED")
EOF
  grep -q '^OK$' tty.txt && ok || bad "progress on a terminal: $(cat tty.txt)"
else
  echo "cli_progress: no util-linux script or python3: the terminal case is not checked"
fi

# --- 2. no terminal ---------------------------------------------------------------------------
"$HS" run "$SW" -n 200 -o l.h5 >l.out 2>l.err && ok || bad "run with stderr to a file: $(tail -3 l.err)"
nl=$(grep -c 'instances' l.err)
! grep -q $'\r' l.err && [ "$(tail -c 1 l.err | od -An -c | tr -d ' ')" = '\n' ] && ok ||
  bad "lines end in newlines, no carriage returns: $(od -c l.err | head -5)"
[ "$nl" -ge 8 ] && [ "$nl" -le 11 ] && ok || bad "a line per 10 %: $nl lines: $(cat l.err)"
tail -1 l.err | grep -q '^run: 200/200 instances (100.0 %)' && ok || bad "the last line: $(tail -1 l.err)"
awk -F'[ /]' '/^run: [0-9]+\/200 instances/ { if ($2 < last) exit 1; last = $2 }' l.err && ok ||
  bad "counts rise: $(cat l.err)"
"$HS" run "$SW" -o n.h5 --no-progress >/dev/null 2>n.err && [ ! -s n.err ] && ok || bad "--no-progress: $(cat n.err)"
"$HS" run "$SW" -o p.h5 --progress >/dev/null 2>p.err && grep -q $'\r''run: 24/24 instances' p.err && ok ||
  bad "--progress: the live line even to a file: $(od -c p.err | head -3)"
"$HS" validate "$SW" --sample 4 -b cpu >v.out 2>v.err && ! grep -q 'instances (' v.err && ok ||
  bad "validate prints no progress: $(cat v.err)"

# --- 3. SIGINT and SIGTERM ------------------------------------------------------------------------
"$HS" run slow.yaml -o ref.h5 --no-progress >/dev/null 2>&1 || bad "uninterrupted run"
# waits until $1 shows a progress line (10 % of the instances: at least one chunk written)
wait_line() {
  for _ in $(seq 600); do grep -q 'instances (' "$1" 2>/dev/null && return 0; sleep 0.02; done
  return 1
}
"$HS" run slow.yaml -o i.h5 -n 120 >i.out 2>i.err &
pid=$!
wait_line i.err || bad "no progress line from the background run: $(cat i.err)"
kill -INT $pid
wait $pid
rc=$?
[ $rc -eq 130 ] && ok || bad "SIGINT: exit 130, got $rc: $(cat i.err)"
[ -f i.h5.part ] && [ ! -f i.h5 ] && ok || bad "SIGINT: i.h5.part kept, no i.h5"
grep -q 'interrupted by SIGINT: i.h5.part keeps [1-9][0-9]* of 120 instances' i.err && ok ||
  bad "SIGINT: says what is kept: $(cat i.err)"
cmd=$(grep -A1 'to continue the run:' i.err | tail -1 | sed 's/^  //')
case $cmd in
  *" run "*slow.yaml" -o i.h5 --resume -b cpu -n 120") ok ;;
  *) bad "SIGINT: the command to continue: '$cmd'" ;;
esac
eval "$cmd" >r.out 2>r.err && ok || bad "the printed command finishes the run: $(tail -3 r.err)"
grep -q 'resuming, [1-9][0-9]* instances already done' r.out && ok || bad "it resumed: $(cat r.out)"
same_h5 ref.h5 i.h5 && ok || bad "interrupted and resumed == uninterrupted (h5diff)"

# SIGTERM, on a shard: the command names it
"$HS" run slow.yaml -o s.h5 --shard 1/2 >/dev/null 2>&1 && mv s.h5 sref.h5 && rm -f s.csv || bad "shard run"
"$HS" run slow.yaml -o s.h5 --shard 1/2 --threads 2 >s.out 2>s.err &
pid=$!
wait_line s.err || bad "no progress line from the shard: $(cat s.err)"
kill -TERM $pid
wait $pid
rc=$?
[ $rc -eq 143 ] && grep -q 'interrupted by SIGTERM' s.err && ok || bad "SIGTERM: exit 143, got $rc: $(cat s.err)"
cmd=$(grep -A1 'to continue the run:' s.err | tail -1 | sed 's/^  //')
case $cmd in
  *" --resume -b cpu --shard 1/2 --threads 2") ok ;;
  *) bad "SIGTERM: the command to continue names the shard: '$cmd'" ;;
esac
eval "$cmd" >/dev/null 2>&1 && same_h5 sref.h5 s.h5 && ok || bad "the shard resumed == uninterrupted"

# two SIGINTs: the second ends the process at once (no report); the .part resumes. The second
# signal must come while the first one's stop waits for the running instance (two signals
# sent at once would merge into one): one thread, so that when the first instance's progress
# line appears the second has just started (with two, both instances of a chunk end nearly
# together and the stop may finish first), and long instances (ten times slow.yaml's: 100 s,
# about 0.4 s each on one core of a 2026 CPU; 20 s in a sanitizer build, about as long) against
# the few ms the loop below takes to see it
sed -e "s/t_end: $T_END s/t_end: $((10 * T_END)) s/" -e 's/^instances: 120/instances: 8/' -e 's/^chunk: 8/chunk: 2/' slow.yaml >long.yaml
"$HS" run long.yaml -o lref.h5 --no-progress >/dev/null 2>&1 || bad "uninterrupted run (long instances)"
"$HS" run long.yaml -o d.h5 --threads 1 >d.out 2>d.err &
pid=$!
wait_line d.err || bad "no progress line: $(cat d.err)"
kill -INT $pid
for _ in $(seq 500); do grep -q 'stopping after' d.err && break; sleep 0.002; done
kill -INT $pid
wait $pid
rc=$?
[ $rc -eq 130 ] && ! grep -q 'to continue the run' d.err && ok ||
  bad "two SIGINTs: ended by the signal at once: $rc: $(cat d.err)"
"$HS" run long.yaml -o d.h5 --resume --no-progress >/dev/null 2>&1 && same_h5 lref.h5 d.h5 && ok ||
  bad "after two SIGINTs the .part resumes == uninterrupted"

finish cli_progress
