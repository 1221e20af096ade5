/* SPDX-License-Identifier: BSD-3-Clause */
/* Every table of a `weft view` page, built into memory as compressed
 * payloads (at most the size bound in all): the pyramid levels and the
 * profile bins from pass A's arrays, the marker tables from their sorted
 * spills, and the visits table from pass B's spill. Tables that must stay
 * within a share stop at a block boundary when the next block would not fit
 * (view_table.c's hard stop); near the limit blocks get smaller (add_record),
 * so little room is left unused. */
#include "view.h"

#include <string.h>

#define MIN_BLOCK 64
#define FINISH_RESERVE 16

/* Raw bytes of the block being filled. */
static size_t pending_bytes(const view_table *t)
{
    size_t n = 0;
    for (size_t c = 0; c < t->spec->columns; c++)
        n += t->col[c].len;
    return n;
}

/* Adds one record; a full block is fed within LIMIT. Under a LIMIT a block
 * is also fed as soon as its raw bytes (a bound on what it compresses to)
 * reach half the room left, so blocks shrink as the table nears its limit
 * and the one that no longer fits is small. False once the table was cut
 * there (*CUT) or failed. */
static bool add_record(view_table *t, const uint64_t *values, uint64_t limit, bool *cut)
{
    weft__view_table_add(t, values);
    bool full = t->in_block >= t->block_records;
    if (!full && limit > 0 && t->in_block >= MIN_BLOCK) {
        uint64_t used = t->z.out.len + FINISH_RESERVE;
        uint64_t room = limit > used ? limit - used : 0;
        full = 2 * (uint64_t)pending_bytes(t) >= room;
    }
    if (!full)
        return true;
    weft__view_table_encode_block(t);
    return weft__view_table_feed_block(t, limit, cut);
}

/* Moves a finished table into the page; false when out of memory. */
static bool keep(view_page *p, const char *name, view_table *t)
{
    if (t->z.out.failed || p->table_count == sizeof(p->tables) / sizeof(p->tables[0]))
        return false;
    view_built *b = &p->tables[p->table_count++];
    *b = (view_built){.spec = t->spec, .count = t->count, .raw = t->z.raw, .payload = t->z.out};
    snprintf(b->name, sizeof(b->name), "%s", name);
    t->z.out = (view_buf){0};
    p->used += weft__view_element_bytes(name, b->payload.len);
    weft__view_table_free(t);
    return true;
}

/* The payload limit that keeps an element of NAME within ALLOWANCE page bytes. */
static uint64_t payload_limit(const char *name, uint64_t allowance)
{
    uint64_t overhead = weft__view_element_bytes(name, 0) + 8;
    if (allowance <= overhead)
        return 1;
    uint64_t text = allowance - overhead;
    uint64_t payload = text * 76 / 77 / 4 * 3;
    return payload > 1 ? payload : 1;
}

/* --- Pyramid and profile ------------------------------------------------------------- */

bool weft__view_table_level(const view_state *s, size_t j, view_table *t)
{
    const view_level *lv = &s->lod.levels[j];
    if (!weft__view_table_init(t, &weft__view_lod_spec))
        return false;
    bool cut = false;
    uint64_t n = lv->bins * s->defs.location_count;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t row[2] = {lv->region[i], lv->depth[i]};
        if (!add_record(t, row, 0, &cut))
            return false;
    }
    return weft__view_table_finish(t, 0, &cut);
}

bool weft__view_table_profile(const view_state *s, uint64_t merge, view_table *t)
{
    const view_lod *l = &s->lod;
    if (!weft__view_table_init(t, &weft__view_profile_spec))
        return false;
    bool cut = false;
    uint64_t bins = (l->profile_bins + merge - 1) / merge;
    for (uint64_t b = 0; b < bins; b++) {
        for (uint64_t r = 0; r < l->region_count; r++) {
            uint64_t sum[3] = {0, 0, 0};
            for (uint64_t k = b * merge; k < (b + 1) * merge && k < l->profile_bins; k++) {
                const uint64_t *cell = &l->profile[(k * l->region_count + r) * 3];
                sum[0] += cell[0], sum[1] += cell[1], sum[2] += cell[2];
            }
            if (!sum[0] && !sum[1] && !sum[2])
                continue;
            uint64_t row[5] = {b, r, sum[0], sum[1], sum[2]};
            if (!add_record(t, row, 0, &cut))
                return false;
        }
    }
    return weft__view_table_finish(t, 0, &cut);
}

weft_status weft__view_add_table(view_page *p, const char *name, view_table *t)
{
    return keep(p, name, t) ? WEFT_OK : WEFT_ERR_NO_MEMORY;
}

/* --- Markers and visits ------------------------------------------------------------- */

