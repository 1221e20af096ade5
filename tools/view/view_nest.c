/* SPDX-License-Identifier: BSD-3-Clause */
/* The open regions of the location being read, shared by both passes of
 * `weft view` so that pass A (which plans) and pass B (which selects) see
 * the same visits. It repairs what weft summary repairs, the same way: a
 * leave of a region that is not open is ignored; a leave of a region open
 * further down closes what was entered after it at the same time; what is
 * still open at the location's end closes at its last enter/leave. Times
 * never go back on one location (a later event earlier than the one before
 * it is taken at that one's time), so visits of one depth never overlap. */
#include "view.h"
#include "grow.h"

#include <stdlib.h>
#include <string.h>

bool weft__view_nest_init(view_nest *n, size_t region_count, const view_nest_hooks *hooks,
                          void *ctx)
{
    *n = (view_nest){.region_count = region_count, .hooks = hooks, .ctx = ctx};
    n->open = calloc(region_count ? region_count : 1, sizeof(*n->open));
    return n->open != NULL;
}

void weft__view_nest_begin(view_nest *n)
{
    n->depth = 0;
    n->now = 0;
    memset(n->open, 0, (n->region_count ? n->region_count : 1) * sizeof(*n->open));
}

/* Time passes to T with the current innermost region. */
static void advance(view_nest *n, uint64_t t)
{
    if (t <= n->now)
        return;
    if (n->hooks->span) {
        const view_frame *top = n->depth ? &n->stack[n->depth - 1] : NULL;
        n->hooks->span(n->ctx, n->now, t, top != NULL, top ? top->region : 0,
                       n->depth ? n->depth - 1 : 0);
    }
    n->now = t;
}

bool weft__view_nest_enter(view_nest *n, uint64_t region, uint64_t time)
{
    if (region >= n->region_count)
        return true;
    if (!weft__cli_grow(&n->stack, &n->capacity, n->depth + 1, sizeof(*n->stack)))
        return false;
    advance(n, time);
    n->stack[n->depth++] = (view_frame){region, n->now, n->open[region] == 0};
    n->open[region]++;
    if (n->hooks->enter)
        n->hooks->enter(n->ctx, region, n->now);
    return true;
}

static void close_top(view_nest *n)
{
    view_frame f = n->stack[--n->depth];
    n->open[f.region]--;
    if (n->hooks->visit)
        n->hooks->visit(n->ctx, &f, n->now, n->depth);
}

void weft__view_nest_leave(view_nest *n, uint64_t region, uint64_t time)
{
    advance(n, time);
    if (region >= n->region_count || n->open[region] == 0) {
        n->unbalanced++;
        return;
    }
    while (n->stack[n->depth - 1].region != region) {
        close_top(n);
        n->unbalanced++;
    }
    close_top(n);
}

void weft__view_nest_end(view_nest *n)
{
    while (n->depth > 0) {
        close_top(n);
        n->unbalanced++;
    }
}

void weft__view_nest_free(view_nest *n)
{
    free(n->stack);
    free(n->open);
    *n = (view_nest){0};
}
