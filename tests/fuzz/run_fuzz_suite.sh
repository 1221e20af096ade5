#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The fuzz targets, from an ordinary build's test suite: configures weft in
# WORKDIR with CLANG and WEFT_FUZZ=ON (warnings as errors), builds every
# fuzz target and its seeds (fuzz_all), then runs each for SECONDS seconds
# (run_fuzz_targets.sh). A target that no longer compiles or links fails
# here, as one that crashes does.
#
#   run_fuzz_suite.sh SOURCE_DIR WORKDIR CLANG SECONDS
set -euo pipefail
src=$1 work=$2 clang=$3 seconds=$4
mkdir -p "$work"
cmake -S "$src" -B "$work" -DCMAKE_C_COMPILER="$clang" -DWEFT_FUZZ=ON -DWEFT_WERROR=ON \
    -DBUILD_TESTING=ON -DWEFT_MPI=OFF -DWEFT_OMPT=OFF >"$work/configure.log" 2>&1 || {
    tail -20 "$work/configure.log"; echo "run_fuzz_suite: configuring with $clang failed"; exit 1; }
cmake --build "$work" -j2 --target fuzz_all >"$work/build.log" 2>&1 || {
    grep -E 'error|Error|undefined reference' "$work/build.log" | head -30
    echo "run_fuzz_suite: building the fuzz targets failed"; exit 1; }
"$src/tests/fuzz/run_fuzz_targets.sh" "$work/tests/fuzz/fuzz_targets.txt" "$work/runs" "$seconds"
