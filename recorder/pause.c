/* SPDX-License-Identifier: BSD-3-Clause */
/* Scopes across a pause; see pause.h. Runs only on the owner thread's slow
 * path, so it needs no lock. */
#include "pause.h"

#include <string.h>

#include "event_codec.h"
#include "weft/alloc.h"
#include "weft/log.h"

/* The opening kind an event opens or closes, or NONE for other events. */
static uint8_t scope_opening(uint8_t kind, bool *opens)
{
    *opens = true;
    switch (kind) {
    case WEFT_EVENT_ENTER:
    case WEFT_EVENT_THREAD_TEAM_BEGIN:
    case WEFT_EVENT_THREAD_FORK:
    case WEFT_EVENT_LOCK_ACQUIRE:
    case WEFT_EVENT_MPI_COLLECTIVE_BEGIN:
        return kind;
    case WEFT_EVENT_LEAVE:
        *opens = false;
        return WEFT_EVENT_ENTER;
    case WEFT_EVENT_THREAD_TEAM_END:
        *opens = false;
        return WEFT_EVENT_THREAD_TEAM_BEGIN;
    case WEFT_EVENT_THREAD_JOIN:
        *opens = false;
        return WEFT_EVENT_THREAD_FORK;
    case WEFT_EVENT_LOCK_RELEASE:
        *opens = false;
        return WEFT_EVENT_LOCK_ACQUIRE;
    case WEFT_EVENT_MPI_COLLECTIVE_END:
        *opens = false;
        return WEFT_EVENT_MPI_COLLECTIVE_BEGIN;
    default:
        return WEFT_EVENT_NONE;
    }
}

static bool push(weft_pause_stack *stack, uint8_t kind, uint32_t ref, bool recorded)
{
    if (stack->depth == stack->capacity) {
        uint32_t capacity = stack->capacity ? stack->capacity * 2 : 16;
        weft_pause_scope *bigger = weft_realloc(stack->items, capacity * sizeof(*bigger));
        if (!bigger)
            return false;
        stack->items = bigger;
        stack->capacity = capacity;
    }
    stack->items[stack->depth++] = (weft_pause_scope){ref, kind, recorded};
    return true;
}

/* Forks and collectives match by kind alone: a join names no team, and a
 * collective's begin no communicator (its end does). */
static bool by_kind_alone(uint8_t opening)
{
    return opening == WEFT_EVENT_THREAD_FORK || opening == WEFT_EVENT_MPI_COLLECTIVE_BEGIN;
}

/* The innermost pushed scope this closing matches, or -1. */
static int64_t find(const weft_pause_stack *stack, uint8_t opening, uint32_t ref)
{
    for (uint32_t i = stack->depth; i-- > 0;) {
        const weft_pause_scope *s = &stack->items[i];
        if (s->kind == opening && (by_kind_alone(opening) || s->ref == ref))
            return i;
    }
    return -1;
}

bool weft__pause_admit(weft_pause_stack *stack, uint8_t kind, uint32_t ref, bool paused)
{
    bool opens;
    uint8_t opening = scope_opening(kind, &opens);
    if (opening == WEFT_EVENT_NONE)
        return !paused;
    if (opens) {
        if (!paused && stack->depth == 0)
            return true;
        if (!push(stack, opening, by_kind_alone(opening) ? 0 : ref, !paused)) {
            /* Without the entry its closing would be recorded alone: record
             * the opening too, so the trace stays balanced. */
            weft_log_error("out of memory tracking regions across a pause; a region entered "
                           "during the pause is recorded");
            return true;
        }
        return !paused;
    }
    int64_t at = find(stack, opening, ref);
    if (at < 0)
        return true; /* opened before the pause began: close it in the trace */
    bool recorded = stack->items[at].recorded;
    memmove(&stack->items[at], &stack->items[at + 1],
            (stack->depth - (uint32_t)at - 1) * sizeof(*stack->items));
    stack->depth--;
    return recorded;
}

void weft__pause_free(weft_pause_stack *stack)
{
    weft_free(stack->items);
    memset(stack, 0, sizeof(*stack));
}
