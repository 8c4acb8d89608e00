#!/usr/bin/env bash
# cli_circuit.sh -- `hydrosweep circuit` (host/cli/cli_circuit.c): the DOT graph of
# tests/data/crane_ls.yaml names every node and element once, with the right wiring (the pump
# from the tank to its outlet, the check valve into the pump line, the relief valve to the
# tank, the accumulator on the line, the load-sensing line dashed from the piston chamber, the
# valve's four ports, the cylinder's chambers); -o writes .dot (never through a link), renders
# .svg with Graphviz's dot when it is installed and says so (exit 4) when not, whole or not at
# all (a hung dot killed, a failed one leaving the file at -o as it was); a model without a
# circuit, a riccati model and a bad extension are refused.
# Usage: cli_circuit.sh PATH/TO/hydrosweep   (from the repository root)
set -u
HS=$1
M=tests/data/crane_ls.yaml
. "$(dirname "${BASH_SOURCE[0]}")/lib_cli.sh"

out=$("$HS" circuit "$M" 2>&1); rc=$?
[ $rc -eq 0 ] && ok || bad "circuit rc $rc: $out"
head -1 <<<"$out" | grep -q '^digraph "crane_ls" {$' && ok || bad "a digraph: $(head -1 <<<"$out")"
tail -1 <<<"$out" | grep -q '^}$' && ok || bad "closed"
[ "$(grep -cE '^  v[0-9]+ \[shape=ellipse' <<<"$out")" -eq 5 ] && ok || bad "5 volumes"
[ "$(grep -cE '^  s[0-9]+ \[shape=box' <<<"$out")" -eq 1 ] && ok || bad "1 source"
[ "$(grep -cE '^  k[0-9]+ \[' <<<"$out")" -eq 4 ] && ok || bad "4 components"
grep -q '^  s0 -> k0 \[label="inlet"\];$' <<<"$out" && grep -q '^  k0 -> v0;$' <<<"$out" && ok || bad "pump tank -> pump_out"
grep -q '^  v0 -> k1 ' <<<"$out" && grep -q '^  k1 -> v1;$' <<<"$out" && ok || bad "check valve pump_out -> pump_line"
grep -q '^  v1 -> k2 ' <<<"$out" && grep -q '^  k2 -> s0;$' <<<"$out" && ok || bad "relief pump_line -> tank"
grep -q '^  v1 -> k3 \[dir=none\];$' <<<"$out" && ok || bad "accumulator on pump_line"
grep -q '^  v3 -> k0 \[style=dashed, label="load sensing (piston)"\];$' <<<"$out" && ok || bad "LS line from the piston chamber"
grep -q 'label="relief\\nrelief_valve\\ncracks at 76 bar, poppet"' <<<"$out" && ok || bad "relief label"
for p in P T A B; do grep -q " -> d0:$p \[dir=none, label=\"$p\"\];" <<<"$out" && ok || bad "valve port $p"; done
grep -q '^  v1 -> d0:P ' <<<"$out" && ok || bad "P on the pump line"
grep -q '^  v3 -> c0:p \[dir=none\];$' <<<"$out" && grep -q '^  v4 -> c0:r \[dir=none\];$' <<<"$out" && ok || bad "chambers"
grep -q '^  v2 -> v3 \[label="throttle throttle' <<<"$out" && ok || bad "throttle"
# a flow control valve: its set flow and compensator pressure, from the pump line to the
# regulated line
f=$("$HS" circuit tests/data/crane_fcv.yaml 2>&1)
grep -q 'label="fcv\\nflow_control_valve\\n6 L/min from 8 bar"' <<<"$f" && ok || bad "flow control valve label: $(grep fcv <<<"$f")"
grep -q '^  v0 -> k3 ' <<<"$f" && grep -q '^  k3 -> v1;$' <<<"$f" && ok || bad "flow control valve pump_line -> regulated"
# a motor: its displacement, gear ratio and the body it turns, from line A to line B
f=$("$HS" circuit tests/data/slew_motor.yaml 2>&1)
grep -q 'label="slew_motor\\nmotor\\n50 cm3/rev, ratio 80, turns upper"' <<<"$f" && ok || bad "motor label: $(grep slew_motor <<<"$f")"
grep -q '^  v0 -> k0 ' <<<"$f" && grep -q '^  k0 -> v1;$' <<<"$f" && ok || bad "motor line_a -> line_b"
# a hose: its length, bore, segments and wave speed, drawn in place of its internal volumes
f=$("$HS" circuit tests/data/crane_hose.yaml 2>&1)
grep -q 'label="rod_hose\\nhose\\n3 m, 12.7 mm, 3 segments (840.2 m/s waves)"' <<<"$f" && ok || bad "hose label: $(grep rod_hose <<<"$f")"
grep -q '^  v4 -> k2 ' <<<"$f" && grep -q '^  k2 -> v3;$' <<<"$f" && ! grep -q '^  v5 \[' <<<"$f" && ok ||
  bad "hose rod_port -> rod, its internal volumes not drawn: $f"
