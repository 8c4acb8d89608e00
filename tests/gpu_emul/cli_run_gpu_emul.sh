#!/usr/bin/env bash
# cli_run_gpu_emul.sh -- `hydrosweep run -b gpu`, `-b auto` and `validate` end to end on the
# emulated device (tests/gpu_emul/hs_cuda_emul.h; the binary hydrosweep_gpu_emul is the CLI
# linked with it): the whole GPU run path of host/run/run.c -- chunk groups, sub-batches, the
# results file's device attributes, ensemble quantiles with Thrust -- without a GPU.
#  - the specialised path (the default: the engine compiled for the model's structure by the
#    emulated NVRTC, i.e. the host C++ compiler): every dataset equal to the cpu backend's file
#    (the same step code, compiled alike on the host), CSV byte-identical, quantiles_on
#    "gpu (Thrust)";
#  - a sweep that varies an enumeration (the friction model) runs one specialised kernel per
#    structure (host/run/run_split.h) and gives the cpu backend's results; one that switches a
#    signal's kind (seed 004 Pub. III's test inputs, a branch selector) stays one kernel;
#  - cublas path: LAPACK's LU in place of ours: same status and steps, the rest within 1e-6
#    relative (measured: ~1e-9; E_balance ~1e-9 J absolute);
#  - progress counted per instance on the device (asynchronous emulated kernels): lines while
#    the one launch runs, results unchanged; SIGINT stops the kernel's threads, exit 130, and
#    the printed command finishes the run;
#  - auto picks the emulated GPU and says so; validate passes; an unknown HS_GPU_PATH fails.
# Usage: cli_run_gpu_emul.sh PATH/TO/hydrosweep_gpu_emul PATH/TO/hydrosweep
set -u
abs() { echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"; }
HE=$(abs "$1")
HS=$(abs "$2")
SW=$(pwd)/tests/data/sweep_small.yaml
. "$(dirname "${BASH_SOURCE[0]}")/../lib_cli.sh"
cd "$tmp"
command -v h5diff >/dev/null && command -v h5ls >/dev/null ||
  { echo "cli_run_gpu_emul: h5diff/h5ls not found (apt-get install hdf5-tools)"; exit 1; }
# every dataset of $1 equal in $2 (with "close": within 1e-6 relative, and E_balance, a
# residual of ~1e2 J energies near zero, within 1e-7 J; /crc then not compared); attributes of the root and of
# /ensemble (backend, device, quantiles_on) differ by design and are not compared
same_datasets() {
  local a=$1 b=$2 n=0 d opt
  for d in $(h5ls -r "$a" | awk '$2 == "Dataset" {print $1}'); do
    n=$((n + 1))
    opt=()
    if [ "${3:-}" = close ]; then # /crc: the CRC-32 of rows that are close, not equal
      case $d in /crc) continue ;; *E_balance) opt=(-d 1e-7) ;; *) opt=(-p 1e-6) ;; esac
    fi
    h5diff -q "${opt[@]}" "$a" "$b" "$d" "$d" >/dev/null 2>&1 || { echo "  differs: $d"; return 1; }
  done
  [ $n -gt 10 ] || { echo "  only $n datasets"; return 1; }
}
attr() { h5dump -a "$2" "$1" 2>/dev/null | grep -o '"[^"]*"' | tail -1; }

"$HS" run "$SW" -b cpu -o c.h5 --no-progress >cpu.txt 2>&1 && ok || bad "cpu run: $(tail -3 cpu.txt)"
# the real NVRTC's cubin of this sweep's kernel in the cache the emulated runs use (`hydrosweep
# kernel` leaves it there, as ctest's shared cache has it after cli_kernel): the emulated build
# must not take it for its own (the two once had one key, and the load failed; issue 47 class 8)
if "$HS" --version | grep -q '^cuda: yes'; then
  "$HS" kernel "$SW" --json >/dev/null 2>&1 && ok || bad "hydrosweep kernel of the sweep"
fi
HS_GPU_VERBOSE=1 "$HE" run "$SW" -b gpu -o g.h5 --no-progress >gpu.txt 2>&1 && ok || bad "gpu run: $(tail -5 gpu.txt)"
grep -q 'backend gpu' gpu.txt && grep -q 'host emulation of a CUDA device' gpu.txt && ok ||
  bad "summary names the backend and the (emulated) device: $(cat gpu.txt)"
