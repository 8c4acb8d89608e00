#!/usr/bin/env bash
# cli_python.sh -- results files read from Python as a user reads them (numpy + h5py, the
# script examples/read_results.py and docs/results-format.md): the values read with h5py
# equal the CSV summary's, the status bits decode as the C code defines them, the stored
# ensemble quantiles equal numpy's over the finished instances, trajectories match /traj/time
# and the statistics, shards and .part files read as documented, and the script fails clearly
# on a missing or incomplete file.
# Usage: cli_python.sh PATH/TO/hydrosweep   (from the repository root)
# Exit 77 (skipped) when no python3 can import numpy and h5py
# (apt-get install python3-numpy python3-h5py; scripts/install-deps.sh installs them).
set -u
HS=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
ROOT=$(pwd)
SW=$ROOT/tests/data/sweep_python.yaml
RR=$ROOT/examples/read_results.py

. "$(dirname "${BASH_SOURCE[0]}")/lib_cli.sh"
need_python cli_python numpy h5py
cd "$tmp"

# --- the sweep, complete; a shard of it; an interrupted run of it
"$HS" run "$SW" -o r.h5 --no-progress >run.txt 2>&1 && [ -f r.h5 ] && [ -f r.csv ] \
  && ok || bad "run: $(tail -5 run.txt)"
"$HS" run "$SW" --shard 1/2 -o s1.h5 --no-progress >/dev/null 2>&1 && ok || bad "shard 1/2"
"$HS" run "$SW" -o p.h5 --stop-after 1 --no-progress >/dev/null 2>&1 && [ -f p.h5.part ] \
  && ok || bad "stop-after 1 leaves p.h5.part"

# --- examples/read_results.py on the complete file, with the CSV check
"$PY" "$RR" r.h5 --csv --rows 0 >out.txt 2>err.txt; rc=$?
[ $rc -eq 0 ] && ok || bad "read_results.py r.h5 --csv: rc $rc $(cat err.txt)"
grep -Eq '^  seed +11$' out.txt && grep -Eq '^  n_total +20$' out.txt \
  && grep -Eq '^  complete +1$' out.txt && grep -Eq '^  backend +cpu$' out.txt \
  && grep -Eq '^  model +fourbar_rahikainen2018 ' out.txt && grep -Eq '^  method +monte_carlo$' out.txt \
  && ok || bad "run attributes printed: $(head -14 out.txt)"
grep -q '^parameters (2): fluid.B_oil \[Pa\], integrator.max_iter \[-\]$' out.txt \
  && ok || bad "parameter names and units printed: $(grep '^parameters' out.txt)"
grep -q '^CSV check: r.csv matches: 20 rows x 22 columns, every value identical$' out.txt \
  && ok || bad "CSV check: $(grep CSV out.txt) $(cat err.txt)"
# one failed instance's trajectory, printed
"$PY" "$RR" r.h5 --signal p_piston --instance 1 >out1.txt 2>&1 && ok || bad "--signal --instance: $(cat out1.txt)"
"$PY" "$RR" s1.h5 --instance 13 --signal crank_angle_dot >outs.txt 2>&1 \
  && grep -q '^trajectory crank_angle_dot of instance 13 (8 samples, /traj/crank_angle_dot\[3, :\]):$' outs.txt \
  && grep -q 'a shard of the sweep' outs.txt && ok || bad "shard: global --instance 13 is row 3: $(cat outs.txt)"

# --- numbers: h5py against the CSV, numpy, the C code's status bits, the printed output
"$PY" - "$ROOT" r.h5 r.csv out.txt out1.txt s1.h5 p.h5.part >py.txt 2>&1 <<'PY'
import csv, math, re, sys
import numpy as np
import h5py

root, h5, csvp, out, out1, shard, part = sys.argv[1:8]
sys.path.insert(0, root + "/examples")
import read_results as rr

npass = nfail = 0
def check(cond, what):
    global npass, nfail
    if cond:
        npass += 1
    else:
        nfail += 1
        print("FAIL:", what)

def same(a, b):  # bit-equal, NaN == NaN
    a, b = np.asarray(a, float), np.asarray(b, float)
    return a.shape == b.shape and bool(np.all((a == b) | (np.isnan(a) & np.isnan(b))))

