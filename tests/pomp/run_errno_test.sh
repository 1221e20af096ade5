#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# errno set before a program's first OpenMP constructs is what it sees after
# them when traced through POMP2 (docs/FAULTS.md), also when the filter file
# is missing (the program exits 5 and says where errno changed otherwise).
#
#   run_errno_test.sh WEFT SOURCE WORKDIR
set -uo pipefail
weft=$1 source=$2 work=$3
rm -rf "$work"
mkdir -p "$work"
(cd "$work" && "$weft" compile -- gcc -fopenmp -O1 "$source" -o program) >"$work/build.log" 2>&1 ||
    { cat "$work/build.log"; exit 1; }
unset WEFT_FILTERING_FILE
for filter in none /nonexistent/filter; do
    rm -rf "$work/trace"
    filter_var=()
    [ "$filter" = none ] || filter_var=("WEFT_FILTERING_FILE=$filter")
    env "${filter_var[@]}" WEFT_EXPERIMENT_DIRECTORY="$work/trace" \
        LD_PRELOAD="${WEFT_TEST_PRELOAD:-}" OMP_NUM_THREADS=2 "$work/program" ||
        { echo "errno changed (filter file: $filter)"; exit 1; }
    "$weft" check "$work/trace" || exit 1
done
