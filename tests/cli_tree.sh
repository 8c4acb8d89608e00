#!/usr/bin/env bash
# cli_tree.sh -- riccati model files (open trees, seed 002) on the command line
# (host/cli/cli_tree.c, host/tree/tree_load.c, host/engine/tree_simulate.c): `hydrosweep info` of the
# demonstration pendulum and of the 500-body branch system; `hydrosweep simulate` of both (the
# CSV's columns, the demo's theta_7 after the first 10 ms against the closed-form start
# theta_7 = -0.3 g t^2 to 1e-3 relative, energy kept to 1e-9 relative, the summary line); a
# model with ball joints in the semi-recursive and the Riccati formulation (the same motion);
# scripts/branch_system.py for another N; sweeps of the pendulum (parameters listed by info, cpu
# and reference identical, validate, an instance re-run alone by simulate --from equals its
# statistics to 1e-12, the nominal instance is the model's own run); the options a tree does not take (exit 1); the
# engine's commands refuse a riccati model with the reason (exit 2); the Python binding
# (hydrosweep.tree) when numpy and the C library are there.
# Usage: cli_tree.sh PATH/TO/hydrosweep   (from the repository root)
set -u
HS=$1
. "$(dirname "${BASH_SOURCE[0]}")/lib_cli.sh"
D=models/branch_pendulum_rui2020.yaml
B=models/branch_system_rui2020.yaml

out=$("$HS" info "$D" 2>&1); rc=$?
[ $rc -eq 0 ] && ok || bad "info demo rc $rc: $out"
grep -q "bodies: 4 (tips 2, multi-input bodies 1, depth 3)" <<<"$out" && ok || bad "demo topology: $out"
grep -q "joints: 4 revolute, 0 prismatic, 0 ball" <<<"$out" && ok || bad "demo joints: $out"
out=$("$HS" info "$B" 2>&1); rc=$?
[ $rc -eq 0 ] && ok || bad "info branch rc $rc: $out"
grep -q "bodies: 500 (tips 2, multi-input bodies 1, depth 498)" <<<"$out" && ok || bad "branch topology: $out"
grep -q "coordinates: 2000 positions, 1500 velocities" <<<"$out" && ok || bad "branch coordinates: $out"

# the demo: 0.2 s, a row every 10 steps
"$HS" simulate "$D" --t-end 0.2 -o "$tmp/d.csv" >"$tmp/d.out" 2>&1; rc=$?
[ $rc -eq 0 ] && ok || bad "simulate demo rc $rc: $(cat "$tmp/d.out")"
head -1 "$tmp/d.csv" | grep -q "^t,E_kin,E_pot,E_total,rod1.angle_z,rod1.x,rod1.y,rod1.z,rod3.angle_z" && ok || bad "demo CSV header"
[ "$(wc -l <"$tmp/d.csv")" -eq 22 ] && ok || bad "demo rows: $(wc -l <"$tmp/d.csv") (header + 21)"
grep -q "an open tree of 4 bodies (4 revolute, 0 prismatic, 0 ball joints), 4 degrees of freedom" "$tmp/d.out" && ok || bad "summary: $(cat "$tmp/d.out")"
# theta_7(t) = 1/2 theta_7''(0) t^2 + O(t^4) from rest (theta_7''' = 0 there), theta_7''(0) =
# -0.6 g (models/branch_pendulum_rui2020.yaml): at t = 10 ms the O(t^4) term is about 2e-4 of
# it, the tolerance 1e-3; rod 7's angle is column 17
awk -F, 'NR == 3 { want = 0.5 * (-0.6 * 9.81) * $1 * $1; d = ($17 - want) / want; if (d < 0) d = -d;
                   exit !(d < 1e-3 && $1 == 0.01) }' "$tmp/d.csv" && ok || bad "theta_7 at 10 ms: $(sed -n 3p "$tmp/d.csv")"
awk -F, 'NR == 2 { e0 = $4 } NR > 2 { d = ($4 - e0) / e0; if (d < 0) d = -d; if (d > m) m = d }
         END { exit !(m < 1e-9) }' "$tmp/d.csv" && ok || bad "demo energy drift"

