/* SPDX-License-Identifier: BSD-3-Clause */
/* Pass A's accumulators (VIEW-FORMAT.md sections 5 and 8), fed by the
 * nesting of one location at a time:
 * - the pyramid: per level, the ticks each (region, depth) was innermost in
 *   the bin being filled, in a small hash map; a closed bin stores its
 *   winner and hands its sums to the next coarser level's map, and every
 *   fourth bin closes that level's bin the same way;
 * - profile bins: visits, inclusive (outermost instances) and exclusive
 *   ticks per bin and region;
 * - for the plan: the duration histogram, the visits ending in each finest
 *   bin, the LEB128 bytes every visit would take, and a sample: the visits
 *   of every location ending in a stretch of time after the middle of the
 *   run, which compressed in the table's order tells the bytes a visit
 *   takes in the page far better than raw byte counts (regular traces
 *   compress tenfold).
 * Memory: bins x locations per level, bins x regions for the profile. */
#include "view.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define LEVEL_FACTOR 4
#define MAX_FINEST_BINS 65536
#define MIN_LEVEL_BINS 64
#define MAX_CELLS (UINT64_C(1) << 24) /* finest bins x locations */
#define MAX_PROFILE_BINS 4096
#define MAX_PROFILE_CELLS (UINT64_C(1) << 21) /* bins x regions: 48 MiB of counters */
#define SAMPLE_VISITS 65536
#define DEPTH_BITS 20
#define EMPTY UINT64_MAX

/* --- (region, depth) -> ticks: open addressing, cleared through its used list ------- */

struct view_map {
    uint64_t *keys, *values;
    size_t *used;
    size_t count, capacity; /* a power of two */
};

static view_map *map_new(void)
{
    view_map *m = calloc(1, sizeof(*m));
    if (!m)
        return NULL;
    m->capacity = 16;
    m->keys = malloc(m->capacity * sizeof(*m->keys));
    m->values = calloc(m->capacity, sizeof(*m->values));
    m->used = malloc(m->capacity * sizeof(*m->used));
    if (!m->keys || !m->values || !m->used) {
        free(m->keys), free(m->values), free(m->used), free(m);
        return NULL;
    }
    memset(m->keys, 0xff, m->capacity * sizeof(*m->keys));
    return m;
}

static void map_free(view_map *m)
{
    if (m)
        free(m->keys), free(m->values), free(m->used), free(m);
}

static size_t slot_of(const view_map *m, uint64_t key)
{
    size_t i = (size_t)((key * UINT64_C(0x9e3779b97f4a7c15)) >> 32) & (m->capacity - 1);
    while (m->keys[i] != EMPTY && m->keys[i] != key)
        i = (i + 1) & (m->capacity - 1);
    return i;
}

static bool map_grow(view_map *m)
{
    view_map bigger = {.capacity = 2 * m->capacity};
    bigger.keys = malloc(bigger.capacity * sizeof(*bigger.keys));
    bigger.values = calloc(bigger.capacity, sizeof(*bigger.values));
    bigger.used = malloc(bigger.capacity * sizeof(*bigger.used));
    if (!bigger.keys || !bigger.values || !bigger.used) {
        free(bigger.keys), free(bigger.values), free(bigger.used);
        return false;
    }
    memset(bigger.keys, 0xff, bigger.capacity * sizeof(*bigger.keys));
    for (size_t u = 0; u < m->count; u++) {
        size_t old = m->used[u];
        size_t i = slot_of(&bigger, m->keys[old]);
        bigger.keys[i] = m->keys[old];
        bigger.values[i] = m->values[old];
        bigger.used[bigger.count++] = i;
    }
    free(m->keys), free(m->values), free(m->used);
    *m = bigger;
    return true;
}

/* Adds TICKS to KEY; a failed growth drops them (the bin's winner may be off). */
static void map_add(view_map *m, uint64_t key, uint64_t ticks)
{
    if (2 * (m->count + 1) > m->capacity && !map_grow(m))
        return;
    size_t i = slot_of(m, key);
    if (m->keys[i] == EMPTY) {
        m->keys[i] = key;
        m->values[i] = 0;
        m->used[m->count++] = i;
    }
    m->values[i] += ticks;
}

static void map_clear(view_map *m)
{
    for (size_t u = 0; u < m->count; u++)
        m->keys[m->used[u]] = EMPTY;
    m->count = 0;
}

/* --- Histograms -------------------------------------------------------------------- */

uint64_t weft__view_edge(size_t k)
{
    return k == 0 ? 0 : (uint64_t)ceil(pow(2.0, (double)(k - 1) / 4.0));
}

