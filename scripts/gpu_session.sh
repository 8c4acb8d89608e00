#!/usr/bin/env bash
# One command for a lent GPU machine (DESIGN.md sect. 8): builds hydrosweep with CUDA, runs
# the gpu-labelled tests, the ensemble benchmark (both GPU paths: the specialised kernel with
# full and modified Newton and adaptive steps, and the batched cuBLAS path; the cpu backend
# beside them), the
# kernel figures of the canonical workload as ptxas reports them, optionally an Nsight Compute
# profile of the specialised kernel, then the rest of the test suite with the time left, and
# writes a report.
#
#   [HS_COMMIT=<commit>] scripts/gpu_session.sh [--quick] [--sizes 1000,10000,...]
#                                               [--backends LIST] [--cublas LIST]
#                                               [--cublas-sizes LIST] [--no-ncu]
# (--cublas and --cublas-sizes: the second pass, the batched cuBLAS path; the old names
# --generic and --generic-sizes still work)
#                                               [--deadline-s 480] [--no-bench] [--jobs N]
#
# The GPU machine has CUDA, CMake and Python but no package registry: the libraries come from
# the carried folder .devlibs/ (made here by scripts/fetch_devlibs.sh: Debian packages
# unpacked with dpkg -x); CPATH, LIBRARY_PATH, LD_LIBRARY_PATH, PKG_CONFIG_PATH and
# CMAKE_PREFIX_PATH point into it. Without .devlibs/ the system's libraries are used.
# Through the device tool, from the repository root here:
#   scripts/gpu_prepare.sh          # here, no GPU: .devlibs/, build-gpu/ and its caches, packed
#   run(command="tar -xJf .gpucarry.tar.xz && HS_COMMIT=<commit> bash scripts/gpu_session.sh",
#       carry=[".gpucarry.tar.xz"], timeout_s=560)
# (the device copy has no .git: the commit to record comes in HS_COMMIT).
# With build-gpu/HS_CARRY (gpu_prepare.sh's stamp) and its programs running there, the carried
# build is used as it is: no CMake, no compiler (the CUDA build would take minutes of the
# window), its NVRTC cache already holding the
# figures asked for below; when the carried build was made in another directory, that path is
# linked to this checkout so that ctest's absolute paths hold. It holds only the GPU test's
# program, so the last phase (the rest of the tests, which CI runs anyway) is skipped then.
# Without a carried build the session builds from nothing, as before (bare build).
#
# Output, in $OUT (the device tool's folder that comes back) or ./gpu-report when OUT is
# unset, at most 6 files (the tool brings back 8): report.md (machine, versions, test summaries,
# benchmark tables, kernel figures; written phase by phase, so a cut-off run still returns what
# it measured), the benchmark's <date>-ensemble-<device>.json/.md (the default path), which
# belong in bench/results/ once fetched, kernel.json, ncu.txt, and logs.tar.gz (build, tests,
# bench and the cuBLAS pass's own JSON/Markdown, cosim, search; packed at the end).
# Phases, most valuable first: the gpu-labelled tests; the default path (specialised kernel,
# full Newton), modified Newton and adaptive steps at 1e5 and 1e6 (and the cpu backend); the
# cuBLAS path at 1e5; the kernel figures; the Nsight Compute profile; then the validations
# of the models that never ran on a GPU, as time allows.
# Rehearsed here on the emulated device (2026-12-07, Intel Xeon, 2 cores, after the generic
# kernels were removed; gpu_prepare.sh 150 s, a carry of 13.6 MB; the carried build unpacked
# into a copy of the tree with its source path elsewhere; `PATH=<fake nvidia-smi>:$PATH
# HS_SESSION_EMUL=<CUDA build>/tests/hydrosweep_gpu_emul scripts/gpu_session.sh --sizes 1000
# --cublas-sizes 1000 --quick`; --cublas-sizes was then named --generic-sizes). Each report line
# ends with the session time it was written at. Without --cublas-sizes 1000 (the cuBLAS pass at its default 1e5 on the emulated device)
# that pass timed out at its 320 s budget and the session exited 1 in 433 s: the phases after it
# still ran (kernel figures from the carried cache at 331 s, cosim grid and search validated at
# 332 and 338 s, the branch pendulum's 16384 instances and their validation at 433 s). On a GPU
# those runs take seconds; there the benchmark's budget is what decides how far it gets.
# With --cublas-sizes 1000 every phase passed by 127 s: both bench passes by 10 s, figures,
# cosim grid and search validated at 15 s, the trees (16384 instances on the emulated device,
# 96 s) and the validations of the ball chain, components and excavator sweeps at 127 s.
# Again at 64df366 (host/tree, outputs.every; gpu_prepare.sh 121 s, carry 13.8 MB), with
# --sizes 1000 --cublas-sizes 1000 --quick: the same phases passed by 147 s (trees 105 s of
# them); the excavator's 32768 x 8 s run then took the rest of the emulated window and was
# stopped at the deadline (450 s); the session exited 0 in 450 s.
# Again at 3a3e9e8+ (the pilot and seat valves in the kernel headers; gpu_prepare.sh 121 s,
# carry 14.0 MB), the same command: the gpu-labelled test by 4 s, every phase through the
# excavator's validation by 138 s, the 32768 x 8 s run stopped at the deadline; exit 0 in 450 s.
# Again at e8492d1 (the run-and-report blocks as attempt(); knot, h_hyd-step and component
# plausibility rules in the kernels' headers; gpu_prepare.sh 411 s beside another build, carry
# 12 MiB), the same options: every phase passed by 234 s (trees 1024 + 64 instances validated
# at 221 s; ball chain, components, excavator validated by 234 s); the excavator's 32768 x 8 s
# run was stopped at the deadline and reported as such; the session exited 0 in 460 s.
# Again at c9c6726 (entrained air, pump droop, joint springs and payloads in the kernel headers;
# gpu_prepare.sh 202 s from a fresh copy, carry 14.3 MB), the same options and a fake nvidia-smi:
# the gpu-labelled test by 10 s, both bench passes by 20 s, every phase through the excavator's
# validation by 205 s, the 32768 x 8 s run stopped at the deadline; exit 0 in 450 s.
# --deadline-s bounds the whole session (a device command may run 600 s): the benchmark gets
# what the build and tests leave, and skips the sizes that would not fit.
# Exit status: 0 when the build and every test passed (benchmark sizes may be skipped).
set -uo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
T0=$(date +%s)
QUICK=0
NCU=1 # when ncu is there
# the benchmark in two passes, most valuable first (issue 29): the default path (specialised,
# full Newton), modified Newton and adaptive steps at these sizes, with the cpu backend beside
# them; then the library-backed alternative (the batched cuBLAS path) at CUBLAS_SIZES with what
# is left
BACKENDS=gpu,gpu_modified,gpu_adaptive,cpu
SIZES=100000,1000000
CUBLAS=gpu_cublas
CUBLAS_SIZES=100000
DEADLINE=480 # a device command may run 600 s; the machine's start and the transfers come on top
BENCH=1
JOBS=$(nproc)
while [ $# -gt 0 ]; do
    case "$1" in
    --quick) QUICK=1 ;;
    --sizes) SIZES=$2; shift ;;
    --backends) BACKENDS=$2; shift ;;
    --ncu) NCU=1 ;;
    --no-ncu) NCU=0 ;;
    --cublas|--generic) CUBLAS=$2; shift ;;
    --cublas-sizes|--generic-sizes) CUBLAS_SIZES=$2; shift ;;
    --deadline-s) DEADLINE=$2; shift ;;
    --no-bench) BENCH=0 ;;
    --jobs) JOBS=$2; shift ;;
    -h|--help) sed -n '2,/^# Rehearsed/p' "$0" | sed '$d'; exit 0 ;;
    *) echo "gpu_session: unknown option $1" >&2; exit 1 ;;
    esac
    shift
