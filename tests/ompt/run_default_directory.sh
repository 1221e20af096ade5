#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The trace directory `weft run` writes without -o, and the name the
# documentation gives it (issue 19: OPENMP-OMPT.md said weft-app-<date>-<pid>):
# weft-YYYYMMDD_HHMMSS_<pid> in the working directory.
#
#   run_default_directory.sh WEFT CLANG SOURCE WORKDIR DOCS...
set -euo pipefail
weft=$1 clang=$2 source=$3 work=$4
shift 4
rm -rf "$work"
mkdir -p "$work"
cd "$work"
"$clang" -fopenmp -O1 "$source" -o program
unset WEFT_EXPERIMENT_DIRECTORY
OMP_NUM_THREADS=2 "$weft" run -- ./program >/dev/null
found=$(ls -d weft-* 2>/dev/null || true)
if ! [[ "$found" =~ ^weft-[0-9]{8}_[0-9]{6}_[0-9]+$ ]]; then
    echo "run_default_directory: weft run wrote '$found', not weft-YYYYMMDD_HHMMSS_<pid>"
    exit 1
fi
"$weft" check "$found" >/dev/null
for doc in "$@"; do
    if grep -n 'weft-app-\|weft-<date>' "$doc"; then
        echo "run_default_directory: $doc names the trace directory otherwise"
        exit 1
    fi
    grep -q 'weft-YYYYMMDD_HHMMSS_<pid>' "$doc" || {
        echo "run_default_directory: $doc does not name weft-YYYYMMDD_HHMMSS_<pid>"; exit 1; }
done
echo "run_default_directory: $found"
