#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# One traced run of a small test program, checked region by region:
#
#   run_traced.sh WEFT TRACE_REGIONS WORKDIR THREADS MODE [OPTIONS...] \
#       -- COMPILER ARGS... -- SPEC...
#
# MODE compile: builds the program with `weft compile OPTIONS -- COMPILER
# ARGS -o program` and runs it; MODE run: builds it with `COMPILER ARGS`
# alone and runs it under `weft run OPTIONS`; MODE compile+run: builds it
# with weft compile OPTIONS and runs it under `weft run` too. Either way the same program
# built and run without weft must print the same, the trace must pass
# `trace_regions TRACE SPEC...` (see trace_regions.c) and `weft check`.
# OMP_NUM_THREADS is THREADS; WEFT_* variables of the caller pass through.
# WEFT_TEST_PRELOAD: a sanitizer runtime the traced program needs first.
# RUN_TRACED_ARGS: arguments of the program (words), in both runs.
# Writes WORKDIR/stderr (the traced run's); RUN_TRACED_STDERR, when set, is
# a regular expression (grep -E) it must match (RUN_TRACED_QUIET=1: it must
# be empty); RUN_TRACED_CHECK, one the
# first line of weft check's output must match.
set -euo pipefail
weft=$1 checker=$2 work=$3 threads=$4 mode=$5
shift 5
options=()
while [ "$1" != "--" ]; do options+=("$1"); shift; done
shift
build=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do build+=("$1"); shift; done
[ $# -gt 0 ] && shift
specs=("$@")
read -r -a args <<<"${RUN_TRACED_ARGS:-}"

rm -rf "$work"
mkdir -p "$work/plain" "$work/traced"
"${build[@]}" -o "$work/plain/program" 2>"$work/plain/build.log" || {
    cat "$work/plain/build.log"; echo "run_traced: the build without weft failed"; exit 1; }
export OMP_NUM_THREADS=$threads
(cd "$work/plain" && ./program ${args[@]+"${args[@]}"} >out)

if [ "$mode" = compile ] || [ "$mode" = compile+run ]; then
    (cd "$work/traced" && "$weft" compile ${options[@]+"${options[@]}"} -- "${build[@]}" \
        -o program) || { echo "run_traced: weft compile failed"; exit 1; }
    run=(./program ${args[@]+"${args[@]}"})
    [ "$mode" = compile+run ] && run=("$weft" run -- ./program ${args[@]+"${args[@]}"})
else
    cp "$work/plain/program" "$work/traced/program"
    run=("$weft" run ${options[@]+"${options[@]}"} -- ./program ${args[@]+"${args[@]}"})
fi
(cd "$work/traced" && WEFT_EXPERIMENT_DIRECTORY="$work/trace" \
    LD_PRELOAD="${WEFT_TEST_PRELOAD:-}" "${run[@]}" >out 2>"$work/stderr") || {
    cat "$work/stderr"; echo "run_traced: the traced program failed"; exit 1; }
if [ -n "${RUN_TRACED_STDERR:-}" ] && ! grep -Eq "$RUN_TRACED_STDERR" "$work/stderr"; then
    cat "$work/stderr"; echo "run_traced: stderr does not match '$RUN_TRACED_STDERR'"; exit 1
fi
if [ "${RUN_TRACED_QUIET:-}" = 1 ] && [ -s "$work/stderr" ]; then
    cat "$work/stderr"; echo "run_traced: the traced run wrote to stderr"; exit 1
fi
if ! cmp -s "$work/plain/out" "$work/traced/out"; then
    echo "run_traced: the traced program printed something else:"
    diff "$work/plain/out" "$work/traced/out" || true
    exit 1
fi
"$checker" "$work/trace/traces.otf2" "${specs[@]}"
"$weft" check "$work/trace" >"$work/check.out" || { cat "$work/check.out"; exit 1; }
if [ -n "${RUN_TRACED_CHECK:-}" ] && ! head -1 "$work/check.out" | grep -Eq "$RUN_TRACED_CHECK"; then
    cat "$work/check.out"; echo "run_traced: weft check's first line does not match '$RUN_TRACED_CHECK'"
    exit 1
fi