# ball joints in both formulations (models/ball_chain_3d.yaml): the semi-recursive one (the file
# as it stands: rotation vectors, trapezoidal rule at 0.5 ms) and the Riccati one (the same file
# with formulation riccati, RK4 at 1 ms) give the same motion: E_kin at 0.5, 1, 1.5 and 2 s
# agree to 1e-5 relative (the trapezoidal rule's error, about 1e-6 here); the semi-recursive
# run keeps E_balance below 1e-4 J, and its CSV names a ball joint's coordinates <joint>.x ...
BC=models/ball_chain_3d.yaml
"$HS" simulate "$BC" -o "$tmp/bc_sr.csv" >"$tmp/bc_sr.out" 2>&1; rc=$?
[ $rc -eq 0 ] && ok || bad "simulate ball chain (semi-recursive) rc $rc: $(cat "$tmp/bc_sr.out")"
head -1 "$tmp/bc_sr.csv" | grep -q "^t,top.x,top.x_dot,top.y,top.y_dot,top.z,top.z_dot,mid.x," && ok || bad "ball chain CSV header: $(head -1 "$tmp/bc_sr.csv")"
awk '/max \|E_balance\|/ { exit !($3 < 1e-4) }' "$tmp/bc_sr.out" && ok || bad "ball chain E_balance: $(cat "$tmp/bc_sr.out")"
sed 's/^  dt: 0.5 ms .*/  formulation: riccati\n  method: rk4\n  dt: 1 ms/' "$BC" >"$tmp/bc_ric.yaml"
"$HS" simulate "$tmp/bc_ric.yaml" -o "$tmp/bc_ric.csv" >"$tmp/bc_ric.out" 2>&1; rc=$?
[ $rc -eq 0 ] && ok || bad "simulate ball chain (riccati) rc $rc: $(cat "$tmp/bc_ric.out")"
awk -F, 'FNR == 1 { for (i = 1; i <= NF; ++i) if ($i == "E_kin") c = i; next }
         NR == FNR { if ($1 + 0 == 0.5 || $1 + 0 == 1 || $1 + 0 == 1.5 || $1 + 0 == 2) a[$1 + 0] = $c; next }
         ($1 + 0) in a { d = (a[$1 + 0] - $c) / $c; if (d < 0) d = -d; if (d > m) m = d; ++n }
         END { exit !(n == 4 && m < 1e-5) }' "$tmp/bc_sr.csv" "$tmp/bc_ric.csv" && ok ||
  bad "ball chain: semi-recursive and Riccati E_kin differ"
# a sweep of it (sweeps/ball_chain_mc.yaml): the cpu backend (the specialised engine) equals
# the reference one
"$HS" validate sweeps/ball_chain_mc.yaml --sample 8 -b cpu >"$tmp/bc_val.out" 2>&1; rc=$?
[ $rc -eq 0 ] && grep -q "^validate: passed" "$tmp/bc_val.out" && ok || bad "validate ball chain sweep rc $rc: $(tail -3 "$tmp/bc_val.out")"

# the branch system of N = 999: 20 ms
"$HS" simulate "$B" --t-end 0.02 --every 5 -o "$tmp/b.csv" >"$tmp/b.out" 2>&1; rc=$?
[ $rc -eq 0 ] && ok || bad "simulate branch rc $rc: $(cat "$tmp/b.out")"
head -1 "$tmp/b.csv" | grep -q "top_1.angle_z,top_1.x,top_1.y,top_1.z,b11.angle_z" && ok || bad "branch header"
[ "$(wc -l <"$tmp/b.csv")" -eq 6 ] && ok || bad "branch rows: $(wc -l <"$tmp/b.csv")"
grep -q "500 bodies (0 revolute, 0 prismatic, 500 ball joints), 1500 degrees of freedom" "$tmp/b.out" && ok || bad "branch summary"
awk -F, 'NR == 2 { e0 = $4 } NR > 2 { d = ($4 - e0) / e0; if (d < 0) d = -d; if (d > m) m = d }
         END { exit !(m < 1e-9) }' "$tmp/b.csv" && ok || bad "branch energy drift"