grep -q '^gpu specialised: 24 instances' gpu.txt && ok || bad "one specialised launch plan for the 3 chunks: $(grep '^gpu' gpu.txt)"
same_datasets c.h5 g.h5 && ok || bad "specialised gpu == cpu, every dataset"
cmp -s c.csv g.csv && ok || bad "specialised gpu CSV == cpu CSV"
# adaptive steps (simulation: {step: adaptive}): each instance its own steps on the device;
# the specialised path gives the cpu backend's file, rejected steps included; the cublas
# path (lockstep fixed steps) refuses with the reason
sed 's/^simulation: {t_end: 0.8 s, dt: 2 ms}/simulation: {t_end: 0.8 s, dt: 2 ms, step: adaptive, rtol: 1e-5}/' "$SW" >ad.yaml
sed -i "s|^model: *\(.*\)|model: $(dirname "$SW")/\1|" ad.yaml
"$HS" run ad.yaml -b cpu -o ca.h5 --no-progress >ca.txt 2>&1 && ok || bad "cpu adaptive run: $(tail -3 ca.txt)"
"$HE" run ad.yaml -b gpu -o ga.h5 --no-progress >ga.txt 2>&1 && ok || bad "gpu adaptive run: $(tail -3 ga.txt)"
same_datasets ca.h5 ga.h5 && ok || bad "adaptive: specialised gpu == cpu, every dataset"
# the CSV summary: all finished, 20 .. 400 accepted steps each (fixed: 400), rejections counted
awk -F, 'NR == 1 { ok = $3 == "steps" && $6 == "rejected_steps"; next }
         { n++; if ($2 != 0 || $3 < 20 || $3 >= 400 || $6 < 0) ok = 0 } END { exit !(ok && n == 24) }' ca.csv &&
  ok || bad "adaptive: fewer steps than the 400 fixed ones: $(cut -d, -f1-6 ca.csv | head -3)"
grep -q 'instance-steps/s of the output grid dt: adaptive steps' ca.txt && ok || bad "adaptive: the rate is per grid step: $(tail -1 ca.txt)"
HS_GPU_PATH=cublas "$HE" run ad.yaml -b gpu -o ba.h5 --no-progress >ba.txt 2>&1
[ $? -ne 0 ] && grep -q 'integrator.step: fixed only' ba.txt && ok || bad "cublas refuses adaptive steps: $(tail -2 ba.txt)"
# seed 004 Pub. III's test inputs switched per instance (signal.U_ref.kind, a branch
# selector): the specialised kernel runs them all, equal to the cpu backend; cublas within
# its bounds; validate (the reference backend) passes
TI=$(dirname "$SW")/sweep_test_inputs.yaml
"$HS" run "$TI" -b cpu -o ct.h5 --no-progress >ct.txt 2>&1 && ok || bad "cpu run of the test inputs: $(tail -3 ct.txt)"
HS_GPU_VERBOSE=1 "$HE" run "$TI" -b gpu -o gt.h5 --no-progress >gt.txt 2>&1 && ok || bad "gpu run of the test inputs: $(tail -3 gt.txt)"
grep -q '^gpu specialised: 12 instances' gt.txt && ! grep -q 'generic kernel' gt.txt && ok ||
  bad "test inputs swept: the specialised kernel runs: $(grep gpu gt.txt)"
same_datasets ct.h5 gt.h5 && ok || bad "test inputs: specialised gpu == cpu, every dataset"
HS_GPU_PATH=cublas "$HE" run "$TI" -b gpu -o bt.h5 --no-progress >bt.txt 2>&1 && ok || bad "cublas run of the test inputs: $(tail -3 bt.txt)"
h5diff -q ct.h5 bt.h5 /status /status >/dev/null 2>&1 && h5diff -q ct.h5 bt.h5 /steps /steps >/dev/null 2>&1 &&
  h5diff -q -p 1e-6 ct.h5 bt.h5 /stats/p_piston /stats/p_piston >/dev/null 2>&1 &&
  h5diff -q -p 1e-6 ct.h5 bt.h5 /stats/U_dcv /stats/U_dcv >/dev/null 2>&1 && ok ||
  bad "test inputs: cublas == cpu (status, steps; statistics within 1e-6)"
