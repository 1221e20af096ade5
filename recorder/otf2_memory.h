/* SPDX-License-Identifier: BSD-3-Clause */
/* OTF2's memory and its event files, as weft hands them out.
 *
 * OTF2 encodes each location's events into chunks it asks weft for
 * (memory callbacks). Refusing a chunk is how weft makes OTF2 write: OTF2
 * then writes the chunks it holds to the location's event file, gives
 * them back, and asks again. So:
 *
 *   - an event writer holds at most WEFT_OTF2_EVENT_CHUNKS_HELD chunks
 *     before they go to its file, during the run, by the writer thread.
 *     OTF2 copies writes smaller than 4 MiB into a buffer of that size per
 *     open file (OTF2_FILE_BUFFER_SIZE, not settable) and writes it when
 *     full, so up to that much plus the held chunks is left to write at the
 *     end, whatever the chunk size; chunks of 4 MiB would skip the copy but
 *     OTF2 fills the rest of a writer's last chunk before writing it, which
 *     would cost every location 4 MiB of memset at the end;
 *   - given-back event chunks are kept in a small pool and handed out
 *     again, so a refill costs no page faults and no mmap/munmap;
 *   - OTF2 opens a location's event file at its first write and keeps it
 *     open until the location's writer is closed at the end. With the bound
 *     on (weft__otf2_files_bound), only a few locations may open theirs
 *     during the run; another that runs out of chunks gets one more instead
 *     and the sink parks its further events in the spill file (spill.h)
 *     until the end, when the files are opened one at a time. */
#ifndef WEFT_RECORDER_OTF2_MEMORY_H
#define WEFT_RECORDER_OTF2_MEMORY_H

#include <otf2/otf2.h>
#include <stdbool.h>
#include <stdint.h>

/* Chunk sizes the archive is opened with (OTF2's smallest is 256 KiB). */
#define WEFT_OTF2_EVENT_CHUNK_BYTES (256u * 1024)
#define WEFT_OTF2_DEF_CHUNK_BYTES (256u * 1024)

/* Event chunks OTF2 may hold per location before it must write them. */
#define WEFT_OTF2_EVENT_CHUNKS_HELD 2

const OTF2_MemoryCallbacks *weft__otf2_memory_callbacks(void);

/* The most bytes of events OTF2 may hold, not yet written, for this many
 * event writers (the held chunks and OTF2's file buffer): what closing the
 * archive may still write. */
uint64_t weft__otf2_pending_bytes(uint32_t event_writers);

/* Bounds the event files open during the run by the process's file limit
 * (RLIMIT_NOFILE / 16, at least 4, at most 64); without this call (weft
 * convert's writer) every location may open its file. Returns the bound. */
uint32_t weft__otf2_files_bound(void);

/* True, once, when OTF2 was last given a chunk beyond its budget for a
 * location that may not open its file now (see above). */
bool weft__otf2_take_over_budget(void);

/* Finalisation: from now on any location may open its file (the caller
 * closes each one's writer before the next, so one more at a time). */
void weft__otf2_files_closing(void);

/* For a fork()ed child: the parent's OTF2 buffers, files and pool are not
 * its own (the pool's chunks are left to the parent's copy of memory). */
void weft__otf2_memory_forget(void);

#endif /* WEFT_RECORDER_OTF2_MEMORY_H */
