#!/bin/sh
# Regenerates opari2_ctc_strings.txt from the programs in this directory with
# OPARI2 2.0.7 (Debian's opari2 package). The strings hold absolute paths, so
# the programs are instrumented under the fixed directory /tmp/weft-ctc.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
work=/tmp/weft-ctc
long=$work/$(printf 'l%.0s' $(seq 160))
long=$long/${long#$work/}/${long#$work/}
rm -rf "$work"
mkdir -p "$work" "$work/dir:with:colons" "$long"
cp "$here/constructs.c" "$here/constructs.f90" "$here/constructs.f" "$work/"
cp "$here/colon.c" "$work/dir:with:colons/"
cp "$here/colon.c" "$long/"
cd "$work"
opari2 --omp-task-untied=keep constructs.c constructs.mod.c
opari2 --omp-task-untied=keep constructs.f90 constructs.mod.F90
opari2 --omp-task-untied=keep constructs.f constructs.mod.F
(cd "$work/dir:with:colons" && opari2 colon.c colon.mod.c)
(cd "$long" && opari2 colon.c colon.mod.c)
python3 "$here/extract_ctc_strings.py" constructs.c.opari.inc constructs.f90.opari.inc \
    constructs.f.opari.inc "$work/dir:with:colons/colon.c.opari.inc" \
    "$long/colon.c.opari.inc" >"$here/opari2_ctc_strings.txt"
wc -l "$here/opari2_ctc_strings.txt"
