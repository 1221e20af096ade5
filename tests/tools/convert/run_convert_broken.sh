#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# weft convert on a damaged EPILOG trace: write_epilog --broken=KIND, or an
# EPIK archive with a file missing, cut or damaged (archive-*), or a named
# pipe where a file should be (fifo, archive-fifo-map). Exit status 1,
# exactly one line on stderr matching PATTERN (which names the file and,
# for damage inside it, the byte offset), and no trace left behind; within
# 10 s, whatever the input (a named pipe must not block weft convert). KIND
# unknown-types is not damage: exit 0, the line counts what was skipped,
# and the trace is sound; nor is escape-metric: exit 0, the line names the
# metric dropped, its escape sequence escaped. With KEEP ("keep"), --keep-partial is given: exit
# status 1, the line, then "the partial trace is kept", and the trace is
# there and sound. Damaged ids (flipped-ids) run with a limit of 512 MB of
# address space (not under a sanitizer, which needs more): tables sized by
# a damaged id took 1.6 GB.
#
#   run_convert_broken.sh WEFT WRITER WORKDIR KIND PATTERN [KEEP]
set -uo pipefail
weft=$1 writer=$2 work=$3 kind=$4 pattern=$5 keep=${6:-}
rm -rf "$work"
mkdir -p "$work"
input=$work/in.elg
case $kind in
archive-*) input=$work/epik_in ;;
esac
case $kind in
archive-missing-rank) # without the event file of rank 1
    "$writer" hybrid "$input" --archive && rm "$input/ELG/00001" || exit 1 ;;
archive-cut-map) # epik.map ends inside a record
    "$writer" hybrid "$input" --archive && truncate -s 100 "$input/epik.map" || exit 1 ;;
archive-map-header-only) # epik.map cut to its header: no rank has its maps
    "$writer" hybrid "$input" --archive && truncate -s 10 "$input/epik.map" || exit 1 ;;
archive-fifo-map) # epik.map is a named pipe
    "$writer" hybrid "$input" --archive && rm "$input/epik.map" &&
        mkfifo "$input/epik.map" || exit 1 ;;
archive-*) "$writer" hybrid "$input" --archive --broken="${kind#archive-}" || exit 1 ;;
fifo) mkfifo "$input" || exit 1 ;;
escape-metric) "$writer" hybrid "$input" --metrics --broken=escape-metric || exit 1 ;;
*) "$writer" hybrid "$input" --broken="$kind" || exit 1 ;;
esac
options=()
[ "$keep" = keep ] && options=(--keep-partial)
limit=unlimited
if [[ $kind == *flipped-ids ]] && ! ldd "$weft" | grep -Eq 'libasan|libtsan'; then
    limit=524288
fi
(ulimit -v $limit && exec timeout 10 "$weft" convert "${options[@]}" "$input" "$work/trace") \
    2>"$work/stderr"
status=$?
cat "$work/stderr"
want=1
[ "$kind" = unknown-types ] || [ "$kind" = escape-metric ] && want=0
[ $status -eq $want ] || { echo "exit status $status, expected $want"; exit 1; }
lines=1
[ "$keep" = keep ] && lines=2
[ "$(wc -l <"$work/stderr")" -eq $lines ] || { echo "expected $lines line(s) on stderr"; exit 1; }
head -1 "$work/stderr" | grep -Eq "$pattern" || { echo "the line does not match: $pattern"; exit 1; }
if LC_ALL=C grep -q "$(printf '[\033\007]')" "$work/stderr"; then
    echo "a control character on stderr"; exit 1
fi
if [ $want -eq 0 ] || [ "$keep" = keep ]; then
    if [ "$keep" = keep ]; then
        tail -1 "$work/stderr" | grep -q "^weft convert: the partial trace is kept in '$work/trace'$" ||
            { echo "the second line does not say the partial trace is kept"; exit 1; }
    fi
    "$weft" check "$work/trace" || exit 1
elif [ -e "$work/trace" ]; then
    echo "a partial trace was left behind"; exit 1
fi
echo "as expected"
