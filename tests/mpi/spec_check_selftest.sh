#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The spec-coverage check itself: it passes on the build's mpi.h and fails,
# naming the function, when the header declares one the spec lacks (here a
# made-up MPI_Weft_selftest_function appended to a copy of the header).
#
#   spec_check_selftest.sh PYTHON PMPI_DIR MPI_H_PREPROCESSED WORKDIR
set -euo pipefail
python=$1 pmpi=$2 header=$3 work=$4
rm -rf "$work" && mkdir -p "$work"
check() { "$python" "$pmpi/generate_wrappers.py" --check "$pmpi/mpi_functions.spec" --mpi-h "$1"; }
check "$header" >"$work/clean.log" 2>&1 || { cat "$work/clean.log"; echo "FAIL: the build's mpi.h"; exit 1; }
cp "$header" "$work/mpi_h.i"
echo 'extern int MPI_Weft_selftest_function(MPI_Comm comm, int *flag);' >>"$work/mpi_h.i"
if check "$work/mpi_h.i" >"$work/extra.log" 2>&1; then
    cat "$work/extra.log"; echo "FAIL: an undeclared-in-spec function passed the check"; exit 1
fi
grep -q 'MPI_Weft_selftest_function is declared by mpi.h but not listed' "$work/extra.log" || {
    cat "$work/extra.log"; echo "FAIL: the check did not name the missing function"; exit 1; }
echo "spec check selftest: ok"
