#!/usr/bin/env bash
# cli_docs.sh -- the docs' examples run. What README.md, docs/*.md and models/README.md show
# is replayed as a user would type it, in a scratch copy of the repository root (build/
# holds the binary under test; models/, sweeps/, examples/, scripts/ are the repository's):
#   - the quick start (scripts/quickstart.sh with 8 instances, no GPU): results in out/, which
#     git ignores, nothing in the root;
#   - every ```sh block (but the install/build/test commands CI itself runs), after the quick
#     start and after a run of the sweep example into out.h5 (the blocks read it);
#   - every command shown inline in backquotes (`hydrosweep ...`, `./build/hydrosweep ...`,
#     `/usr/bin/python3 ...`) without placeholders (MODEL, SWEEP, N, [...], ...);
#   - the example model of docs/model-format.md (info, and simulate to t_end), its open-tree
#     example (info, and 10 ms of simulate) and the example
#     sweep of docs/sweep-format.md (run: every instance finishes);
#   - the unknown-name suggestion docs/usage.md quotes;
#   - the README's excerpts of shipped model and sweep files are those files' lines.
# Every command must exit 0; the lists of what ran and what was skipped are printed.
# Usage: cli_docs.sh PATH/TO/hydrosweep   (from the repository root)
set -u
HS=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
ROOT=$(pwd)
. "$(dirname "${BASH_SOURCE[0]}")/lib_cli.sh"
PY=python3
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3

W=$tmp/w
mkdir -p "$W/build" "$tmp/bin"
ln -s "$HS" "$W/build/hydrosweep"
for d in models sweeps examples scripts docs python; do ln -s "$ROOT/$d" "$W/$d"; done
# no GPU for the quick start here (a GPU would run all 100000 instances): nvidia-smi fails
printf '#!/bin/sh\nexit 1\n' >"$tmp/bin/nvidia-smi"
chmod +x "$tmp/bin/nvidia-smi"
export PATH="$tmp/bin:$PATH"

# --- extract: sh blocks, yaml blocks, inline commands (stdlib python only)
"$PY" - "$ROOT" "$tmp/x" <<'PY' || bad "extracting the docs' examples"
import os, re, sys
root, out = sys.argv[1], sys.argv[2]
os.makedirs(out)
docs = ["README.md", "models/README.md"] + sorted(
    "docs/" + f for f in os.listdir(os.path.join(root, "docs")) if f.endswith(".md"))
inline, nsh = [], 0
for d in docs:
    text = open(os.path.join(root, d)).read()
    for i, b in enumerate(re.findall(r"^```sh\n(.*?)^```", text, re.S | re.M)):
        open(os.path.join(out, "sh_%s_%d.sh" % (d.replace("/", "_"), i)), "w").write(b)
        nsh += 1
    for i, b in enumerate(re.findall(r"^```yaml\n(.*?)^```", text, re.S | re.M)):
        open(os.path.join(out, "yaml_%s_%d.yaml" % (d.replace("/", "_"), i)), "w").write(b)
    # inline commands (a line break inside the backquotes is a space)
    for c in re.findall(r"`((?:\./build/)?hydrosweep [^`]+|/usr/bin/python3 [^`]+)`", text):
        inline.append((d, " ".join(c.split())))
with open(os.path.join(out, "inline.txt"), "w") as f:
    for d, c in inline:
        f.write("%s\t%s\n" % (d, c))
print("extracted: %d sh blocks, %d inline commands" % (nsh, len(inline)))
PY

cd "$W"

# --- the quick start: README's first block, replayed without install and build
qs=$(grep -l 'scripts/quickstart.sh' "$tmp"/x/sh_README.md_*.sh | head -1)
[ -n "$qs" ] && grep -qx 'bash scripts/install-deps.sh && bash scripts/build.sh build && bash scripts/quickstart.sh build' "$qs" \
  && ok || bad "README's quick start block: $(cat "$qs" 2>/dev/null)"
