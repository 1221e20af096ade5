#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# weft convert on an elg2otf-style OTF version 1 trace whose threads are
# laid out oddly (write_otf1 hybrid --elg2otf --odd=KIND): converted with
# exit status 0 and, with PATTERN, exactly one line on stderr matching it
# (without, none); `weft check` finds the trace sound; LAYOUT is "intact"
# (check_converted finds everything the hybrid scenario holds) or the
# threads per rank the fallback gives (check_converted --layout).
#
#   run_convert_otf1_odd.sh WEFT WRITER CHECKER WORKDIR KIND LAYOUT [PATTERN]
set -euo pipefail
weft=$1 writer=$2 checker=$3 work=$4 kind=$5 layout=$6 pattern=${7:-}
rm -rf "$work"
mkdir -p "$work"
"$writer" hybrid "$work/old" --elg2otf "--odd=$kind"
"$weft" convert "$work/old.otf" "$work/trace" 2>"$work/stderr" || {
    cat "$work/stderr"; echo "weft convert failed"; exit 1; }
cat "$work/stderr"
if [ -z "$pattern" ]; then
    [ ! -s "$work/stderr" ] || { echo "weft convert said something"; exit 1; }
else
    [ "$(wc -l <"$work/stderr")" -eq 1 ] || { echo "expected one line on stderr"; exit 1; }
    grep -Eq "$pattern" "$work/stderr" || { echo "the line does not match: $pattern"; exit 1; }
fi
"$weft" check "$work/trace"
if [ "$layout" = intact ]; then
    "$checker" "$work/trace/traces.otf2" hybrid --from-otf1
else
    "$checker" "$work/trace/traces.otf2" "--layout=$layout"
fi
