/* Checks the trace of one run of an MPI test program (mpi_*.c) with N
 * ranks. First what every MPI trace must satisfy - the weft-check basics,
 * one location group per rank, Score-P location ids, clock offsets, the
 * MPI group and communicator definitions, MPI records only inside the MPI
 * regions that may hold them, request ids, messages matched across ranks,
 * collective sequences per communicator - then the scenario's own
 * expectations: exact calls per MPI region and location, message tags,
 * peers and sizes, byte counts of collectives, communicator members.
 *
 *   check_mpi_trace ANCHOR SCENARIO RANKS [COUNTS_DIR [SOURCE]]
 *
 * SCENARIO: p2p, nonblocking, collectives, comms, hybrid, hybrid_ompt, fortran, clock, io,
 * rma, topo, families.
 * COUNTS_DIR holds the counts.RANK files the program wrote; SOURCE is the
 * program's source (hybrid: for the lines of its OpenMP regions). Prints
 * one line per failed check and exits 1 if any failed, 2 on bad usage. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_check.h"

static const mpi_scenario *const scenarios[] = {
    &mpi_scenario_p2p,    &mpi_scenario_nonblocking, &mpi_scenario_collectives, &mpi_scenario_comms,
    &mpi_scenario_hybrid, &mpi_scenario_hybrid_ompt, &mpi_scenario_fortran,    &mpi_scenario_clock,
    &mpi_scenario_io,     &mpi_scenario_rma,         &mpi_scenario_topo,
    &mpi_scenario_families,
};

static const mpi_scenario *scenario_named(const char *name)
{
    for (size_t i = 0; i < sizeof scenarios / sizeof scenarios[0]; i++) {
        if (strcmp(scenarios[i]->name, name) == 0)
            return scenarios[i];
    }
    return NULL;
}

static void check_expected_calls(const mpi_ctx *ctx, const mpi_scenario *s)
{
    for (uint32_t rank = 0; rank < ctx->ranks; rank++) {
        for (uint32_t thread = 0; thread < s->threads; thread++) {
            const trace_location_stats *loc = mpi_location(ctx, rank, thread);
            if (loc == NULL)
                continue; /* reported by mpi_check_locations */
            mpi_expected_calls x = {.count = 0};
            s->expect(ctx, rank, thread, &x);
            mpi_check_calls(ctx, loc, &x);
        }
    }
}

/* With WEFT_METRIC_RUSAGE set for the run (a list of names): one metric
 * class of that many members in the unified definitions, and on every
 * location one METRIC event of it right before each enter and leave. */
static void check_metrics(const trace_model *t)
{
    const char *names = getenv("WEFT_METRIC_RUSAGE");
    if (!names)
        return;
    unsigned members = 1;
    for (const char *c = names; *c; c++)
        members += *c == ',';
    if (t->metric_class_count != 1 || t->metric_classes[0].member_count != members) {
        mpi_fail("metrics: %zu metric classes, expected one of %u members", t->metric_class_count,
                 members);
        return;
    }
    for (size_t l = 0; l < t->location_count; l++) {
        const trace_location_stats *loc = &t->locations[l];
        uint64_t regions = loc->kind_counts[TRACE_EVENT_ENTER] + loc->kind_counts[TRACE_EVENT_LEAVE];
        if (loc->kind_counts[TRACE_EVENT_METRIC] != regions)
            mpi_fail("metrics: %s has %llu METRIC events for %llu enters and leaves", loc->name,
                     (unsigned long long)loc->kind_counts[TRACE_EVENT_METRIC],
                     (unsigned long long)regions);
        for (size_t i = 0; i + 1 < loc->event_count; i++) {
            const trace_event *e = &loc->events[i];
            if (e->kind == TRACE_EVENT_METRIC &&
                (e->metric != t->metric_classes[0].id ||
                 (loc->events[i + 1].kind != TRACE_EVENT_ENTER &&
                  loc->events[i + 1].kind != TRACE_EVENT_LEAVE))) {
                mpi_fail("metrics: %s: event %zu is not a METRIC of the class before an enter or "
                         "leave", loc->name, i);
                break;
            }
        }
    }
}

int main(int argc, char **argv)
{
    if (argc < 4 || argc > 6) {
        fprintf(stderr, "usage: check_mpi_trace ANCHOR SCENARIO RANKS [COUNTS_DIR [SOURCE]]\n");
        return 2;
    }
    const mpi_scenario *s = scenario_named(argv[2]);
    long ranks = strtol(argv[3], NULL, 10);
    if (s == NULL || ranks < 1 || ranks > 1024) {
        fprintf(stderr, "check_mpi_trace: unknown scenario '%s' or bad rank count '%s'\n", argv[2],
                argv[3]);
        return 2;
    }
    trace_options opt = {.keep_events = true};
    trace_model *t = NULL;
    char err[512] = "";
    if (trace_load(argv[1], &opt, &t, err, sizeof err) != 0) {
        printf("check_mpi_trace: cannot read the trace: %s\n", err);
        return 1;
    }
    mpi_ctx ctx;
    if (mpi_ctx_init(&ctx, t, (uint32_t)ranks) == 0) {
        ctx.counts_dir = argc > 4 ? argv[4] : NULL;
        ctx.source = argc > 5 ? argv[5] : NULL;
        mpi_check_basics(&ctx);
        int basic_failures = mpi_failures();
        printf("check_mpi_trace: basics (balanced regions, time order, records): %s\n",
               basic_failures ? "FAILED" : "ok");
        mpi_check_locations(&ctx, s->threads, s->min_offsets);
        mpi_check_finalize_overlap(&ctx);
        mpi_check_comm_definitions(&ctx);
        mpi_check_mpi_events(&ctx);
        check_expected_calls(&ctx, s);
        for (size_t i = 0; i < t->comm_count; i++) {
            if (t->comms[i].id < 65536 && t->comms[i].id >= ctx.comm_slots)
                ctx.comm_slots = t->comms[i].id + 1;
        }
        ctx.messages_per_comm = calloc(ctx.comm_slots + 1, sizeof *ctx.messages_per_comm);
        ctx.messages = mpi_check_messages(&ctx, ctx.messages_per_comm, ctx.comm_slots);
        mpi_check_collective_sequences(&ctx);
        if (s->check != NULL)
            s->check(&ctx);
        check_metrics(t);
        printf("check_mpi_trace: %s on %ld ranks: %zu locations, %" PRIu64 " events, %" PRIu64
               " messages matched\n",
               s->name, ranks, t->location_count, trace_total_events(t), ctx.messages);
    }
    free(ctx.messages_per_comm);
    mpi_ctx_free(&ctx);
    trace_free(t);
    if (mpi_failures())
        printf("check_mpi_trace: %d check(s) failed\n", mpi_failures());
    return mpi_failures() ? 1 : 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