# the README's first two sh blocks are the two commands CI and the tests read, as they are
[ "$(cat "$tmp/x/sh_README.md_0.sh" 2>/dev/null)" = 'bash scripts/install-deps.sh && bash scripts/build.sh build && bash scripts/quickstart.sh build' ] &&
  [ "$(cat "$tmp/x/sh_README.md_1.sh" 2>/dev/null)" = 'bash scripts/install-deps.sh && bash scripts/build.sh build && bash scripts/test.sh build' ] &&
  ok || bad "README's first two sh blocks are not the quick start and the test command: $(cat "$tmp"/x/sh_README.md_[01].sh 2>&1)"
bash scripts/quickstart.sh build 8 >qs.txt 2>&1; rc=$?
[ $rc -eq 0 ] && grep -q '^ensemble: 8 instances, 8 finished, 0 failed' qs.txt && ok ||
  bad "quickstart: rc $rc $(tail -5 qs.txt)"
[ -f out/friction_bulk_mc.h5 ] && [ -f out/friction_bulk_mc.csv ] && ok || bad "quickstart writes out/friction_bulk_mc.{h5,csv}: $(ls out 2>&1)"
[ -z "$(ls ./*.h5 ./*.csv 2>/dev/null)" ] && ok || bad "quickstart leaves nothing in the root: $(ls)"
grep -q "print them with: /usr/bin/python3 .*examples/read_results.py .*out/friction_bulk_mc.h5" qs.txt && ok ||
  bad "quickstart says how to read the results: $(tail -2 qs.txt)"
if git -C "$ROOT" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  git -C "$ROOT" check-ignore -q out/friction_bulk_mc.h5 && git -C "$ROOT" check-ignore -q out/friction_bulk_mc.csv \
    && ok || bad "out/ is ignored by git"
fi

# --- the example sweep of docs/sweep-format.md (its model path is relative to its directory)
mkdir -p docsweep
cp "$tmp"/x/yaml_docs_sweep-format.md_0.yaml docsweep/example.yaml 2>/dev/null
"$HS" run docsweep/example.yaml -n 24 -o out.h5 --no-progress >sw.txt 2>&1; rc=$?
[ $rc -eq 0 ] && grep -q '^ensemble: 24 instances, 24 finished, 0 failed' sw.txt && ok ||
  bad "docs/sweep-format.md's example sweep: rc $rc $(head -3 sw.txt)"

# --- the example model of docs/model-format.md
cp "$(grep -l '^name: crane_demo' "$tmp"/x/yaml_docs_model-format.md_*.yaml | head -1)" crane_demo.yaml 2>/dev/null
"$HS" info crane_demo.yaml >info.txt 2>&1 && grep -q '^model: *crane_demo' info.txt && ok ||
  bad "docs/model-format.md's example: info: $(tail -3 info.txt)"
"$HS" simulate crane_demo.yaml -o crane_demo_full.csv >sim.txt 2>&1; rc=$?
[ $rc -eq 0 ] && grep -q 'steps *5000 of 5000' sim.txt && ! grep -q 'warning' sim.txt && ok ||
  bad "docs/model-format.md's example simulates to t_end without warnings: rc $rc $(cat sim.txt)"

# --- the open-tree example of docs/model-format.md (a riccati model): info and 10 ms of it
cp "$(grep -l 'formulation: riccati' "$tmp"/x/yaml_docs_model-format.md_*.yaml | head -1)" tree_demo.yaml 2>/dev/null
"$HS" info tree_demo.yaml >info.txt 2>&1 && grep -q '^bodies: 1000 ' info.txt && ok ||
  bad "docs/model-format.md's open-tree example: info: $(tail -3 info.txt)"
"$HS" simulate tree_demo.yaml --t-end 0.01 -o tree_demo.csv >sim.txt 2>&1; rc=$?
[ $rc -eq 0 ] && grep -q '100 steps to t = 0.01 s' sim.txt && ok ||
  bad "docs/model-format.md's open-tree example simulates: rc $rc $(cat sim.txt)"

