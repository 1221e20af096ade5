/* SPDX-License-Identifier: BSD-3-Clause */
/* Allocation hooks for all of weft's own memory.
 *
 * Everything weft allocates goes through these, so that a test can make the
 * n-th allocation fail and check that every constructor cleans up (an
 * out-of-memory sweep). weft_free(NULL) is a no-op. */
#ifndef WEFT_DEFINITIONS_ALLOC_H
#define WEFT_DEFINITIONS_ALLOC_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

void *weft_alloc(size_t bytes);
void *weft_calloc(size_t count, size_t bytes);
void *weft_realloc(void *ptr, size_t bytes);
void weft_free(void *ptr);
/* Copies text into weft_alloc'ed memory; NULL when out of memory. */
char *weft_strdup(const char *text);

/* Test hook: the allocation after `count` further successful ones fails
 * (returns NULL); a negative count turns failure injection off. */
void weft_alloc_fail_after(long count);

/* Test hook, for the calling thread only: its allocation after `count`
 * further successful ones fails; other threads' allocations do not count and
 * do not fail (weft_alloc_fail_after, for all threads, still applies). Lets a
 * test that runs the ranks of a job as threads make one rank run out of
 * memory. A negative count turns it off. Returns what was left of the
 * thread's previous countdown: 0 or more when its failure was not reached,
 * -1 when it fired or none was set. */
long weft_alloc_fail_after_in_thread(long count);

#ifdef __cplusplus
}
#endif

#endif /* WEFT_DEFINITIONS_ALLOC_H */