f = h5py.File(h5, "r")
st = f["status"][()]
inst = f["instance"][()]
par = f["params"][()]
pnames = [s.decode() for s in f["params"].attrs["names"]]
sigs = [s.decode() for s in f.attrs["signals"]]
tsigs = [s.decode() for s in f.attrs["traj_signals"]]
cols = [s.decode() for s in f.attrs["columns"]]
n = inst.size

# layout: shapes, dtypes, names as the docs say
check(n == 20 and list(inst) == list(range(20)), "/instance is 0..19")
check(st.dtype == np.int32 and f["steps"].dtype == np.int64 and inst.dtype == np.int64
      and f["newton_max"].dtype == np.int32 and f["newton_mean"].dtype == np.float64
      and f["rejected_steps"].dtype == np.int64,
      "row dataset dtypes")
check(pnames == ["fluid.B_oil", "integrator.max_iter"] and par.shape == (20, 2), "/params")
check(sigs == ["crank_angle", "p_piston", "W_lift"] and tsigs == ["p_piston", "crank_angle_dot"],
      "signals, traj_signals: %s %s" % (sigs, tsigs))
# what a reader needs of the model, stored (no parsing of /model_text): units, joints, name
check([s.decode() for s in f.attrs["signal_units"]] == ["rad", "Pa", "J"]
      and [s.decode() for s in f.attrs["traj_units"]] == ["Pa", "rad/s"],
      "signal_units, traj_units: %s %s" % (f.attrs["signal_units"], f.attrs["traj_units"]))
jn = [s.decode() for s in f.attrs["joint_names"]]
check("crank_angle" in jn and set(s.decode() for s in f.attrs["joint_kinds"]) == {"revolute"}
      and f.attrs["model_name"].decode() == "fourbar_rahikainen2018",
      "joint_names, joint_kinds, model_name: %s" % jn)
check(cols == ["min", "max", "final", "rms", "t_max"],
      "columns in stored order, not the sweep's: %s" % cols)
check(list(f["done"][()]) == [1, 1, 1] and int(f.attrs["chunk"]) == 8, "/done, chunk")
for s in sigs:
    check(f["stats"][s].shape == (20, 5) and f["ensemble"][s].shape == (5, 3), "shapes of " + s)

# 1. the CSV summary holds exactly the HDF5 values (csv module, no read_results.py)
rows = list(csv.DictReader(open(csvp, newline="")))
check(len(rows) == n, "CSV rows %d" % len(rows))
want = {"instance": inst, "status": st, "steps": f["steps"][()],
        "newton_mean": f["newton_mean"][()], "newton_max": f["newton_max"][()],
        "rejected_steps": f["rejected_steps"][()]}
for j, p in enumerate(pnames):
    want[p] = par[:, j]
for s in sigs:
    for c, name in enumerate(cols):
        want["%s_%s" % (s, name)] = f["stats"][s][:, c]
check(list(rows[0].keys()) == list(want.keys()), "CSV header %s" % list(rows[0].keys()))
for k, v in want.items():
    check(same([float(r[k]) for r in rows], v), "CSV column %s == HDF5" % k)

# 2. status bits: the file's table (status_bit_* attributes) is the one table of the C code
#    (kernels/hs_status.h, parsed here independently), every row decodes to its bits by it, the
#    failures are the expected ones
src = open(root + "/kernels/hs_status.h").read()
hdr = [(int(v), nm, int(w)) for v, nm, w in
       re.findall(r'X\(\w+,\s*(\d+),\s*"(\w+)",\s*(\d)', src)]
bits = rr.status_bits(f)
check(len(hdr) >= 12 and [(b, nm, "warning" if w else "failure") for b, nm, w in hdr] ==
      [(b, nm, k) for b, nm, k, _ in bits], "the file's status bits %s == kernels/hs_status.h's %s" % (bits, hdr))
check(all(d for _, _, _, d in bits), "every bit has a description")
code = [(b, nm) for b, nm, _, _ in bits]
check(rr.decode_status(0, bits) == [] and rr.decode_status(257, bits) == ["maxiter", "singular_config"]
      and rr.decode_status(128 | 1024, bits) == ["invalid", "implausible"]
      and rr.decode_status(512 | 2048, bits) == ["cavitation", "step_size"]
      and rr.decode_status(512 | (1 << len(bits)), bits) == ["cavitation", "bit%d" % len(bits)],
      "decode_status")