# --- the README's excerpts of shipped files (a yaml block whose first line is "# FILE (excerpt)"):
#     their lines, in order, are lines of FILE ("..." stands for lines left out)
nex=0
for f in "$tmp"/x/yaml_README.md_*.yaml; do
  [ -f "$f" ] || continue
  src=$(sed -n '1s/^# \([^ ]*\) (excerpt)$/\1/p' "$f")
  [ -n "$src" ] || continue
  nex=$((nex + 1))
  "$PY" - "$f" "$ROOT/$src" <<'PY' && ok || bad "README's excerpt of $src is not that file's lines: $(cat "$f")"
import sys
ex = open(sys.argv[1]).read().splitlines()[1:]
try:
    lines = open(sys.argv[2]).read().splitlines()
except OSError:
    sys.exit(1)
i = 0
for l in ex:
    if l.strip() == "...":
        continue
    while i < len(lines) and lines[i] != l:
        i += 1
    if i == len(lines):
        print("  not found in order:", l)
        sys.exit(1)
    i += 1
PY
done
[ $nex -ge 2 ] && ok || bad "the README shows excerpts of a model and a sweep: $nex"

# --- every sh block (CI runs install, build, test and sanitize itself)
nsh=0
for f in "$tmp"/x/sh_*.sh; do
  [ -f "$f" ] || continue
  if grep -Eq 'install-deps\.sh|scripts/build\.sh|scripts/test\.sh|sanitize\.sh|gpu_session\.sh' "$f"; then
    echo "  sh block skipped (CI runs it): $(basename "$f")"
    continue
  fi
  if grep -Eq 'pip install' "$f"; then # a venv and a build of the package: tests/cli_pytest.sh
    echo "  sh block skipped (tests/cli_pytest.sh installs the package and runs its calls): $(basename "$f")"
    continue
  fi
  nsh=$((nsh + 1))
  bash -e "$f" >"$f.out" 2>&1; rc=$?
  [ $rc -eq 0 ] && ok || bad "sh block $(basename "$f"): rc $rc:
$(cat "$f")
--- output:
$(tail -8 "$f.out")"
done
[ $nsh -ge 2 ] && ok || bad "at least 2 sh blocks ran: $nsh"

# --- every inline command without placeholders
ran=0
skipped=0
while IFS=$'\t' read -r doc cmd; do
  # placeholders: an all-capitals word (MODEL, SWEEP, R, N, ...), options in [...], ..., a|b,
  # globs and redirections; and fragments (`hydrosweep run -b gpu`): a command names a file
  if echo "$cmd" | grep -Eq '(^| |=|/)[A-Z][A-Z0-9_]*( |$|\.|,)|\[|\.\.\.|\||\*|<|>' ||
     ! echo "$cmd" | grep -Eq '[^ ]\.(yaml|yml|h5|py)( |$)'; then
    skipped=$((skipped + 1))
    echo "  skipped ($doc): $cmd" >>skipped.txt
    continue
  fi
  ran=$((ran + 1))
  case $cmd in
    hydrosweep\ *) run=("$HS" ${cmd#hydrosweep }) ;;
    *) read -ra run <<<"$cmd" ;;
  esac
  # an example that runs for minutes (a whole sweep) would make every CI run minutes longer
  # (and many more under the sanitizers): such a command belongs in the docs with a
  # placeholder (SWEEP, RESULTS.h5), which is not run
  timeout -k 5 120 "${run[@]}" >inline.out 2>&1; rc=$?
  if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
    bad "$doc: \`$cmd\` ran over 120 s: write it with a placeholder (it is not run then)"
  else
    [ $rc -eq 0 ] && ok || bad "$doc: \`$cmd\`: rc $rc: $(tail -4 inline.out)"
  fi
  echo "  ran ($doc): $cmd"
done <"$tmp/x/inline.txt"
cat skipped.txt 2>/dev/null
echo "  inline commands: $ran ran, $skipped skipped (placeholders or fragments)"
[ $ran -ge 3 ] && ok || bad "at least 3 inline commands ran: $ran"

# --- the unknown-name suggestion docs/usage.md quotes
"$HS" simulate models/fourbar_rahikainen2018.yaml --set joint.j1.z0=-30deg >/dev/null 2>set.txt; rc=$?
[ $rc -eq 2 ] && grep -q 'did you mean joint.crank_angle.z0, joint.coupler_angle.z0 or joint.boom_angle.z0?' set.txt \
  && tr '\n' ' ' <"$ROOT/docs/usage.md" | tr -s ' ' | grep -q 'did you mean joint.crank_angle.z0, joint.coupler_angle.z0 or joint.boom_angle.z0?' \
  && ok || bad "--set joint.j1.z0 suggests the model's joints, as docs/usage.md says: rc $rc $(cat set.txt)"

# --- the docs say what the code does (each a class: a new option, plot kind or sweep file
#     that the docs do not name fails here)
cd "$ROOT" || exit 1
# every option a command's parser takes is named by its --help
for c in simulate info run validate merge kernel linearize circuit; do
  src=host/cli/cli_$c.c
  case $c in validate | merge) src=host/cli/cli_run.c ;; esac
  [ -f "$src" ] || { bad "no source $src for the command $c (moved?)"; continue; }
  "$HS" "$c" --help >"$tmp/help.txt" 2>&1
  for o in $(grep -o '!strcmp(a, "--[a-z-]*")\|!strcmp(argv\[i\], "--[a-z-]*")' "$src" | grep -o -- '--[a-z-]*' | sort -u); do
    case "$c:$o" in *:--help | validate:--progress | validate:--no-progress | validate:--resume | validate:--stop-after | validate:--shard | validate:--batch | validate:--si | merge:*) continue ;; esac
    grep -q -- "$o" "$tmp/help.txt" && ok || bad "hydrosweep $c --help does not name its option $o"
  done
