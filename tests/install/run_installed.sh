#!/usr/bin/env bash
# weft as a user installs it: `cmake --install BUILD --prefix PREFIX` into a
# new prefix that no compiler searches, then the README's two ways of
# building a program that records user regions, each run and its trace
# checked:
#   1. literally the README's sequence: PKG_CONFIG_PATH=PREFIX/lib/pkgconfig,
#      cc app.c $(pkg-config --cflags --libs weft) -o app
#   2. PREFIX/bin/weft compile -- cc app.c -o app (weft adds its own -I)
#
#   run_installed.sh CMAKE BUILD_DIR WORK_DIR SOURCE
set -euo pipefail
cmake=$1 build=$2 work=$3 source=$4
rm -rf "$work"
mkdir -p "$work"
prefix=$work/prefix
"$cmake" --install "$build" --prefix "$prefix" >"$work/install.log"
weft=$prefix/bin/weft

expect_trace() { # DIR WHAT
    "$weft" check "$1"
    visits=$("$weft" summary --format csv "$1" | awk -F, '$1 == "solve" { print $3 }')
    [ "$visits" = 3 ] || { echo "$2: 'solve' has '$visits' visits, expected 3"; exit 1; }
}

export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
cc "$source" $(pkg-config --cflags --libs weft) -o "$work/app_pkgconfig"
WEFT_EXPERIMENT_DIRECTORY=$work/trace_pkgconfig "$work/app_pkgconfig" >/dev/null
expect_trace "$work/trace_pkgconfig" "pkg-config build"

(cd "$work" && "$weft" compile -- cc "$source" -o app_compile)
WEFT_EXPERIMENT_DIRECTORY=$work/trace_compile "$work/app_compile" >/dev/null
expect_trace "$work/trace_compile" "weft compile build"
echo "run_installed: both builds against $prefix record 3 visits of 'solve', traces sound"
