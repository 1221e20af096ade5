#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# weft convert on an EPILOG trace written by write_epilog (a merged file,
# or with --archive an EPIK archive directory): the conversion
# must succeed silently, `weft check` must find the OTF2 trace sound, and
# check_converted must find in it everything write_epilog wrote.
#
#   run_convert_test.sh WEFT WRITER CHECKER WORKDIR SCENARIO [WRITER OPTION...]
set -euo pipefail
weft=$1 writer=$2 checker=$3 work=$4 scenario=$5
shift 5
rm -rf "$work"
mkdir -p "$work"
input=$work/in.elg
for option in "$@"; do [ "$option" = --archive ] && input=$work/epik_in; done
"$writer" "$scenario" "$input" "$@"
"$weft" convert "$input" "$work/trace" 2>"$work/stderr" || {
    cat "$work/stderr"; echo "weft convert failed"; exit 1; }
[ ! -s "$work/stderr" ] || { cat "$work/stderr"; echo "weft convert said something"; exit 1; }
"$weft" check "$work/trace"
passed_on=()
for option in "$@"; do
    case $option in --metrics|--no-main) passed_on+=("$option") ;; esac
done
"$checker" "$work/trace/traces.otf2" "$scenario" "${passed_on[@]}"
