#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# exit() from a worker thread inside an OpenMP parallel region, while the
# master waits in the region's barrier (docs/FAULTS.md): the program ends
# with its own status 0, and the trace is sound (before, the master's fork
# had no join). Traced through POMP2 (`weft compile`) or OMPT (`weft run`).
#
#   run_exit_in_parallel.sh WEFT compile|run COMPILER SOURCE WORKDIR
set -uo pipefail
weft=$1 how=$2 compiler=$3 source=$4 work=$5
rm -rf "$work"
mkdir -p "$work"
if [ "$how" = compile ]; then
    (cd "$work" && "$weft" compile -- "$compiler" -fopenmp -O1 "$source" -o program) \
        >"$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
    run=("$work/program")
else
    (cd "$work" && "$compiler" -fopenmp -g -O1 "$source" -o program) \
        >"$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
    run=("$weft" run -- "$work/program")
fi
WEFT_EXPERIMENT_DIRECTORY="$work/trace" LD_PRELOAD="${WEFT_TEST_PRELOAD:-}" \
    timeout 60 "${run[@]}" >"$work/out" 2>"$work/err"
status=$?
cat "$work/out" "$work/err"
[ $status -eq 0 ] || { echo "the program ended with status $status, not its own 0"; exit 1; }
grep -q "thread 1 ends the program" "$work/out" || { echo "the program did not run"; exit 1; }
"$weft" check "$work/trace" || exit 1
forks=$(otf2-print "$work/trace/traces.otf2" | grep -c '^THREAD_FORK')
joins=$(otf2-print "$work/trace/traces.otf2" | grep -c '^THREAD_JOIN')
[ "$forks" -eq 1 ] && [ "$joins" -eq 1 ] || { echo "$forks forks, $joins joins"; exit 1; }
