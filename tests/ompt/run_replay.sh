#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# One replayed callback sequence (replay_schedule.c), its trace checked:
#
#   run_replay.sh WEFT TRACE_REGIONS WORKDIR REPLAY SCENARIO -- SPEC...
#
# The trace must pass `trace_regions TRACE SPEC...` and `weft check`.
set -euo pipefail
weft=$1 checker=$2 work=$3 replay=$4 scenario=$5
shift 5
[ "${1:-}" = "--" ] && shift
rm -rf "$work"
mkdir -p "$work"
WEFT_EXPERIMENT_DIRECTORY="$work/trace" "$replay" "$scenario" 2>"$work/stderr" || {
    cat "$work/stderr"; echo "run_replay: $scenario failed"; exit 1; }
"$checker" "$work/trace/traces.otf2" "$@"
"$weft" check "$work/trace" >"$work/check.out" || { cat "$work/check.out"; exit 1; }
