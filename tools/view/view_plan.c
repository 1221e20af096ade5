/* SPDX-License-Identifier: BSD-3-Clause */
/* The size plan of a `weft view` page (VIEW-FORMAT.md sections 6 and 7):
 * the template, the header and a margin first; the rest split into the
 * pyramid's share (levels coarsest first while they fit), the profile's
 * (bins merged pairwise until it fits), the markers' (all of them when they
 * fit, else those of the detail window and the long messages) and the
 * detail's (what is left). Pyramid, profile and markers are measured
 * compressed; the detail is planned from the page bytes per visit of pass
 * A's sample (the visits of a stretch of the run, compressed in the table's
 * order), with 25 % to spare, and the hard stop of view_tables.c keeps the
 * bound whatever the estimate. */
#include "view.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HEADER_SPARE (16 * 1024)
#define MARGIN (64 * 1024)
#define SHARE_PYRAMID 0.35
#define SHARE_PROFILE 0.10
#define SHARE_MARKERS 0.15
#define SPARE 1.25
#define LONG_VISITS_SHARE 0.4
#define LONG_MESSAGES_SHARE 0.3
#define MESSAGE_RATIO 0.75 /* a guess at compressed over raw bytes of messages */
/* The page indexes every embedded visit before its first frame: in Chromium
 * on the 2-core machine, busy, 3 M visits took 6 s, 13 M took 20 s. More
 * than this many make a page that opens slowly, whatever its size. */
#define MAX_DETAIL_VISITS 2000000

static void report(const view_state *s, const char *fmt, uint64_t a, uint64_t b)
{
    fprintf(stderr, "%s: ", VIEW_COMMAND);
    fprintf(stderr, fmt, a, b);
    fprintf(stderr, " for '%s'; raise --max-size\n", s->read.path);
}

weft_status weft__view_build_lod(view_state *s, view_page *p, const view_options *o)
{
    size_t before = 0, after = 0;
    if (!weft__view_template_parts(&before, &after))
        return WEFT_ERR_STATE;
    uint64_t template_bytes = before + (weft_view_template_size - after);
    if (!weft__view_header_definitions(s, &p->definitions))
        return WEFT_ERR_NO_MEMORY;
    uint64_t header = p->definitions.len + HEADER_SPARE;
    if (header > o->max_bytes / 5) {
        report(s,
               "the definitions take %" PRIu64 " bytes, more than 20 %% of the %" PRIu64
               " bytes --max-size allows",
               header, o->max_bytes);
        return WEFT_ERR_RANGE;
    }
    uint64_t fixed = template_bytes + header + MARGIN;
    if (fixed >= o->max_bytes) {
        report(s, "the page needs %" PRIu64 " bytes before any data, --max-size allows %" PRIu64,
               fixed, o->max_bytes);
        return WEFT_ERR_RANGE;
    }
    p->used = fixed;
    p->rest = o->max_bytes - fixed;
    p->planned[0] = (uint64_t)(SHARE_PYRAMID * (double)p->rest);
    p->planned[1] = (uint64_t)(SHARE_PROFILE * (double)p->rest);
    p->planned[2] = (uint64_t)(SHARE_MARKERS * (double)p->rest);

    uint64_t left = p->planned[0];
    for (size_t k = s->lod.level_count; k-- > 0;) {
        view_table t;
        if (!weft__view_table_level(s, k, &t)) {
            weft__view_table_free(&t);
            return WEFT_ERR_NO_MEMORY;
        }
        char name[32];
        snprintf(name, sizeof(name), "lod%u", (unsigned)k);
        uint64_t size = weft__view_element_bytes(name, t.z.out.len);
        if (size > left) {
            weft__view_table_free(&t);
            if (p->levels_written > 0)
                break;
            report(s,
                   "the coarsest summary level takes %" PRIu64 " bytes, more than the %" PRIu64
                   " bytes of its share",
                   size, left);
            return WEFT_ERR_RANGE;
        }
        left -= size;
        if (weft__view_add_table(p, name, &t) != WEFT_OK)
            return WEFT_ERR_NO_MEMORY;
        p->level_written[p->levels_written++] = k;
    }
    for (uint64_t merge = 1;; merge *= 2) {
        view_table t;
        if (!weft__view_table_profile(s, merge, &t)) {
            weft__view_table_free(&t);
            return WEFT_ERR_NO_MEMORY;
        }
        uint64_t bins = (s->lod.profile_bins + merge - 1) / merge;
        if (weft__view_element_bytes("profile", t.z.out.len) <= p->planned[1] || bins == 1) {
            p->profile_bins = bins;
            p->profile_width = s->lod.profile_width * merge;
            return weft__view_add_table(p, "profile", &t);
        }
        weft__view_table_free(&t);
    }
}

