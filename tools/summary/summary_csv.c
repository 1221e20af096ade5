/* SPDX-License-Identifier: BSD-3-Clause */
/* The CSV format of `weft summary`: one table per run, chosen with --table,
 * with a header row and RFC 4180 quoting (a field holding a comma, a quote,
 * or leading or trailing blanks is quoted, quotes doubled). Control
 * characters in names, line breaks included, are escaped as the text format
 * escapes them (escape.h), so every row is one line.
 * Column names equal the JSON keys (docs/COMMANDS.md); times are seconds
 * with nanosecond digits; an unknown rank is an empty field. */
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

const char *weft__summary_table_name(weft_summary_table_id table)
{
    static const char *const names[WEFT_SUMMARY_TABLE_COUNT] = {
        [WEFT_SUMMARY_TABLE_OVERVIEW] = "overview",
        [WEFT_SUMMARY_TABLE_REGIONS] = "regions",
        [WEFT_SUMMARY_TABLE_PARADIGMS] = "paradigms",
        [WEFT_SUMMARY_TABLE_P2P_PAIRS] = "p2p_pairs",
        [WEFT_SUMMARY_TABLE_P2P_COMMUNICATORS] = "p2p_communicators",
        [WEFT_SUMMARY_TABLE_COLLECTIVES] = "collectives",
        [WEFT_SUMMARY_TABLE_OPENMP_LOCATIONS] = "openmp_locations",
        [WEFT_SUMMARY_TABLE_IO] = "io",
    };
    return (unsigned)table < WEFT_SUMMARY_TABLE_COUNT ? names[table] : NULL;
}

static void print_quoted(FILE *out, const char *text)
{
    size_t len = strlen(text);
    bool quote =
        strpbrk(text, ",\"") != NULL || (len > 0 && (text[0] == ' ' || text[len - 1] == ' '));
    if (!quote) {
        fputs(text, out);
        return;
    }
    fputc('"', out);
    for (const char *p = text; *p; p++) {
        if (*p == '"')
            fputc('"', out);
        fputc(*p, out);
    }
    fputc('"', out);
}

/* A name from the trace: control characters escaped (escape.h; so also line
 * breaks and tabs: a row is always one line), then quoted when needed. */
static void print_field(FILE *out, const char *text)
{
    size_t size = 4 * strlen(text) + 1; /* an escape is at most 4 bytes per byte */
    char *escaped = malloc(size);
    if (!escaped) {
        fputs("?", out);
        return;
    }
    print_quoted(out, weft__cli_escape(text, escaped, size));
    free(escaped);
}

static void print_rank(FILE *out, uint32_t rank)
{
    if (rank != WEFT_TRACE_NO_RANK)
        fprintf(out, "%" PRIu32, rank);
}

static void print_overview(FILE *out, const weft_summary *s)
{
    fputs("trace,duration_s,location_groups,ranks,locations,threads,events,regions_total,"
          "unbalanced_events,undefined_region_events,undefined_communicator_events\n",
          out);
    print_field(out, s->trace_path);
    fprintf(out,
            ",%.9f,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%zu,%" PRIu64
            ",%" PRIu64 ",%" PRIu64 "\n",
            seconds(s, s->duration_ticks), s->location_group_count, s->rank_count,
            s->location_count, s->thread_count, s->event_count, s->region_count,
            s->unbalanced_count, s->undefined_region_count, s->undefined_comm_count);
}

static void print_regions(FILE *out, const weft_summary *s, size_t top)
{
    size_t shown = top == 0 || top > s->region_count ? s->region_count : top;
    fputs("name,paradigm,visits,inclusive_s,exclusive_s,inclusive_pct,min_s,mean_s,max_s,"
          "location_count,events\n",
          out);
    for (size_t i = 0; i < shown; i++) {
        const weft_summary_region *r = &s->regions[i];
        double mean =
            r->location_count ? seconds(s, r->incl_ticks) / (double)r->location_count : 0.0;
        print_field(out, r->name);
        fprintf(out, ",%s,%" PRIu64 ",%.9f,%.9f,%.3f,%.9f,%.9f,%.9f,%" PRIu64 ",%" PRIu64 "\n",
                weft__summary_class_name(r->paradigm), r->visits, seconds(s, r->incl_ticks),
                seconds(s, r->excl_ticks), percent(r->incl_ticks, s->root_incl_ticks),
                seconds(s, r->min_incl_ticks), mean, seconds(s, r->max_incl_ticks),
                r->location_count, r->events);
    }
}

static void print_paradigms(FILE *out, const weft_summary *s)
{
    uint64_t total = 0;
    for (int p = 0; p < WEFT_SUMMARY_CLASS_COUNT; p++)
        total += s->paradigms[p].excl_ticks;
    fputs("paradigm,visits,exclusive_s,exclusive_pct\n", out);
    for (int p = 0; p < WEFT_SUMMARY_CLASS_COUNT; p++) {
        const weft_summary_paradigm *t = &s->paradigms[p];
        fprintf(out, "%s,%" PRIu64 ",%.9f,%.3f\n", weft__summary_class_name((weft_summary_class)p),
                t->visits, seconds(s, t->excl_ticks), percent(t->excl_ticks, total));
    }
}

