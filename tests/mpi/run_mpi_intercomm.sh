#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# mpi_intercomm.c's scenario (intercomm: 4 ranks; spawn: 2 ranks spawning 2)
# traced: weft check finds every trace sound, the intercommunicator's
# calls are there as regions, and its message and collective are not
# recorded as message or collective records (pmpi_comms.c says why), nor
# is the collective on the communicator merged with spawned processes,
# while MPI_COMM_WORLD's are: one send and one receive per rank (the
# Sendrecv), one MPI_Allreduce per rank.
#
#   run_mpi_intercomm.sh MPIEXEC WEFT PROGRAM WORKDIR intercomm|spawn
set -uo pipefail
mpiexec=$1 weft=$2 program=$3 work=$4 mode=$5
rm -rf "$work"
mkdir -p "$work"
export WEFT_EXPERIMENT_DIRECTORY="$work/trace"
forward=()
if "$mpiexec" --version 2>&1 | grep -qE 'Open MPI|OpenRTE'; then
    forward+=(--allow-run-as-root --oversubscribe -x WEFT_EXPERIMENT_DIRECTORY)
elif [ "$mode" = spawn ]; then
    # MPICH 4.0's Hydra on this machine fails MPI_Comm_spawn ("Error in
    # spawn call") with or without weft.
    echo "skipped: MPI_Comm_spawn is tested with Open MPI only"
    exit 77
fi
ranks=4 children=0
[ "$mode" = spawn ] && ranks=2 children=2
timeout 120 "$mpiexec" -np "$ranks" "${forward[@]}" "$program" "$mode" >"$work/out" 2>"$work/err" ||
    { cat "$work/out" "$work/err"; echo "the job failed"; exit 1; }
[ "$(grep -c '^rank ' "$work/out")" -eq $((ranks + children)) ] ||
    { cat "$work/out"; echo "not every process printed"; exit 1; }

# count TRACE RECORD: how many such records (otf2-print's first column)
count() { awk -v k="$2" '$1 == k {n++} END {print n + 0}' <<<"$1"; }
# enters TRACE REGION: how many ENTER records of that region
enters() { awk -v r="\"$2\"" '$1 == "ENTER" && index($0, r) {n++} END {print n + 0}' <<<"$1"; }
check() {
    local dir=$1 procs=$2 inter_send=$3 inter_recv=$4 inter_coll=$5 print
    "$weft" check "$dir" >"$work/check.out" || { cat "$work/check.out"; echo "FAIL: $dir not sound"; exit 1; }
    print=$(otf2-print "$dir/traces.otf2") || { echo "FAIL: otf2-print $dir"; exit 1; }
    local want got
    for pair in "MPI_SEND $procs" "MPI_RECV $procs" "MPI_COLLECTIVE_END $procs"; do
        set -- $pair
        got=$(count "$print" "$1")
        [ "$got" -eq "$2" ] || { echo "FAIL: $dir: $got $1 records, expected $2 (MPI_COMM_WORLD's only)"; exit 1; }
    done
    for pair in "MPI_Send $inter_send" "MPI_Recv $inter_recv" "$inter_coll"; do
        set -- $pair
        got=$(enters "$print" "$1")
        [ "$got" -eq "$2" ] || { echo "FAIL: $dir: $got enters of $1, expected $2"; exit 1; }
    done
    echo "$dir: sound; MPI_COMM_WORLD's messages and collectives recorded, the intercommunicator's as regions"
}
if [ "$mode" = intercomm ]; then
    check "$work/trace" 4 2 2 "MPI_Barrier 4"
else
    # The children are a job of their own: their trace is DIR.1.
    check "$work/trace" 2 1 0 "MPI_Allreduce 4"
    check "$work/trace.1" 2 0 1 "MPI_Allreduce 4"
fi
echo "run_mpi_intercomm: ok"