for i in range(n):
    names = rr.decode_status(st[i], bits)
    check(names == [nm for b, nm in code if st[i] & b], "row %d decodes %d: %s" % (i, st[i], names))
B, maxit, steps = par[:, 0], par[:, 1], f["steps"][()]
W = rr.warning_mask(bits)
check(W == 512 | 1024 | 8192, "warning bits %d" % W)
fail = st & ~W  # the failure bits; the warning bits leave an instance finished
check(np.all((fail == 128) == (B <= 0)) and np.all(steps[B <= 0] == 0), "invalid <=> B_oil <= 0")
check(np.all(fail[(B > 0) & (maxit >= 20)] == 0) and np.all(steps[fail == 0] == 400),
      "max_iter 20 finishes, 400 steps")
fm = (st & 1) != 0
check(fm.sum() >= 1 and np.all(fail[fm] == 1) and np.all((steps[fm] > 0) & (steps[fm] < 400)),
      "Newton limit failures stop part way: %s %s" % (st, steps))
check((fail == 0).sum() >= 3 and (fail == 128).sum() >= 1, "finished and invalid instances both present")
for g in [f["ensemble"]] + [f["ensemble"][s] for s in sigs]:
    a = g.attrs
    check(int(a["finished"]) == (fail == 0).sum() and int(a["failed_total"]) == (fail != 0).sum()
          and int(a["warned_total"]) == ((fail == 0) & (st != 0)).sum()
          and all(int(a[("warned_" if b & W else "failed_") + nm]) == ((st & b) != 0).sum()
                  for b, nm in code),
          "failure counts of %s" % g.name)
# the printed status table: every bit's count
txt = open(out).read()
check("status: %d instances, %d finished (%d with warnings), %d failed"
      % (n, (fail == 0).sum(), ((fail == 0) & (st != 0)).sum(), (fail != 0).sum()) in txt,
      "printed status counts")
for b, nm in code:
    m = re.search(r"^ +%d +%s +(\d+) " % (b, nm), txt, re.M)
    check(m is not None and int(m.group(1)) == ((st & b) != 0).sum(), "printed count of " + nm)
for i in np.nonzero(fail)[0]:
    check(re.search(r"^ +%d +%d +%s +%d$" % (inst[i], st[i], "\\+".join(rr.decode_status(st[i], bits)),
                                             steps[i]), txt, re.M) is not None,
          "printed failed instance %d" % inst[i])

# 3. ensemble quantiles == numpy's linear (R type 7) quantiles over the finished rows
ok = fail == 0
levels = f["ensemble"]["p_piston"].attrs["quantiles"][()]
check(same(levels, [0.05, 0.5, 0.95]), "quantile levels %s" % levels)
printed, cur = {}, None  # the printed quantile table: (signal, stat) -> 3 numbers
for line in txt.split("ensemble quantiles")[1].splitlines()[2:]:
    if not line.startswith("  "):
        break
    w = line.split()
    if len(w) == 5:
        cur = w.pop(0)
    printed[(cur, w[0])] = [float(v) for v in w[1:]]
worst = 0.0
for s in sigs:
    x = f["stats"][s][()][ok]
    try:
        q = np.quantile(x, levels, axis=0, method="linear").T
    except TypeError:  # numpy < 1.22
        q = np.quantile(x, levels, axis=0, interpolation="linear").T
    e = f["ensemble"][s][()]
    scale = np.maximum(np.abs(q), np.abs(e))
    err = np.where(scale > 0, np.abs(q - e) / np.where(scale > 0, scale, 1), 0)
    worst = max(worst, float(err.max()))
    check(bool(np.all(err <= 1e-12)), "ensemble %s vs np.quantile: max rel %.3g" % (s, err.max()))
    # the printed quantiles (6 digits) are the stored ones
    for c, name in enumerate(cols):
        check((s, name) in printed and np.allclose(printed[(s, name)], e[c], rtol=1e-5, atol=0),
              "printed quantiles of %s %s: %s" % (s, name, printed.get((s, name))))
print("quantiles: max relative difference to numpy %.3g" % worst)

# 4. trajectories: the documented time grid, shapes, and agreement with the statistics
t = f["traj"]["time"][()]
dt = 0.002
check(same(t, np.array([0, 60, 120, 180, 240, 300, 360, 400]) * dt), "/traj/time %s" % t)
for s in tsigs:
    check(f["traj"][s].shape == (n, t.size), "/traj/%s shape" % s)