done
# every plot kind is named by hydrosweep --help and hydrosweep plot --help
"$HS" --help >"$tmp/help.txt" 2>&1
"$HS" plot --help >"$tmp/phelp.txt" 2>&1
for k in $(sed -n 's/^KINDS = (\(.*\))$/\1/p' python/hydrosweep/plot.py | tr -d '",'); do
  grep -q -- "$k" "$tmp/phelp.txt" && ok || bad "hydrosweep plot --help does not name the kind $k"
done
for w in "fan chart" histogram scatter status stability simulate; do
  grep -q "$w" "$tmp/help.txt" && ok || bad "hydrosweep --help does not name the plot of $w"
done
# every shipped sweep is in docs/sweep-format.md's table
for f in sweeps/*.yaml; do
  grep -q "^| \`$(basename "$f")\` |" docs/sweep-format.md && ok || bad "docs/sweep-format.md does not list $f"
done
# a sweep's comment that states how long it runs ("t_end = N s", "the N s work cycle", "N s
# load case") states its simulation's t_end
for f in sweeps/*.yaml; do
  te=$(sed -n 's/^simulation: {.*t_end: *\([0-9.]*\) *s.*/\1/p' "$f")
  [ -n "$te" ] || continue
  stated=$(grep '^#' "$f" | grep -o 't_end = [0-9.]* s\|[0-9.]* s work cycle\|[0-9.]* s load case' | grep -o '[0-9.][0-9.]*' | sort -u)
  for n in $stated; do
    [ "$n" = "$te" ] && ok || bad "$f: a comment states a run of $n s, the simulation runs to t_end $te s"
  done
done
# docs/install.md's package list is what scripts/install-deps.sh installs
want=$(sed -n '/^PKGS=(/,/)/p' scripts/install-deps.sh | tr -s ' ()' '\n' | grep -E '^[a-z0-9][a-z0-9.+-]+$' | grep -v '^PKGS$' | sort -u)
have=$(tr '\n' ' ' <docs/install.md | tr -s ' ' | sed -n 's/.*exactly what `scripts\/install-deps.sh` installs: *`\([^`]*\)`.*/\1/p' | tr ' ' '\n' | grep -v '^$' | sort -u)
[ -n "$want" ] && [ "$want" = "$have" ] && ok || bad "docs/install.md's package list differs from install-deps.sh: $(diff <(echo "$want") <(echo "$have") | tr '\n' ' ')"
! grep -q "still to come" README.md && ok || bad "README says a part is still to come"

finish cli_docs
