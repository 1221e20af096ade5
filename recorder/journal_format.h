/* SPDX-License-Identifier: BSD-3-Clause */
/* The layout of a journal file (weft/journal.h), shared by the writer
 * (journal.c) and the reader (journal_read.c). Native byte order with a
 * marker that a reader of the other order refuses, fixed-width fields
 * copied with memcpy (nothing needs to be aligned):
 *
 *   u32 magic "WFTJ" | u32 version | u32 byte-order marker 0x01020304 |
 *   u32 rank | u32 pid | u32 state | u32 signal | u32 flushed |
 *   u64 end time | u32 ticks are ns | u32 reserved (0) |
 *   u64 first ticks | u64 first monotonic ns | u64 first wall-clock ns |
 *   u64 last ticks | u64 last monotonic ns |
 *   u64 OTF2 event chunk bytes | u64 OTF2 definition chunk bytes |
 *   u32 host length | u32 clock offset count | u64 packed registry length |
 *                                                            (HEADER_BYTES)
 *   host bytes (no NUL) |
 *   per clock offset: u64 time | i64 offset | f64 stddev |
 *   the packed registry (weft_registry_pack with WEFT_PACK_LOCATIONS) |
 *   u64 FNV-1a hash of every byte before it
 *
 * The hash makes a file that was cut or overwritten in part unreadable
 * rather than wrong; the writer renames a complete file into place, so a
 * reader sees the old version or the new one. */
#ifndef WEFT_RECORDER_JOURNAL_FORMAT_H
#define WEFT_RECORDER_JOURNAL_FORMAT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define WEFT_JOURNAL_MAGIC UINT32_C(0x4a544657) /* "WFTJ" in little-endian memory */
#define WEFT_JOURNAL_VERSION UINT32_C(1)
#define WEFT_JOURNAL_ORDER UINT32_C(0x01020304)
#define WEFT_JOURNAL_SUFFIX ".journal"

enum {
    WEFT_JOURNAL_HEADER_BYTES = 8 * 4 + 8 + 2 * 4 + 5 * 8 + 2 * 8 + 2 * 4 + 8,
    WEFT_JOURNAL_OFFSET_BYTES = 24,
    WEFT_JOURNAL_HASH_BYTES = 8,
};

/* The journal's checksum, FNV-1a: part of the file format, so it stays this
 * whatever hash the registry's tables use. */
static inline uint64_t weft__journal_hash(const unsigned char *bytes, size_t len)
{
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    for (size_t i = 0; i < len; i++) {
        h ^= bytes[i];
        h *= UINT64_C(0x100000001b3);
    }
    return h;
}

#endif /* WEFT_RECORDER_JOURNAL_FORMAT_H */
