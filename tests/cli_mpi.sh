#!/usr/bin/env bash
# cli_mpi.sh -- `mpirun -n 2 hydrosweep run` on the cpu backend: the ranks run the shards and
# rank 0 merges them into the file one run writes (h5diff: equal in every dataset and
# attribute; the CSV byte for byte), leaving no pieces; an MPI run stopped after its first
# chunks (--stop-after) keeps its pieces and the same command with --resume finishes it, equal
# to one run again; --shard under mpirun is refused with the reason.
# Usage: cli_mpi.sh PATH/TO/hydrosweep   (from the repository root)
# Exit 77 (skipped) without mpirun or when this hydrosweep was built without MPI
# (apt-get install libopenmpi-dev openmpi-bin; scripts/install-deps.sh installs them).
set -u
HS=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
ROOT=$(pwd)
if ! command -v mpirun >/dev/null 2>&1 || ! "$HS" --version | grep -q "^mpi: yes"; then
  echo "cli_mpi: SKIPPED: no mpirun, or hydrosweep built without MPI ($("$HS" --version | grep mpi))"
  exit 77
fi
. "$(dirname "${BASH_SOURCE[0]}")/lib_cli.sh"
cd "$tmp" || exit 1
# OpenMPI in a container, as CI runs it: as root, more ranks than cores, no process binding
# (each rank sees the machine's cores, as one run does: the file's device attribute counts
# them), no cross-memory attach between the ranks; its own allocations are no leaks of ours
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
MPI=(mpirun -n 2 --oversubscribe --bind-to none)
SW=$ROOT/tests/data/sweep_python.yaml

"$HS" run "$SW" -b cpu --threads 1 -o one.h5 --no-progress >one.log 2>&1 || { cat one.log; exit 1; }
timeout 300 "${MPI[@]}" "$HS" run "$SW" -b cpu --threads 1 -o m.h5 --no-progress >m.log 2>&1
rc=$?
[ $rc -eq 0 ] && grep -q "2 MPI ranks, their pieces merged into m.h5" m.log && ok || bad "mpirun run: rc $rc: $(tail -3 m.log)"
h5diff -q one.h5 m.h5 >/dev/null 2>&1 && ok || bad "merged MPI run == one run (h5diff: $(h5diff one.h5 m.h5 2>&1 | tail -2))"
cmp -s one.csv m.csv && ok || bad "merged CSV == one run's CSV"
[ -z "$(ls m.h5.rank* 2>/dev/null)" ] && ok || bad "the pieces are removed: $(ls m.h5.rank*)"
[ "$(grep -c "ensemble:" m.log)" -eq 1 ] && ok || bad "one summary (rank 0's), not one per rank: $(grep -c "ensemble:" m.log)"

# stopped after one chunk per rank, then resumed
timeout 300 "${MPI[@]}" "$HS" run "$SW" -b cpu --threads 1 -o r.h5 --no-progress --stop-after 1 >r1.log 2>&1
rc=$?
[ $rc -eq 0 ] && grep -q "stopped before the end" r1.log && [ -e r.h5.rank0-of-2.h5.part ] && [ -e r.h5.rank1-of-2.h5.part ] &&
  [ ! -e r.h5 ] && ok || bad "stopped MPI run keeps its pieces: rc $rc: $(tail -2 r1.log); $(ls)"
timeout 300 "${MPI[@]}" "$HS" run "$SW" -b cpu --threads 1 -o r.h5 --no-progress --resume >r2.log 2>&1
rc=$?
[ $rc -eq 0 ] && h5diff -q one.h5 r.h5 >/dev/null 2>&1 && [ -z "$(ls r.h5.rank* 2>/dev/null)" ] && ok ||
  bad "resumed MPI run == one run: rc $rc: $(tail -3 r2.log)"

# --shard does not mix with mpirun
timeout 300 "${MPI[@]}" "$HS" run "$SW" -b cpu --threads 1 -o x.h5 --no-progress --shard 0/2 >x.log 2>&1
rc=$?
[ $rc -ne 0 ] && grep -q "shard and mpirun do not mix" x.log && [ ! -e x.h5 ] && ok || bad "--shard under mpirun: rc $rc: $(tail -2 x.log)"

finish cli_mpi
