#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# One POMP2 trace test: builds a program with `weft compile` and, for
# comparison, without it; runs both with OMP_NUM_THREADS threads; the
# outputs must be equal, and the trace must pass check_pomp_trace and
# `weft check`.
#
#   run_pomp_test.sh WEFT CHECKER WORKDIR KIND THREADS SOURCE[,SECOND] -- COMPILER ARGS...
# ARGS holds the sources and flags; compilation steps separated by "::"
# (e.g. "-c a.c :: -c b.c :: a.o b.o") run one after the other, and the
# last step must link (the script adds -o).
set -euo pipefail
weft=$1 checker=$2 work=$3 kind=$4 threads=$5 source=$6
shift 6
[ "$1" = "--" ] && shift
compiler=$1
shift

rm -rf "$work"
mkdir -p "$work/traced" "$work/plain"

# Runs the compile steps in directory $1 with the command prefix in $2...
build() {
    local dir=$1
    shift
    local -a prefix=("$@") step=()
    for arg in "${args[@]}" "::"; do
        if [ "$arg" = "::" ]; then
            [ ${#step[@]} -gt 0 ] && (cd "$dir" && "${prefix[@]}" "${step[@]}")
            step=()
        else
            step+=("$arg")
        fi
    done
}
args=("$@")
args+=(-o program)
build "$work/plain" "$compiler" 2>"$work/plain/build.log" || {
    cat "$work/plain/build.log"; echo "the uninstrumented build failed"; exit 1; }
build "$work/traced" "$weft" compile -- "$compiler"

export OMP_NUM_THREADS=$threads
"$work/plain/program" >"$work/plain/out"
# WEFT_TEST_PRELOAD: a sanitizer build's runtime, which libweft needs first.
WEFT_EXPERIMENT_DIRECTORY="$work/trace" LD_PRELOAD="${WEFT_TEST_PRELOAD:-}" \
    "$work/traced/program" >"$work/traced/out"
if ! cmp -s "$work/plain/out" "$work/traced/out"; then
    echo "the traced program printed something else:"
    diff "$work/plain/out" "$work/traced/out" || true
    exit 1
fi
IFS=, read -ra sources <<<"$source"
"$checker" "$work/trace/traces.otf2" "${sources[0]}" "$threads" "$kind" "${sources[@]:1}"
# weft check must find the trace sound.
"$weft" check "$work/trace" >"$work/check.out" || { cat "$work/check.out"; exit 1; }