"$HE" validate "$TI" --sample 12 -b gpu >vt.txt 2>&1 && ok || bad "validate the test inputs on the gpu: $(tail -5 vt.txt)"
# a co-simulation configuration grid (kernels/hs_cosim.h; the configuration values are branch
# selectors): the specialised kernel runs every instance, equal to the cpu backend to the bit;
# the reference backend (validate) agrees; the cublas path, monolithic steps only, refuses
CO=$(dirname "$SW")/../../sweeps/cosim_configurations.yaml
"$HS" run "$CO" -b cpu -o cc.h5 --no-progress >cc.txt 2>&1 && ok || bad "cpu run of the cosim grid: $(tail -3 cc.txt)"
HS_GPU_VERBOSE=1 "$HE" run "$CO" -b gpu -o gc.h5 --no-progress >gc.txt 2>&1 && ok || bad "gpu run of the cosim grid: $(tail -3 gc.txt)"
grep -q '^gpu specialised: 24 instances' gc.txt && ! grep -q 'generic kernel' gc.txt && ok ||
  bad "cosim configurations swept: the specialised kernel runs: $(grep gpu gc.txt)"
same_datasets cc.h5 gc.h5 && ok || bad "cosim grid: specialised gpu == cpu, every dataset"
"$HE" validate "$CO" --sample 24 -b gpu >vc.txt 2>&1 && ok || bad "validate the cosim grid on the gpu: $(tail -5 vc.txt)"
HS_GPU_PATH=cublas "$HE" run "$CO" -b gpu -o bc.h5 --no-progress >bc.txt 2>&1
[ $? -ne 0 ] && grep -q 'monolithic steps only' bc.txt && [ ! -e bc.h5 ] && ok || bad "cublas refuses co-simulation: $(tail -2 bc.txt)"
# both mechanical methods (cosim.mechanics i3al_p, i1al: a branch selector) on a model with a cut
# joint, the Pub. I four-bar (i1al's stabilised loop closure, kernels/hs_i1al.h): the
# specialised kernel runs both, equal to the cpu backend in every dataset
cat >mech.yaml <<EOF
model: $(cd "$(dirname "$SW")/../../models" && pwd)/fourbar_rahikainen2018.yaml
method: grid
simulation: {t_end: 0.6 s, dt: 1 ms, coupling: cosim}
parameters:
  cosim.mechanics: {values: [i3al_p, i1al]}
  cosim.exchange: {values: [force, pressures]}
outputs:
  signals: [s_lift, p_piston, phi_norm, E_res, newton_iters]
EOF
"$HS" run mech.yaml -b cpu -o cm.h5 --no-progress >cm.txt 2>&1 && ok || bad "cpu run of both mechanics: $(tail -3 cm.txt)"
HS_GPU_VERBOSE=1 "$HE" run mech.yaml -b gpu -o gm.h5 --no-progress >gm.txt 2>&1 && ok || bad "gpu run of both mechanics: $(tail -3 gm.txt)"
grep -q '^gpu specialised: 4 instances' gm.txt && ! grep -q 'generic kernel' gm.txt && ok ||
  bad "cosim.mechanics swept: the specialised kernel runs: $(grep gpu gm.txt)"
same_datasets cm.h5 gm.h5 && ok || bad "both mechanics: specialised gpu == cpu, every dataset"
# the configuration search (method cosim_search, host/sweep/sweep_search.c): H (each instance's dt),
# the test inputs and the configurations per instance, on the specialised kernel, equal to the
# cpu backend in every dataset; the reference backend (validate) agrees
cat >search.yaml <<EOF
model: $(cd "$(dirname "$SW")/../../models" && pwd)/crane_rahikainen2020_single.yaml
method: cosim_search
simulation: {t_end: 0.3 s}
search: {H_ini: 1 ms, H_inc: 1 ms, H_max: 4 ms}
parameters:
  cosim.hydraulics: {values: [euler, rk4]}
  cosim.extrapolation: {values: [1, integrate]}
inputs:
  - {name: ramp, signal.U_ref.kind: ramp, signal.U_ref.v_max: 10, signal.U_ref.t_s: 0.1 s}
  - {name: sine, signal.U_ref.kind: sine, signal.U_ref.a: 10, signal.U_ref.f: 17.5 Hz}