done
OUTDIR=${OUT:-$ROOT/gpu-report}
mkdir -p "$OUTDIR"
REPORT=$OUTDIR/report.md
# the device tool brings back at most 8 files: the report, the benchmark's JSON and Markdown, the
# kernel figures and the profile stay at the top; every log goes to LOGS, packed into
# logs.tar.gz at the end
LOGS=$OUTDIR/logs
mkdir -p "$LOGS"
BUILD=${HS_SESSION_BUILD:-build-gpu}
# the program of the GPU runs; a rehearsal here passes the emulated device's
# (tests/gpu_emul: HS_SESSION_EMUL=build/tests/hydrosweep_gpu_emul, a fake nvidia-smi on PATH)
HSG=${HS_SESSION_EMUL:-$BUILD/hydrosweep}
left() { echo $((DEADLINE - ($(date +%s) - T0))); }
# a run's time limit: what is left of --deadline-s less a margin, at least 5 s (timeout 0 would
# mean none, and a negative one is refused); the phases check left() before they start one
tmo() { local t=$(($(left) - $1)); [ "$t" -lt 5 ] && t=5; echo "$t"; }
say() { echo "$* [at $(($(date +%s) - T0)) s]" | tee -a "$REPORT"; } # each line with the session time it was written at
# attempt LABEL FAILED PATTERN MARGIN CMD...: CMD under `timeout -k 10 $(tmo MARGIN)`, into
# bench.log; says "- LABEL:" with the log's last line matching PATTERN (grep -E), else FAILED
# and the log's last two lines, and returns 1
attempt() {
    local label=$1 failed=$2 pat=$3 margin=$4
    shift 4
    if timeout -k 10 "$(tmo "$margin")" "$@" >>"$LOGS/bench.log" 2>&1; then
        say "- $label: $(grep -E "$pat" "$LOGS/bench.log" | tail -1)"
        return 0
    fi
    say "- $label: $failed ($(tail -2 "$LOGS/bench.log" | tr '\n' ' '))"
    return 1
}

