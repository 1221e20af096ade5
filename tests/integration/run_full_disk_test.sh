#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# A trace written into a directory whose disk fills up: a 24 MiB tmpfs made
# for the test (skipped, exit 77, where it cannot be mounted: that needs
# root) takes a two-thread program recording ~8 million events (~100 MB of
# trace). weft must stop recording with one line, the program must end
# normally, and the partial trace must open and hold events, and be sound
# but for what it says itself: weft check reports, and only reports, the
# events each location lost (weft::events_lost).
#
#   run_full_disk_test.sh WEFT STRESS_PROGRAM WORKDIR
set -uo pipefail
weft=$1 program=$2 work=$3
. "$(dirname "$0")/full_disk_common.sh"
mount_small_disk 24m

WEFT_EXPERIMENT_DIRECTORY="$mnt/trace" "$program" 2 2000000 >"$work/out" 2>"$work/err"
status=$?
cat "$work/err"
[ $status -eq 0 ] || { echo "the program ended with status $status"; exit 1; }
grep -q "^weft: the disk of '$mnt/trace' is full (" "$work/err" ||
    { echo "no line saying the disk is full"; exit 1; }
grep -q "events were recorded but could not be written; the trace is incomplete" "$work/err" ||
    { echo "no line counting the events that were not written"; exit 1; }
[ "$(wc -l <"$work/err")" -eq 2 ] || { echo "expected exactly two lines on stderr"; exit 1; }
check_reports_only_lost "$mnt/trace"
events=$(sed -n 's/^weft check: [0-9]* problems* ([0-9]* shown) in \([0-9]*\) events.*/\1/p' \
    "$work/check.out")
[ "${events:-0}" -gt 100000 ] || { echo "only ${events:-0} events in the partial trace"; exit 1; }
otf2-print "$mnt/trace/traces.otf2" >/dev/null || { echo "otf2-print cannot read the trace"; exit 1; }
echo "full disk: program ended normally, partial trace of $events events opens"
