#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# One OMPT trace test: builds an unmodified OpenMP program, runs it with
# OMP_NUM_THREADS threads once untraced and once under `weft run`; the
# outputs must be equal, and the trace must pass check_pomp_trace (the same
# checker as the POMP2 tests, with the OMPT expectation table KIND), and
# `weft check` must find it sound.
#
#   run_ompt_test.sh WEFT CHECKER WORKDIR KIND THREADS SOURCE [RUN_OPTION...] -- COMPILER ARGS...
# RUN_OPTIONs go to `weft run` (e.g. --openmp-runtime=llvm); the script adds
# -o program to the compile command.
set -euo pipefail
weft=$1 checker=$2 work=$3 kind=$4 threads=$5 source=$6
shift 6
run_options=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
    run_options+=("$1")
    shift
done
[ "${1:-}" = "--" ] && shift

rm -rf "$work"
mkdir -p "$work"
(cd "$work" && "$@" -o program) 2>"$work/build.log" || {
    cat "$work/build.log"; echo "building the test program failed"; exit 1; }

export OMP_NUM_THREADS=$threads
# The program's output does not depend on the thread count or the runtime.
"$work/program" >"$work/plain.out"
"$weft" run -o "$work/trace" "${run_options[@]}" -- "$work/program" >"$work/traced.out" \
    2>"$work/run.log" || { cat "$work/run.log"; echo "weft run failed"; exit 1; }
if ! cmp -s "$work/plain.out" "$work/traced.out"; then
    echo "the traced program printed something else:"
    diff "$work/plain.out" "$work/traced.out" || true
    exit 1
fi
"$checker" "$work/trace/traces.otf2" "$source" "$threads" "$kind"
# weft check must find the trace sound.
"$weft" check "$work/trace" >"$work/check.out" || { cat "$work/check.out"; exit 1; }