# the generator: another N, loaded and run
PY=$(python_with sys)
if [ -n "$PY" ]; then
  "$PY" scripts/branch_system.py 101 -o "$tmp/b101.yaml" && ok || bad "branch_system.py 101"
  out=$("$HS" info "$tmp/b101.yaml" 2>&1)
  grep -q "bodies: 51 " <<<"$out" && ok || bad "N = 101: $out"
  "$PY" scripts/branch_system.py 101 -o "$tmp/b101.yaml" 2>/dev/null && bad "branch_system.py wrote over a file" || ok
  "$PY" scripts/branch_system.py 12 >/dev/null 2>&1; [ $? -eq 2 ] && ok || bad "N = 12 must exit 2"
fi

# sweeps of a tree (host/tree/tree_params.c, kernels/hs_tree_batch.h): info lists the parameters,
# run on cpu and reference, validate, an instance re-run alone equals its statistics
out=$("$HS" info "$D" 2>&1)
grep -q "body.rod3.length  *1 m" <<<"$out" && grep -q "joint.hinge2.z0  *1.5708 rad" <<<"$out" && ok || bad "info parameters: $out"
out=$("$HS" info "$B" 2>&1)
grep -q "chain.top.w0.x  *0 rad/s" <<<"$out" && ! grep -q "body.top_7" <<<"$out" && ok || bad "chain parameters: $out"
S=sweeps/branch_pendulum_mc.yaml
"$HS" run "$S" -n 12 -o "$tmp/s.h5" >"$tmp/s.out" 2>&1; rc=$?
[ $rc -eq 0 ] && grep -q "12 finished, 0 failed" "$tmp/s.out" && ok || bad "run a tree sweep rc $rc: $(cat "$tmp/s.out")"
"$HS" run "$S" -n 12 -b reference -o "$tmp/r.h5" >"$tmp/r.out" 2>&1; rc=$?
[ $rc -eq 0 ] && ok || bad "reference rc $rc: $(cat "$tmp/r.out")"
cmp -s "$tmp/s.csv" "$tmp/r.csv" && ok || bad "cpu and reference CSV summaries differ"
"$HS" validate "$S" --sample 6 >"$tmp/v.out" 2>&1; rc=$?
[ $rc -eq 0 ] && grep -q "validate: passed" "$tmp/v.out" && ok || bad "validate rc $rc: $(cat "$tmp/v.out")"
"$HS" simulate --from "$tmp/s.h5" --instance 4 -o "$tmp/i4.csv" >/dev/null 2>&1 && ok || bad "simulate --from a tree sweep"
# rod3.y's final value (column 11 of the CSV) against the summary's rod3.y_final of instance 4
want=$(awk -F, 'NR == 1 { for (k = 1; k <= NF; ++k) if ($k == "rod3.y_final") c = k } NR == 6 { print $c }' "$tmp/s.csv")
got=$(tail -1 "$tmp/i4.csv" | cut -d, -f11)
awk -v a="$got" -v b="$want" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b != "" && d <= 1e-12 * (b < 0 ? -b : b)) }' && ok ||
  bad "instance 4 alone: rod3.y $got, the sweep's $want"
"$HS" simulate --from "$tmp/s.h5" --nominal -o "$tmp/nom.csv" >/dev/null 2>&1 && ok || bad "simulate --nominal of a tree sweep"
cmp -s <("$HS" simulate "$D" 2>/dev/null) "$tmp/nom.csv" && ok || bad "the nominal instance is the model's own run"