# load-sensing sections: compensated, their sense lines to the pump
f=$("$HS" circuit tests/data/crane_ls2.yaml 2>&1)
grep -q 'label="{4/3 valve dcv2, compensated 10 bar|' <<<"$f" && ok || bad "compensated section label: $(grep 'd1 \[' <<<"$f")"
grep -q '^  d0 -> k0 \[style=dashed, label="load sensing"\];$' <<<"$f" && grep -q '^  d1 -> k0 \[style=dashed' <<<"$f" && ok ||
  bad "sense lines from both sections"
"$HS" circuit "$M" --set component.relief.p_crack=70bar | grep -q 'cracks at 70 bar, poppet' && ok || bad "--set"

# -o FILE.dot: the same text; never through a symbolic link
"$HS" circuit "$M" -o "$tmp/c.dot" && cmp -s "$tmp/c.dot" <(printf '%s\n' "$out") && ok || bad "-o .dot"
ln -s "$tmp/target.dot" "$tmp/link.dot"
"$HS" circuit "$M" -o "$tmp/link.dot" 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && [ ! -e "$tmp/target.dot" ] && ok || bad "-o through a link: rc $rc, $(cat "$tmp/err")"
# .svg: rendered by dot when it is installed, else exit 4 saying why (nothing written)
if command -v dot >/dev/null 2>&1; then
  "$HS" circuit "$M" -o "$tmp/c.svg" && grep -q '<svg' "$tmp/c.svg" && grep -q 'load_sensing_pump' "$tmp/c.svg" && ok ||
    bad "-o .svg with dot"
  dot -Tsvg "$tmp/c.dot" >/dev/null 2>"$tmp/err" && ok || bad "dot parses the graph: $(cat "$tmp/err")"
else
  "$HS" circuit "$M" -o "$tmp/c.svg" 2>"$tmp/err"; rc=$?
  [ $rc -eq 4 ] && grep -q "dot is not on PATH" "$tmp/err" && [ ! -e "$tmp/c.svg" ] && ok || bad "no dot: rc $rc, $(cat "$tmp/err")"
  echo "cli_circuit: Graphviz's dot not installed: the SVG rendering was not checked"
fi
# a rendering written whole or not at all (issue 47, class 4): a dot that hangs is killed after
# HS_DOT_TIMEOUT_S, one that fails or dies half way leaves the good file at -o as it was, and
# no .part behind (fake dots first on PATH)
mkdir "$tmp/bin"
printf '#!/bin/sh\nexec sleep 600\n' >"$tmp/bin/dot"
chmod +x "$tmp/bin/dot"
printf 'good\n' >"$tmp/keep.svg"
t0=$(date +%s)
PATH=$tmp/bin:$PATH HS_DOT_TIMEOUT_S=1 "$HS" circuit "$M" -o "$tmp/keep.svg" 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && [ $(($(date +%s) - t0)) -lt 30 ] && grep -q "did not finish" "$tmp/err" && ok ||
  bad "a hung dot: rc $rc after $(($(date +%s) - t0)) s: $(cat "$tmp/err")"
[ "$(cat "$tmp/keep.svg")" = good ] && [ ! -e "$tmp/keep.svg.part" ] && ok || bad "a hung dot: the file at -o changed or a .part left"
printf '#!/bin/sh\ncat >/dev/null; echo "<svg half"; exit 1\n' >"$tmp/bin/dot"
PATH=$tmp/bin:$PATH "$HS" circuit "$M" -o "$tmp/keep.svg" 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q "failed rendering" "$tmp/err" && [ "$(cat "$tmp/keep.svg")" = good ] &&
  [ ! -e "$tmp/keep.svg.part" ] && ok || bad "a failing dot: rc $rc, the file at -o '$(cat "$tmp/keep.svg")': $(cat "$tmp/err")"
printf '#!/bin/sh\ncat >/dev/null; echo "<svg>done</svg>"\n' >"$tmp/bin/dot"
PATH=$tmp/bin:$PATH "$HS" circuit "$M" -o "$tmp/keep.svg" && grep -q '<svg>done' "$tmp/keep.svg" &&
  [ ! -e "$tmp/keep.svg.part" ] && ok || bad "a dot that works replaces the file"
# refusals
"$HS" circuit models/double_pendulum.yaml >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q "has no hydraulic circuit" "$tmp/err" && ok || bad "no circuit: rc $rc"
"$HS" circuit models/branch_pendulum_rui2020.yaml >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q "riccati model" "$tmp/err" && ok || bad "riccati: rc $rc $(cat "$tmp/err")"
"$HS" circuit "$M" -o "$tmp/c.txt" 2>/dev/null; [ $? -eq 1 ] && ok || bad "bad extension"
"$HS" circuit 2>/dev/null; [ $? -eq 1 ] && ok || bad "no model"
"$HS" circuit "$M" --set component.relief.p_crack=-1 >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q "p_crack must be > 0" "$tmp/err" && ok || bad "bad --set: rc $rc $(cat "$tmp/err")"
finish cli_circuit
