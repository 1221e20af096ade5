#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# weft convert on an OTF version 1 trace written by write_otf1: converted
# silently (given as NAME.otf), sound by `weft check`, and holding what
# write_otf1 wrote (check_converted; OTF1 has no lock records).
#
#   run_convert_otf1_test.sh WEFT WRITER CHECKER WORKDIR SCENARIO [WRITER OPTION...]
set -euo pipefail
weft=$1 writer=$2 checker=$3 work=$4 scenario=$5
shift 5
rm -rf "$work"
mkdir -p "$work"
"$writer" "$scenario" "$work/old" "$@"
"$weft" convert "$work/old.otf" "$work/trace" 2>"$work/stderr" || {
    cat "$work/stderr"; echo "weft convert failed"; exit 1; }
[ ! -s "$work/stderr" ] || { cat "$work/stderr"; echo "weft convert said something"; exit 1; }
"$weft" check "$work/trace"
metrics=()
for option in "$@"; do [ "$option" = --metrics ] && metrics=(--metrics); done
"$checker" "$work/trace/traces.otf2" "$scenario" --from-otf1 "${metrics[@]}"