# ---- environment: carried libraries ----
DEV=$ROOT/.devlibs
if [ -d "$DEV/usr" ]; then
    LIBS=$DEV/usr/lib/x86_64-linux-gnu:$DEV/lib/x86_64-linux-gnu:$DEV/usr/lib/x86_64-linux-gnu/hdf5/serial
    export CPATH=$DEV/usr/include:$DEV/usr/include/hdf5/serial${CPATH:+:$CPATH}
    export LIBRARY_PATH=$LIBS${LIBRARY_PATH:+:$LIBRARY_PATH}
    export LD_LIBRARY_PATH=$LIBS${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    export PKG_CONFIG_PATH=$DEV/usr/lib/x86_64-linux-gnu/pkgconfig:$DEV/usr/share/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
    export CMAKE_PREFIX_PATH=$DEV/usr${CMAKE_PREFIX_PATH:+:$CMAKE_PREFIX_PATH}
    # carried programs (pkgconf, the HDF5 tools of the CLI tests) after the machine's own
    export PATH=$PATH:$DEV/usr/bin
    DEVNOTE="libraries from .devlibs/ ($(wc -l <"$DEV/MANIFEST" 2>/dev/null || echo '?') Debian packages)"
else
    DEVNOTE="no .devlibs/: system libraries"
fi
NVCC=$(command -v nvcc || true)
[ -z "$NVCC" ] && [ -x /usr/local/cuda/bin/nvcc ] && NVCC=/usr/local/cuda/bin/nvcc
COMMIT=${HS_COMMIT:-$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)}

