#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# A program that ends by a signal while both threads are inside OpenMP tasks
# (signal_in_task.c): the trace must be sound, which includes every region
# being left in the task that entered it (Scalasca's analyzer keeps each
# task's regions apart), and both threads' tasks switched back to their
# implicit tasks for the closing.
#
#   run_signal_in_task.sh WEFT CLANG SOURCE WORKDIR
set -euo pipefail
weft=$1 clang=$2 source=$3 work=$4
rm -rf "$work"
mkdir -p "$work"
cd "$work"
"$clang" -fopenmp -O1 -g "$source" -o program
status=0
WEFT_EXPERIMENT_DIRECTORY=trace OMP_NUM_THREADS=2 timeout 60 "$weft" run -- ./program \
    >out 2>err || status=$?
if [ "$status" -ne 143 ]; then
    echo "run_signal_in_task: exit status $status, not 143 (SIGTERM)"; cat err; exit 1
fi
"$weft" check trace >check.txt || { cat check.txt; exit 1; }
# The closing's switches: one per thread, back to its implicit task
# (generation 0) after leaving its task's region.
switches=$(otf2-print trace/traces.otf2 | grep -c '^THREAD_TASK_SWITCH .*Generation Number: 0$' || true)
if [ "$switches" -lt 2 ]; then
    echo "run_signal_in_task: $switches switches back to an implicit task, expected 2 or more"
    otf2-print trace/traces.otf2 | tail -30
    exit 1
fi
tail -1 check.txt