outputs: {signals: [E_res, s_lift]}
EOF
"$HS" run search.yaml -b cpu -o cs.h5 --no-progress >cs.txt 2>&1 && ok || bad "cpu run of a cosim search: $(tail -3 cs.txt)"
HS_GPU_VERBOSE=1 "$HE" run search.yaml -b gpu -o gs.h5 --no-progress >gs.txt 2>&1 && ok || bad "gpu run of a cosim search: $(tail -3 gs.txt)"
grep -q '^gpu specialised: 32 instances' gs.txt && ! grep -q 'generic kernel' gs.txt && ok ||
  bad "cosim search: the specialised kernel runs: $(grep gpu gs.txt)"
same_datasets cs.h5 gs.h5 && ok || bad "cosim search: specialised gpu == cpu, every dataset"
"$HE" validate search.yaml --sample 32 -b gpu >vs.txt 2>&1 && ok || bad "validate the cosim search on the gpu: $(tail -5 vs.txt)"
# a swept enumeration: one specialised kernel per friction model, the cpu backend's results
sed 's/^parameters:/parameters:\n  cylinder.lift.friction.model: {values: [brown_mcphee, lugre]}/' "$SW" >enum.yaml
sed -i "s|^model: *\(.*\)|model: $(dirname "$SW")/\1|" enum.yaml
"$HS" run enum.yaml -b cpu -o ce.h5 --no-progress >ce.txt 2>&1 && ok || bad "cpu run of a swept enum: $(tail -3 ce.txt)"
HS_GPU_VERBOSE=1 "$HE" run enum.yaml -b gpu -o ge.h5 --no-progress >ge.txt 2>&1 && ok ||
  bad "gpu run of a swept enum: $(tail -3 ge.txt)"
[ "$(grep -c '^gpu specialised: ' ge.txt)" -ge 2 ] && ! grep -q 'generic' ge.txt && ok ||
  bad "a swept enumeration: one specialised kernel per structure: $(grep gpu ge.txt)"
same_datasets ce.h5 ge.h5 && ok || bad "kernels per structure == cpu, every dataset"
[ "$(attr g.h5 /backend)" = '"gpu"' ] && ok || bad "backend attribute: $(attr g.h5 /backend)"
[ "$(attr g.h5 /ensemble/quantiles_on)" = '"gpu (Thrust)"' ] && ok ||
  bad "quantiles computed with Thrust: $(attr g.h5 /ensemble/quantiles_on)"
[ "$(attr c.h5 /ensemble/quantiles_on)" = '"host"' ] && ok || bad "cpu run: quantiles on the host"
grep -q 'quantiles on gpu (Thrust)' gpu.txt && ok || bad "the table says where the quantiles were computed"

# several chunks per launch and small sub-batches: the same file
HS_GPU_BATCH=5 "$HE" run "$SW" -b gpu --batch 16 -o g2.h5 --no-progress >g2.txt 2>&1 &&
  same_datasets c.h5 g2.h5 && ok || bad "sub-batches of 5, 2 chunks per call: $(tail -3 g2.txt)"

HS_GPU_PATH=cublas "$HE" run "$SW" -b gpu -o b.h5 --no-progress >cub.txt 2>&1 && ok || bad "cublas run: $(tail -3 cub.txt)"
for d in /status /steps /params /instance; do
  h5diff -q c.h5 b.h5 $d $d >/dev/null 2>&1 && ok || bad "cublas: $d equal"
done
same_datasets c.h5 b.h5 close && ok || bad "cublas: every dataset within 1e-6 relative (E_balance 1e-7 J)"

"$HE" run "$SW" -b auto -n 8 -o a.h5 --no-progress >auto.txt 2>&1 && ok || bad "auto: $(tail -3 auto.txt)"
grep -qi 'auto.*gpu' auto.txt && ok || bad "auto says it picked the GPU: $(cat auto.txt)"

"$HE" validate "$SW" --sample 4 >val.txt 2>&1 && ok || bad "validate on the emulated GPU: $(tail -5 val.txt)"
grep -q 'gpu' val.txt && ok || bad "validate names the gpu backend: $(cat val.txt)"
# the other formulations on the emulated GPU against the reference backend: the singular-
# perturbation valve volume (sweeps/formulation_dt.yaml, instances 0, 3, 6, 9: lumped and
# singular perturbation at 0.5 and 3 ms: the formulation a per-instance value of the
# specialised kernel) and a nonholonomic constraint (the knife-edge pendulum)
"$HE" validate "$(dirname "$SW")/../../sweeps/formulation_dt.yaml" --sample 4 >val_sp.txt 2>&1 &&
  grep -q '^validate: passed' val_sp.txt && ok || bad "validate formulation_dt on the emulated GPU: $(tail -8 val_sp.txt)"
