#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Builds every OpenMP test program of the tree with weft compile both ways,
# preprocessor first (the default) and OPARI2 reading the source
# (--no-preprocess), beside the build without weft: all three must compile,
# and every OPARI2 region description (CTC string: construct, file, lines,
# clauses) of the default way must be one of the other way too, so that the
# preprocessor changes nothing about the constructs it instruments. The
# other way may have more: OPARI2 reading the source also instruments
# constructs in code the preprocessor leaves out (#ifdef WITH_MPI), which
# are counted. A directive continued over lines with `\` is one line after
# the preprocessor, so the last line of a directive is not compared.
#
#   run_corpus.sh WEFT WORKDIR ENTRY...
#   ENTRY: COMPILER|SOURCE|FLAGS|WAYS   FLAGS: blank-separated, may be empty;
#          WAYS: both, or default (sources OPARI2 cannot read unpreprocessed)
set -uo pipefail
weft=$1 work=$2
shift 2
rm -rf "$work"
mkdir -p "$work"
failures=0 built=0 inactive=0

fail() {
    echo "run_corpus: $*"
    failures=$((failures + 1))
}

# The CTC strings of an object, sorted, without the last line of the directive.
ctc_strings() {
    strings -n 8 "$1" | grep -o 'regionType=.*\*\*' | sed 's/\(sscl=[^*]*:[0-9]*\):[0-9]*/\1/' |
        sort
}

n=0
for entry in "$@"; do
    IFS='|' read -r compiler source flags ways <<<"$entry"
    n=$((n + 1))
    dir="$work/$n"
    mkdir -p "$dir"
    read -ra flag_words <<<"$flags"
    name="$compiler $(basename "$source") ${flags}"
    if ! (cd "$dir" && "$compiler" -fopenmp "${flag_words[@]}" -c "$source" -o plain.o \
            >plain.log 2>&1); then
        fail "$name: does not compile without weft (test setup?)"; cat "$dir/plain.log"; continue
    fi
    if ! (cd "$dir" && "$weft" compile -- "$compiler" -fopenmp "${flag_words[@]}" -c "$source" \
            -o default.o >default.log 2>&1); then
        fail "$name: weft compile failed"; cat "$dir/default.log"; continue
    fi
    built=$((built + 1))
    [ "$ways" = both ] || continue
    if ! (cd "$dir" && "$weft" compile --no-preprocess -- "$compiler" -fopenmp \
            "${flag_words[@]}" -c "$source" -o old.o >old.log 2>&1); then
        fail "$name: weft compile --no-preprocess failed"; cat "$dir/old.log"; continue
    fi
    built=$((built + 1))
    ctc_strings "$dir/default.o" >"$dir/default.ctc"
    ctc_strings "$dir/old.o" >"$dir/old.ctc"
    if [ -n "$(comm -23 "$dir/default.ctc" "$dir/old.ctc")" ]; then
        fail "$name: constructs only the preprocessed way instruments (or differently):"
        comm -23 "$dir/default.ctc" "$dir/old.ctc"
    fi
    inactive=$((inactive + $(comm -13 "$dir/default.ctc" "$dir/old.ctc" | grep -c .)))
done
echo "run_corpus: $n programs, $built instrumented builds, $failures failures;" \
    "$inactive constructs in code the preprocessor leaves out instrumented by --no-preprocess only"
[ "$failures" -eq 0 ]
