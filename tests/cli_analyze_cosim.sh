#!/usr/bin/env bash
# cli_analyze_cosim.sh -- the configuration search of seed 004 Pub. III as one run: a sweep with
# method: cosim_search runs every configuration x test input x H as an instance, its results
# carry the search's layout (search_inputs, search_nH, search_param_roles, search_param_enums),
# and `hydrosweep analyze cosim` applies the documented rule: checked here against the rule
# computed independently from the stored E_res and statuses, for the default and other
# --max-order; shards merged give the same analysis as one run; --json holds everything;
# `hydrosweep plot --kind cosim` draws Fig. 3; bad input exits 2 with the reason.
# Usage: cli_analyze_cosim.sh PATH/TO/hydrosweep   (from the repository root)
set -u
HS=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
ROOT=$(pwd)
. "$(dirname "${BASH_SOURCE[0]}")/lib_cli.sh"
need_python cli_analyze_cosim numpy h5py
export HS_PYTHON=$PY
cd "$tmp" || exit 1
cat >search.yaml <<EOF
model: $ROOT/models/crane_rahikainen2020_single.yaml
method: cosim_search
chunk: 8
simulation: {t_end: 0.6 s}
search: {H_ini: 1 ms, H_inc: 0.5 ms, H_max: 5 ms, h_hyd: 0.1 ms}
parameters:
  cosim.hydraulics: {values: [euler, trapezoidal]}
  cosim.extrapolation: {values: [0, 2, integrate]}
inputs:
  - {name: step, signal.U_ref.kind: step, signal.U_ref.v_max: 10, signal.U_ref.t_s: 0.2 s}
  - {name: sine 35 Hz, signal.U_ref.kind: sine, signal.U_ref.a: 10, signal.U_ref.f: 35 Hz}
outputs: {signals: [E_res, s_lift], statistics: [final]}
EOF
"$HS" run search.yaml -b cpu -o s.h5 --no-progress >run.log 2>&1 && ok || bad "run: $(tail -3 run.log)"
grep -qF "108 instances [0, 108) of 108, cosim_search" run.log && ok || bad "9 H x 2 inputs x 6 configurations: $(head -1 run.log)"
"$HS" analyze cosim s.h5 >table.txt 2>&1 && ok || bad "analyze cosim: $(cat table.txt)"
grep -q "co-simulation search of crane_rahikainen2020_single: 6 configurations x 2 test inputs x 9 values of H (1 ms to 5 ms, by 0.5 ms)" table.txt \
  && grep -q "^recommended" table.txt && ok || bad "the table's head and recommendation: $(cat table.txt)"
for P in 6 3 1000; do
  "$HS" analyze cosim s.h5 --json --max-order $P >a$P.json 2>a$P.err && ok || bad "analyze --json --max-order $P: $(cat a$P.err)"
  # the rule, independently: per configuration and input the H before the first failed run or
  # the first local order ln(E_k/E_k-1)/ln(H_k/H_k-1) above P; none when the first run fails
  "$PY" - "$P" <<'PYEOF' && ok || bad "analyze's stable H differ from the rule computed here (--max-order $P)"
import json, math, sys
import h5py, numpy as np
P = float(sys.argv[1])
r = json.load(open("a%s.json" % sys.argv[1]))
f = h5py.File("s.h5", "r")
names = [n.decode() for n in f["params"].attrs["names"]]
cols = [c.decode() for c in f.attrs["columns"]]
E = f["stats/E_res"][()][:, cols.index("final")]
st = f["status"][()]
warn = sum(int(v) for v, k in zip(f.attrs["status_bit_values"], f.attrs["status_bit_kinds"]) if k == b"warning")
Hs = f["params"][()][:, names.index("integrator.dt")]
nH, nin = int(f.attrs["search_nH"]), 2
assert [i.decode() for i in f.attrs["search_inputs"]] == ["step", "sine 35 Hz"] == r["inputs"]
assert list(f.attrs["search_param_roles"]) == [0, 1, 2, 2, 2, 2, 2, 3, 3], list(f.attrs["search_param_roles"])
assert r["params"] == ["cosim.hydraulics", "cosim.extrapolation"] and len(r["configs"]) == 6
assert np.allclose(r["H"], 1e-3 + 5e-4 * np.arange(9), rtol=0, atol=1e-15)
seen = set()
for c in range(6):
    for k in range(nin):
        i0 = (c * nin + k) * nH
        want = None
        for j in range(nH):
            i = i0 + j
            if st[i] & ~warn:
                break
            if j and min(E[i - 1], E[i]) > 1e-9 and math.log(E[i] / E[i - 1]) / math.log(Hs[i] / Hs[i - 1]) > P:
                break
            want = Hs[i]
        got = r["configs"][c]["H_stable"][k]
        assert (got is None and want is None) or abs(got - want) < 1e-15, (c, k, got, want)
        seen.add(None if want is None else round(want * 1e4))
