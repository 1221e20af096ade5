#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Runs every fuzz target of a WEFT_FUZZ=ON build for SECONDS seconds each on
# a copy of its seed corpus (fuzz_targets.txt in the build's tests/fuzz
# lists them: NAME|EXECUTABLE|CORPUS|OPTIONS). A crash, an ASan or UBSan
# report, a leak (other than the suppressed ones) or a timeout of one input
# fails it: the end of that target's log and the input are printed. The
# logs and any crashing input stay in WORKDIR.
#
#   run_fuzz_targets.sh LIST WORKDIR SECONDS
set -uo pipefail
list=$1 work=$2 seconds=$3
mkdir -p "$work"
failed=0 count=0
while IFS='|' read -r name exe corpus options; do
    [ -n "$name" ] || continue
    count=$((count + 1))
    rm -rf "${work:?}/$name" && mkdir -p "$work/$name/corpus"
    cp -r "$corpus"/. "$work/$name/corpus/" || { echo "$name: no seed corpus in $corpus"; exit 1; }
    args=() lsan=""
    for option in $options; do
        case $option in
        LSAN_SUPPRESSIONS=*) lsan="suppressions=${option#LSAN_SUPPRESSIONS=}:print_suppressions=0" ;;
        *) args+=("$option") ;;
        esac
    done
    start=$(date +%s)
    LSAN_OPTIONS=$lsan "$exe" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
        -close_fd_mask=1 -print_final_stats=1 -artifact_prefix="$work/$name/" "${args[@]}" \
        "$work/$name/corpus" >"$work/$name/log" 2>&1
    status=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/$name/log")
    if [ $status -ne 0 ]; then
        echo "$name: FAILED (exit status $status) after $(($(date +%s) - start)) s; the end of $work/$name/log:"
        grep -v '^weft\|^fuzz:' "$work/$name/log" | tail -40
        ls "$work/$name"/crash-* "$work/$name"/leak-* "$work/$name"/timeout-* 2>/dev/null
        failed=1
    else
        echo "$name: ${runs:-?} inputs in $seconds s, no crash"
    fi
done <"$list"
[ $count -gt 0 ] || { echo "no fuzz targets listed in $list"; exit 1; }
exit $failed