y = f["traj"]["p_piston"][()]
S = f["stats"]["p_piston"][()]
ci = {c: k for k, c in enumerate(cols)}
check(same(y[ok, -1], S[ok, ci["final"]]), "p_piston: last trajectory sample == stats final")
check(bool(np.all(y[ok].max(axis=1) <= S[ok, ci["max"]]) and np.all(y[ok].min(axis=1) >= S[ok, ci["min"]])),
      "p_piston: trajectory within [min, max]")
check(bool(np.all(np.isnan(y[st == 128])) and np.all(np.isnan(S[st == 128]))),
      "invalid instances: NaN statistics and trajectories")
for i in np.nonzero(fm)[0]:  # failed part way: samples up to the failure, NaN after
    done = t <= steps[i] * dt + 1e-12
    check(bool(np.all(np.isfinite(y[i, done])) and np.all(np.isnan(y[i, ~done]))),
          "instance %d (failed at step %d): NaN after the failure: %s" % (i, steps[i], y[i]))
    check(bool(np.all(np.isfinite(S[i]))) and S[i, ci["t_max"]] <= steps[i] * dt + 1e-12,
          "instance %d: statistics of the steps done" % i)
# the printed trajectory of instance 1 (--signal p_piston --instance 1)
txt1 = open(out1).read()
check(("trajectory p_piston of instance 1 (%d samples" % t.size) in txt1, "trajectory header")
pr = re.findall(r"^ +(\S+) +(\S+)$", txt1.split("trajectory p_piston")[1], re.M)[1:]
check(len(pr) == t.size and np.allclose([float(a) for a, _ in pr], t, rtol=1e-8)
      and np.allclose([float(b) for _, b in pr], y[1], rtol=1e-8, equal_nan=True),
      "printed trajectory of instance 1: %s" % pr)

# 5. a shard: rows are instances [i_begin, i_end), equal to the full run's rows
g = h5py.File(shard, "r")
a, b = int(g.attrs["i_begin"]), int(g.attrs["i_end"])
check((a, b, int(g.attrs["n_total"])) == (10, 20, 20) and list(g["instance"][()]) == list(range(a, b)),
      "shard range")
check(same(g["params"][()], par[a:b]) and same(g["stats/p_piston"][()], S[a:b]), "shard rows == full rows")

# 6. a .part file: complete == 0, /done marks the written chunks, whose rows are final;
#    its ensemble is not computed (NaN); the script refuses it
p = h5py.File(part, "r")
d = p["done"][()]
check(int(p.attrs["complete"]) == 0 and list(d) == [1, 0, 0], ".part: complete 0, done %s" % d)
rows_done = np.repeat(d.astype(bool), int(p.attrs["chunk"]))[:p["instance"].size]
check(same(p["stats/p_piston"][()][rows_done], S[rows_done]) and
      same(p["status"][()][rows_done], st[rows_done]), ".part: the finished chunks' rows are final")
check(bool(np.all(np.isnan(p["ensemble/p_piston"][()]))), ".part: ensemble not computed (NaN)")
try:
    rr.open_results(part)
    check(False, "open_results refuses a .part file")
except rr.ResultsError as e:
    check("incomplete" in str(e) and "--resume" in str(e), "open_results(.part) message: %s" % e)

print("COUNTS %d %d" % (npass, nfail))
PY
rc=$?
grep -v '^COUNTS' py.txt | grep -v '^quantiles:' | sed 's/^/  /'
counts=$(grep '^COUNTS' py.txt)
if [ $rc -eq 0 ] && [ -n "$counts" ]; then
  set -- $counts
  pass=$((pass + $2))
  fail=$((fail + $3))
else
  bad "python checks crashed (rc $rc): $(tail -5 py.txt)"
fi
grep '^quantiles:' py.txt

# --- the Python snippets of docs/results-format.md run on out.h5, out.csv and out.h5.part
#     (those using pandas only where pandas is installed: it is not a dependency)
mkdir doc && cp r.h5 doc/out.h5 && cp r.csv doc/out.csv && cp p.h5.part doc/out.h5.part
(cd doc && "$PY" - "$ROOT/docs/results-format.md" >../doc.txt 2>&1 <<'PY'
import re, sys
blocks = re.findall(r"```python\n(.*?)```", open(sys.argv[1]).read(), re.S)
try:
    import pandas
except ImportError:
    blocks = [b for b in blocks if "pandas" not in b]
    print("snippets: pandas not installed: running those without it")
assert len(blocks) >= 3, "too few python snippets found"
env = {}
for b in blocks:
    exec(b, env)
print("snippets: %d ran" % len(blocks))
PY
) && ok || bad "docs/results-format.md's snippets: $(tail -5 doc.txt)"
grep '^snippets:' doc.txt

