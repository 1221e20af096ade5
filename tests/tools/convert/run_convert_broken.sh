#!/usr/bin/env bash
# weft convert on a damaged EPILOG trace (write_epilog --broken=KIND, or an
# EPIK archive with a file missing or cut: archive-missing-rank,
# archive-cut-map): exit
# status 1, exactly one line on stderr matching PATTERN (which names the
# file and, for damage inside it, the byte offset), and no trace left
# behind; with --keep-partial too, when KEEP is "keep", the partial trace is
# kept. KIND unknown-types is not damage: exit 0, the line counts what was
# skipped, and the trace is sound.
#
#   run_convert_broken.sh WEFT WRITER WORKDIR KIND PATTERN
set -uo pipefail
weft=$1 writer=$2 work=$3 kind=$4 pattern=$5
rm -rf "$work"
mkdir -p "$work"
input=$work/in.elg
case $kind in
archive-missing-rank) # an EPIK archive without the event file of rank 1
    input=$work/epik_in
    "$writer" hybrid "$input" --archive && rm "$input/ELG/00001" || exit 1 ;;
archive-cut-map) # an EPIK archive whose epik.map ends inside a record
    input=$work/epik_in
    "$writer" hybrid "$input" --archive && truncate -s 100 "$input/epik.map" || exit 1 ;;
*) "$writer" hybrid "$input" --broken="$kind" || exit 1 ;;
esac
"$weft" convert "$input" "$work/trace" 2>"$work/stderr"
status=$?
cat "$work/stderr"
want=1
[ "$kind" = unknown-types ] && want=0
[ $status -eq $want ] || { echo "exit status $status, expected $want"; exit 1; }
[ "$(wc -l <"$work/stderr")" -eq 1 ] || { echo "expected one line on stderr"; exit 1; }
grep -Eq "$pattern" "$work/stderr" || { echo "the line does not match: $pattern"; exit 1; }
if [ $want -eq 0 ]; then
    "$weft" check "$work/trace" || exit 1
elif [ -e "$work/trace" ]; then
    echo "a partial trace was left behind"; exit 1
fi
echo "as expected"
