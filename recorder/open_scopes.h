/* What is still open on a location: regions entered and not left, thread
 * teams begun and not ended, tracked by the sink as it writes each event.
 *
 * Some event sources never send their closing half: the LLVM OpenMP
 * runtime, for one, ends without the implicit-task-end and barrier-end
 * callbacks of its worker threads, and a program may exit inside a region.
 * At finalisation the sink closes what is left, innermost first, at the
 * location's last timestamp, so every location's enter/leave and team
 * begin/end balance in the trace (see docs/OPENMP-OMPT.md). */
#ifndef WEFT_RECORDER_OPEN_SCOPES_H
#define WEFT_RECORDER_OPEN_SCOPES_H

#include <stdbool.h>
#include <stdint.h>

#include "weft/compiler.h"

typedef struct weft_open_scopes {
    uint64_t *items; /* kind << 32 | id, innermost last */
    uint32_t depth, capacity;
    bool overflow; /* out of memory once: tracking stopped */
} weft_open_scopes;

typedef enum weft_scope_kind { WEFT_SCOPE_REGION = 1, WEFT_SCOPE_TEAM = 2 } weft_scope_kind;

/* The writer notes every enter and leave here, so the common cases (room
 * on the stack; a leave of the innermost scope) are inline. */
static inline uint64_t weft__scope_item(weft_scope_kind kind, uint32_t id)
{
    return (uint64_t)kind << 32 | id;
}

void weft__scopes_open_slow(weft_open_scopes *s, weft_scope_kind kind, uint32_t id);
void weft__scopes_close_slow(weft_open_scopes *s, weft_scope_kind kind, uint32_t id);

/* Notes an enter / team begin. */
static inline void weft__scopes_open(weft_open_scopes *s, weft_scope_kind kind, uint32_t id)
{
    if (WEFT_LIKELY(s->depth < s->capacity && !s->overflow))
        s->items[s->depth++] = weft__scope_item(kind, id);
    else
        weft__scopes_open_slow(s, kind, id);
}

/* Notes a leave / team end: removes the innermost matching scope (and,
 * when the events were not properly nested, the ones inside it). */
static inline void weft__scopes_close(weft_open_scopes *s, weft_scope_kind kind, uint32_t id)
{
    if (WEFT_LIKELY(s->depth > 0 && s->items[s->depth - 1] == weft__scope_item(kind, id)))
        s->depth--;
    else
        weft__scopes_close_slow(s, kind, id);
}

/* Pops the innermost open scope into *kind and *id; false when none. */
bool weft__scopes_pop(weft_open_scopes *s, weft_scope_kind *kind, uint32_t *id);

void weft__scopes_free(weft_open_scopes *s);

#endif /* WEFT_RECORDER_OPEN_SCOPES_H */
