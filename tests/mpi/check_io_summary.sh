#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# weft summary's I/O table of an io scenario's trace (mpi_scenarios.h): for
# every rank exactly one row, on the shared file, with 5 reads of 4 blocks
# and the short read's IO_SHORT_INTS ints, 4 writes of one block each, 2
# flushes and some time; in the text format the I/O section lists the same.
#
#   check_io_summary.sh WEFT TRACE_DIR RANKS
set -euo pipefail
weft=$1 trace=$2 ranks=$3
block=4000 short=12
csv=$("$weft" summary --format csv --table io "$trace")
echo "$csv"
expected_header='rank,file,reads,read_bytes,writes,written_bytes,flushes,time_s'
[ "$(head -n 1 <<<"$csv")" = "$expected_header" ] || { echo "FAIL: header"; exit 1; }
[ "$(tail -n +2 <<<"$csv" | wc -l)" -eq "$ranks" ] || { echo "FAIL: not one row per rank"; exit 1; }
for ((r = 0; r < ranks; r++)); do
    row=$(awk -F, -v r="$r" 'NR > 1 && $1 == r' <<<"$csv")
    IFS=, read -r rank file reads read_bytes writes written flushes time <<<"$row"
    [[ "$file" == */io_shared.dat ]] || { echo "FAIL: rank $r: file '$file'"; exit 1; }
    want="5 $((4 * block + short)) 4 $((4 * block)) 2"
    got="$reads $read_bytes $writes $written $flushes"
    [ "$got" = "$want" ] || { echo "FAIL: rank $r: '$got', expected '$want'"; exit 1; }
    awk -v t="$time" 'BEGIN { exit !(t > 0) }' || { echo "FAIL: rank $r: time $time"; exit 1; }
done
# Captured first: under pipefail, grep -q leaving early would make weft die
# of SIGPIPE and fail the pipeline although the line was found.
text=$("$weft" summary "$trace")
grep -q '^I/O by rank and file' <<<"$text" || { echo "FAIL: no I/O section in the text"; exit 1; }
echo "check_io_summary: ok"
