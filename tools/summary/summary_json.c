/* SPDX-License-Identifier: BSD-3-Clause */
/* The JSON format of `weft summary`: one object, schema version 1, every
 * field documented in docs/COMMANDS.md. Keys never disappear: empty sections
 * are empty arrays and zero totals. Times are seconds with nanosecond
 * digits; names from the trace are escaped (control characters, DEL and
 * the C1 controls as \u00NN, so a terminal shows them rather than obeys
 * them), and bytes that are not UTF-8 become U+FFFD, so the output is always
 * valid JSON. A new field may be added without a new schema version;
 * renaming or removing one needs it. */
#include "summary.h"

#include "escape.h"

#include <inttypes.h>
#include <stdio.h>

#define SCHEMA_VERSION 1

static double seconds(const weft_summary *s, uint64_t ticks)
{
    return (double)ticks / (double)s->timer_resolution;
}

static double percent(uint64_t part, uint64_t whole)
{
    return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

static void print_string(FILE *out, const char *text)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)text; *p;) {
        int n = weft__cli_utf8_length(p);
        if (n == 0) {
            fputs("\\ufffd", out);
            p++;
        } else if (*p == '"' || *p == '\\') {
            fprintf(out, "\\%c", *p++);
        } else if (*p < 0x20 || *p == 0x7f) {
            fprintf(out, "\\u%04x", *p++);
        } else if (n == 2 && p[0] == 0xc2 && p[1] < 0xa0) {
            /* C1 controls (U+0080..U+009F): some terminals obey them */
            fprintf(out, "\\u%04x", p[1]);
            p += 2;
        } else {
            fwrite(p, 1, (size_t)n, out);
            p += n;
        }
    }
    fputc('"', out);
}

/* A world rank, or null when unknown. */
static void print_rank(FILE *out, uint32_t rank)
{
    if (rank == WEFT_TRACE_NO_RANK)
        fputs("null", out);
    else
        fprintf(out, "%" PRIu32, rank);
}

static void print_header(FILE *out, const weft_summary *s, const char *version)
{
    fprintf(out, "{\n  \"schema_version\": %d,\n  \"generator\": ", SCHEMA_VERSION);
    print_string(out, "weft summary");
    fprintf(out, ",\n  \"weft_version\": ");
    print_string(out, version);
    fprintf(out, ",\n  \"trace\": ");
    print_string(out, s->trace_path);
    fprintf(out,
            ",\n  \"timer_resolution\": %" PRIu64 ",\n  \"duration_s\": %.9f,\n"
            "  \"location_groups\": %" PRIu64 ",\n  \"ranks\": %" PRIu64 ",\n"
            "  \"locations\": %" PRIu64 ",\n  \"threads\": %" PRIu64 ",\n"
            "  \"events\": %" PRIu64 ",\n  \"unbalanced_events\": %" PRIu64 ",\n"
            "  \"undefined_region_events\": %" PRIu64 ",\n"
            "  \"undefined_communicator_events\": %" PRIu64 ",\n"
            "  \"events_outside_regions\": %" PRIu64 ",\n"
            "  \"root_inclusive_s\": %.9f,\n  \"regions_total\": %zu,\n",
            s->timer_resolution, seconds(s, s->duration_ticks), s->location_group_count,
            s->rank_count, s->location_count, s->thread_count, s->event_count, s->unbalanced_count,
            s->undefined_region_count, s->undefined_comm_count, s->unattributed_events,
            seconds(s, s->root_incl_ticks), s->region_count);
}

static void print_regions(FILE *out, const weft_summary *s, size_t top)
{
    size_t shown = top == 0 || top > s->region_count ? s->region_count : top;
    fprintf(out, "  \"regions\": [");
    for (size_t i = 0; i < shown; i++) {
        const weft_summary_region *r = &s->regions[i];
        double mean =
            r->location_count ? seconds(s, r->incl_ticks) / (double)r->location_count : 0.0;
        fprintf(out, "%s\n    {\"name\": ", i ? "," : "");
        print_string(out, r->name);
        fprintf(out,
                ", \"paradigm\": \"%s\", \"visits\": %" PRIu64 ", \"inclusive_s\": %.9f, "
                "\"exclusive_s\": %.9f, \"inclusive_pct\": %.3f, \"min_s\": %.9f, "
                "\"mean_s\": %.9f, \"max_s\": %.9f, \"location_count\": %" PRIu64
                ", \"events\": %" PRIu64 "}",
                weft__summary_class_name(r->paradigm), r->visits, seconds(s, r->incl_ticks),
                seconds(s, r->excl_ticks), percent(r->incl_ticks, s->root_incl_ticks),
                seconds(s, r->min_incl_ticks), mean, seconds(s, r->max_incl_ticks),
                r->location_count, r->events);
    }
    fprintf(out, "%s],\n", shown ? "\n  " : "");
}

static void print_paradigms(FILE *out, const weft_summary *s)
{
    uint64_t total = 0;
    for (int p = 0; p < WEFT_SUMMARY_CLASS_COUNT; p++)
        total += s->paradigms[p].excl_ticks;
    fprintf(out, "  \"paradigms\": [");
    for (int p = 0; p < WEFT_SUMMARY_CLASS_COUNT; p++) {
        const weft_summary_paradigm *t = &s->paradigms[p];
        fprintf(out,
                "%s\n    {\"paradigm\": \"%s\", \"visits\": %" PRIu64
                ", \"exclusive_s\": %.9f, \"exclusive_pct\": %.3f}",
                p ? "," : "", weft__summary_class_name((weft_summary_class)p), t->visits,
                seconds(s, t->excl_ticks), percent(t->excl_ticks, total));
    }
    fprintf(out, "\n  ],\n");
}

