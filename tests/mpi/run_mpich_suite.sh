#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The MPI tests again, against MPICH: configures and builds weft in WORKDIR
# with MPICH's compiler wrappers (installed beside Open MPI, Debian's default)
# and runs that build's MPI tests there.
#
#   run_mpich_suite.sh SOURCE_DIR WORKDIR MPICC MPIFORT MPIEXEC
#
# mpi_clock_measured is left out: MPICH's ranks busy-poll, and on an
# oversubscribed 2-core machine the measured (not the default exact
# same-machine) offsets then err by milliseconds.
set -euo pipefail
src=$1 work=$2 mpicc=$3 mpifort=$4 mpiexec=$5
mkdir -p "$work"
cmake -S "$src" -B "$work" -DWEFT_WERROR=ON -DBUILD_TESTING=ON -DMPI_C_COMPILER="$mpicc" \
    -DMPI_Fortran_COMPILER="$mpifort" -DMPIEXEC_EXECUTABLE="$mpiexec" >"$work/configure.log" 2>&1 || {
    tail -20 "$work/configure.log"; echo "run_mpich_suite: configuring against MPICH failed"; exit 1; }
grep -q 'libmpich' "$work/CMakeCache.txt" || { echo "run_mpich_suite: the build did not find MPICH"; exit 1; }
cmake --build "$work" -j2 >"$work/build.log" 2>&1 || {
    grep -E 'error|Error' "$work/build.log" | head -20; echo "run_mpich_suite: building failed"; exit 1; }
cd "$work"
ctest -R '^mpi_|^ompt_task_dependences_mpi' -E 'mpi_clock_measured' --output-on-failure --timeout 300
