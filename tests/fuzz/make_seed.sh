#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# A seed input of a fuzz target that picks a file by its first byte: OUT is
# the byte BYTE (0-255) and then the contents of FILE, decompressed by
# gzip -dc when DECOMPRESS is "gunzip".
#
#   make_seed.sh OUT BYTE FILE [DECOMPRESS]
set -e
out=$1 byte=$2 file=$3
{
    printf "\\$(printf '%03o' "$byte")"
    if [ "${4:-}" = gunzip ]; then gzip -dc "$file"; else cat "$file"; fi
} >"$out"
