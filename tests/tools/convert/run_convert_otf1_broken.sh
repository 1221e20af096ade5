#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# weft convert on a damaged OTF version 1 trace (write_otf1 hybrid, then
# KIND): no-definitions (the .0.def file is gone), truncated-events (an
# event stream cut in the middle of a record), cut-master (the master file
# old.otf cut in half: it maps only some processes, whose events alone the
# OTF library would read), fifo-master and fifo-events (a named pipe where
# old.otf or old.2.events should be). Exit status 1 within 10 s, one line on
# stderr matching PATTERN, no trace left behind. With KEEP ("keep"),
# --keep-partial is given: exit status 1, the line, then "the partial trace
# is kept", and the trace is there and sound.
#
#   run_convert_otf1_broken.sh WEFT WRITER WORKDIR KIND PATTERN [KEEP]
set -uo pipefail
weft=$1 writer=$2 work=$3 kind=$4 pattern=$5 keep=${6:-}
rm -rf "$work"
mkdir -p "$work"
"$writer" hybrid "$work/old" || exit 1
case $kind in
no-definitions) rm "$work/old.0.def" ;;
truncated-events)
    size=$(stat -c %s "$work/old.2.events")
    truncate -s $((size / 2)) "$work/old.2.events" ;;
cut-master)
    size=$(stat -c %s "$work/old.otf")
    truncate -s $((size / 2)) "$work/old.otf" ;;
fifo-master) rm "$work/old.otf" && mkfifo "$work/old.otf" ;;
fifo-events) rm "$work/old.2.events" && mkfifo "$work/old.2.events" ;;
esac
options=()
[ "$keep" = keep ] && options=(--keep-partial)
timeout 10 "$weft" convert "${options[@]}" "$work/old.otf" "$work/trace" 2>"$work/stderr"
status=$?
cat "$work/stderr"
[ $status -eq 1 ] || { echo "exit status $status, expected 1"; exit 1; }
lines=1
[ "$keep" = keep ] && lines=2
[ "$(wc -l <"$work/stderr")" -eq $lines ] || { echo "expected $lines line(s) on stderr"; exit 1; }
head -1 "$work/stderr" | grep -Eq "$pattern" || { echo "the line does not match: $pattern"; exit 1; }
if [ "$keep" = keep ]; then
    tail -1 "$work/stderr" | grep -q "^weft convert: the partial trace is kept in '$work/trace'$" ||
        { echo "the second line does not say the partial trace is kept"; exit 1; }
    "$weft" check "$work/trace" || exit 1
else
    [ ! -e "$work/trace" ] || { echo "a partial trace was left behind"; exit 1; }
fi
echo "as expected"