/* Builds the three marker tables within ALLOWANCE page bytes; ALL: every
 * marker. Adds them to the page unless ALL was asked and they did not fit
 * (then *FITS is false and nothing is added). */
static weft_status markers(view_state *s, view_page *p, bool all, uint64_t allowance, bool *fits)
{
    static const char *const names[] = {"messages", "collectives", "threads"};
    view_table t[3];
    memset(t, 0, sizeof(t));
    *fits = true;
    weft_status status = WEFT_OK;
    uint64_t left = allowance;
    size_t built = 0;
    for (; built < 3; built++) {
        bool cut = false;
        uint64_t cut_at = 0;
        if (!weft__view_table_markers(s, (int)built, all, left, &t[built], &cut, &cut_at)) {
            built++;
            status = WEFT_ERR_NO_MEMORY;
            break;
        }
        uint64_t size = weft__view_element_bytes(names[built], t[built].z.out.len);
        left = size < left ? left - size : 0;
        if (cut && all) {
            built++;
            *fits = false;
            break;
        }
        if (cut && (!s->detail.truncated || cut_at < s->detail.truncated_at)) {
            s->detail.truncated = true;
            s->detail.truncated_at = cut_at;
        }
    }
    if (status == WEFT_OK && *fits) {
        for (size_t k = 0; k < 3 && status == WEFT_OK; k++)
            status = weft__view_add_table(p, names[k], &t[k]);
        return status;
    }
    for (size_t k = 0; k < built; k++)
        weft__view_table_free(&t[k]);
    return status;
}

/* The smallest histogram edge with at most BUDGET items at or above it:
 * *COUNT of them; false when not even the top bucket fits. */
static bool threshold(const uint64_t *histogram, uint64_t budget, uint64_t *edge, uint64_t *count)
{
    uint64_t above = 0;
    size_t k = VIEW_HISTOGRAM_BUCKETS;
    while (k > 0 && above + histogram[k - 1] <= budget)
        above += histogram[--k];
    *count = above;
    if (k == VIEW_HISTOGRAM_BUCKETS)
        return false;
    *edge = weft__view_edge(k);
    return true;
}

/* The window around the middle of the run holding about BUDGET visits,
 * grown one finest bin at a time on alternate sides: the visits ending in
 * its bins (plus those still open at its end, a few per location). */
static void choose_window(view_state *s, uint64_t budget)
{
    const view_lod *l = &s->lod;
    uint64_t n = l->n0;
    uint64_t lo = n / 2, hi = lo, sum = 0;
    for (bool grew = true; grew;) {
        grew = false;
        if (hi < n && sum + l->ends[hi] <= budget) {
            sum += l->ends[hi++];
            grew = true;
        }
        if (lo > 0 && sum + l->ends[lo - 1] <= budget) {
            sum += l->ends[--lo];
            grew = true;
        }
    }
    if (hi == lo)
        return;
    s->detail.have_window = true;
    s->detail.window_start = lo * l->w0;
    s->detail.window_end = hi * l->w0 < s->defs.duration + 1 ? hi * l->w0 : s->defs.duration + 1;
}

