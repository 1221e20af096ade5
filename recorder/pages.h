/* SPDX-License-Identifier: BSD-3-Clause */
/* Event memory in whole pages, straight from the kernel.
 *
 * Buffer chunks (megabytes each) and OTF2's event chunks are mapped and
 * unmapped here rather than malloc'ed: a freed mapping goes back to the
 * system at once, whichever thread frees it, where malloc would keep it in
 * the arena of the thread that allocated it (a program that creates and
 * ends thousands of threads would keep every dead thread's buffer). Pages
 * are touched, and so become resident, only when first written. */
#ifndef WEFT_RECORDER_PAGES_H
#define WEFT_RECORDER_PAGES_H

#include <stddef.h>
#include <sys/mman.h>

static inline void *weft__pages_map(size_t bytes)
{
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

static inline void weft__pages_unmap(void *p, size_t bytes)
{
    if (p)
        munmap(p, bytes);
}

#endif /* WEFT_RECORDER_PAGES_H */
