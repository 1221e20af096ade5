#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# WEFT_FILTERING_FILE on a POMP2 program: runs the traced constructs.c of
# the pomp_c_clang_2 test with a filter excluding its user region
# `serial_part`; the trace must be sound, without that region, with the
# OpenMP regions still there (filters apply to user regions only).
#
#   run_filter_test.sh WEFT PROGRAM WORKDIR
set -euo pipefail
weft=$1 program=$2 work=$3
rm -rf "$work"
mkdir -p "$work"
printf 'SCOREP_REGION_NAMES_BEGIN\n  EXCLUDE serial_part\n  EXCLUDE *omp*\nSCOREP_REGION_NAMES_END\n' \
    >"$work/filter.txt"
OMP_NUM_THREADS=2 WEFT_FILTERING_FILE="$work/filter.txt" WEFT_EXPERIMENT_DIRECTORY="$work/trace" \
    "$program" >/dev/null
"$weft" check "$work/trace" >"$work/check.out" || { cat "$work/check.out"; exit 1; }
"$weft" summary --format csv --table regions --top 0 "$work/trace" >"$work/regions.csv"
if grep -q 'serial_part' "$work/regions.csv"; then
    echo "the filtered user region serial_part is in the trace"; exit 1
fi
grep -q '!\$omp parallel @constructs.c' "$work/regions.csv" || {
    echo "the OpenMP regions are missing (filters must not apply to them)"; exit 1; }
echo "filtered: serial_part absent, OpenMP regions present"
