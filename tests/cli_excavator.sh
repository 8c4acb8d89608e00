#!/usr/bin/env bash
# cli_excavator.sh -- the excavator front (models/excavator_front.yaml) as a user runs it:
#  - `simulate`: the 8 s digging cycle completes; the mechanical energy balance closes
#    (max |E_balance| below 1e-5 of the largest cylinder work: 6.8e-7 measured); the cycle
#    happens as its comments say: the arm curls past -120 deg and the bucket past -65 deg while
#    digging (0.5..2.6 s), the boom rises above 40 deg (2.4..4.3 s) and comes back below
#    34 deg (5.6..7.6 s), the pump line stays between 22 and 27 MPa (its compensator and
#    relief), and every chamber pressure stays positive; the energy audit closes (W_in -
#    W_loss - E_fluid equals the cylinders' work to 1e-6 J at every row) and the losses are
#    most of the input (the compensator's pump margin and the relief valve);
#  - `run sweeps/excavator_mc.yaml -n 16` on the cpu and the reference backends: every instance
#    finishes (status 0 in the results file) and the two backends' statistics agree (angles and
#    pressures to 1e-7 relative, work and the energy audit to 1e-3 J, E_balance to 1e-6 J);
#  - `circuit`: one pump, one relief valve, one accumulator, three valve sections and three
#    cylinders on seven volumes.
# (Its trajectory against SUNDIALS IDA: validation/val_components_ida.c; the specialised
# engine: tests/test_kernel_spec.c; the GPU paths: tests/test_conformance_gpu.cu.)
# Usage: cli_excavator.sh PATH/TO/hydrosweep   (from the repository root)
set -u
HS=$1
M=models/excavator_front.yaml
. "$(dirname "${BASH_SOURCE[0]}")/lib_cli.sh"

"$HS" simulate "$M" --every 10 -o "$tmp/x.csv" >"$tmp/sim.out" 2>&1 && ok || bad "simulate: $(tail -5 "$tmp/sim.out")"
grep -q 'steps            8000 of 8000' "$tmp/sim.out" && ok || bad "8000 steps: $(cat "$tmp/sim.out")"
# column values by name: min and max over the run
r=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; ++i) c[$i] = i; next }
  function mn(n) { v = $c[n] + 0; if (!(n in lo) || v < lo[n]) lo[n] = v; if (!(n in hi) || v > hi[n]) hi[n] = v }
  { mn("boom_angle"); mn("arm_angle"); mn("bucket_angle"); mn("p_pump_line"); mn("E_balance");
    mn("W_boom_cyl"); mn("W_arm_cyl"); mn("W_bucket_cyl"); fb = $c["boom_angle"] + 0
    for (k in c) if (k ~ /^p_/ && $c[k] + 0 <= 0) neg = 1 }
  END { d = 180 / 3.14159265358979
        w = 0; split("W_boom_cyl W_arm_cyl W_bucket_cyl", ws, " ")
        for (j in ws) { a = -lo[ws[j]] > hi[ws[j]] ? -lo[ws[j]] : hi[ws[j]]; if (a > w) w = a }
        e = -lo["E_balance"] > hi["E_balance"] ? -lo["E_balance"] : hi["E_balance"]
        printf "%.3f %.3f %.3f %.3f %.4f %.4f %.3e %.3e %d\n", hi["boom_angle"] * d, fb * d, lo["arm_angle"] * d,
               lo["bucket_angle"] * d, lo["p_pump_line"] / 1e6, hi["p_pump_line"] / 1e6, e, w, neg }' "$tmp/x.csv")
read -r boom_max boom_end arm_min bucket_min pp_min pp_max ebal wmax neg <<<"$r"
echo "  excavator: boom up to $boom_max deg, back to $boom_end; arm to $arm_min; bucket to $bucket_min;" \
     "pump line $pp_min..$pp_max MPa; max |E_balance| $ebal J of $wmax J cylinder work"
awk -v e="$ebal" -v w="$wmax" 'BEGIN { exit !(w > 1e4 && e < 1e-5 * w) }' && ok || bad "energy balance: $ebal J against $wmax J"
awk -v b="$boom_max" -v f="$boom_end" 'BEGIN { exit !(b > 40 && f < 34) }' && ok || bad "boom: up to $boom_max, back to $boom_end deg"
awk -v a="$arm_min" -v k="$bucket_min" 'BEGIN { exit !(a < -120 && k < -65) }' && ok || bad "dig: arm $arm_min, bucket $bucket_min deg"
awk -v a="$pp_min" -v b="$pp_max" 'BEGIN { exit !(a > 22 && b < 27) }' && ok || bad "pump line $pp_min..$pp_max MPa"
[ "$neg" = 0 ] && ok || bad "a chamber pressure <= 0"
r=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; ++i) c[$i] = i; next }
  { d = $c["W_in"] - $c["W_loss"] - $c["E_fluid"] - $c["W_boom_cyl"] - $c["W_arm_cyl"] - $c["W_bucket_cyl"]
    if (d < 0) d = -d; if (d > worst) worst = d; win = $c["W_in"]; wl = $c["W_loss"] }
  END { printf "%.3e %.6g %.6g\n", worst, win, wl }' "$tmp/x.csv")