#define P2P_COLUMNS "sent_messages,sent_bytes,received_messages,received_bytes"

static void print_p2p(FILE *out, weft_summary_p2p p)
{
    fprintf(out, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n", p.sent_messages,
            p.sent_bytes, p.received_messages, p.received_bytes);
}

static void print_pairs(FILE *out, const weft_summary *s)
{
    fputs("sender,receiver," P2P_COLUMNS "\n", out);
    for (size_t i = 0; i < s->pair_count; i++) {
        print_rank(out, s->pairs[i].sender);
        fputc(',', out);
        print_rank(out, s->pairs[i].receiver);
        print_p2p(out, s->pairs[i].p2p);
    }
}

static void print_comms(FILE *out, const weft_summary *s)
{
    fputs("communicator,name,size," P2P_COLUMNS "\n", out);
    for (size_t i = 0; i < s->comm_count; i++) {
        const weft_summary_comm *c = &s->comms[i];
        if (c->p2p.sent_messages + c->p2p.received_messages == 0)
            continue;
        fprintf(out, "%" PRIu32 ",", c->ref);
        print_field(out, c->name);
        fprintf(out, ",%" PRIu64, c->size);
        print_p2p(out, c->p2p);
    }
}

static void print_collectives(FILE *out, const weft_summary *s)
{
    fputs("operation,communicator,communicator_name,communicator_size,calls,sent_bytes,"
          "received_bytes\n",
          out);
    for (size_t i = 0; i < s->collective_count; i++) {
        const weft_summary_collective *c = &s->collectives[i];
        const weft_summary_comm *comm = &s->comms[c->comm];
        const char *op = weft__summary_collective_name(c->op);
        if (op)
            fputs(op, out);
        else
            fprintf(out, "operation %u", (unsigned)c->op);
        fprintf(out, ",%" PRIu32 ",", comm->ref);
        print_field(out, comm->name);
        fprintf(out, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n", comm->size, c->calls,
                c->sent_bytes, c->received_bytes);
    }
}

static void print_omp(FILE *out, const weft_summary *s)
{
    fputs("location,name,rank,explicit_barrier_s,explicit_barrier_visits,implicit_barrier_s,"
          "implicit_barrier_visits,lock_wait_s,lock_acquisitions\n",
          out);
    for (size_t i = 0; i < s->omp_location_count; i++) {
        const weft_summary_location *l = &s->omp_locations[i];
        const weft_summary_omp *o = &l->omp;
        fprintf(out, "%" PRIu64 ",", l->ref);
        print_field(out, l->name);
        fputc(',', out);
        print_rank(out, l->rank);
        fprintf(out, ",%.9f,%" PRIu64 ",%.9f,%" PRIu64 ",%.9f,%" PRIu64 "\n",
                seconds(s, o->explicit_barrier_ticks), o->explicit_barrier_visits,
                seconds(s, o->implicit_barrier_ticks), o->implicit_barrier_visits,
                seconds(s, o->lock_wait_ticks), o->lock_acquisitions);
    }
}

static void print_io(FILE *out, const weft_summary *s)
{
    fprintf(out, "rank,file,reads,read_bytes,writes,written_bytes,flushes,time_s\n");
    for (size_t i = 0; i < s->io_count; i++) {
        const weft_summary_io *r = &s->io[i];
        print_rank(out, r->rank);
        fputc(',', out);
        print_field(out, r->file);
        fprintf(out, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%.9f\n",
                r->reads, r->read_bytes, r->writes, r->written_bytes, r->flushes,
                seconds(s, r->ticks));
    }
}

void weft__summary_print_csv(FILE *out, const weft_summary *s, weft_summary_table_id table,
                             size_t top)
{
    switch (table) {
    case WEFT_SUMMARY_TABLE_OVERVIEW:
        print_overview(out, s);
        break;
    case WEFT_SUMMARY_TABLE_REGIONS:
        print_regions(out, s, top);
        break;
    case WEFT_SUMMARY_TABLE_PARADIGMS:
        print_paradigms(out, s);
        break;
    case WEFT_SUMMARY_TABLE_P2P_PAIRS:
        print_pairs(out, s);
        break;
    case WEFT_SUMMARY_TABLE_P2P_COMMUNICATORS:
        print_comms(out, s);
        break;
    case WEFT_SUMMARY_TABLE_COLLECTIVES:
        print_collectives(out, s);
        break;
    case WEFT_SUMMARY_TABLE_IO:
        print_io(out, s);
        break;
    case WEFT_SUMMARY_TABLE_OPENMP_LOCATIONS:
    case WEFT_SUMMARY_TABLE_COUNT:
        print_omp(out, s);
        break;
    }
}
