/* SPDX-License-Identifier: BSD-3-Clause */
/* weft_alloc and friends: malloc with a failure-injection hook for tests. */
#include "weft/alloc.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* Negative: no injection. Decremented by every allocation while >= 0; the
 * allocation that finds it at 0 fails. Atomic because threads allocate
 * concurrently; only tests ever set it. */
static atomic_long fail_countdown = -1;

/* The same for the one thread that set it (weft_alloc_fail_after_in_thread):
 * only that thread reads or writes its own copy, so no atomics. Initial-exec
 * like weft's other thread-locals (libweft-ompt may be dlopen'ed). */
static __thread long thread_countdown __attribute__((tls_model("initial-exec"))) = -1;

long weft_alloc_fail_after_in_thread(long count)
{
    long left = thread_countdown;
    thread_countdown = count;
    return left;
}

void weft_alloc_fail_after(long count)
{
    atomic_store_explicit(&fail_countdown, count, memory_order_relaxed);
}

static int injected_failure(void)
{
    if (thread_countdown >= 0 && thread_countdown-- == 0)
        return 1;
    long left = atomic_load_explicit(&fail_countdown, memory_order_relaxed);
    if (left < 0)
        return 0;
    left = atomic_fetch_sub_explicit(&fail_countdown, 1, memory_order_relaxed);
    return left == 0;
}

void *weft_alloc(size_t bytes)
{
    return injected_failure() ? NULL : malloc(bytes);
}

void *weft_calloc(size_t count, size_t bytes)
{
    return injected_failure() ? NULL : calloc(count, bytes);
}

void *weft_realloc(void *ptr, size_t bytes)
{
    return injected_failure() ? NULL : realloc(ptr, bytes);
}

void weft_free(void *ptr)
{
    free(ptr);
}

char *weft_strdup(const char *text)
{
    size_t len = strlen(text) + 1;
    char *copy = weft_alloc(len);
    if (copy)
        memcpy(copy, text, len);
    return copy;
}
