/* SPDX-License-Identifier: BSD-3-Clause */
/* Open scopes per location; see open_scopes.h. Runs in the writer, off the
 * recording threads' path. */
#include "open_scopes.h"

#include <string.h>

#include "weft/alloc.h"
#include "weft/log.h"

void weft__scopes_open_slow(weft_open_scopes *s, weft_scope scope)
{
    if (s->overflow)
        return;
    if (s->depth == s->capacity) {
        uint32_t capacity = s->capacity ? s->capacity * 2 : 32;
        weft_scope *items = weft_realloc(s->items, capacity * sizeof(*items));
        if (!items) {
            s->overflow = true;
            weft_log_verbose("out of memory tracking open regions; regions left open at the "
                             "end are not closed");
            return;
        }
        s->items = items;
        s->capacity = capacity;
    }
    s->items[s->depth++] = scope;
}

bool weft__scopes_close_slow(weft_open_scopes *s, weft_scope_kind kind, uint32_t id)
{
    for (uint32_t i = s->depth; i > 0; i--) {
        const weft_scope *it = &s->items[i - 1];
        if (it->kind != kind || (kind != WEFT_SCOPE_FORK && it->id != id))
            continue;
        if (kind == WEFT_SCOPE_LOCK) {
            memmove(&s->items[i - 1], &s->items[i], (s->depth - i) * sizeof(*s->items));
            s->depth--;
            return true;
        }
        /* Whatever else was open inside goes too, except held locks. */
        uint32_t kept = i - 1;
        for (uint32_t j = i; j < s->depth; j++) {
            if (s->items[j].kind == WEFT_SCOPE_LOCK)
                s->items[kept++] = s->items[j];
        }
        s->depth = kept;
        return true;
    }
    /* Not open (a leave without its enter): nothing to close later. After
     * an overflow the opening may just not have been tracked. */
    return s->overflow;
}

bool weft__scopes_pop(weft_open_scopes *s, weft_scope *out)
{
    if (s->overflow || s->depth == 0)
        return false;
    *out = s->items[--s->depth];
    return true;
}

void weft__scopes_free(weft_open_scopes *s)
{
    weft_free(s->items);
    *s = (weft_open_scopes){0};
}
