#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# One run in two renderings: write_epilog's EPILOG trace of SCENARIO, and
# write_otf1's rendering of it as Scalasca 1.x's elg2otf writes it
# (--elg2otf). Both must convert silently, `weft check` must find both
# sound, check_converted must find in each everything the scenario holds,
# and check_converted --same that the two agree.
#
#   run_convert_same.sh WEFT EPILOG_WRITER OTF1_WRITER CHECKER WORKDIR SCENARIO [OTF1 OPTION...]
set -euo pipefail
weft=$1 epilog_writer=$2 otf1_writer=$3 checker=$4 work=$5 scenario=$6
shift 6
rm -rf "$work"
mkdir -p "$work"
"$epilog_writer" "$scenario" "$work/in.elg"
"$otf1_writer" "$scenario" "$work/in" --elg2otf "$@"
for input in in.elg in.otf; do
    "$weft" convert "$work/$input" "$work/$input.trace" 2>"$work/stderr" || {
        cat "$work/stderr"; echo "weft convert $input failed"; exit 1; }
    [ ! -s "$work/stderr" ] || { cat "$work/stderr"; echo "weft convert $input said something"; exit 1; }
    "$weft" check "$work/$input.trace"
done
"$checker" "$work/in.elg.trace/traces.otf2" "$scenario"
"$checker" "$work/in.otf.trace/traces.otf2" "$scenario" --from-otf1
"$checker" --same "$work/in.elg.trace/traces.otf2" "$work/in.otf.trace/traces.otf2"
