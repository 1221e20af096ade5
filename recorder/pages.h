/* SPDX-License-Identifier: BSD-3-Clause */
/* Event memory in whole pages, straight from the kernel.
 *
 * Buffer chunks (megabytes each) and OTF2's event chunks are mapped and
 * unmapped here rather than malloc'ed: a freed mapping goes back to the
 * system at once, whichever thread frees it, where malloc would keep it in
 * the arena of the thread that allocated it (a program that creates and
 * ends thousands of threads would keep every dead thread's buffer).
 *
 * A buffer chunk that is likely to be filled whole is populated when
 * mapped: the kernel then faults its pages in in one go, at a fraction of
 * the cost of a fault per page taken while events are written (on the
 * development VM, 1.4 us per fault: 5-7 ns per event). */
#ifndef WEFT_RECORDER_PAGES_H
#define WEFT_RECORDER_PAGES_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/mman.h>

static inline void *weft__pages_map(size_t bytes, bool populate)
{
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
