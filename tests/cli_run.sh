#!/usr/bin/env bash
# cli_run.sh -- `hydrosweep run`, `merge`, `validate` and `simulate --from` as a user runs
# them: determinism (byte-identical files), shards merged == one run, an interrupted run
# resumed == an uninterrupted one, flagged failing instances, clear errors.
# Usage: cli_run.sh PATH/TO/hydrosweep
set -u
HS=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
SW=$(pwd)/tests/data/sweep_small.yaml
FAILSW=$(pwd)/tests/data/sweep_failing.yaml
. "$(dirname "${BASH_SOURCE[0]}")/lib_cli.sh"
cd "$tmp"
# every dataset and attribute equal (h5diff, from hdf5-tools: scripts/install-deps.sh)
command -v h5diff >/dev/null || { echo "cli_run: h5diff not found (apt-get install hdf5-tools)"; exit 1; }
same_h5() { h5diff -q "$1" "$2" >/dev/null 2>&1; }

"$HS" run "$SW" -o a.h5 --no-progress >run_a.txt 2>&1 && ok || bad "run: $(tail -5 run_a.txt)"
[ -f a.h5 ] && [ -f a.csv ] && [ ! -f a.h5.part ] && ok || bad "a.h5 and a.csv written, no .part left"
grep -q 'instance-steps/s' run_a.txt && grep -q 'backend cpu' run_a.txt && ok || bad "summary: $(cat run_a.txt)"
grep -q 'p_piston' run_a.txt && ok || bad "ensemble table printed"
[ "$(($(wc -l <a.csv) - 1))" -eq 24 ] && ok || bad "24 CSV rows"
head -1 a.csv | grep -q '^instance,status,steps,newton_mean,newton_max,rejected_steps,fluid.B_oil,cylinder.lift.friction.eta,crank_angle_min' \
  && ok || bad "CSV header: $(head -1 a.csv)"

# determinism: the same sweep again gives a byte-identical file
"$HS" run "$SW" -o b.h5 --no-progress >/dev/null 2>&1 && cmp -s a.h5 b.h5 && ok || bad "same seed: identical files"
# the reference backend agrees (its own file, same sampled values)
"$HS" run "$SW" -b reference -o r.h5 --no-progress >/dev/null 2>&1 && ok || bad "reference backend runs"
cut -d, -f1-7 a.csv >a7.csv; cut -d, -f1-7 r.csv >r7.csv
cmp -s <(cut -d, -f1-3,6,7 a.csv) <(cut -d, -f1-3,6,7 r.csv) && ok || bad "reference: same status, steps, parameters"

# several chunks per backend call (as on a GPU): the same results
"$HS" run "$SW" -o g.h5 --batch 16 --no-progress >/dev/null 2>&1 && same_h5 a.h5 g.h5 && ok || bad "--batch 16 == one chunk per call"
"$HS" run "$SW" -o g2.h5 --batch 16 --stop-after 1 --no-progress >/dev/null 2>&1
"$HS" run "$SW" -o g2.h5 --batch 16 --resume --no-progress >/dev/null 2>&1 && same_h5 a.h5 g2.h5 \
  && ok || bad "--batch with --stop-after and --resume"

# shards merged == one run
for k in 0 1 2; do "$HS" run "$SW" --shard $k/3 -o s$k.h5 --no-progress >/dev/null 2>&1 || bad "shard $k"; done
"$HS" merge m.h5 s2.h5 s0.h5 s1.h5 >/dev/null 2>&1 && ok || bad "merge"
same_h5 a.h5 m.h5 && ok || bad "merged shards == one run"
cmp -s a.csv m.csv && ok || bad "merged CSV == one run's"

# interrupted (stopped after 1 of 3 chunks) and resumed == uninterrupted
"$HS" run "$SW" -o c.h5 --stop-after 1 --no-progress >stop.txt 2>&1 && ok || bad "stop-after"
[ -f c.h5.part ] && [ ! -f c.h5 ] && ok || bad "interrupted run keeps c.h5.part only"
grep -q -- '--resume' stop.txt && ok || bad "says how to resume"
"$HS" run "$SW" -o c.h5 --resume --no-progress >res.txt 2>&1 && ok || bad "resume: $(cat res.txt)"
grep -q 'resuming, 8 instances already done' res.txt && ok || bad "resume counts done instances: $(cat res.txt)"
# its throughput is of the 16 instances it computed, not of all 24
grep -q '^run: 16 instances in ' res.txt && grep -q '8 of the 24 instances were computed by the run this one resumed' res.txt &&
  ok || bad "resumed throughput counts only what it computed: $(grep '^run:' res.txt)"
