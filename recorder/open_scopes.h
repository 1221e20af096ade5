/* SPDX-License-Identifier: BSD-3-Clause */
/* What is still open on a location: regions entered and not left, thread
 * teams begun and not ended, forks not joined, locks acquired and not
 * released, tracked by the sink as it writes each event.
 *
 * Some event sources never send their closing half: the LLVM OpenMP
 * runtime, for one, ends without the implicit-task-end and barrier-end
 * callbacks of its worker threads; a program may exit inside a region, or
 * from a thread while the master waits inside a parallel region (its fork
 * then has no join); a thread may end inside a region on a location that
 * another thread continues (location.h); a signal ends it anywhere. The
 * sink closes what is left, innermost first, at the thread's last event
 * when a thread ends, and at finalisation at the location's last timestamp
 * (or the signal's), so every location's enter/leave, team begin/end and
 * fork/join balance in the trace and no lock stays held
 * (see docs/OPENMP-OMPT.md and docs/FAULTS.md). */
#ifndef WEFT_RECORDER_OPEN_SCOPES_H
#define WEFT_RECORDER_OPEN_SCOPES_H

#include <stdbool.h>
#include <stdint.h>

#include "weft/compiler.h"

typedef enum weft_scope_kind {
    WEFT_SCOPE_REGION = 1, /* id: the region */
    WEFT_SCOPE_TEAM = 2,   /* id: the team's comm */
    WEFT_SCOPE_FORK = 3,   /* id 0; small: the paradigm */
    WEFT_SCOPE_LOCK = 4,   /* id: the lock, small: the paradigm, extra: acquisition order */
} weft_scope_kind;

typedef struct weft_scope {
    uint32_t id;
    uint32_t extra; /* a lock: its acquisition order; a team: the thread's number in it */
    /* The task the scope was opened in, as the location's last task switch
     * named it: creating thread and generation, generation 0 for the
     * implicit task (the sink closes a scope in its own task). */
    uint32_t task_thread, task_generation;
    uint32_t barriers; /* a team: the OpenMP barriers left in it (team_barriers.h) */
    uint8_t kind;      /* weft_scope_kind */
    uint8_t small;
} weft_scope;

typedef struct weft_open_scopes {
    weft_scope *items; /* innermost last */
    uint32_t depth, capacity;
    bool overflow; /* out of memory once: tracking stopped */
} weft_open_scopes;

void weft__scopes_open_slow(weft_open_scopes *s, weft_scope scope);
bool weft__scopes_close_slow(weft_open_scopes *s, weft_scope_kind kind, uint32_t id);

/* The writer notes every enter and leave here, so the common cases (room
 * on the stack; a leave of the innermost scope) are inline. */

/* Notes an opening: an enter, team begin, fork or lock acquisition (with
 * its paradigm, order and task; see sink.c). */
static inline void weft__scopes_open_scope(weft_open_scopes *s, weft_scope scope)
{
    if (WEFT_LIKELY(s->depth < s->capacity && !s->overflow))
        s->items[s->depth++] = scope;
    else
        weft__scopes_open_slow(s, scope);
}

/* Notes a leave / team end / join (id 0) / lock release: removes the
 * innermost matching scope and, when the events were not properly nested,
 * the regions, teams and forks inside it (a lock, which need not nest, is
 * removed alone; held locks stay when a region closes). False when nothing
 * matched (a closing whose opening this location did not record). */
static inline bool weft__scopes_close(weft_open_scopes *s, weft_scope_kind kind, uint32_t id)
{
    if (WEFT_LIKELY(s->depth > 0 && s->items[s->depth - 1].kind == kind &&
                    s->items[s->depth - 1].id == id)) {
        s->depth--;
        return true;
    }
    return weft__scopes_close_slow(s, kind, id);
}

/* Pops the innermost open scope into *out; false when none. */
bool weft__scopes_pop(weft_open_scopes *s, weft_scope *out);

void weft__scopes_free(weft_open_scopes *s);

#endif /* WEFT_RECORDER_OPEN_SCOPES_H */
