#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Another process fills the disk while a program records: a 48 MiB tmpfs
# made for the test (skipped, exit 77, where it cannot be mounted: that
# needs root) takes the trace of a two-thread program recording ~16 million
# events (~190 MB of trace), and once both threads' event files have begun,
# dd fills what is left. weft must say so in at most two lines of its own (no OTF2 error
# lines), the program must end normally, and the partial trace must be
# whole: traces.otf2 and traces.def written, every event file readable to
# its end by otf2-print, and the lost events counted in the trace itself
# (the location property weft::events_lost). As for the disk weft fills
# itself (run_full_disk_test.sh), weft check then reports those lost
# events, and nothing else: a trace that lost events is not sound.
#
#   run_full_disk_other_writer.sh WEFT STRESS_PROGRAM WORKDIR
set -uo pipefail
weft=$1 program=$2 work=$3
. "$(dirname "$0")/full_disk_common.sh"
mount_small_disk 48m

WEFT_EXPERIMENT_DIRECTORY="$mnt/trace" "$program" 2 8000000 >"$work/out" 2>"$work/err" &
pid=$!
# Once both threads' event files have their first write on disk (OTF2's
# file buffer of 4 MiB, otf2_memory.h): a file's first write goes into
# space OTF2 takes itself, later ones into space weft allocated in the file
# first (docs/FAULTS.md).
for _ in $(seq 1000); do
    begun=$(find "$mnt/trace/traces" -name '*.evt' -size +4095k 2>/dev/null | wc -l)
    [ "$begun" -ge 2 ] && break
    sleep 0.01
done
dd if=/dev/zero of="$mnt/filler" bs=64k 2>/dev/null
wait $pid
status=$?
cat "$work/err"
[ $status -eq 0 ] || { echo "the program ended with status $status"; exit 1; }
if grep -q '^\[OTF2\]' "$work/err"; then echo "OTF2's own error lines reached stderr"; exit 1; fi
[ "$(wc -l <"$work/err")" -le 2 ] || { echo "more than two lines on stderr"; exit 1; }
[ -s "$mnt/trace/traces.otf2" ] && [ -s "$mnt/trace/traces.def" ] ||
    { ls -la "$mnt/trace"; echo "the anchor or the definitions are empty"; exit 1; }
otf2-print "$mnt/trace/traces.otf2" >"$work/print" 2>"$work/print.err" ||
    { head -3 "$work/print.err"; echo "otf2-print cannot read the trace"; exit 1; }
events=$(grep -c '^\(ENTER\|LEAVE\)' "$work/print")
lost=$(otf2-print -G "$mnt/trace/traces.otf2" |
       sed -n 's/.*"weft::events_lost".*Value: \([0-9]*\).*/\1/p' | awk '{s += $1} END {print s + 0}')
echo "full disk (another writer): $events events kept, ${lost:-0} counted as lost in the trace"
[ "$events" -gt 100000 ] || { echo "only $events events in the partial trace"; exit 1; }
[ "${lost:-0}" -gt 0 ] || { echo "the trace does not count the events it lost"; exit 1; }
check_reports_only_lost "$mnt/trace"
