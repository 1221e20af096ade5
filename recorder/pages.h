/* SPDX-License-Identifier: BSD-3-Clause */
/* Event memory in whole pages, straight from the kernel.
 *
 * Buffer chunks (megabytes each) and OTF2's event chunks are mapped and
 * unmapped here rather than malloc'ed: a freed mapping goes back to the
 * system at once, whichever thread frees it, where malloc would keep it in
 * the arena of the thread that allocated it (a program that creates and
 * ends thousands of threads would keep every dead thread's buffer).
 *
 * A page faulted in while events are written costs 1.4 us on the
 * development VM (5-7 ns per event). So a buffer chunk that is likely to be
 * filled whole is populated when mapped, the kernel faulting its pages in
 * in one go, at a fraction of that cost; but only up to
 * WEFT_PAGES_POPULATE_MAX: a larger chunk (WEFT_BUFFER_SIZE over 512M)
 * would make that much memory resident at once, before anything is
 * recorded, in every process of a job. (Transparent huge pages for such
 * chunks were tried: with the kernel's default defrag setting a fault may
 * stall for compaction, and runs of the same loop took 11 or 37 ns per
 * event.) */
#ifndef WEFT_RECORDER_PAGES_H
#define WEFT_RECORDER_PAGES_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/mman.h>

#define WEFT_PAGES_POPULATE_MAX ((size_t)64 << 20)

static inline void *weft__pages_map(size_t bytes, bool populate)
{
    if (bytes > WEFT_PAGES_POPULATE_MAX)
        populate = false;
    int flags = MAP_PRIVATE | MAP_ANONYMOUS | (populate ? MAP_POPULATE : 0);
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, flags, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

static inline void weft__pages_unmap(void *p, size_t bytes)
{
    if (p)
        munmap(p, bytes);
}

#endif /* WEFT_RECORDER_PAGES_H */