weft_status weft__view_plan_detail(view_state *s, view_page *p, const view_options *o)
{
    view_detail *d = &s->detail;
    *d = (view_detail){0};
    weft_status status = markers(s, p, true, p->planned[2], &d->markers_all);
    if (status != WEFT_OK)
        return status;
    uint64_t reserved = d->markers_all ? 0 : p->planned[2];
    uint64_t budget = o->max_bytes > p->used + reserved ? o->max_bytes - p->used - reserved : 0;
    p->planned[3] = budget;

    const view_lod *l = &s->lod;
    /* Page bytes per visit: from the sample compressed in table order; when
     * there is none, the raw LEB128 bytes in base64 (an upper bound). */
    double per_visit = weft__view_lod_bytes_per_visit(&s->lod);
    if (per_visit <= 0)
        per_visit = (l->visits ? (double)l->visit_bytes / (double)l->visits : 8.0) * 4.0 / 3.0;
    double page_per_visit = per_visit * SPARE;
    if (!o->window_given && l->visits <= MAX_DETAIL_VISITS &&
        (double)l->visits * page_per_visit <= (double)budget) {
        d->everything = true;
        d->have_window = true;
        d->window_start = 0;
        d->window_end = s->defs.duration + 1;
        d->have_min_duration = true;
        d->min_duration = 0;
    } else {
        uint64_t k = (uint64_t)((double)budget / page_per_visit);
        if (k > MAX_DETAIL_VISITS)
            k = MAX_DETAIL_VISITS;
        uint64_t long_count = 0;
        d->have_min_duration = threshold(l->durations, (uint64_t)(LONG_VISITS_SHARE * (double)k),
                                         &d->min_duration, &long_count);
        if (o->window_given) {
            double res = (double)s->read.timer_resolution;
            double a = o->window_start_s * res, b = o->window_end_s * res;
            double limit = (double)s->defs.duration + 1;
            d->have_window = true;
            d->window_start = (uint64_t)(a < 0 ? 0 : a > limit ? limit : a);
            d->window_end = (uint64_t)(b < 0 ? 0 : b > limit ? limit : b);
            if (d->window_end <= d->window_start)
                d->have_window = false;
        } else {
            choose_window(s, k > long_count ? k - long_count : 0);
        }
    }
    if (!d->markers_all && s->stats.messages > 0) {
        double per_message = (double)s->stats.message_bytes_est / (double)s->stats.messages *
                             MESSAGE_RATIO * 4.0 / 3.0;
        uint64_t count = 0;
        uint64_t budget_messages = (uint64_t)(LONG_MESSAGES_SHARE * (double)p->planned[2] /
                                              (per_message > 1 ? per_message : 1));
        d->have_min_transfer = threshold(s->transfers, budget_messages, &d->min_transfer, &count);
    }
    return WEFT_OK;
}

weft_status weft__view_build_detail(view_state *s, view_page *p, const view_options *o)
{
    view_detail *d = &s->detail;
    if (!d->markers_all) {
        bool fits = true;
        weft_status status = markers(s, p, false, p->planned[2], &fits);
        if (status != WEFT_OK)
            return status;
    }
    uint64_t allowance = o->max_bytes > p->used ? o->max_bytes - p->used : 0;
    view_table t;
    bool cut = false;
    uint64_t cut_at = 0;
    if (!weft__view_table_visits(s, allowance, &t, &cut, &cut_at)) {
        weft__view_table_free(&t);
        weft__trace_report(&s->read, OTF2_SUCCESS, NULL,
                           s->visits.failed ? "cannot read back the temporary files for"
                                            : "out of memory writing the page of");
        return WEFT_ERR_NO_MEMORY;
    }
    if (cut && (!d->truncated || cut_at < d->truncated_at)) {
        d->truncated = true;
        d->truncated_at = cut_at;
    }
    return weft__view_add_table(p, "visits", &t);
}
