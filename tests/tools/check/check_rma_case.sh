#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# One case of weft check's RMA and I/O rules: writes write_rma_trace's
# VARIANT and runs `weft check` on it. "good" must be sound (exit 0);
# every other variant must exit 1 with a problem line matching PATTERN
# (an extended regular expression) and the count line.
#
#   check_rma_case.sh WRITER WEFT WORKDIR VARIANT [PATTERN]
set -euo pipefail
writer=$1 weft=$2 work=$3 variant=$4 pattern=${5:-}
rm -rf "$work" && mkdir -p "$work"
"$writer" "$work/trace" "$variant"
status=0
"$weft" check "$work/trace" >"$work/out.txt" 2>"$work/err.txt" || status=$?
cat "$work/out.txt" "$work/err.txt"
if [ "$variant" = good ]; then
    [ "$status" -eq 0 ] && grep -q '^weft check: sound: ' "$work/out.txt" && exit 0
    echo "FAIL: the good trace is not sound (exit $status)"
    exit 1
fi
[ "$status" -eq 1 ] || { echo "FAIL: exit status $status, expected 1"; exit 1; }
grep -Eq "^weft check: .*$pattern" "$work/out.txt" || { echo "FAIL: no line matches: $pattern"; exit 1; }
grep -Eq '^weft check: [0-9]+ problems? \([0-9]+ shown\) in ' "$work/out.txt" || {
    echo "FAIL: no count line"; exit 1; }
echo "ok"