# every dataset and attribute equal (the file bytes differ: HDF5 lays out its metadata anew
# when a file is reopened)
same_h5 a.h5 c.h5 && ok || bad "resumed run == uninterrupted run"
"$HS" run "$SW" -o c2.h5 --stop-after 1 --no-progress >/dev/null 2>&1
"$HS" run "$SW" -o c2.h5 -n 30 --resume --no-progress >r2.txt 2>&1; rc=$?
[ $rc -ne 0 ] && grep -q 'different' r2.txt && ok || bad "resume with other options refused: rc $rc $(cat r2.txt)"
# one file, one backend: resuming a cpu run on the reference backend is refused
"$HS" run "$SW" -o c2.h5 -b reference --resume --no-progress >r3.txt 2>&1; rc=$?
[ $rc -ne 0 ] && grep -q 'backend cpu vs reference' r3.txt && ok || bad "resume on another backend refused: rc $rc $(cat r3.txt)"
"$HS" run "$SW" -o c2.h5 --resume --no-progress >/dev/null 2>&1 && same_h5 a.h5 c2.h5 && ok ||
  bad "refused resume leaves the .part usable"

# a batch with invalid instances finishes and flags exactly those
"$HS" run "$FAILSW" -o f.h5 --no-progress >f.txt 2>&1 && ok || bad "failing batch completes: $(tail -3 f.txt)"
python3 - f.csv <<'PY' && ok || bad "invalid instances flagged, others fine"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
neg = [r for r in rows if float(r["fluid.B_oil"]) <= 0]
pos = [r for r in rows if float(r["fluid.B_oil"]) > 0]
assert neg and pos, (len(neg), len(pos))
assert all(int(r["status"]) == 128 and int(r["steps"]) == 0 for r in neg)
assert all(int(r["status"]) == 0 and int(r["steps"]) == 100 for r in pos)
PY

# warnings (status bits 512 cavitation, 1024 implausible) flag finished instances: they count
# as finished, their values enter the quantiles, every engine sets the same bits
printf 'model: %s\ninstances: 8\nseed: 5\nmethod: monte_carlo\nsimulation: {t_end: 3 s, dt: 2 ms}\nparameters:\n  fluid.B_oil: {uniform: [5 GPa, 20 GPa]}\noutputs:\n  signals: [p_rod]\n' \
  "$(dirname "$SW")/../../models/fourbar_jaiswal2021.yaml" >warn.yaml
"$HS" run warn.yaml -o w.h5 --no-progress >w.txt 2>&1 && ok || bad "warned batch completes: $(tail -3 w.txt)"
HS_CPU_ENGINE=generic "$HS" run warn.yaml -o wg.h5 --no-progress >/dev/null 2>&1 && "$HS" run warn.yaml -b reference -o wr.h5 --no-progress >/dev/null 2>&1 \
  && cmp -s <(cut -d, -f1-3 w.csv) <(cut -d, -f1-3 wg.csv) && cmp -s <(cut -d, -f1-3 w.csv) <(cut -d, -f1-3 wr.csv) \
  && ok || bad "warning bits equal on the specialised, generic and reference engines"
