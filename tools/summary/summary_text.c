/* SPDX-License-Identifier: BSD-3-Clause */
/* The text format of `weft summary`: a few header lines, then one table per
 * section with names in the last column, so long names never break the
 * columns. Times are printed in seconds with microsecond digits. Sections
 * without data (no MPI, no OpenMP waiting) are left out; the rank-pair and
 * OpenMP location tables are cut to the heaviest rows like the regions. */
#include "summary.h"

#include "escape.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double seconds(const weft_summary *s, uint64_t ticks)
{
    return (double)ticks / (double)s->timer_resolution;
}

static double percent(uint64_t part, uint64_t whole)
{
    return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/* How many of COUNT rows to show for TOP (0 = all). */
static size_t shown_rows(size_t count, size_t top)
{
    return top == 0 || top > count ? count : top;
}

/* A rank in WIDTH columns; "?" when unknown. */
static void print_rank(FILE *out, int width, uint32_t rank)
{
    if (rank == WEFT_TRACE_NO_RANK)
        fprintf(out, "%*s", width, "?");
    else
        fprintf(out, "%*" PRIu32, width, rank);
}

static void print_header(FILE *out, const weft_summary *s, size_t shown)
{
    fprintf(out, "trace:            ");
    weft__cli_put_escaped(out, s->trace_path);
    fputc('\n', out);
    fprintf(out, "duration:         %.6f s\n", seconds(s, s->duration_ticks));
    fprintf(out, "location groups:  %" PRIu64 "\n", s->location_group_count);
    fprintf(out, "ranks:            %" PRIu64 "\n", s->rank_count);
    fprintf(out, "locations:        %" PRIu64 "\n", s->location_count);
    fprintf(out, "threads:          %" PRIu64 "\n", s->thread_count);
    fprintf(out, "events:           %" PRIu64 "\n", s->event_count);
    fprintf(out, "regions:          %zu", s->region_count);
    if (shown < s->region_count)
        fprintf(out, " (the %zu heaviest shown; --top 0 shows all)", shown);
    fprintf(out, "\n");
}

static void print_regions(FILE *out, const weft_summary *s, size_t shown)
{
    fprintf(out, "\n%10s %12s %12s %7s %12s %12s %12s  %s\n", "visits", "incl [s]", "excl [s]",
            "incl %", "min [s]", "mean [s]", "max [s]", "region");
    for (size_t i = 0; i < shown; i++) {
        const weft_summary_region *r = &s->regions[i];
        double mean =
            r->location_count ? seconds(s, r->incl_ticks) / (double)r->location_count : 0.0;
        fprintf(out, "%10" PRIu64 " %12.6f %12.6f %7.1f %12.6f %12.6f %12.6f  ", r->visits,
                seconds(s, r->incl_ticks), seconds(s, r->excl_ticks),
                percent(r->incl_ticks, s->root_incl_ticks), seconds(s, r->min_incl_ticks), mean,
                seconds(s, r->max_incl_ticks));
        weft__cli_put_escaped(out, r->name);
        fputc('\n', out);
    }
    fprintf(out, "\nincl %%: share of the summed inclusive time of root-level regions; "
                 "min/mean/max:\ninclusive time per location, over the locations that "
                 "entered the region.\n");
}

static void print_paradigms(FILE *out, const weft_summary *s)
{
    uint64_t total = 0;
    for (int p = 0; p < WEFT_SUMMARY_CLASS_COUNT; p++)
        total += s->paradigms[p].excl_ticks;
    fprintf(out, "\nparadigms (exclusive time: a region's own, without the regions inside it)\n");
    fprintf(out, "%10s %12s %7s  %s\n", "visits", "excl [s]", "excl %", "paradigm");
    for (int p = 0; p < WEFT_SUMMARY_CLASS_COUNT; p++) {
        const weft_summary_paradigm *t = &s->paradigms[p];
        if (t->visits == 0)
            continue;
        fprintf(out, "%10" PRIu64 " %12.6f %7.1f  %s\n", t->visits, seconds(s, t->excl_ticks),
                percent(t->excl_ticks, total), weft__summary_class_name((weft_summary_class)p));
    }
}

static void print_p2p_columns(FILE *out, weft_summary_p2p p)
{
    fprintf(out, " %12" PRIu64 " %14" PRIu64 " %12" PRIu64 " %14" PRIu64, p.sent_messages,
            p.sent_bytes, p.received_messages, p.received_bytes);
}

/* Heaviest first: bytes sent, then messages, then the natural order. */
static int compare_pair_weight(const void *pa, const void *pb)
{
    const weft_summary_pair *a = pa, *b = pb;
    uint64_t wa = a->p2p.sent_bytes + a->p2p.received_bytes;
    uint64_t wb = b->p2p.sent_bytes + b->p2p.received_bytes;
    if (wa != wb)
        return wa > wb ? -1 : 1;
    uint64_t ma = a->p2p.sent_messages + a->p2p.received_messages;
    uint64_t mb = b->p2p.sent_messages + b->p2p.received_messages;
    if (ma != mb)
        return ma > mb ? -1 : 1;
    if (a->sender != b->sender)
        return a->sender < b->sender ? -1 : 1;
    return a->receiver < b->receiver ? -1 : a->receiver > b->receiver;
}

static void print_pairs(FILE *out, const weft_summary *s, size_t top)
{
    size_t shown = shown_rows(s->pair_count, top);
    weft_summary_pair *sorted = malloc((s->pair_count ? s->pair_count : 1) * sizeof(*sorted));
    const weft_summary_pair *rows = s->pairs;
    if (sorted) { /* without memory, the natural order has to do */
        memcpy(sorted, s->pairs, s->pair_count * sizeof(*sorted));
        qsort(sorted, s->pair_count, sizeof(*sorted), compare_pair_weight);
        rows = sorted;
    }
    fprintf(out, "\nMPI point-to-point by rank pair");
    if (shown < s->pair_count)
        fprintf(out, " (the %zu heaviest of %zu)", shown, s->pair_count);
    fprintf(out, "\nworld ranks; sends counted by the sender, receives by the receiver");
    fprintf(out, "\n%9s %9s %12s %14s %12s %14s\n", "sender", "receiver", "sent msgs", "sent bytes",
            "recv msgs", "recv bytes");
    for (size_t i = 0; i < shown; i++) {
        print_rank(out, 9, rows[i].sender);
        fprintf(out, " ");
        print_rank(out, 9, rows[i].receiver);
        print_p2p_columns(out, rows[i].p2p);
        fprintf(out, "\n");
    }
    fprintf(out, "%9s %9s", "", "total");
    print_p2p_columns(out, s->p2p_total);
    fprintf(out, "\n");
    free(sorted);
}

static void print_comms(FILE *out, const weft_summary *s)
{
    fprintf(out, "\nMPI point-to-point by communicator\n%12s %14s %12s %14s %6s  %s\n", "sent msgs",
            "sent bytes", "recv msgs", "recv bytes", "size", "communicator");
    for (size_t i = 0; i < s->comm_count; i++) {
        const weft_summary_comm *c = &s->comms[i];
        const weft_summary_p2p *p = &c->p2p;
        if (p->sent_messages + p->received_messages == 0)
            continue;
        fprintf(out, "%12" PRIu64 " %14" PRIu64 " %12" PRIu64 " %14" PRIu64 " %6" PRIu64 "  ",
                p->sent_messages, p->sent_bytes, p->received_messages, p->received_bytes, c->size);
        weft__cli_put_escaped(out, c->name);
        fprintf(out, " (id %" PRIu32 ")\n", c->ref);
    }
}

static void print_collectives(FILE *out, const weft_summary *s)
{
    fprintf(out,
            "\nMPI collectives by operation and communicator (calls and bytes summed over "
            "ranks)\n%10s %14s %14s  %-22s %s\n",
            "calls", "sent bytes", "recv bytes", "operation", "communicator");
    for (size_t i = 0; i < s->collective_count; i++) {
        const weft_summary_collective *c = &s->collectives[i];
        const weft_summary_comm *comm = &s->comms[c->comm];
        const char *op = weft__summary_collective_name(c->op);
        char unknown[32];
        if (!op) {
            snprintf(unknown, sizeof(unknown), "operation %u", (unsigned)c->op);
            op = unknown;
        }
        fprintf(out, "%10" PRIu64 " %14" PRIu64 " %14" PRIu64 "  %-22s ", c->calls, c->sent_bytes,
                c->received_bytes, op);
        weft__cli_put_escaped(out, comm->name);
        fprintf(out, " (id %" PRIu32 ")\n", comm->ref);
    }
}

static uint64_t waiting(const weft_summary_omp *o)
{
    return o->explicit_barrier_ticks + o->implicit_barrier_ticks + o->lock_wait_ticks;
}

static int compare_waiting(const void *pa, const void *pb)
{
    const weft_summary_location *a = pa, *b = pb;
    uint64_t wa = waiting(&a->omp), wb = waiting(&b->omp);
    if (wa != wb)
        return wa > wb ? -1 : 1;
    return a->ref < b->ref ? -1 : a->ref > b->ref;
}

static void print_omp_row(FILE *out, const weft_summary *s, const weft_summary_omp *o)
{
    fprintf(out, "%12.6f %8" PRIu64 " %12.6f %8" PRIu64 " %12.6f %8" PRIu64,
            seconds(s, o->explicit_barrier_ticks), o->explicit_barrier_visits,
            seconds(s, o->implicit_barrier_ticks), o->implicit_barrier_visits,
            seconds(s, o->lock_wait_ticks), o->lock_acquisitions);
}

static void print_omp(FILE *out, const weft_summary *s, size_t top)
{
    size_t count = s->omp_location_count;
    size_t shown = shown_rows(count, top);
    weft_summary_location *sorted = malloc((count ? count : 1) * sizeof(*sorted));
    const weft_summary_location *rows = s->omp_locations;
    if (sorted) {
        memcpy(sorted, s->omp_locations, count * sizeof(*sorted));
        qsort(sorted, count, sizeof(*sorted), compare_waiting);
        rows = sorted;
    }
    fprintf(out, "\nOpenMP waiting");
    if (shown < count)
        fprintf(out, " (the %zu locations waiting longest of %zu)", shown, count);
    fprintf(out, "\nbarriers: time in explicit and implicit barrier regions; lock: from "
                 "entering a critical\nconstruct, omp_set_lock or omp_set_nest_lock to "
                 "acquiring the lock");
    fprintf(out, "\n%12s %8s %12s %8s %12s %8s %5s  %s\n", "explicit [s]", "visits", "implicit [s]",
            "visits", "lock [s]", "acquired", "rank", "location");
    for (size_t i = 0; i < shown; i++) {
        print_omp_row(out, s, &rows[i].omp);
        fprintf(out, " ");
        print_rank(out, 5, rows[i].rank);
        fprintf(out, "  ");
        weft__cli_put_escaped(out, rows[i].name);
        fputc('\n', out);
    }
    print_omp_row(out, s, &s->omp_total);
    fprintf(out, " %5s  total\n", "");
    free(sorted);
}

static void print_io(FILE *out, const weft_summary *s)
{
    fprintf(out,
            "\nI/O by rank and file (MPI-IO; time from each operation's begin to its "
            "completion)\n%6s %8s %14s %8s %14s %8s %12s  %s\n",
            "rank", "reads", "read bytes", "writes", "written bytes", "flushes", "time [s]",
            "file");
    for (size_t i = 0; i < s->io_count; i++) {
        const weft_summary_io *r = &s->io[i];
        print_rank(out, 6, r->rank);
        fprintf(out,
                " %8" PRIu64 " %14" PRIu64 " %8" PRIu64 " %14" PRIu64 " %8" PRIu64 " %12.6f  %s\n",
                r->reads, r->read_bytes, r->writes, r->written_bytes, r->flushes,
                seconds(s, r->ticks), r->file);
    }
}

/* Most events first, then by name. */
static int compare_events(const void *pa, const void *pb)
{
    const weft_summary_region *a = pa, *b = pb;
    if (a->events != b->events)
        return a->events > b->events ? -1 : 1;
    return strcmp(a->name, b->name);
}

/* The regions that added the most events, for a user deciding what to
 * leave out: at most 10 rows (TOP when smaller; all with TOP 0). */
static void print_event_producers(FILE *out, const weft_summary *s, size_t top)
{
    size_t count = s->region_count;
    size_t shown = shown_rows(count, top == 0 ? 0 : top < 10 ? top : 10);
    weft_summary_region *sorted = malloc((count ? count : 1) * sizeof(*sorted));
    if (!sorted)
        return; /* an extra of the text format: without memory it is left out */
    memcpy(sorted, s->regions, count * sizeof(*sorted));
    qsort(sorted, count, sizeof(*sorted), compare_events);
    fprintf(out, "\nthe regions that produced the most events (each event counted to the region "
                 "it was\nrecorded in, its own enter and leave included): what to leave out for "
                 "a smaller trace\n");
    fprintf(out, "%12s %8s %10s %9s  %-11s %s\n", "events", "events %", "visits", "per visit",
            "paradigm", "region");
    for (size_t i = 0; i < shown; i++) {
        const weft_summary_region *r = &sorted[i];
        fprintf(out, "%12" PRIu64 " %8.1f %10" PRIu64 " %9.1f  %-11s ", r->events,
                percent(r->events, s->event_count), r->visits,
                r->visits ? (double)r->events / (double)r->visits : 0.0,
                weft__summary_class_name(r->paradigm));
        weft__cli_put_escaped(out, r->name);
        fputc('\n', out);
    }
    if (s->unattributed_events)
        fprintf(out, "%12" PRIu64 " %8.1f %10s %9s  %-11s (outside any region)\n",
                s->unattributed_events, percent(s->unattributed_events, s->event_count), "", "",
                "");
    fprintf(out, "OpenMP kinds: WEFT_OPENMP_EVENTS=-flush,...; regions by name: a filter file "
                 "(EXCLUDE name,\nfor OpenMP regions '!$omp?flush*'); see "
                 "docs/CONFIGURATION.md\n");
    free(sorted);
}

void weft__summary_print_text(FILE *out, const weft_summary *s, size_t top)
{
    size_t shown = shown_rows(s->region_count, top);
    print_header(out, s, shown);
    if (s->region_count > 0) {
        print_regions(out, s, shown);
        print_paradigms(out, s);
    }
    if (s->pair_count > 0) {
        print_pairs(out, s, top);
        print_comms(out, s);
    }
    if (s->collective_count > 0)
        print_collectives(out, s);
    if (s->omp_location_count > 0)
        print_omp(out, s, top);
    if (s->io_count > 0)
        print_io(out, s);
    if (s->region_count > 0)
        print_event_producers(out, s, top);
}