read -r audit win wloss <<<"$r"
echo "  excavator energy: W_in $win J, W_loss $wloss J; max |W_in - W_loss - E_fluid - sum W_cyl| $audit J"
awk -v a="$audit" -v i="$win" -v l="$wloss" 'BEGIN { exit !(a < 1e-6 && i > 1e5 && l > 0.5 * i && l < i) }' && ok ||
  bad "energy audit: $audit J off, W_in $win J, W_loss $wloss J"

# the Monte Carlo sweep on two backends: every instance finishes, the same statistics
for b in cpu reference; do
  "$HS" run sweeps/excavator_mc.yaml -n 16 -b "$b" -o "$tmp/$b.h5" --no-progress >"$tmp/$b.out" 2>&1 && ok ||
    bad "run -b $b: $(tail -5 "$tmp/$b.out")"
  grep -q 'ensemble: 16 instances, 16 finished, 0 failed' "$tmp/$b.out" && ok || bad "-b $b: $(grep ensemble "$tmp/$b.out")"
  if command -v h5dump >/dev/null; then
    st=$(h5dump -d /status -y -w 0 "$tmp/$b.h5" 2>/dev/null | sed -n '/DATA {/,/}/p' | tr -cd '0-9,\n' | tr ',' '\n' | grep -c '^[0-9]')
    nz=$(h5dump -d /status -y -w 0 "$tmp/$b.h5" 2>/dev/null | sed -n '/DATA {/,/}/p' | tr -cd '0-9,\n' | tr ',' '\n' | grep -c '^[1-9]')
    [ "$st" = 16 ] && [ "$nz" = 0 ] && ok || bad "-b $b: /status: $st values, $nz non-zero"
  fi
done
# The cpu backend (the specialised engine) and the reference backend (the generic one, LAPACK)
# solve the same equations to the Newton tolerance: the angles and pressures' statistics to
# 1e-7 relative, the cylinders' work to 1e-3 J (of 1e4 J), E_balance (a difference of 1e4 J
# energies that stays near 1e-2 J) to 1e-6 J; measured: 8e-11, 3e-8 J and 5e-8 J.
if command -v h5diff >/dev/null; then
  for ds in boom_angle arm_angle bucket_angle p_pump_line p_boom_piston p_arm_piston; do
    h5diff -q --relative=1e-7 "$tmp/cpu.h5" "$tmp/reference.h5" "/stats/$ds" "/stats/$ds" >/dev/null 2>&1 && ok ||
      bad "cpu and reference $ds differ: $(h5diff -v --relative=1e-7 "$tmp/cpu.h5" "$tmp/reference.h5" "/stats/$ds" "/stats/$ds" 2>&1 | grep '^\[' | head -3)"
  done
  for ds in W_boom_cyl W_arm_cyl W_bucket_cyl W_in W_loss E_fluid; do
    h5diff -q --delta=1e-3 "$tmp/cpu.h5" "$tmp/reference.h5" "/stats/$ds" "/stats/$ds" >/dev/null 2>&1 && ok ||
      bad "cpu and reference $ds differ by more than 1e-3 J"
  done
  h5diff -q --delta=1e-6 "$tmp/cpu.h5" "$tmp/reference.h5" /stats/E_balance /stats/E_balance >/dev/null 2>&1 && ok ||
    bad "cpu and reference E_balance differ by more than 1e-6 J"
fi

# the circuit as drawn
out=$("$HS" circuit "$M" 2>&1) && ok || bad "circuit: $out"
[ "$(grep -cE '^  v[0-9]+ \[shape=ellipse' <<<"$out")" -eq 7 ] && ok || bad "7 volumes"
[ "$(grep -cE '^  k[0-9]+ \[' <<<"$out")" -eq 3 ] && ok || bad "3 components"
[ "$(grep -cE '^  d[0-9]+ \[' <<<"$out")" -eq 3 ] && ok || bad "3 valve sections"
[ "$(grep -cE '^  c[0-9]+ \[' <<<"$out")" -eq 3 ] && ok || bad "3 cylinders"
finish cli_excavator