python3 - w.csv w.txt <<'PY' && ok || bad "warnings flagged: $(cat w.txt)"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
# Jaiswal's frictionless four-bar pulls p_rod to about -2 MPa after 2.5 s (below p_vapour)
assert len(rows) == 8 and all(float(r["p_rod_min"]) < -1e6 for r in rows), rows
want = [512 | (1024 if float(r["fluid.B_oil"]) > 1e10 else 0) for r in rows]
assert [int(r["status"]) for r in rows] == want, ([r["status"] for r in rows], want)
assert all(int(r["steps"]) == 1500 for r in rows)
nimp = sum(w > 512 for w in want)
assert 0 < nimp < 8, want
txt = open(sys.argv[2]).read()
assert "8 instances, 8 finished, 0 failed" in txt, txt
assert "WARNING: 8 of the finished instances carry warnings (cavitation 8, implausible %d)" % nimp in txt, txt
PY
h5dump -a /ensemble/finished -a /ensemble/warned_cavitation -a /ensemble/failed_total w.h5 2>/dev/null | grep -A1 'DATA {' | grep -c '(0): [80]$' | grep -qx 3 \
  && ok || bad "ensemble attributes: finished 8, warned_cavitation 8, failed_total 0"
! grep -q 'warning: implausible' w.txt && ok || bad "no base-model warning when only sampled values are implausible"
"$HS" simulate "$(dirname "$SW")/../../models/fourbar_jaiswal2021.yaml" --set fluid.B_oil=1500 --t-end 0.01 >ws.txt 2>&1 \
  && grep -q 'warning: implausible values: fluid.B_oil = 1500 Pa outside \[1e+07, 1e+10\] Pa' ws.txt && ok \
  || bad "simulate warns of an implausible value: $(cat ws.txt)"

# Latin hypercube with -n: stratified over the instances actually run (one per stratum)
"$HS" run "$FAILSW" -n 8 -o l8.h5 --no-progress >/dev/null 2>&1 && ok || bad "lhs -n 8"
python3 - l8.csv <<'PY' && ok || bad "lhs -n 8: one sample per stratum"
import csv, math, sys
rows = list(csv.DictReader(open(sys.argv[1])))
u = [0.5 * math.erfc(-(float(r["fluid.B_oil"]) - 1000e6) / 1500e6 / math.sqrt(2)) for r in rows]
assert sorted(int(x * 8) for x in u) == list(range(8)), u
PY
"$HS" simulate --from l8.h5 --instance 3 >/dev/null 2>l8e.txt; rc=$?
# instance 3 may be an invalid (negative B_oil) draw: then the model is refused, else it runs
[ $rc -eq 0 ] || grep -q 'must be > 0\|B_oil' l8e.txt && ok || bad "simulate --from an lhs -n run: rc $rc $(cat l8e.txt)"

# re-run one instance alone: the same numbers as in the batch
"$HS" simulate --from a.h5 --instance 13 -o i13.csv >/dev/null 2>&1 && ok || bad "simulate --from"
python3 - i13.csv a.csv <<'PY' && ok || bad "instance 13 alone == in the batch"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
s = [r for r in csv.DictReader(open(sys.argv[2])) if r["instance"] == "13"][0]
w = min(float(r["W_lift"]) for r in rows)
p = max(float(r["p_piston"]) for r in rows)
assert abs(w - float(s["W_lift_min"])) <= 1e-9 * max(1, abs(w)), (w, s["W_lift_min"])
assert abs(p - float(s["p_piston_max"])) <= 1e-9 * p, (p, s["p_piston_max"])
PY
# an adaptive-step sweep: its instance re-run alone takes the same steps (the sweep's
# simulation settings, step, method and rtol included, are applied: esdirk3 is not the default
# auto = esdirk4, so a re-run that dropped it would end elsewhere): its last row is the batch's final
sed 's/^simulation: {t_end: 0.8 s, dt: 2 ms}/simulation: {t_end: 0.8 s, dt: 2 ms, step: adaptive, method: esdirk3, rtol: 1e-5}/' "$SW" >ad.yaml
sed -i "s|^model: *\(.*\)|model: $(dirname "$SW")/\1|" ad.yaml
"$HS" run ad.yaml -o ad.h5 --no-progress >/dev/null 2>&1 && ok || bad "adaptive sweep run"
"$HS" simulate --from ad.h5 --instance 5 -o ad5.csv >ad5.txt 2>&1 && grep -q 'accepted.*rejected (adaptive' ad5.txt &&
  ok || bad "simulate --from an adaptive run: $(cat ad5.txt)"