printf 'model: %s\ninstances: 8\nparameters:\n  body.skate.mass: {uniform: [1 kg, 3 kg]}\n' \
  "$(dirname "$SW")/../../models/knife_edge_pendulum.yaml" >ke.yaml
"$HE" validate ke.yaml --sample 4 >val_ke.txt 2>&1 && grep -q '^validate: passed' val_ke.txt && ok ||
  bad "validate the knife-edge pendulum on the emulated GPU: $(tail -8 val_ke.txt)"

# progress counted on the device, per instance: with asynchronous emulated kernels
# (HS_EMUL_ASYNC=1, as on a GPU: the launch returns, the host polls) the lines (stderr to a
# file: one per 10 %) come while the one launch of all 96 instances runs, from the counter
# the threads increment in mapped pinned memory; the results are unchanged
"$HS" run "$SW" -b cpu -n 96 -o c96.h5 --no-progress >/dev/null 2>&1 || bad "cpu run of 96"
for path in specialised; do
  HS_EMUL_ASYNC=1 HS_GPU_PATH=$path HS_GPU_VERBOSE=1 "$HE" run "$SW" -b gpu -n 96 -o pa_$path.h5 >pa_$path.out 2>pa_$path.err &&
    ok || bad "$path with progress: $(tail -3 pa_$path.err)"
  grep -q "^gpu $path: 96 instances" pa_$path.err && ok || bad "$path: one launch plan for the 96: $(grep '^gpu' pa_$path.err)"
  n=$(grep -c '^run: [0-9]*/96 instances' pa_$path.err)
  [ "$n" -ge 3 ] && tail -1 pa_$path.err | grep -q '^run: 96/96 instances' && ok ||
    bad "$path: progress lines while the kernel runs ($n): $(cat pa_$path.err)"
  same_datasets c96.h5 pa_$path.h5 && ok || bad "$path with progress == cpu, every dataset"
done
# SIGINT while a kernel runs: its threads start no further instance, the run exits 130 with
# the command that continues it (on this binary, with -b gpu and the options given), and
# that command finishes the file with the cpu backend's datasets
sed -e 's/t_end: 0.8 s/t_end: 6 s/' "$SW" >long.yaml
sed -i "s|^model: *\(.*\)|model: $(dirname "$SW")/\1|" long.yaml
"$HS" run long.yaml -b cpu -n 96 -o cl.h5 --no-progress >/dev/null 2>&1 || bad "cpu run of the longer sweep"
HS_EMUL_ASYNC=1 "$HE" run long.yaml -b gpu -n 96 --batch 16 -o gi.h5 >gi.out 2>gi.err &
pid=$!
for _ in $(seq 1000); do grep -q 'instances (' gi.err 2>/dev/null && break; sleep 0.01; done
kill -INT $pid
wait $pid
rc=$?
[ $rc -eq 130 ] && grep -q 'interrupted by SIGINT: gi.h5.part keeps [0-9]* of 96' gi.err && ok ||
  bad "SIGINT on the emulated GPU: exit 130, got $rc: $(cat gi.err)"
cmd=$(grep -A1 'to continue the run:' gi.err | tail -1 | sed 's/^  //')
case $cmd in
  *hydrosweep_gpu_emul" run "*long.yaml" -o gi.h5 --resume -b gpu -n 96 --batch 16") ok ;;
  *) bad "the command to continue: '$cmd'" ;;
esac
eval "$cmd" >gr.out 2>gr.err && same_datasets cl.h5 gi.h5 && ok ||
  bad "the printed command finishes the run == cpu: $(tail -3 gr.err)"

HS_GPU_PATH=warp "$HE" run "$SW" -b gpu -n 8 -o w.h5 --no-progress >warp.txt 2>&1; rc=$?
[ $rc -ne 0 ] && grep -q "unknown GPU path 'warp'" warp.txt && ok || bad "unknown HS_GPU_PATH: rc $rc $(cat warp.txt)"

finish cli_run_gpu_emul