# --- a python3 without numpy/h5py first (a venv's, pyenv's): the script re-runs itself with
#     /usr/bin/python3 (Debian's, which install-deps.sh equips) and says so; run directly, its
#     shebang is /usr/bin/python3
if [ "$PY" = /usr/bin/python3 ]; then
  mkdir -p nopy && cp "$(readlink -f /usr/bin/python3)" nopy/python3
  # -S: no site-packages, so no numpy: a stand-in for an interpreter without them
  if ! nopy/python3 -S -c 'import numpy' >/dev/null 2>&1; then
    nopy/python3 -S "$RR" r.h5 --rows 1 >np.txt 2>np_err.txt; rc=$?
    [ $rc -eq 0 ] && grep -q 'has no numpy/h5py.*running with /usr/bin/python3' np_err.txt \
      && grep -q '^file: r.h5 (format_version 5, complete)' np.txt \
      && ok || bad "re-run with /usr/bin/python3: rc $rc $(cat np_err.txt) $(head -3 np.txt)"
    HS_READ_RESULTS_REEXEC=1 nopy/python3 -S "$RR" r.h5 >/dev/null 2>np_err2.txt; rc=$?
    [ $rc -ne 0 ] && grep -q 'needs numpy and h5py: run it with /usr/bin/python3' np_err2.txt \
      && ok || bad "no numpy and no re-run: rc $rc $(cat np_err2.txt)"
  fi
  head -1 "$RR" | grep -qx '#!/usr/bin/python3' && [ -x "$RR" ] && "$RR" r.h5 --rows 1 >/dev/null 2>&1 \
    && ok || bad "examples/read_results.py runs by its shebang (/usr/bin/python3)"
fi

# --- errors: a clear message and a non-zero exit
"$PY" "$RR" missing.h5 >/dev/null 2>e1.txt; rc=$?
[ $rc -ne 0 ] && grep -q 'missing.h5: no such file' e1.txt && ok || bad "missing file: rc $rc $(cat e1.txt)"
"$PY" "$RR" p.h5 >/dev/null 2>e2.txt; rc=$?
[ $rc -ne 0 ] && grep -q 'incomplete (1 of 3 chunks written)' e2.txt && grep -q -- "-o p.h5 --resume" e2.txt \
  && ok || bad "only p.h5.part there: rc $rc $(cat e2.txt)"
"$PY" "$RR" p.h5.part >/dev/null 2>e3.txt; rc=$?
[ $rc -ne 0 ] && grep -q 'incomplete' e3.txt && ok || bad ".part file: rc $rc $(cat e3.txt)"
"$PY" "$RR" r.csv >/dev/null 2>e4.txt; rc=$?
[ $rc -ne 0 ] && grep -q 'cannot be opened as HDF5' e4.txt && ok || bad "not HDF5: rc $rc $(cat e4.txt)"
"$PY" "$RR" r.h5 --signal nope >/dev/null 2>e5.txt; rc=$?
[ $rc -ne 0 ] && grep -q "no signal 'nope'" e5.txt && ok || bad "unknown signal: rc $rc $(cat e5.txt)"
"$PY" "$RR" s1.h5 --instance 3 >/dev/null 2>e6.txt; rc=$?
[ $rc -ne 0 ] && grep -q 'instance 3 is not in this file (it holds \[10, 20) of 20)' e6.txt \
  && ok || bad "instance outside the shard: rc $rc $(cat e6.txt)"
# a CSV that differs in one value (steps of the first instance) is caught
awk -F, -v OFS=, 'NR == 2 { $3 = $3 + 1 } { print }' r.csv >r_bad.csv
"$PY" "$RR" r.h5 --csv r_bad.csv >/dev/null 2>e7.txt; rc=$?
[ $rc -ne 0 ] && grep -q 'row 1 (instance 0), column steps' e7.txt && ok || bad "changed CSV detected: rc $rc $(cat e7.txt)"

finish cli_python "$PY"
