#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# One program traced through two POMP dialects: built plain, through
# `weft compile` (OPARI2) and through `weft compile --opari1=PREFIX` (OPARI
# 1.1); all three run with THREADS threads and must print the same; both
# traces must pass `weft check` and compare_pomp_dialects.
#
#   run_dialect_test.sh WEFT COMPARE WORKDIR THREADS SOURCE OPARI1_PREFIX -- COMPILER FLAGS...
# Exit 77 (skipped) when OPARI 1 is not installed under OPARI1_PREFIX.
set -euo pipefail
weft=$1 compare=$2 work=$3 threads=$4 source=$5 prefix=$6
shift 6
[ "$1" = "--" ] && shift
if [ ! -x "$prefix/bin/opari" ]; then
    echo "skipped: no OPARI 1 under '$prefix' (scripts/install-opari1 puts it there)"
    exit 77
fi
rm -rf "$work"
mkdir -p "$work/plain" "$work/opari2" "$work/opari1"
cp "$source" "$work/"
src=$work/$(basename "$source")
(cd "$work/plain" && "$@" "$src" -o program)
(cd "$work/opari2" && "$weft" compile -- "$@" "$src" -o program)
# OPARI 1 keeps opari.rc in the current directory: give it one of its own.
(cd "$work/opari1" && "$weft" compile --opari1="$prefix" -- "$@" "$src" -o program)
for kind in plain opari2 opari1; do
    (cd "$work/$kind" && OMP_NUM_THREADS=$threads WEFT_EXPERIMENT_DIRECTORY=trace ./program \
        >output 2>stderr) || { cat "$work/$kind/stderr"; echo "the $kind program failed"; exit 1; }
    [ ! -s "$work/$kind/stderr" ] || { cat "$work/$kind/stderr"; echo "$kind: stderr"; exit 1; }
done
cmp -s "$work/plain/output" "$work/opari2/output" &&
    cmp -s "$work/plain/output" "$work/opari1/output" || {
    echo "the programs print different results"; exit 1; }
for kind in opari1 opari2; do
    "$weft" check "$work/$kind/trace" || exit 1
done
"$compare" "$work/opari1/trace/traces.otf2" "$work/opari2/trace/traces.otf2"
