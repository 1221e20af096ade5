/* SPDX-License-Identifier: BSD-3-Clause */
/* The call site of a construct whose callback came without codeptr_ra.
 *
 * libomp keeps each thread's return address in a slot that the runtime
 * entry point fills and the callback empties. When a thread leaves a
 * critical section, libomp reads and empties the slot of thread 0, not its
 * own (LLVM 14 as Debian ships it; fixed upstream in November 2025,
 * llvm-project pull request 169826): if
 * the master thread is just between filling its slot and its own callback,
 * for an explicit barrier say, that callback gets codeptr_ra NULL. The
 * construct would then be named after its parallel region's line, a region
 * that does not exist in the source. The call site is still on the stack:
 * the first return address below the runtime's frames is, by definition,
 * the codeptr_ra the runtime lost. Walking the stack costs microseconds, so
 * only callbacks of constructs that always come from the program's code
 * and should have an address do it (ompt_regions.c). */
#include <dlfcn.h>
#include <execinfo.h>
#include <stdbool.h>

#include "ompt_internal.h"

enum { MAX_FRAMES = 48 };

static const void *runtime_base; /* where the runtime's object is loaded */
static const void *tool_base;    /* where this library is */

static const void *object_base(const void *address)
{
    Dl_info info;
    return address && dladdr(address, &info) ? info.dli_fbase : NULL;
}

void weft__ompt_callsite_init(const void *address_in_runtime)
{
    runtime_base = object_base(address_in_runtime);
    tool_base = object_base((const void *)(uintptr_t)weft__ompt_callsite_init);
    /* The first backtrace loads the unwinder (dlopen of libgcc_s): here,
     * at start-up, not inside a callback. */
    void *warm[2];
    (void)backtrace(warm, 2);
}

const void *weft__ompt_callsite(void)
{
    if (!runtime_base || !tool_base)
        return NULL;
    void *frames[MAX_FRAMES];
    int n = backtrace(frames, MAX_FRAMES);
    bool below_runtime = false;
    for (int i = 0; i < n; i++) {
        const void *base = object_base(frames[i]);
        if (base == tool_base && !below_runtime)
            continue; /* this callback's own frames */
        if (base == runtime_base) {
            below_runtime = true;
            continue;
        }
        /* The first frame past the runtime's is the program's call site;
         * anything else (no runtime frame in between, another library
         * first) is not a construct's call and is not guessed at. */
        return below_runtime && base ? frames[i] : NULL;
    }
    return NULL;
}