{
    echo "# GPU session report"
    echo
    echo "- date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "- commit: $COMMIT"
    echo "- host: $(uname -srm), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //') ($(nproc) cores)"
    echo "- $DEVNOTE"
    echo
    echo '```'
    nvidia-smi -L 2>&1
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv 2>&1
    echo "nvcc: ${NVCC:-none} $($NVCC --version 2>/dev/null | tail -1)"
    echo "cmake: $(cmake --version 2>/dev/null | head -1)"
    echo "cc: $(cc --version 2>/dev/null | head -1)"
    echo "python3: $(python3 --version 2>&1)"
    echo "pkg-config: $(command -v pkg-config) $(pkg-config --version 2>/dev/null)"
    echo '```'
    echo
} >"$REPORT"
cat "$REPORT"

# run-time builds of the specialised engines (NVRTC, the host compiler) go to one cache here
export HS_KERNEL_CACHE=$ROOT/$BUILD/kernel-cache

# ---- build: the carried one (scripts/gpu_prepare.sh) when it runs here, else from nothing ----
CARRIED=0
if [ -f "$BUILD/HS_CARRY" ] && [ -x "$BUILD/hydrosweep" ]; then
    src=$(sed -n 's/^source_dir=//p' "$BUILD/HS_CARRY")
    if [ -n "$src" ] && [ "$src" != "$ROOT" ] && [ ! -e "$src" ]; then
        # ctest's files and the build's paths name the directory it was made in
        mkdir -p "$(dirname "$src")" && ln -s "$ROOT" "$src" 2>/dev/null ||
            say "- carried build: could not link $src to $ROOT (ctest may not find its files)"
    fi
    if "$BUILD/hydrosweep" --version >"$LOGS/build.log" 2>&1; then
        CARRIED=1
        say "- build: carried ($(tr '\n' ' ' <"$BUILD/HS_CARRY"))"
        cc=$(sed -n 's/^commit=//p' "$BUILD/HS_CARRY")
        [ "${cc%-dirty}" = "$COMMIT" ] || say "- carried build: made at commit $cc, this session's is $COMMIT"
    else
        say "- carried build: does not run here ($(tail -1 "$LOGS/build.log")): building from nothing"
        # a trimmed build made elsewhere cannot be reconfigured: start afresh, keeping its cache
        [ -d "$BUILD/kernel-cache" ] && mv "$BUILD/kernel-cache" "$ROOT/.hs-kernel-cache-keep"
        rm -rf "$BUILD" && mkdir -p "$BUILD"
        [ -d "$ROOT/.hs-kernel-cache-keep" ] && mv "$ROOT/.hs-kernel-cache-keep" "$BUILD/kernel-cache"
    fi
fi
args=(-S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DHS_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90)
[ -n "$NVCC" ] && args+=(-DCMAKE_CUDA_COMPILER="$NVCC")
tb=$(date +%s)
if [ "$CARRIED" = 1 ]; then
    : # nothing to build
elif rm -f "$BUILD/HS_CARRY" && cmake "${args[@]}" >"$LOGS/build.log" 2>&1 &&
    cmake --build "$BUILD" -j"$JOBS" >>"$LOGS/build.log" 2>&1; then
    say "- build: ok in $(($(date +%s) - tb)) s ($BUILD, sm_90)"
    # where each dependency was found (.devlibs/ or the system), and whether cuBLAS was
    { echo '```'
      grep -E "^(CMAKE_CUDA_COMPILER|CUDA_cudart_LIBRARY|CUDA_cublas_LIBRARY|HDF5_C_INCLUDE_DIR|HDF5_hdf5_LIBRARY_RELEASE|HDF5_C_LIBRARY_hdf5|pkgcfg_lib_FYAML_fyaml|LAPACK_lapack_LIBRARY|SUNDIALS_IDA):" "$BUILD/CMakeCache.txt"
      grep -q "CUDA toolkit without cuBLAS" "$LOGS/build.log" && echo "(no cuBLAS: HS_GPU_PATH=cublas left out)"
      echo '```'; } >>"$REPORT"
