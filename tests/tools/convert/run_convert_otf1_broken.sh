#!/usr/bin/env bash
# weft convert on a damaged OTF version 1 trace (write_otf1 hybrid, then
# KIND): no-definitions (the .0.def file is gone), truncated-events (an
# event stream cut in the middle of a record). Exit status 1, one line on
# stderr matching PATTERN, no trace left behind.
#
#   run_convert_otf1_broken.sh WEFT WRITER WORKDIR KIND PATTERN
set -uo pipefail
weft=$1 writer=$2 work=$3 kind=$4 pattern=$5
rm -rf "$work"
mkdir -p "$work"
"$writer" hybrid "$work/old" || exit 1
case $kind in
no-definitions) rm "$work/old.0.def" ;;
truncated-events)
    size=$(stat -c %s "$work/old.2.events")
    truncate -s $((size / 2)) "$work/old.2.events" ;;
esac
"$weft" convert "$work/old.otf" "$work/trace" 2>"$work/stderr"
status=$?
cat "$work/stderr"
[ $status -eq 1 ] || { echo "exit status $status, expected 1"; exit 1; }
[ "$(wc -l <"$work/stderr")" -eq 1 ] || { echo "expected one line on stderr"; exit 1; }
grep -Eq "$pattern" "$work/stderr" || { echo "the line does not match: $pattern"; exit 1; }
[ ! -e "$work/trace" ] || { echo "a partial trace was left behind"; exit 1; }
echo "as expected"
