#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# `mpirun -np 2 weft run [OPTIONS] -o TRACE -- PROGRAM` as a user types it,
# with 2 OpenMP threads per rank: the program prints what it prints without
# weft (rank 0's line matching STDOUT_REGEX), the two ranks write one trace
# (no TRACE.1 beside it), which passes `trace_regions TRACE processes=2
# SPEC...` and `weft check`; the job's stderr matches STDERR_REGEX ("" for
# none at all).
#
#   run_mpirun.sh WEFT TRACE_REGIONS MPIEXEC WORKDIR STDOUT_REGEX STDERR_REGEX \
#       [OPTIONS...] -- PROGRAM -- SPEC...
set -euo pipefail
weft=$1 checker=$2 mpiexec=$3 work=$4 stdout_re=$5 stderr_re=$6
shift 6
options=()
while [ "$1" != "--" ]; do options+=("$1"); shift; done
program=$2
shift 3
rm -rf "$work"
mkdir -p "$work"
flags=()
if "$mpiexec" --version 2>/dev/null | grep -q 'Open MPI\|OpenRTE'; then
    flags+=(--oversubscribe)
    [ "$(id -u)" = 0 ] && flags+=(--allow-run-as-root)
fi
export OMP_NUM_THREADS=2
(cd "$work" && timeout 120 "$mpiexec" ${flags[@]+"${flags[@]}"} -np 2 "$weft" run \
    ${options[@]+"${options[@]}"} -o "$work/trace" -- "$program" >out 2>err) || {
    cat "$work/out" "$work/err"; echo "run_mpirun: the job failed"; exit 1; }
grep -Eq "$stdout_re" "$work/out" || {
    cat "$work/out"; echo "run_mpirun: no line matches '$stdout_re'"; exit 1; }
if [ -z "$stderr_re" ]; then
    [ -s "$work/err" ] && { cat "$work/err"; echo "run_mpirun: stderr is not empty"; exit 1; }
else
    grep -Eq "$stderr_re" "$work/err" || {
        cat "$work/err"; echo "run_mpirun: stderr does not match '$stderr_re'"; exit 1; }
fi
if [ -e "$work/trace.1" ]; then
    echo "run_mpirun: the ranks wrote separate traces (trace, trace.1)"; exit 1
fi
"$checker" "$work/trace/traces.otf2" processes=2 "$@"
"$weft" check "$work/trace" >"$work/check.out" || { cat "$work/check.out"; exit 1; }
