#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# One MPI trace test: (optionally builds the program,) runs it under mpirun
# with N ranks and WEFT_EXPERIMENT_DIRECTORY set, then checks the trace: it
# must load in otf2-print (when installed) and pass check_mpi_trace.
#
#   run_mpi_test.sh MPIEXEC CHECKER WORKDIR SCENARIO RANKS SOURCE PROGRAM [-- BUILD...]
#
# SOURCE is the program's source for the checker ("-" for none). With
# "-- BUILD...", the command BUILD... -o PROGRAM runs in WORKDIR/build first
# (the hybrid program is built with `weft compile` this way). WEFT_* and
# OMP_* variables of the environment reach every rank; WEFT_TEST_PRELOAD (a
# sanitizer runtime) is preloaded into the ranks only. MPI_TEST_LAUNCHER, when
# set, is a command (words split at blanks) each rank runs PROGRAM through,
# e.g. "weft run --": the program is traced unmodified. TEST_WEFT_CLI, when
# set, names the weft command, whose `weft check` must pass the trace.
set -euo pipefail
mpiexec=$1 checker=$2 work=$3 scenario=$4 ranks=$5 source=$6 program=$7
shift 7

rm -rf "$work"
mkdir -p "$work/counts"
if [ $# -gt 0 ] && [ "$1" = "--" ]; then
    shift
    mkdir -p "$work/build"
    (cd "$work/build" && "$@" -o "$program") >"$work/build.log" 2>&1 || {
        cat "$work/build.log"
        echo "run_mpi_test: building the program failed: $*"
        exit 1
    }
fi

export WEFT_EXPERIMENT_DIRECTORY="$work/trace"
# Open MPI's mpirun forwards only the variables named with -x and wants
# --allow-run-as-root as root; MPICH's (Hydra) forwards the whole
# environment and knows neither option.
forward=()
if "$mpiexec" --version 2>&1 | grep -qE 'Open MPI|OpenRTE'; then
    forward+=(--allow-run-as-root --oversubscribe --bind-to none)
    for name in $(compgen -e); do
        case $name in WEFT_* | OMP_*) forward+=(-x "$name") ;; esac
    done
    if [ -n "${WEFT_TEST_PRELOAD:-}" ]; then
        forward+=(-x "LD_PRELOAD=$WEFT_TEST_PRELOAD")
    fi
elif [ -n "${WEFT_TEST_PRELOAD:-}" ]; then
    forward+=(-genv LD_PRELOAD "$WEFT_TEST_PRELOAD")
fi

launcher=()
[ -n "${MPI_TEST_LAUNCHER:-}" ] && read -ra launcher <<<"$MPI_TEST_LAUNCHER"
status=0
timeout --kill-after=10 "${MPI_TEST_RUN_TIMEOUT:-90}" \
    "$mpiexec" -np "$ranks" "${forward[@]}" \
    "${launcher[@]}" "$program" "$work/counts" >"$work/run.log" 2>&1 || status=$?
if [ "$status" -ne 0 ]; then
    cat "$work/run.log"
    echo "run_mpi_test: the program failed under mpirun (exit status $status)"
    exit 1
fi
if [ -s "$work/run.log" ]; then
    echo "run_mpi_test: output of the run:"
    cat "$work/run.log"
fi

trace="$work/trace/traces.otf2"
if [ ! -f "$trace" ]; then
    echo "run_mpi_test: no trace at $trace"
    ls -la "$work" "$work/trace" 2>/dev/null || true
    exit 1
fi
result=0
if command -v otf2-print >/dev/null 2>&1; then
    if ! otf2-print "$trace" >"$work/otf2-print.txt" 2>&1; then
        tail -n 5 "$work/otf2-print.txt"
        echo "run_mpi_test: otf2-print cannot read the trace"
        result=1
    fi
fi
[ "$source" = "-" ] && source_arg=() || source_arg=("$source")
"$checker" "$trace" "$scenario" "$ranks" "$work/counts" "${source_arg[@]}" || result=1
# TEST_WEFT_CLI, when set, is the weft command: `weft check` must find the trace sound;
# TEST_WEFT_CHECK_NOTE, when set, a regular expression one of its note lines must match.
if [ -n "${TEST_WEFT_CLI:-}" ] && ! "$TEST_WEFT_CLI" check "$trace" >"$work/check.out"; then
    cat "$work/check.out"
    result=1
fi
if [ -n "${TEST_WEFT_CHECK_NOTE:-}" ] &&
    ! grep -E "^weft check: note: " "$work/check.out" | grep -Eq "$TEST_WEFT_CHECK_NOTE"; then
    cat "$work/check.out"
    echo "run_mpi_test: no note of weft check matches '$TEST_WEFT_CHECK_NOTE'"
    result=1
fi
exit $result
