#!/usr/bin/env bash
# cli_kernel.sh -- `hydrosweep kernel`: the GPU kernels' resources as ptxas reports them through
# NVRTC, without a GPU (host/gpu/backend_gpu_spec.cu, hs_kernel_figures).
#  - every shipped model and sweep but the riccati ones (its specialised kernel; the generic one,
#    which does not depend on the model, once): exit 0, one JSON object with "specialised" and
#    "generic", each with registers (1..255), stack_bytes, spill_store_bytes, spill_load_bytes
#    (>= 0); the specialised kernel's frame smaller than the generic kernel's;
#  - every riccati model (open trees, seed 002) and every sweep of one: the tree kernel
#    (kernels/hs_tree_kernel.cuh, one for every tree): exit 0, JSON with "tree" (registers
#    1..255, stack and spill bytes >= 0), the bodies and coordinates, and the bytes of one
#    instance in global memory: with a private copy of the bodies' numbers more than without,
#    this job's one of the two (a sweep of a mass or length: the private copy), outputs > 0;
#    the text form names the tree kernel with its registers and the bytes per instance;
#    --source has no specialised engine to print (exit 3);
#  - the canonical model (models/fourbar_jaiswal2021_friction.yaml, the seed 003 four-bar) held
#    to the issue's targets: no spill bytes and a frame of at most 2 KiB (2000 B measured,
#    sm_90, CUDA 13.0); the canonical sweep (sweeps/friction_bulk_mc.yaml, whose 21 swept
#    values per instance add 168 B) to no spills and its measured 2168 B; the excavator's model
#    and sweep (models/excavator_front.yaml, sweeps/excavator_mc.yaml) to no spills;
#  - the text form names both kernels; --arch sm_80 compiles for another architecture (the
#    specialised kernel only: --only); a bad --arch or --only is a usage error; --source
#    prints the generated engine; a sweep that varies an enumeration has no specialised kernel
#    and says why.
# Exit 77 (skipped) in a build without CUDA. Usage: cli_kernel.sh PATH/TO/hydrosweep
set -u
HS=$1
. "$(dirname "${BASH_SOURCE[0]}")/lib_cli.sh"
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3

if "$HS" kernel models/double_pendulum.yaml --json >"$tmp/probe.json" 2>"$tmp/probe.err"; then :; else
  if grep -q "no CUDA support" "$tmp/probe.err"; then
    echo "cli_kernel: skipped (a build without CUDA)"
    exit 77
  fi
fi

# check_json FILE NAME: the object's shape; prints "specialised_stack generic_stack spill_store"
check_json() {
  "$PY" - "$1" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
for k in ("specialised", "generic"):
    f = d[k]
    assert isinstance(f["registers"], int) and 1 <= f["registers"] <= 255, (k, f)
    for q in ("stack_bytes", "spill_store_bytes", "spill_load_bytes"):
        assert isinstance(f[q], int) and f[q] >= 0, (k, q, f)
print(d["specialised"]["stack_bytes"], d["generic"]["stack_bytes"], d["specialised"]["spill_store_bytes"],
      d["specialised"]["spill_load_bytes"], d["specialised"]["registers"])
EOF
}

# the generic kernel does not depend on the model: its figures once, each model's specialised
# kernel against them (--only specialised)
"$HS" kernel models/double_pendulum.yaml --only generic --json >"$tmp/g.json" &&
  grep -q '"specialised": null' "$tmp/g.json" && grep -q 'not compiled (--only generic)' "$tmp/g.json" && ok ||
  bad "--only generic: $(cat "$tmp/g.json")"
gstack=$("$PY" -c "import json,sys; print(json.load(open(sys.argv[1]))['generic']['stack_bytes'])" "$tmp/g.json")

