#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Untied tasks kept untied by `weft compile --keep-untied` on LLVM's libomp,
# which moves them between threads; POMP2 cannot follow a moving task:
#
#   run_keep_untied.sh WEFT WORKDIR CLANG SOURCE
#
# The program built with --keep-untied must compute what it computes
# without weft and say once on stderr that an untied task moved (4 threads;
# SOURCE's 200 untied tasks yield 4 times each, and some moved in each of
# the runs tried); built the
# default way (OPARI2 makes the tasks tied) it must not say so, and its
# trace must be sound.
set -euo pipefail
weft=$1 work=$2 clang=$3 source=$4
rm -rf "$work"
mkdir -p "$work"
cd "$work"
"$clang" -fopenmp -O1 "$source" -o plain
"$weft" compile --keep-untied -- "$clang" -fopenmp -g -O1 "$source" -o kept
"$weft" compile -- "$clang" -fopenmp -g -O1 "$source" -o tied
export OMP_NUM_THREADS=4
./plain >plain.out
WEFT_EXPERIMENT_DIRECTORY="$work/kept-trace" ./kept >kept.out 2>kept.err
WEFT_EXPERIMENT_DIRECTORY="$work/tied-trace" ./tied >tied.out 2>tied.err
cmp plain.out kept.out && cmp plain.out tied.out
said="an untied task went on on another thread than the one it began on"
count=$(grep -c "$said" kept.err || true)
if [ "$count" != 1 ]; then
    cat kept.err; echo "run_keep_untied: the --keep-untied run said it $count times, not once"
    exit 1
fi
if grep -q "$said" tied.err; then
    cat tied.err; echo "run_keep_untied: the run with tied tasks said it too"; exit 1
fi
"$weft" check "$work/tied-trace" >check.out || { cat check.out; exit 1; }