python3 - ad5.csv ad.csv <<'PY' && ok || bad "adaptive instance 5 alone == in the batch"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
s = [r for r in csv.DictReader(open(sys.argv[2])) if r["instance"] == "5"][0]
assert float(rows[-1]["t"]) == 0.8 and rows[-1]["crank_angle"] == rows[-1]["crank_angle"]
assert abs(float(rows[-1]["crank_angle"]) - float(s["crank_angle_final"])) <= 1e-12, (rows[-1]["crank_angle"], s)
assert int(s["rejected_steps"]) >= 0 and 20 < int(s["steps"]) < 400, s
PY
"$HS" simulate --from a.h5 --instance 99 >/dev/null 2>e.txt; rc=$?
[ $rc -eq 2 ] && grep -q 'instance 99' e.txt && ok || bad "instance out of range: rc $rc $(cat e.txt)"

# validate: cpu batch against the reference backend
"$HS" validate "$SW" --sample 4 >v.txt 2>&1 && grep -q 'validate: passed' v.txt && ok || bad "validate: $(cat v.txt)"

# errors: malformed sweep files name file, line and key
printf 'model: %s\ninstances: 10\nparameters:\n  fluid.B_oil: {uniform: [1 GPa, 2 GPa]}\n  body.nope.mass: {uniform: [1, 2]}\n' \
  "$(dirname "$SW")/../../models/fourbar_rahikainen2018.yaml" >bad1.yaml
"$HS" run bad1.yaml -o x.h5 >/dev/null 2>e1.txt; rc=$?
[ $rc -eq 2 ] && grep -q 'bad1.yaml:5:' e1.txt && grep -q 'body.nope.mass' e1.txt && ok || bad "unknown parameter: rc $rc $(cat e1.txt)"
printf 'model: %s\ninstances: 10\nparameters:\n  fluid.B_oil: {uniform: [1 GPa, 2 GPa]}\nbogus: 1\n' \
  "$(dirname "$SW")/../../models/fourbar_rahikainen2018.yaml" >bad2.yaml
"$HS" run bad2.yaml -o x.h5 >/dev/null 2>e2.txt; rc=$?
[ $rc -eq 2 ] && grep -q 'bad2.yaml:5:' e2.txt && grep -q 'bogus' e2.txt && ok || bad "unknown key: rc $rc $(cat e2.txt)"
"$HS" run "$SW" -b warp >/dev/null 2>&1; [ $? -eq 1 ] && ok || bad "unknown backend is a usage error"
"$HS" run "$SW" -b auto -o auto.h5 --no-progress >auto.txt 2>&1 && grep -q 'auto picked' auto.txt && ok || bad "auto says what it picked"
"$HS" run --help | grep -q -- '--shard' && ok || bad "run --help"

# the table in the units of the field (MPa, deg), --si as stored (Pa, rad): the file is the same
grep -q ' MPa$' run_a.txt && grep -q ' deg$' run_a.txt && ! grep -q ' Pa$' run_a.txt && ok ||
  bad "table in MPa and deg: $(cat run_a.txt)"
"$HS" run "$SW" -o si.h5 --si --no-progress >si.txt 2>&1 && grep -q ' Pa$' si.txt && grep -q ' rad$' si.txt &&
  ! grep -q ' MPa$' si.txt && cmp -s a.csv si.csv && ok || bad "--si: $(cat si.txt)"

# a note on stderr while the engine compiles (a cache miss only), and what a cache that is off means
mkdir kc
HS_KERNEL_CACHE=$tmp/kc "$HS" run "$SW" -o c1.h5 --no-progress >c1.txt 2>c1.err &&
  grep -qx 'cpu: compiling the engine for this model (once, cached for later runs)...' c1.err && ok ||
  bad "a cache miss says the engine compiles: $(cat c1.err)"
HS_KERNEL_CACHE=$tmp/kc "$HS" run "$SW" -o c2.h5 --no-progress >c2.txt 2>c2.err && ! grep -q compiling c2.err && ok ||
  bad "a cache hit says nothing: $(cat c2.err)"
HS_KERNEL_CACHE=off "$HS" run "$SW" -o c3.h5 --no-progress >c3.txt 2>c3.err &&
  grep -q 'compiling the engine for this model (the kernel cache is off: every run compiles it)' c3.err && ok ||
  bad "cache off: $(cat c3.err)"

finish cli_run