# --set takes a sweep's parameter names with their meaning: instance 4's values set by name are
# instance 4, to the bit; after --from, a set swept value is the set one
sets=$(awk -F, 'NR == 1 { for (k = 1; k <= NF; ++k) if ($k ~ /^(body|joint)\./) c[k] = $k }
                NR == 6 { for (k in c) printf " --set %s=%s", c[k], $k }' "$tmp/s.csv")
# shellcheck disable=SC2086
"$HS" simulate "$D" $sets -o "$tmp/set4.csv" >/dev/null 2>&1 && cmp -s "$tmp/set4.csv" "$tmp/i4.csv" && ok ||
  bad "--set of instance 4's values ($sets) is not instance 4"
sets=$(sed 's/ --set body.rod1.mass=[^ ]*//' <<<"$sets")
# shellcheck disable=SC2086
"$HS" simulate "$D" $sets --set body.rod1.mass=1.5kg -o "$tmp/set4b.csv" >/dev/null 2>&1 &&
  "$HS" simulate --from "$tmp/s.h5" --instance 4 --set "body.rod1.mass = 1.5 kg" -o "$tmp/i4b.csv" >/dev/null 2>&1 &&
  cmp -s "$tmp/set4b.csv" "$tmp/i4b.csv" && ! cmp -s "$tmp/i4b.csv" "$tmp/i4.csv" && ok || bad "--set after --from"
out=$("$HS" info "$D" --set body.rod1.mass=2kg --set chain.x=1 2>&1); rc=$?
[ $rc -eq 2 ] && grep -q "key 'chain.x': unknown parameter" <<<"$out" && ok || bad "info --set unknown: rc $rc $out"
out=$("$HS" info "$D" --set body.rod1.mass=2kg --set joint.hinge2.z0=45deg 2>&1); rc=$?
[ $rc -eq 0 ] && grep -q "body.rod1.mass  *2 kg" <<<"$out" && grep -q "joint.hinge2.z0  *0.785398 rad" <<<"$out" && ok ||
  bad "info --set: rc $rc $out"
# integrator.t_end and integrator.dt by --set as by --t-end and --dt (one format: the tree's
# settings are not parameters of its bodies, but --set takes them), with the same rules
"$HS" simulate "$D" --set integrator.t_end=20ms --set "integrator.dt = 1 ms" -o "$tmp/ts.csv" >/dev/null 2>&1 &&
  "$HS" simulate "$D" --t-end 0.02 --dt 0.001 -o "$tmp/tt.csv" >/dev/null 2>&1 && cmp -s "$tmp/ts.csv" "$tmp/tt.csv" &&
  [ "$(tail -1 "$tmp/ts.csv" | cut -d, -f1)" = 0.02 ] && ok || bad "--set integrator.t_end, dt on a tree"
for a in integrator.t_end=-1 integrator.dt=2m integrator.dt=0; do
  out=$("$HS" simulate "$D" --set $a -o "$tmp/tx.csv" 2>&1); rc=$?
  [ $rc -eq 2 ] && grep -q "key '${a%%=*}'" <<<"$out" && ok || bad "--set $a on a tree: rc $rc $out"
done
for v in -1 0 nan inf; do
  out=$("$HS" simulate "$D" --set body.rod3.length=$v 2>&1); rc=$?
  [ $rc -eq 2 ] && grep -q "key 'body.rod3.length'" <<<"$out" && ok || bad "--set length=$v: rc $rc $out"
done
out=$("$HS" simulate "$D" --set body.rod1.mass=2m 2>&1); rc=$?
[ $rc -eq 2 ] && grep -q "unit of '2m' is m, but the parameter is in kg" <<<"$out" && ok || bad "--set unit: rc $rc $out"
# and runs in a sweep: the branch system's chains swept together
cat >"$tmp/bs_mc.yaml" <<EOF
model: $PWD/$B
method: monte_carlo
instances: 3
simulation: {t_end: 2 ms, dt: 0.5 ms}
parameters:
  chain.top.mass: {uniform: [0.05 kg, 0.2 kg]}
outputs: {signals: [E_kin, E_balance]}
EOF
"$HS" run "$tmp/bs_mc.yaml" -o "$tmp/bs_mc.h5" >"$tmp/bs_mc.out" 2>&1 && grep -q "3 finished, 0 failed" "$tmp/bs_mc.out" && ok ||
  bad "a sweep of the branch system: $(cat "$tmp/bs_mc.out")"
# the rules of every model (issue 47, class 5): dt <= t_end, dims > 0; a t_end that dt does not
# divide ends with a shorter step in simulate as in a sweep (the same final state)
sed 's/  dt: 1 ms .*/  dt: 3 s/' "$D" >"$tmp/dt.yaml"
out=$("$HS" simulate "$tmp/dt.yaml" 2>&1); rc=$?
[ $rc -eq 2 ] && grep -q "key 'integrator.dt': dt must be > 0 and <= t_end" <<<"$out" && ok || bad "dt > t_end: rc $rc $out"
sed '0,/    length: 1 m/s//    length: -1 m/' "$D" >"$tmp/len.yaml"
out=$("$HS" info "$tmp/len.yaml" 2>&1); rc=$?
[ $rc -eq 2 ] && grep -q "key 'bodies\[0\].length': length must be > 0" <<<"$out" && ok || bad "length < 0: rc $rc $out"
cat >"$tmp/short.yaml" <<EOF
model: $PWD/$D
method: grid
instances: 1
simulation: {t_end: 10.5 ms}
parameters:
  body.rod1.mass: {values: [1 kg]}
outputs: {signals: [rod3.y], statistics: [final]}
EOF
"$HS" run "$tmp/short.yaml" -o "$tmp/short.h5" >/dev/null 2>&1 && ok || bad "a sweep to 10.5 ms"
want=$(awk -F, 'NR == 1 { for (k = 1; k <= NF; ++k) if ($k == "rod3.y_final") c = k } NR == 2 { print $c }' "$tmp/short.csv")
got=$("$HS" simulate "$D" --t-end 10.5ms 2>/dev/null | tail -1)
[ "${got%%,*}" = 0.0105 ] && awk -v a="$(cut -d, -f11 <<<"$got")" -v b="$want" \
  'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b != "" && d <= 1e-13) }' && ok || bad "t_end 10.5 ms: simulate $got, sweep $want"
# every shipped riccati model takes --set and --dt (a chain's bodies at once)
"$HS" simulate "$B" --set chain.top.mass=0.2kg --set gravity.y=-1.62 --t-end 2ms --dt 0.5ms -o "$tmp/bs.csv" \
  >"$tmp/bs.out" 2>&1 && [ "$(wc -l <"$tmp/bs.csv")" -eq 6 ] && ok || bad "branch system --set: $(cat "$tmp/bs.out")"
out=$("$HS" info "$D" --columns 2>&1); rc=$?
[ $rc -eq 1 ] && ok || bad "info --columns on a tree: rc $rc"
# the engine's commands: exit 2 with the reason, located at the formulation
out=$("$HS" linearize "$D" 2>&1); rc=$?
[ $rc -eq 2 ] && grep -q "branch_pendulum_rui2020.yaml:.*integrator.formulation.*hydrosweep simulate" <<<"$out" && ok || bad "linearize a tree: rc $rc $out"

# the Python binding
PY=$(python_with numpy)
# under scripts/sanitize.sh the binding runs on the sanitized library, its runtime preloaded
pyrun() {
  if [ -n "${HS_SAN_CAPI_LIB:-}" ]; then
    HS_CAPI_LIB=$HS_SAN_CAPI_LIB LD_PRELOAD=${HS_SAN_PRELOAD:-} ASAN_OPTIONS=detect_leaks=0 PYTHONPATH=python "$PY" "$@"
  else
    PYTHONPATH=python "$PY" "$@"
  fi
}
if [ -n "$PY" ] && [ -n "${HS_CAPI_LIB:-}${HS_SAN_CAPI_LIB:-}" -o -f build/libhydrosweep_capi.so ]; then
  pyrun - <<'PYEOF' && ok || bad "hydrosweep.tree"
import numpy as np
from hydrosweep.tree import Tree
t = Tree.load("models/branch_pendulum_rui2020.yaml")
q, v = t.state0()
vd, F = t.accel(q, v)
assert abs(vd[0] / 9.81 + 0.6) < 1e-14, vd
assert F.shape == (4, 6)
ek, ep = t.energy(q, v)
assert ek == 0 and abs(ep + 24.525) < 1e-12, (ek, ep)
PYEOF
  # every entry point checks its arguments and its handle before C sees them (issue 47,
  # class 2): the exception's type, and the argument named
  pyrun - <<'PYEOF' && ok || bad "hydrosweep.tree argument checks"
import numpy as np
from hydrosweep.tree import Tree
t = Tree.load("models/branch_pendulum_rui2020.yaml")
q, v = t.state0()
a = t.arrays()
def raises(exc, words, f, *args, **kw):
    try:
        f(*args, **kw)
    except exc as e:
        assert all(w in str(e) for w in words), (words, str(e))
        return
    raise AssertionError(f"no {exc.__name__} for {words}")
mk = {k: a[k] for k in ("parent", "jtype", "mass", "com", "inertia", "at_parent", "at_child", "axis")}
Tree.make(**mk, rot0=a["rot0"], gravity=a["gravity"]).close()  # its own arrays make a tree
raises(ValueError, ["com", "(4, 3)"], Tree.make, **dict(mk, com=a["com"][:2]))
raises(ValueError, ["inertia", "(4, 6)"], Tree.make, **dict(mk, inertia=np.zeros(5)))
raises(ValueError, ["com", "(4, 3)", "(3, 4)"], Tree.make, **dict(mk, com=a["com"].T))  # transposed: refused
raises(ValueError, ["rot0", "(4, 3, 3)"], Tree.make, **mk, rot0=np.eye(3))
raises(ValueError, ["gravity"], Tree.make, **mk, gravity=(0, -9.81))
raises(ValueError, ["mass", "not finite"], Tree.make, **dict(mk, mass=[1, np.nan, 1, 1]))
raises(TypeError, ["axis", "numbers"], Tree.make, **dict(mk, axis="up"))
raises(ValueError, ["parent"], Tree.make, **dict(mk, parent=[]))
raises(ValueError, ["q", "(3,)"], t.accel, q[:1], v) if t.nq == 3 else None
raises(ValueError, ["q"], t.accel, np.append(q, 0.0), v)
raises(ValueError, ["v", "not finite"], t.energy, q, np.full(t.nv, np.nan))
for bad in (2**63, -5):
    raises(ValueError, ["nsteps"], t.rk4, q, v, 1e-3, bad)
raises(TypeError, ["nsteps", "integer"], t.rk4, q, v, 1e-3, 2.7)
raises(TypeError, ["nsteps", "integer"], t.rk4, q, v, 1e-3, True)
for bad in (0, -1e-3, float("nan"), float("inf"), "1ms"):
    raises(ValueError, ["dt"], t.rk4, q, v, bad, 10)
raises(ValueError, ["nrep"], t.time_accel, q, v, 0)
raises(ValueError, ["nrep"], t.time_semirecursive, q, v, -1)
assert t.rk4(q, v, 1e-3, 0)[0].tolist() == q.tolist()  # zero steps: the state as it was
t.close()
for f, args in ((t.state0, ()), (t.accel, (q, v)), (t.energy, (q, v)), (t.rk4, (q, v, 1e-3, 1)), (t.arrays, ()),
                (t.time_accel, (q, v, 1))):
    raises(ValueError, ["closed"], f, *args)
t.close()  # twice: nothing
PYEOF
  # a tree sweep from Python, when its results reader's packages are there
  if "$PY" -c "import h5py, pandas, xarray" 2>/dev/null; then
    pyrun - "$tmp/py.h5" <<'PYEOF' && ok || bad "hydrosweep.run of a tree sweep"
import sys
import hydrosweep as hs
r = hs.run("sweeps/branch_pendulum_mc.yaml", n=4, out=sys.argv[1], progress=False)
assert int(sum(r.finished)) == 4 and list(r.signals)[:3] == ["hinge9", "hinge4", "rod3.y"], r
PYEOF
  fi
fi
finish cli_tree
