#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# RUNS jobs of RANKS ranks whose last calls MPI_Abort while the others wait
# in MPI_Barrier (abort_in_barrier.c), with mpirun's default kill timeout:
# Open MPI ends the others with SIGTERM and sends SIGKILL to the node's
# ranks still alive as soon as one has ended, which cut off ranks still
# writing their part (recorder/part_gate.h). Every run's `weft recover` must
# find every rank's part ("killed?" is a rank that never wrote it).
#
#   run_abort_race.sh MPIEXEC WEFT PROGRAM WORKDIR RANKS RUNS
set -uo pipefail
mpiexec=$1 weft=$2 program=$3 work=$4 ranks=$5 runs=$6
"$mpiexec" --version 2>&1 | grep -qE 'Open MPI|OpenRTE' || { echo "not Open MPI: skipped"; exit 0; }
rm -rf "$work"
mkdir -p "$work"
for run in $(seq "$runs"); do
    trace=$work/trace$run
    timeout --kill-after=10 60 "$mpiexec" -np "$ranks" --allow-run-as-root --oversubscribe \
        "$weft" run -o "$trace" -- "$program" >"$work/run$run.log" 2>&1
    status=$?
    [ $status -ne 124 ] || { cat "$work/run$run.log"; echo "run $run: the job hung"; exit 1; }
    marks=$(ls "$trace/journal" | grep -c '\.written$')
    "$weft" recover "$trace" >"$work/recover$run.out" 2>&1
    if grep -q 'killed?' "$work/recover$run.out" || [ "$marks" -ne "$ranks" ]; then
        cat "$work/run$run.log" "$work/recover$run.out"
        echo "run $run: $marks of $ranks ranks wrote their part"
        exit 1
    fi
done
echo "$runs runs, every rank's part written in each"
