#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# weft as a user installs it: `cmake --install BUILD --prefix PREFIX` into a
# new prefix that no compiler searches, then every documented way of
# building against it, each program run and its trace checked:
#   1. literally the README's sequence: PKG_CONFIG_PATH=PREFIX/lib/pkgconfig,
#      cc app.c $(pkg-config --cflags --libs weft) -o app
#   2. PREFIX/bin/weft compile -- cc app.c -o app (weft adds its own -I)
#   3. a CMake project with find_package(weft 0.1 REQUIRED) and weft::weft
#   4. with MPI: mpicc ring.c $(pkg-config --cflags --libs weft-mpi), and
#      the CMake project's weft::mpi, each under mpiexec -n 2
#
#   run_installed.sh CMAKE BUILD_DIR WORK_DIR SOURCE_DIR [MPICC MPIEXEC]
set -euo pipefail
cmake=$1 build=$2 work=$3 src=$4 mpicc=${5:-} mpiexec=${6:-}
rm -rf "$work"
mkdir -p "$work"
prefix=$work/prefix
"$cmake" --install "$build" --prefix "$prefix" >"$work/install.log"
weft=$prefix/bin/weft
mpi_flags=()
if [ -n "$mpiexec" ]; then
    version=$("$mpiexec" --version 2>&1 || true)
    case $version in *"Open MPI"* | *OpenRTE*) mpi_flags=(--allow-run-as-root --oversubscribe) ;; esac
fi

expect_visits() { # DIR REGION VISITS WHAT
    "$weft" check "$1"
    visits=$("$weft" summary --format csv "$1" | awk -F, -v r="$2" '$1 == r { print $3 }')
    [ "$visits" = "$3" ] || { echo "$4: '$2' has '$visits' visits, expected $3"; exit 1; }
}

export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
cc "$src/user_regions.c" $(pkg-config --cflags --libs weft) -o "$work/app_pkgconfig"
WEFT_EXPERIMENT_DIRECTORY=$work/trace_pkgconfig "$work/app_pkgconfig" >/dev/null
expect_visits "$work/trace_pkgconfig" solve 3 "pkg-config build"

(cd "$work" && "$weft" compile -- cc "$src/user_regions.c" -o app_compile)
WEFT_EXPERIMENT_DIRECTORY=$work/trace_compile "$work/app_compile" >/dev/null
expect_visits "$work/trace_compile" solve 3 "weft compile build"

"$cmake" -S "$src/cmake_project" -B "$work/cmake_build" -DCMAKE_PREFIX_PATH="$prefix" \
    >"$work/cmake_configure.log"
"$cmake" --build "$work/cmake_build" >"$work/cmake_build.log"
WEFT_EXPERIMENT_DIRECTORY=$work/trace_cmake "$work/cmake_build/user_regions" >/dev/null
expect_visits "$work/trace_cmake" solve 3 "find_package build"

if [ -n "$mpicc" ]; then
    "$mpicc" "$src/mpi_ring.c" $(pkg-config --cflags --libs weft-mpi) -o "$work/ring_pkgconfig"
    for ring in "$work/ring_pkgconfig" "$work/cmake_build/mpi_ring"; do
        trace=$work/trace_$(basename "$(dirname "$ring")")_$(basename "$ring")
        WEFT_EXPERIMENT_DIRECTORY=$trace "$mpiexec" "${mpi_flags[@]}" -n 2 "$ring" >/dev/null
        expect_visits "$trace" MPI_Sendrecv 6 "MPI build $ring"
    done
fi
echo "run_installed: every build against $prefix records what it should, traces sound"