# is_riccati FILE: a riccati model file, or a sweep file whose model is one
is_riccati() {
  local m
  grep -q '^  formulation: riccati' "$1" && return 0
  m=$(sed -n 's/^model: *"\{0,1\}\([^"#]*[^"# ]\)"\{0,1\} *\(#.*\)\{0,1\}$/\1/p' "$1" | head -1)
  [ -n "$m" ] || return 1
  case $m in /*) ;; *) m=$(dirname "$1")/$m ;; esac
  [ -f "$m" ] && grep -q '^  formulation: riccati' "$m"
}

# check_tree FILE: the tree kernel's JSON; prints "registers stack spill_st spill_ld shared own job out bodies"
check_tree() {
  "$PY" - "$1" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["formulation"] == "riccati" and d["specialised"] is None and d["generic"] is None, d
f = d["tree"]
assert isinstance(f["registers"], int) and 1 <= f["registers"] <= 255, f
for q in ("stack_bytes", "spill_store_bytes", "spill_load_bytes"):
    assert isinstance(f[q], int) and f[q] >= 0, (q, f)
assert d["bodies"] > 0 and d["nq"] >= d["bodies"] and d["nv"] >= d["bodies"], d
sh, own, job = d["bytes_per_instance_shared"], d["bytes_per_instance_own"], d["bytes_per_instance"]
assert 0 < sh < own and own - sh == 8 * 16 * d["bodies"], d
assert job == (own if d["own_par"] else sh), d
assert d["output_bytes_per_instance"] > 0, d
print(f["registers"], f["stack_bytes"], f["spill_store_bytes"], f["spill_load_bytes"], sh, own, job,
      d["output_bytes_per_instance"], d["bodies"])
EOF
}

ntree=0
for f in models/*.yaml sweeps/*.yaml; do
  if is_riccati "$f"; then
    # an open tree of the Riccati method: the tree kernel, one for every tree
    if "$HS" kernel "$f" --json >"$tmp/t.json" 2>"$tmp/t.err" && r=$(check_tree "$tmp/t.json" 2>"$tmp/py.err"); then
      ok
      ntree=$((ntree + 1))
      set -- $r
      echo "  $f: tree kernel $1 registers, $2 B stack, spills $3/$4 B; $9 bodies, $7 B per instance" \
        "(shared numbers $5 B, own copy $6 B), outputs $8 B"
    else
      bad "$f (riccati): $(cat "$tmp/t.err" "$tmp/py.err" "$tmp/t.json" 2>/dev/null)"
    fi
    continue
  fi
  if "$HS" kernel "$f" --json --only specialised >"$tmp/k1.json" 2>"$tmp/k.err" &&
     "$PY" -c "import json,sys; d=json.load(open(sys.argv[1])); g=json.load(open(sys.argv[2]))
assert d['generic'] is None; d['generic']=g['generic']; json.dump(d,open(sys.argv[3],'w'))" \
       "$tmp/k1.json" "$tmp/g.json" "$tmp/k.json" 2>>"$tmp/k.err"; then
    if r=$(check_json "$tmp/k.json" 2>"$tmp/py.err"); then
      ok
      set -- $r
      [ "$1" -lt "$2" ] && ok || bad "$f: specialised frame $1 B not below the generic $2 B"
      # the excavator (issue 32: its kernel without spills; 168 registers, 4760 B, 0/0 B on
      # sm_90 measured)
      case $f in *excavator*) [ "$3" -eq 0 ] && [ "$4" -eq 0 ] && ok || bad "$f: spills $3/$4 B, not 0" ;; esac
      echo "  $f: specialised ${5} registers, ${1} B stack, spills ${3}/${4} B; generic ${2} B stack"
    else
      bad "$f: JSON shape: $(cat "$tmp/py.err") $(cat "$tmp/k.json")"
    fi
  else
    bad "$f: exit $? $(cat "$tmp/k.err")"
  fi
done

# the canonical model: the targets (0 spill bytes, frame <= 2048 B); the canonical sweep: no
# spills, frame as measured (2168 B)
"$HS" kernel models/fourbar_jaiswal2021_friction.yaml --json >"$tmp/c.json" && r=$(check_json "$tmp/c.json") && ok ||
  bad "canonical model"
set -- $r
[ "${1:-99999}" -le 2048 ] && ok || bad "canonical model: specialised stack frame ${1:-?} B > 2048 B"
[ "${3:-99999}" -eq 0 ] && [ "${4:-99999}" -eq 0 ] && ok || bad "canonical model: spills ${3:-?}/${4:-?} B, not 0"
"$HS" kernel sweeps/friction_bulk_mc.yaml --json >"$tmp/c.json" && r=$(check_json "$tmp/c.json") && ok ||
  bad "canonical sweep"
set -- $r
[ "${1:-99999}" -le 2200 ] && ok || bad "canonical sweep: specialised stack frame ${1:-?} B > 2200 B"
[ "${3:-99999}" -eq 0 ] && [ "${4:-99999}" -eq 0 ] && ok || bad "canonical sweep: spills ${3:-?}/${4:-?} B, not 0"

# the riccati models: at least the demonstration pendulum and the branch system; a sweep of the
# pendulum's masses and lengths gives each instance its own copy of the bodies' numbers
[ "$ntree" -ge 3 ] && ok || bad "riccati models and sweeps: $ntree found"
"$HS" kernel sweeps/branch_pendulum_mc.yaml --json >"$tmp/t.json" && r=$(check_tree "$tmp/t.json") && ok ||
  bad "riccati sweep: $(cat "$tmp/t.json")"
set -- ${r:-0 0 0 0 1 2 3 4 5}
[ "$7" -eq "$6" ] && grep -q '"own_par": true' "$tmp/t.json" && grep -q '"forces": true' "$tmp/t.json" && ok ||
  bad "riccati sweep of masses and a joint force: own copy and forces: $(cat "$tmp/t.json")"
"$HS" kernel models/branch_pendulum_rui2020.yaml >"$tmp/t.txt" &&
  grep -q '^formulation:  riccati (an open tree): 4 bodies' "$tmp/t.txt" &&
  grep -Eq '^tree +[1-9][0-9]* +[0-9]+ +[0-9]+ +[0-9]+ ' "$tmp/t.txt" && grep -q 'registers' "$tmp/t.txt" &&
  grep -q '^bytes per instance in global memory' "$tmp/t.txt" &&
  grep -Eq "^  own copy of the bodies' numbers: +[1-9][0-9]* B" "$tmp/t.txt" &&
  grep -Eq '^  this job: +[1-9][0-9]* B +\(shared\)' "$tmp/t.txt" && grep -Eq '^output bytes per instance: +[1-9]' "$tmp/t.txt" &&
  ok || bad "riccati text form: $(cat "$tmp/t.txt")"
"$HS" kernel models/branch_pendulum_rui2020.yaml --source >/dev/null 2>"$tmp/e.txt"; rc=$?
[ $rc -eq 3 ] && grep -q "riccati, whose one kernel" "$tmp/e.txt" && ok || bad "riccati --source: rc $rc $(cat "$tmp/e.txt")"

"$HS" kernel models/fourbar_jaiswal2021_friction.yaml >"$tmp/t.txt" && grep -q '^specialised ' "$tmp/t.txt" &&
  grep -q '^generic ' "$tmp/t.txt" && grep -q 'architecture: sm_90' "$tmp/t.txt" && ok ||
  bad "text form: $(cat "$tmp/t.txt")"
"$HS" kernel models/double_pendulum.yaml --arch sm_80 --only specialised --json >"$tmp/a.json" &&
  grep -q '"arch": "sm_80"' "$tmp/a.json" && grep -q '"generic": null' "$tmp/a.json" &&
  grep -q '"specialised": {"registers": [1-9]' "$tmp/a.json" && ok || bad "--arch sm_80: $(cat "$tmp/a.json")"
# the figures' compile also leaves the run's cubin in the cache (under the name a GPU run looks
# up: scripts/gpu_prepare.sh fills a GPU machine's cache this way); a second call adds nothing
mkdir -p "$tmp/kc"
HS_KERNEL_CACHE=$tmp/kc "$HS" kernel models/double_pendulum.yaml --only specialised --json >/dev/null &&
  [ "$(ls "$tmp/kc" | grep -c -- '-sm_90\.cubin$')" = 1 ] && [ "$(ls "$tmp/kc" | grep -c -- '-sm_90\.fig$')" = 1 ] &&
  [ "$(stat -c %s "$tmp/kc"/*.cubin)" -gt 1000 ] && HS_KERNEL_CACHE=$tmp/kc "$HS" kernel models/double_pendulum.yaml \
  --only specialised --json >/dev/null && [ "$(ls "$tmp/kc" | wc -l)" = 2 ] && ok ||
  bad "the run's cubin in the cache: $(ls -l "$tmp/kc")"
"$HS" kernel models/double_pendulum.yaml --only both >/dev/null 2>"$tmp/e.txt"; rc=$?
[ $rc -eq 1 ] && grep -q "not one of specialised, generic" "$tmp/e.txt" && ok || bad "bad --only: rc $rc $(cat "$tmp/e.txt")"
"$HS" kernel models/double_pendulum.yaml --arch ampere >/dev/null 2>"$tmp/e.txt"; rc=$?
[ $rc -eq 1 ] && grep -q "not an architecture" "$tmp/e.txt" && ok || bad "bad --arch: rc $rc $(cat "$tmp/e.txt")"
"$HS" kernel sweeps/friction_bulk_mc.yaml --source >"$tmp/s.cu" && grep -q '^#define HS_SPEC 1' "$tmp/s.cu" &&
  grep -q '#include "hs_spec_entry.h"' "$tmp/s.cu" && grep -q 'double cyl_fp\[1\]\[16\];' "$tmp/s.cu" && ok ||
  bad "--source: $(head -5 "$tmp/s.cu")"
sed "s|^model: *\(.*\)|model: $(pwd)/tests/data/\1|; s/^parameters:/parameters:\n  cylinder.lift.friction.model: {values: [brown_mcphee, lugre]}/" \
  tests/data/sweep_small.yaml >"$tmp/enum.yaml"
"$HS" kernel "$tmp/enum.yaml" --json >"$tmp/n.json" && grep -q '"specialised": null' "$tmp/n.json" &&
  grep -q '"why": ".*cyl_fric' "$tmp/n.json" && ok || bad "swept enumeration: $(cat "$tmp/n.json")"

finish cli_kernel
