#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# A program that ends by a signal while both threads are inside OpenMP tasks
# (signal_in_task.c). Every region must be closed in the task that entered
# it (Scalasca's analyzer keeps each task's regions apart; weft check says
# so otherwise), after switches back to the implicit tasks:
#   TERM  weft's signal rescue closes them; the trace is sound;
#   KILL  nothing is written at the end; weft recover closes them where
#         each thread's events end; the trace is "recovered with losses"
#         and reports no problem.
#
#   run_signal_in_task.sh WEFT CLANG SOURCE WORKDIR TERM|KILL
set -euo pipefail
weft=$1 clang=$2 source=$3 work=$4 signal=$5
rm -rf "$work"
mkdir -p "$work"
cd "$work"
"$clang" -fopenmp -O1 -g "$source" -o program
expected=143 warmup=0
if [ "$signal" = KILL ]; then
    expected=137 warmup=300000
fi
status=0
WEFT_EXPERIMENT_DIRECTORY=trace WEFT_BUFFER_SIZE=256K OMP_NUM_THREADS=2 \
    timeout 60 "$weft" run -- ./program "$signal" "$warmup" >out 2>err || status=$?
if [ "$status" -ne "$expected" ]; then
    echo "run_signal_in_task: exit status $status, not $expected"; cat err; exit 1
fi
if [ "$signal" = KILL ]; then
    "$weft" recover trace >recover.txt 2>&1 || { cat recover.txt; exit 1; }
    status=0
    "$weft" check trace >check.txt || status=$?
    if [ "$status" -ne 1 ] || ! tail -1 check.txt | grep -q '^weft check: recovered with losses: '; then
        echo "run_signal_in_task: weft check of the recovered trace:"; cat check.txt; exit 1
    fi
else
    "$weft" check trace >check.txt || { cat check.txt; exit 1; }
fi
# The closing's switches back to an implicit task (generation 0): at least
# one per thread that was inside a task where its events end.
switches=$(otf2-print trace/traces.otf2 | grep -c '^THREAD_TASK_SWITCH .*Generation Number: 0$' || true)
if [ "$switches" -lt 1 ]; then
    echo "run_signal_in_task: no switch back to an implicit task"
    otf2-print trace/traces.otf2 | tail -30
    exit 1
fi
tail -1 check.txt