size_t weft__view_bucket(uint64_t d)
{
    size_t lo = 0, hi = VIEW_HISTOGRAM_BUCKETS - 1;
    while (lo < hi) {
        size_t mid = (lo + hi + 1) / 2;
        if (weft__view_edge(mid) <= d)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

/* --- Set-up ------------------------------------------------------------------------ */

bool weft__view_lod_init(view_lod *l, uint64_t duration, size_t locations, size_t regions)
{
    *l = (view_lod){.location_count = locations, .region_count = regions};
    uint64_t n = 1, locs = locations ? locations : 1;
    while (n * LEVEL_FACTOR <= MAX_FINEST_BINS && n * LEVEL_FACTOR <= duration &&
           n * LEVEL_FACTOR * locs <= MAX_CELLS)
        n *= LEVEL_FACTOR;
    l->n0 = n;
    l->w0 = (duration + 1 + n - 1) / n;
    if (l->w0 == 0)
        l->w0 = 1;
    for (uint64_t bins = n, width = l->w0;; bins /= LEVEL_FACTOR, width *= LEVEL_FACTOR) {
        view_level *lv = &l->levels[l->level_count++];
        lv->bins = bins;
        lv->width = width;
        lv->region = calloc(bins * locs, sizeof(*lv->region));
        lv->depth = calloc(bins * locs, sizeof(*lv->depth));
        if (!lv->region || !lv->depth)
            return false;
        if (bins / LEVEL_FACTOR < MIN_LEVEL_BINS || bins < LEVEL_FACTOR ||
            l->level_count == VIEW_MAX_LEVELS)
            break;
    }
    for (size_t j = 0; j < l->level_count; j++) {
        if (!(l->maps[j] = map_new()))
            return false;
    }
    /* Profile bins: as many as MAX_PROFILE_BINS, fewer when the regions are so
     * many that bins x regions counters would not fit MAX_PROFILE_CELLS. */
    uint64_t pb = n < MAX_PROFILE_BINS ? n : MAX_PROFILE_BINS;
    uint64_t r = regions ? regions : 1;
    while (pb > 1 && pb * r > MAX_PROFILE_CELLS)
        pb /= 2;
    l->profile_bins = pb;
    l->profile_width = l->w0 * (n / pb);
    l->profile = calloc(pb * r * 3, sizeof(*l->profile));
    l->ends = calloc(n, sizeof(*l->ends));
    l->sample = malloc(SAMPLE_VISITS * VIS_WORDS * sizeof(*l->sample));
    if (!l->profile || !l->ends || !l->sample)
        return false;
    l->sample_from = n / 2 * l->w0;
    l->sample_span = n * l->w0 - l->sample_from;
    return true;
}

void weft__view_lod_free(view_lod *l)
{
    for (size_t j = 0; j < l->level_count; j++) {
        free(l->levels[j].region);
        free(l->levels[j].depth);
        map_free(l->maps[j]);
    }
    free(l->profile);
    free(l->ends);
    free(l->sample);
    *l = (view_lod){0};
}

void weft__view_lod_location(view_lod *l, size_t display_loc)
{
    l->loc = display_loc;
    l->t = 0;
    l->last_end = 0;
    for (size_t j = 0; j < l->level_count; j++) {
        l->bin[j] = 0;
        map_clear(l->maps[j]);
    }
}

/* --- The pyramid -------------------------------------------------------------------- */

static void close_bin(view_lod *l, size_t j)
{
    view_level *lv = &l->levels[j];
    view_map *m = l->maps[j];
    uint64_t best = 0, best_time = 0;
    bool any = false;
    for (size_t u = 0; u < m->count; u++) {
        uint64_t key = m->keys[m->used[u]], time = m->values[m->used[u]];
        /* More time wins; on a tie running beats idle, then the lower region, depth. */
        if (!any || time > best_time ||
            (time == best_time && (best == 0 || (key != 0 && key < best)))) {
            best = key;
            best_time = time;
            any = true;
        }
    }
    if (l->bin[j] < lv->bins) {
        size_t at = l->loc * lv->bins + l->bin[j];
        lv->region[at] = (uint32_t)(best >> DEPTH_BITS);
        uint64_t depth = best & ((UINT64_C(1) << DEPTH_BITS) - 1);
        lv->depth[at] = (uint16_t)(depth > UINT16_MAX ? UINT16_MAX : depth);
    }
    bool up = j + 1 < l->level_count;
    if (up) {
        for (size_t u = 0; u < m->count; u++)
            map_add(l->maps[j + 1], m->keys[m->used[u]], m->values[m->used[u]]);
    }
    map_clear(m);
    l->bin[j]++;
    if (up && l->bin[j] % LEVEL_FACTOR == 0)
        close_bin(l, j + 1);
}

/* Adds [a, b) of REGION to one of the profile's quantities, split over bins. */
static void profile_split(view_lod *l, size_t quantity, uint64_t a, uint64_t b, uint64_t region)
{
    uint64_t w = l->profile_width;
    uint64_t bin = a / w;
    while (a < b && bin < l->profile_bins) {
        uint64_t e = (bin + 1) * w < b ? (bin + 1) * w : b;
        l->profile[(bin * l->region_count + region) * 3 + quantity] += e - a;
        a = e;
        bin++;
    }
}

void weft__view_lod_span(view_lod *l, uint64_t a, uint64_t b, bool running, uint64_t region,
                         uint64_t depth)
{
    if (b <= a)
        return;
    if (running)
        profile_split(l, 2, a, b, region);
    uint64_t d = depth < (UINT64_C(1) << DEPTH_BITS) ? depth : (UINT64_C(1) << DEPTH_BITS) - 1;
    uint64_t key = running ? (region + 1) << DEPTH_BITS | d : 0;
    while (a < b && l->bin[0] < l->n0) {
        uint64_t bin_end = (l->bin[0] + 1) * l->w0;
        uint64_t e = b < bin_end ? b : bin_end;
        map_add(l->maps[0], key, e - a);
        a = e;
        if (a == bin_end)
            close_bin(l, 0);
    }
    l->t = b;
}

void weft__view_lod_enter(view_lod *l, uint64_t region, uint64_t time)
{
    uint64_t bin = time / l->profile_width;
    if (bin < l->profile_bins)
        l->profile[(bin * l->region_count + region) * 3]++;
}

/* Keeps the visit when it ends inside the sample's stretch; a full sample
 * halves the stretch and drops what falls outside. */
static void sample(view_lod *l, uint64_t end, uint64_t dur, uint64_t depth, uint64_t region)
{
    if (end < l->sample_from || end - l->sample_from >= l->sample_span)
        return;
    while (l->sample_count == SAMPLE_VISITS) {
        if (l->sample_span < 2)
            return;
        l->sample_span /= 2;
        size_t kept = 0;
        for (size_t i = 0; i < l->sample_count; i++) {
            const uint64_t *r = &l->sample[i * VIS_WORDS];
            if (r[VIS_END] - l->sample_from < l->sample_span)
                memmove(&l->sample[kept++ * VIS_WORDS], r, VIS_WORDS * sizeof(*r));
        }
        l->sample_count = kept;
        if (end - l->sample_from >= l->sample_span)
            return;
    }
    uint64_t *r = &l->sample[l->sample_count++ * VIS_WORDS];
    r[VIS_END] = end, r[VIS_LOC] = l->loc, r[VIS_SEQ] = l->sample_seq++;
    r[VIS_DUR] = dur, r[VIS_DEPTH] = depth, r[VIS_REGION] = region;
}

void weft__view_lod_visit(view_lod *l, const view_frame *f, uint64_t end, uint64_t depth)
{
    uint64_t dur = end - f->start;
    if (f->outer)
        profile_split(l, 1, f->start, end, f->region);
    l->durations[weft__view_bucket(dur)]++;
    uint64_t bin = end / l->w0;
    l->ends[bin < l->n0 ? bin : l->n0 - 1]++;
    l->visits++;
    l->visit_bytes += weft__view_uvar_length(end - l->last_end) + weft__view_uvar_length(dur) +
                      weft__view_uvar_length(l->loc) + weft__view_uvar_length(depth) +
                      weft__view_uvar_length(f->region);
    sample(l, end, dur, depth, f->region);
    l->last_end = end;
}

void weft__view_lod_location_end(view_lod *l)
{
    weft__view_lod_span(l, l->t, l->n0 * l->w0, false, 0, 0);
}

static int compare_sample(const void *pa, const void *pb)
{
    const uint64_t *a = pa, *b = pb;
    for (int k = 0; k < SORT_KEYS; k++) {
        if (a[k] != b[k])
            return a[k] < b[k] ? -1 : 1;
    }
    return 0;
}

double weft__view_lod_bytes_per_visit(view_lod *l)
{
    if (l->sample_count == 0)
        return 0;
    qsort(l->sample, l->sample_count, VIS_WORDS * sizeof(*l->sample), compare_sample);
    view_table t;
    bool cut = false, ok = weft__view_table_init(&t, &weft__view_visits_spec);
    for (size_t i = 0; ok && i < l->sample_count; i++) {
        const uint64_t *r = &l->sample[i * VIS_WORDS];
        uint64_t row[5] = {r[VIS_END], r[VIS_DUR], r[VIS_LOC], r[VIS_DEPTH], r[VIS_REGION]};
        weft__view_table_add(&t, row);
    }
    ok = ok && weft__view_table_finish(&t, 0, &cut);
    double bytes = ok ? (double)weft__view_element_bytes("visits", t.z.out.len) : 0;
    weft__view_table_free(&t);
    return bytes / (double)l->sample_count;
}
