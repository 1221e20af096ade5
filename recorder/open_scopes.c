/* Open regions and teams per location; see open_scopes.h. Runs in the
 * writer, off the recording threads' path. */
#include "open_scopes.h"

#include "weft/alloc.h"
#include "weft/log.h"

void weft__scopes_open_slow(weft_open_scopes *s, weft_scope_kind kind, uint32_t id)
{
    if (s->overflow)
        return;
    if (s->depth == s->capacity) {
        uint32_t capacity = s->capacity ? s->capacity * 2 : 32;
        uint64_t *items = weft_realloc(s->items, capacity * sizeof(*items));
        if (!items) {
            s->overflow = true;
            weft_log_verbose("out of memory tracking open regions; regions left open at the "
                             "end are not closed");
            return;
        }
        s->items = items;
        s->capacity = capacity;
    }
    s->items[s->depth++] = weft__scope_item(kind, id);
}

void weft__scopes_close_slow(weft_open_scopes *s, weft_scope_kind kind, uint32_t id)
{
    uint64_t wanted = weft__scope_item(kind, id);
    for (uint32_t i = s->depth; i > 0; i--) {
        if (s->items[i - 1] == wanted) {
            s->depth = i - 1;
            return;
        }
    }
    /* Not open (a leave without its enter): nothing to close later. */
}

bool weft__scopes_pop(weft_open_scopes *s, weft_scope_kind *kind, uint32_t *id)
{
    if (s->overflow || s->depth == 0)
        return false;
    uint64_t top = s->items[--s->depth];
    *kind = (weft_scope_kind)(top >> 32);
    *id = (uint32_t)top;
    return true;
}

void weft__scopes_free(weft_open_scopes *s)
{
    weft_free(s->items);
    *s = (weft_open_scopes){0};
}