# the configuration values are the swept ones, by name
vals = {tuple(cf["values"][p] for p in r["params"]) for cf in r["configs"]}
assert vals == {(h, x) for h in ("euler", "trapezoidal") for x in ("0", "2", "integrate")}, vals
# a search that says something: not every stable H the same
assert len(seen) > 1 or P == 1000, seen
PYEOF
done
# --max-order 1000: only failures end a search, so stable H can only grow
"$PY" -c "
import json
a, b = json.load(open('a6.json')), json.load(open('a1000.json'))
for ca, cb in zip(a['configs'], b['configs']):
    for ha, hb in zip(ca['H_stable'], cb['H_stable']):
        assert ha is None or (hb is not None and hb >= ha), (ha, hb)
" && ok || bad "a larger --max-order gave a smaller stable H"
# shards merged: the same analysis
"$HS" run search.yaml -b cpu -o p0.h5 --shard 0/2 --no-progress >/dev/null 2>&1 &&
  "$HS" run search.yaml -b cpu -o p1.h5 --shard 1/2 --no-progress >/dev/null 2>&1 &&
  "$HS" merge m.h5 p0.h5 p1.h5 >/dev/null 2>&1 && ok || bad "shards and merge"
"$HS" analyze cosim m.h5 --json >m.json 2>&1 && cmp -s <(sed 's/"path": "[^"]*"/"path": ""/' m.json) \
  <(sed 's/"path": "[^"]*"/"path": ""/' a6.json) && ok || bad "the merged shards' analysis differs: $(diff m.json a6.json | head -5)"
# Fig. 3
if "$PY" -c "import matplotlib" >/dev/null 2>&1; then
  "$HS" plot s.h5 --kind cosim --input "sine 35 Hz" -o fig3.png >plot.log 2>&1 && [ -s fig3.png ] && ok || bad "plot --kind cosim: $(cat plot.log)"
  "$HS" plot s.h5 --kind cosim --input nosuch -o x.png >plot2.log 2>&1
  [ $? -eq 2 ] && grep -q "no test input 'nosuch' (the search's: step, sine 35 Hz)" plot2.log && [ ! -e x.png ] && ok ||
    bad "plot --input nosuch: $(cat plot2.log)"
fi
# bad input: not a search, an option out of range, a missing file
"$HS" run "$ROOT/tests/data/sweep_saltelli.yaml" -b cpu -o g.h5 --no-progress >/dev/null 2>&1
"$HS" analyze cosim g.h5 >e1.log 2>&1
[ $? -eq 2 ] && grep -q "analyze cosim needs the results of a sweep with method: cosim_search (this one is saltelli)" e1.log && ok ||
  bad "analyze cosim on a saltelli sweep: $(cat e1.log)"
"$HS" analyze cosim s.h5 --max-order -1 >e2.log 2>&1
[ $? -eq 2 ] && grep -q "must be a number > 0" e2.log && ok || bad "--max-order -1: $(cat e2.log)"
"$HS" analyze cosim nosuch.h5 >e3.log 2>&1
[ $? -eq 2 ] && ok || bad "a missing file: $(cat e3.log)"
# a damaged file (issue 47, class 3): a zeroed chunk of /stats/E_res (its Fletcher32 zeroed
# too, which that checksum cannot see) and each search attribute changed; analyze and the C
# reader (merge) name the damage instead of a changed recommendation or a traceback
"$PY" - <<'PYEOF' && ok || bad "damaged copies of s.h5"
import h5py, numpy as np, shutil
shutil.copy("s.h5", "z.h5")
with h5py.File("z.h5", "r+") as f:  # the rows of chunk 3 as a lost write leaves them
    d = f["stats/E_res"]
    d.id.write_direct_chunk((24, 0), np.zeros(d.chunks, d.dtype).tobytes() + b"\0" * 4)
for k, (name, v) in enumerate([("search_nH", np.int32(0)), ("search_param_roles", None),
                               ("search_inputs", np.array([b"step", b"sine 3 Hz"])), ("search_crc32", np.uint32(7))]):
    shutil.copy("s.h5", "a%d.h5" % k)
    with h5py.File("a%d.h5" % k, "r+") as f:
        if v is None:
            v = f.attrs[name].copy()
            v[0] = 9
        f.attrs.modify(name, v)
PYEOF
"$HS" analyze cosim z.h5 >e4.log 2>&1
[ $? -eq 2 ] && grep -q "dataset /stats/E_res: checksum mismatch (CRC-32) in chunk 3 (rows 24..31)" e4.log && ok ||
  bad "analyze cosim of a zeroed chunk: $(cat e4.log)"
for k in 0 1 2 3; do
  "$HS" analyze cosim a$k.h5 >e5.log 2>&1
  [ $? -eq 2 ] && grep -q "results file is damaged: the search's attributes" e5.log && ! grep -q Traceback e5.log && ok ||
    bad "analyze cosim, search attribute $k changed: $(cat e5.log)"
  "$HS" merge m$k.h5 a$k.h5 >e6.log 2>&1
  [ $? -eq 2 ] && grep -q "results file is damaged: the search's attributes" e6.log && [ ! -e m$k.h5 ] && ok ||
    bad "merge, search attribute $k changed: $(cat e6.log)"
done
finish cli_analyze_cosim