static void print_p2p(FILE *out, weft_summary_p2p p)
{
    fprintf(out,
            "\"sent_messages\": %" PRIu64 ", \"sent_bytes\": %" PRIu64
            ", \"received_messages\": %" PRIu64 ", \"received_bytes\": %" PRIu64,
            p.sent_messages, p.sent_bytes, p.received_messages, p.received_bytes);
}

static void print_mpi(FILE *out, const weft_summary *s)
{
    fprintf(out, "  \"mpi\": {\n    \"p2p_total\": {");
    print_p2p(out, s->p2p_total);
    fprintf(out, "},\n    \"p2p_by_rank_pair\": [");
    for (size_t i = 0; i < s->pair_count; i++) {
        fprintf(out, "%s\n      {\"sender\": ", i ? "," : "");
        print_rank(out, s->pairs[i].sender);
        fprintf(out, ", \"receiver\": ");
        print_rank(out, s->pairs[i].receiver);
        fprintf(out, ", ");
        print_p2p(out, s->pairs[i].p2p);
        fprintf(out, "}");
    }
    fprintf(out, "%s],\n    \"p2p_by_communicator\": [", s->pair_count ? "\n    " : "");
    size_t rows = 0;
    for (size_t i = 0; i < s->comm_count; i++) {
        const weft_summary_comm *c = &s->comms[i];
        if (c->p2p.sent_messages + c->p2p.received_messages == 0)
            continue;
        fprintf(out, "%s\n      {\"communicator\": %" PRIu32 ", \"name\": ", rows++ ? "," : "",
                c->ref);
        print_string(out, c->name);
        fprintf(out, ", \"size\": %" PRIu64 ", ", c->size);
        print_p2p(out, c->p2p);
        fprintf(out, "}");
    }
    fprintf(out, "%s],\n    \"collectives\": [", rows ? "\n    " : "");
    for (size_t i = 0; i < s->collective_count; i++) {
        const weft_summary_collective *c = &s->collectives[i];
        const weft_summary_comm *comm = &s->comms[c->comm];
        const char *op = weft__summary_collective_name(c->op);
        fprintf(out, "%s\n      {\"operation\": ", i ? "," : "");
        if (op)
            print_string(out, op);
        else
            fprintf(out, "\"operation %u\"", (unsigned)c->op);
        fprintf(out, ", \"communicator\": %" PRIu32 ", \"communicator_name\": ", comm->ref);
        print_string(out, comm->name);
        fprintf(out,
                ", \"communicator_size\": %" PRIu64 ", \"calls\": %" PRIu64
                ", \"sent_bytes\": %" PRIu64 ", \"received_bytes\": %" PRIu64 "}",
                comm->size, c->calls, c->sent_bytes, c->received_bytes);
    }
    fprintf(out, "%s]\n  },\n", s->collective_count ? "\n    " : "");
}

static void print_omp_fields(FILE *out, const weft_summary *s, const weft_summary_omp *o)
{
    fprintf(out,
            "\"explicit_barrier_s\": %.9f, \"explicit_barrier_visits\": %" PRIu64
            ", \"implicit_barrier_s\": %.9f, \"implicit_barrier_visits\": %" PRIu64
            ", \"lock_wait_s\": %.9f, \"lock_acquisitions\": %" PRIu64,
            seconds(s, o->explicit_barrier_ticks), o->explicit_barrier_visits,
            seconds(s, o->implicit_barrier_ticks), o->implicit_barrier_visits,
            seconds(s, o->lock_wait_ticks), o->lock_acquisitions);
}

static void print_omp(FILE *out, const weft_summary *s)
{
    fprintf(out, "  \"openmp\": {\n    \"total\": {");
    print_omp_fields(out, s, &s->omp_total);
    fprintf(out, "},\n    \"locations\": [");
    for (size_t i = 0; i < s->omp_location_count; i++) {
        const weft_summary_location *l = &s->omp_locations[i];
        fprintf(out, "%s\n      {\"location\": %" PRIu64 ", \"name\": ", i ? "," : "", l->ref);
        print_string(out, l->name);
        fprintf(out, ", \"rank\": ");
        print_rank(out, l->rank);
        fprintf(out, ", ");
        print_omp_fields(out, s, &l->omp);
        fprintf(out, "}");
    }
    fprintf(out, "%s]\n  }\n}\n", s->omp_location_count ? "\n    " : "");
}

static void print_io(FILE *out, const weft_summary *s)
{
    fprintf(out, "  \"io\": [");
    for (size_t i = 0; i < s->io_count; i++) {
        const weft_summary_io *r = &s->io[i];
        fprintf(out, "%s\n    {\"rank\": ", i ? "," : "");
        print_rank(out, r->rank);
        fprintf(out, ", \"file\": ");
        print_string(out, r->file);
        fprintf(out,
                ", \"reads\": %" PRIu64 ", \"read_bytes\": %" PRIu64 ", \"writes\": %" PRIu64
                ", \"written_bytes\": %" PRIu64 ", \"flushes\": %" PRIu64 ", \"time_s\": %.9f}",
                r->reads, r->read_bytes, r->writes, r->written_bytes, r->flushes,
                seconds(s, r->ticks));
    }
    fprintf(out, "%s],\n", s->io_count ? "\n  " : "");
}

void weft__summary_print_json(FILE *out, const weft_summary *s, size_t top, const char *version)
{
    print_header(out, s, version);
    print_regions(out, s, top);
    print_paradigms(out, s);
    print_mpi(out, s);
    print_io(out, s);
    print_omp(out, s);
}
