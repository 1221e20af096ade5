#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Threads the program makes, each forking a team of its own, through POMP2
# (weft compile): POMP2 cannot tell their teams apart, so the run says so in
# one line on stderr (the trace may or may not be sound, by how the runtime
# hands its threads out):
#
#   run_root_threads_pomp2.sh WEFT WORKDIR SOURCE
#
# The program must compute what it computes without weft and say it once;
# a program whose forks all come from one thread (thread_forks.c, beside
# SOURCE) must not say it.
set -euo pipefail
weft=$1 work=$2 source=$3
rm -rf "$work"
mkdir -p "$work"
cd "$work"
gcc -fopenmp -O1 -pthread "$source" -o plain
"$weft" compile -- gcc -fopenmp -O1 -pthread "$source" -o traced
"$weft" compile -- gcc -fopenmp -O1 -pthread "$(dirname "$source")/thread_forks.c" -o one_root
export OMP_NUM_THREADS=2
./plain >plain.out
WEFT_EXPERIMENT_DIRECTORY="$work/trace" ./traced >traced.out 2>traced.err
WEFT_EXPERIMENT_DIRECTORY="$work/one-trace" ./one_root >one.out 2>one.err
cmp plain.out traced.out
said="^weft: OpenMP teams are forked by more than one thread outside any team"
count=$(grep -c "$said" traced.err || true)
if [ "$count" != 1 ] || [ "$(wc -l <traced.err)" != 1 ]; then
    cat traced.err; echo "run_root_threads_pomp2: said $count times, not once (alone)"; exit 1
fi
if [ -s one.err ]; then
    cat one.err; echo "run_root_threads_pomp2: a program with one forking thread said something"
    exit 1
fi