else
    say "- build: FAILED (build.log):"
    { echo '```'; grep -E "error|Error" "$LOGS/build.log" | head -30; echo '```'; } | tee -a "$REPORT"
    exit 2
fi

# ---- tests ----
status=0
# per-test timeout: what is left of --deadline-s, at most 300 s
ctmo=$(($(left) - 60)); [ "$ctmo" -gt 300 ] && ctmo=300; [ "$ctmo" -lt 30 ] && ctmo=30
if [ -n "${HS_SESSION_EMUL:-}" ]; then
    gsel=(-R '^test_conformance_gpu_emul$') # the rehearsal: the same suite on the emulated device
else
    gsel=(-L gpu)
fi
gdir=$BUILD
# the emulated program's build (its tests/ holds the emulated twin of the GPU test)
[ -n "${HS_SESSION_EMUL:-}" ] && gdir=$(cd "$(dirname "$HS_SESSION_EMUL")/.." && pwd)
ctest --test-dir "$gdir" "${gsel[@]}" --output-on-failure --timeout "$ctmo" >"$LOGS/ctest-gpu.log" 2>&1 || status=1
say "- ctest ${gsel[*]}: $(grep -E 'tests passed|tests failed|No tests were found' "$LOGS/ctest-gpu.log" | tail -1)"
{ echo '```'; grep -E "^  |passed, .* failed|FAIL" "$LOGS/ctest-gpu.log" | head -40; echo '```'; } >>"$REPORT"
# ---- benchmark: the default path and its variants, then the cuBLAS path ----
bench_pass() { # LABEL OUTDIR BUDGET SIZES BACKENDS
    local bargs=(--build "$BUILD" --exe "$HSG" --sizes "$4" --backends "$5" --out "$2" --commit "$COMMIT"
                 --budget-s "$3" --max-run-s "$3")
    [ "$QUICK" = 1 ] && bargs+=(--quick)
    PYTHONUNBUFFERED=1 python3 bench/bench_ensemble.py "${bargs[@]}" >>"$LOGS/bench.log" 2>&1 || status=1
    say "- bench, $1 ($3 s budget): $(tail -1 "$LOGS/bench.log")"
    local md
    md=$(ls -t "$2"/*-ensemble-*.md 2>/dev/null | head -1)
    [ -n "$md" ] && { echo; sed -n '/^| backend/,$p' "$md"; echo; } >>"$REPORT"
}
if [ "$BENCH" = 1 ]; then
    budget=$(($(left) - 200)) # the cuBLAS pass, the kernel figures and the profile come after
    if [ "$budget" -lt 30 ]; then
        say "- bench: skipped, ${budget} s left of --deadline-s $DEADLINE"
    else
        bench_pass "default path ($BACKENDS at $SIZES)" "$OUTDIR" "$budget" "$SIZES" "$BACKENDS"
        budget=$(($(left) - 150))
        if [ -n "$CUBLAS" ] && [ "$budget" -ge 30 ]; then
            mkdir -p "$LOGS/cublas"
            bench_pass "cuBLAS path ($CUBLAS at $CUBLAS_SIZES; in logs/cublas)" "$LOGS/cublas" "$budget" \
                "$CUBLAS_SIZES" "$CUBLAS"
        fi
    fi
fi

# ---- kernel figures (ptxas, through NVRTC) of the canonical workload ----
if [ "$(left)" -gt 90 ]; then
    if timeout -k 10 "$(tmo 30)" "$BUILD/hydrosweep" kernel sweeps/friction_bulk_mc.yaml --json >"$OUTDIR/kernel.json" 2>&1; then
        say "- kernel figures (sweeps/friction_bulk_mc.yaml, sm_90): kernel.json"
        { echo '```'; cat "$OUTDIR/kernel.json"; echo '```'; } >>"$REPORT"
    else
        say "- kernel figures: failed or out of time ($(tail -1 "$OUTDIR/kernel.json"))"
    fi
fi

# ---- Nsight Compute profile of the specialised kernel (unless --no-ncu): 50688 instances, 0.3 s ----
if [ "$NCU" = 1 ] && ! command -v ncu >/dev/null; then
    say "- ncu: not on PATH (no profile)"
fi
if [ "$NCU" = 1 ] && command -v ncu >/dev/null && [ "$(left)" -gt 120 ]; then
    sed -e "s|^model: *\(\S*\)|model: $ROOT/sweeps/\1|" -e 's|^simulation:.*$|simulation: {t_end: 0.3 s, dt: 1 ms}|' \
        -e 's|^chunk:.*$|chunk: 50688|' sweeps/friction_bulk_mc.yaml >/tmp/hs-ncu-sweep.yaml
    if timeout -k 10 "$(tmo 60)" ncu --clock-control none --kernel-name hs_spec_kernel --launch-count 1 \
        --section SpeedOfLight --section Occupancy --section LaunchStats --section MemoryWorkloadAnalysis \
        --section ComputeWorkloadAnalysis "$HSG" run /tmp/hs-ncu-sweep.yaml -b gpu -n 50688 \
        -o /tmp/hs-ncu.h5 --no-progress >"$OUTDIR/ncu.txt" 2>&1; then
        say "- ncu (the specialised kernel, 50688 instances, 0.3 s): ncu.txt"
    else
        say "- ncu: failed (ncu.txt)"
    fi
    rm -f /tmp/hs-ncu-sweep.yaml /tmp/hs-ncu.h5 /tmp/hs-ncu.csv
fi

# ---- run a sweep on the specialised kernel, then validate a sample of it against the reference
# backend: run_validate LABEL SWEEP SAMPLE LOGNAME [analyze] ----
run_validate() {
    local h5=/tmp/hs-$4.h5 log=$LOGS/$4.log
    rm -f "$h5" "${h5%.h5}.csv"
    if timeout -k 10 "$(tmo 60)" "$HSG" run "$2" -b gpu -o "$h5" --no-progress >"$log" 2>&1 &&
        timeout -k 10 "$(tmo 30)" "$HSG" validate "$2" --sample "$3" -b gpu >>"$log" 2>&1; then
        say "- $1: $(grep -E '^run: [0-9]+ instances' "$log" | tail -1); $(grep '^validate:' "$log" | tail -1)"
        [ "${5:-}" = analyze ] && { "$BUILD/hydrosweep" analyze cosim "$h5" >>"$log" 2>&1 || true; }
    else
        status=1
        say "- $1: FAILED or out of time ($(tail -2 "$log" | tr '\n' ' '))"
    fi
    rm -f "$h5" "${h5%.h5}.csv"
}
# the co-simulation configurations (seed 004 Pub. III; kernels/hs_cosim.h): the grid of
# sweeps/cosim_configurations.yaml
[ "$(left)" -gt 90 ] && run_validate "cosim grid" sweeps/cosim_configurations.yaml 24 cosim
# the configuration search of Pub. III (sweeps/cosim_search_single.yaml, 5184 instances of 1 s:
# issue target 5 s on a GPU), and its table
[ "$(left)" -gt 90 ] && run_validate "cosim search" sweeps/cosim_search_single.yaml 48 search analyze

# ---- riccati (tree) ensembles on the tree kernel (kernels/hs_tree_kernel.cuh, never run on a
# GPU before): the branch pendulum's Monte Carlo (4 bodies, 2 s each) at 16384 instances, and
# the 500-body ball-jointed branch system (1024 instances of 10 ms), each timed against the cpu
# backend and validated against the reference backend; into bench.log ----
if [ "$(left)" -gt 120 ]; then
    cat >/tmp/hs-tree-bs.yaml <<EOF2
model: $PWD/models/branch_system_rui2020.yaml
instances: 1024
parameters:
  chain.left.w0.z: {uniform: [-0.5 rad/s, 0.5 rad/s]}
  chain.right.mass: {uniform: [0.9 kg, 1.1 kg]}
outputs: {signals: [E_kin, E_balance, b11.y]}
simulation: {t_end: 0.01 s}
EOF2
    for spec in "sweeps/branch_pendulum_mc.yaml 16384 16" "/tmp/hs-tree-bs.yaml 1024 4"; do
        set -- $spec
        [ "$(left)" -gt 60 ] || break
        for b in gpu cpu; do
            [ "$(left)" -gt 60 ] || break
            n=$2
            [ "$b" = cpu ] && n=$(($2 / 16))
            rm -f /tmp/hs-tree.h5 /tmp/hs-tree.csv
            attempt "tree $b $(basename "$1")" "FAILED or out of time" '^run: [0-9]+ instances' 30 \
                "$HSG" run "$1" -b $b -n $n -o /tmp/hs-tree.h5 --no-progress || status=1
        done
        [ "$(left)" -gt 40 ] || break
        attempt "tree validate $(basename "$1")" FAILED '^validate:' 20 "$HSG" validate "$1" --sample $3 -b gpu ||
            status=1
    done
    rm -f /tmp/hs-tree.h5 /tmp/hs-tree.csv
    "$BUILD/hydrosweep" kernel models/branch_system_rui2020.yaml >>"$LOGS/bench.log" 2>&1 || true
fi

# ---- a sweep that has never run on a GPU: validated on the specialised kernel against the
# reference backend (16 instances), and its kernel's figures; into bench.log ----
validate_on_gpu() { # NAME SWEEP
    attempt "$1 validate" FAILED '^validate:' 20 "$HSG" validate "$2" --sample 16 -b gpu || status=1
    "$BUILD/hydrosweep" kernel "$2" >>"$LOGS/bench.log" 2>&1 || true
}
# ball joints in the semi-recursive formulation (kernels/hs_rotvec.h)
[ "$(left)" -gt 60 ] && validate_on_gpu "ball chain" sweeps/ball_chain_mc.yaml
# the hydraulic components (kernels/hs_components.h): a pump, relief valve and accumulator
[ "$(left)" -gt 60 ] && validate_on_gpu components sweeps/crane_supply_mc.yaml
# the excavator front (three cylinders, a pressure-compensated pump): validated, then its
# throughput on 32768 instances of the 8 s cycle (2.6e8 instance-steps)
[ "$(left)" -gt 60 ] && validate_on_gpu excavator sweeps/excavator_mc.yaml
if [ "$(left)" -gt 90 ]; then
    attempt "excavator 32768 x 8 s" FAILED '^run: ' 30 \
        "$HSG" run sweeps/excavator_mc.yaml -b gpu -n 32768 -o /tmp/hs-exc.h5 --no-progress
    rm -f /tmp/hs-exc.h5 /tmp/hs-exc.csv
fi

# ---- the rest of the tests (the gpu ones ran above), in parallel, with the time left ----
ctmo=$(($(left) - 30)); [ "$ctmo" -gt 300 ] && ctmo=300
if [ "$CARRIED" = 1 ]; then
    say "- ctest -LE gpu: skipped (the carried build holds the GPU test only; CI runs the others)"
elif [ "$ctmo" -ge 30 ]; then
    ctest --test-dir "$BUILD" -LE gpu -j"$JOBS" --output-on-failure --timeout "$ctmo" >"$LOGS/ctest-all.log" 2>&1 || status=1
    say "- ctest -LE gpu: $(grep -E 'tests passed|tests failed' "$LOGS/ctest-all.log" | tail -1)"
    grep -A20 "The following tests FAILED" "$LOGS/ctest-all.log" >>"$REPORT" 2>/dev/null
else
    say "- ctest -LE gpu: skipped (out of time)"
fi
say "- session: $(($(date +%s) - T0)) s, exit $status"
# the logs as one file (the device tool brings back at most 8)
tar -czf "$OUTDIR/logs.tar.gz" -C "$OUTDIR" logs && rm -rf "$LOGS"
exit $status