static bool overlaps(const view_detail *d, uint64_t a, uint64_t b)
{
    return d->have_window && a < d->window_end && b >= d->window_start;
}

/* One marker record of spill KIND as a table row; false when the detail
 * does not take it (ALL: take every one). Sets *TIME to its table time. */
static bool marker_row(int kind, const uint64_t *r, const view_detail *d, bool all, uint64_t *row,
                       uint64_t *time)
{
    switch (kind) {
    case 0: { /* messages */
        int64_t transfer = (int64_t)r[MSG_TRANSFER];
        uint64_t send = r[MSG_RECV] - r[MSG_TRANSFER];
        uint64_t lo = transfer < 0 ? r[MSG_RECV] : send, hi = transfer < 0 ? send : r[MSG_RECV];
        uint64_t length = transfer < 0 ? (uint64_t)-transfer : (uint64_t)transfer;
        if (!all && !overlaps(d, lo, hi) && !(d->have_min_transfer && length >= d->min_transfer))
            return false;
        uint64_t v[7] = {r[MSG_RECV], r[MSG_TRANSFER], r[MSG_SENDER], r[MSG_LOC],
                         r[MSG_TAG],  r[MSG_BYTES],    r[MSG_COMM]};
        memcpy(row, v, sizeof(v));
        *time = r[MSG_RECV];
        return true;
    }
    case 1: { /* collectives */
        if (!all && !overlaps(d, r[COL_END] - r[COL_DUR], r[COL_END]))
            return false;
        uint64_t v[8] = {r[COL_END],  r[COL_DUR],  r[COL_LOC],  r[COL_OP],
                         r[COL_COMM], r[COL_ROOT], r[COL_SENT], r[COL_RECEIVED]};
        memcpy(row, v, sizeof(v));
        *time = r[COL_END];
        return true;
    }
    default: { /* threads */
        if (!all && !overlaps(d, r[THR_TIME], r[THR_TIME]))
            return false;
        uint64_t v[4] = {r[THR_TIME], r[THR_LOC], r[THR_KIND], r[THR_TEAM]};
        memcpy(row, v, sizeof(v));
        *time = r[THR_TIME];
        return true;
    }
    }
}

/* Builds one marker table from its spill within ALLOWANCE page bytes.
 * *CUT_AT: the time of the first record left out, when it was cut. */
bool weft__view_table_markers(view_state *s, int kind, bool all, uint64_t allowance, view_table *t,
                              bool *cut, uint64_t *cut_at)
{
    static const view_table_spec *const specs[] = {
        &weft__view_messages_spec, &weft__view_collectives_spec, &weft__view_threads_spec};
    view_spill *spill = kind == 0 ? &s->messages : kind == 1 ? &s->collectives : &s->threads;
    *cut = false;
    if (!weft__view_table_init(t, specs[kind]) || !weft__view_spill_rewind(spill))
        return false;
    uint64_t limit = payload_limit(specs[kind]->name, allowance);
    uint64_t record[VIEW_SPILL_MAX_WORDS], row[8], time = 0, first = 0;
    while (weft__view_spill_next(spill, record)) {
        if (!marker_row(kind, record, &s->detail, all, row, &time))
            continue;
        if (t->in_block == 0)
            first = time;
        if (!add_record(t, row, limit, cut)) {
            *cut_at = first;
            return *cut && !t->z.out.failed;
        }
    }
    if (spill->failed)
        return false;
    bool ok = weft__view_table_finish(t, limit, cut);
    if (*cut)
        *cut_at = first;
    return ok;
}

/* The visits table from pass B's spill, within ALLOWANCE page bytes (the
 * hard stop): *CUT and *CUT_AT as above. */
bool weft__view_table_visits(view_state *s, uint64_t allowance, view_table *t, bool *cut,
                             uint64_t *cut_at)
{
    *cut = false;
    if (!weft__view_table_init(t, &weft__view_visits_spec) || !weft__view_spill_rewind(&s->visits))
        return false;
    uint64_t limit = payload_limit("visits", allowance);
    uint64_t r[VIS_WORDS], first = 0;
    while (weft__view_spill_next(&s->visits, r)) {
        uint64_t row[5] = {r[VIS_END], r[VIS_DUR], r[VIS_LOC], r[VIS_DEPTH], r[VIS_REGION]};
        if (t->in_block == 0)
            first = r[VIS_END];
        if (!add_record(t, row, limit, cut)) {
            *cut_at = first;
            return *cut && !t->z.out.failed;
        }
    }
    if (s->visits.failed)
        return false;
    bool ok = weft__view_table_finish(t, limit, cut);
    if (*cut)
        *cut_at = first;
    return ok;
}
