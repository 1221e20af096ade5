/* Checks the OTF2 trace weft convert made of write_epilog's or
 * write_otf1's SCENARIO (write_epilog.c says what each holds): every region
 * visit per location, forks with their team size, team begins and ends,
 * lock events with their acquisition orders, messages with sizes,
 * collectives, metrics, and the program region weft convert adds around
 * every master thread's events. --from-otf1: OTF1 has no lock records and
 * gives a region its first line only. --no-main: the input had no "main"
 * region, the program region alone encloses the forks.
 *
 *   check_converted ANCHOR omp|mpi|hybrid [--metrics] [--from-otf1] [--no-main]
 *   check_converted --same ANCHOR ANCHOR
 *   check_converted ANCHOR --layout=N[,N...]
 *
 * --same: two conversions of one run (check_same.c says what must agree).
 * --layout: only the locations: one location group per N, rank r holding
 * threads 0 to N_r - 1, each a CPU thread in its group.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_same.h"
#include "otf2_trace.h"

static int failures;
static const trace_model *t;
static bool from_otf1;    /* no lock records, no end lines */
static bool without_main; /* the input had no main region */

static void expect(const char *where, const char *what, unsigned long long got,
                   unsigned long long want)
{
    if (got != want) {
        printf("check_converted: %s: %s: %llu, expected %llu\n", where, what, got, want);
        failures++;
    }
}

static uint64_t visits(const trace_location_stats *loc, const char *name)
{
    const trace_region *r = trace_region_by_name(t, name);
    return r ? trace_enter_count(loc, r->id) : 0;
}

/* The OpenMP part: two parallel regions of two threads per process. */
static void check_openmp(const trace_location_stats *loc, uint32_t thread)
{
    static const char *const both[] = {
        "!$omp parallel @omp.c:10",        "!$omp for @omp.c:12",
        "!$omp ibarrier @omp.c:14",        "!$omp critical @omp.c:16",
        "!$omp critical sblock @omp.c:16", "!$omp ibarrier @omp.c:20"};
    for (size_t i = 0; i < sizeof(both) / sizeof(both[0]); i++)
        expect(loc->name, both[i], visits(loc, both[i]), 2);
    expect(loc->name, "omp_set_lock", visits(loc, "omp_set_lock"), thread == 1 ? 2 : 0);
    expect(loc->name, "team begins", loc->kind_counts[TRACE_EVENT_THREAD_TEAM_BEGIN], 2);
    expect(loc->name, "team ends", loc->kind_counts[TRACE_EVENT_THREAD_TEAM_END], 2);
    expect(loc->name, "forks", loc->kind_counts[TRACE_EVENT_THREAD_FORK], thread == 0 ? 2 : 0);
    expect(loc->name, "joins", loc->kind_counts[TRACE_EVENT_THREAD_JOIN], thread == 0 ? 2 : 0);
    uint64_t locks = from_otf1 ? 0 : thread == 1 ? 4 : 2;
    expect(loc->name, "lock acquisitions", loc->kind_counts[TRACE_EVENT_THREAD_ACQUIRE_LOCK],
           locks);
    expect(loc->name, "lock releases", loc->kind_counts[TRACE_EVENT_THREAD_RELEASE_LOCK], locks);
    /* The critical's lock: thread 0 then 1 in each region: orders 1..4. */
    uint32_t critical_order = 0;
    for (size_t i = 0; i < loc->event_count; i++) {
        const trace_event *e = &loc->events[i];
        if (e->kind == TRACE_EVENT_THREAD_FORK)
            expect(loc->name, "team size of a fork", e->team_size, 2);
        if (e->kind == TRACE_EVENT_THREAD_ACQUIRE_LOCK && e->lock_id == 0) {
            critical_order += critical_order == 0 ? 1 + thread : 2;
            expect(loc->name, "acquisition order", e->acquisition_order, critical_order);
        }
    }
}

static void check_mpi(const trace_location_stats *loc, uint32_t rank)
{
    expect(loc->name, "MPI_Send", visits(loc, "MPI_Send"), 3);
    expect(loc->name, "MPI_Recv", visits(loc, "MPI_Recv"), 3);
    expect(loc->name, "sends", loc->kind_counts[TRACE_EVENT_MPI_SEND], 3);
    expect(loc->name, "receives", loc->kind_counts[TRACE_EVENT_MPI_RECV], 3);
    expect(loc->name, "collective begins", loc->kind_counts[TRACE_EVENT_MPI_COLLECTIVE_BEGIN], 3);
    expect(loc->name, "collective ends", loc->kind_counts[TRACE_EVENT_MPI_COLLECTIVE_END], 3);
    uint32_t sent = 0, received = 0;
    for (size_t i = 0; i < loc->event_count; i++) {
        const trace_event *e = &loc->events[i];
        if (e->kind == TRACE_EVENT_MPI_SEND) {
            sent++;
            expect(loc->name, "send peer", e->peer, 1 - rank);
            expect(loc->name, "send size", e->bytes, (rank == 0 ? 64 : 32) * sent);
        } else if (e->kind == TRACE_EVENT_MPI_RECV) {
            received++;
            expect(loc->name, "receive peer", e->peer, 1 - rank);
            expect(loc->name, "receive size (its send's)", e->bytes,
                   (rank == 0 ? 32 : 64) * received);
        } else if (e->kind == TRACE_EVENT_MPI_COLLECTIVE_END &&
                   e->collective_op == OTF2_COLLECTIVE_OP_BCAST) {
            expect(loc->name, "bcast root", e->root, 0);
            expect(loc->name, "bcast sent", e->size_sent, rank == 0 ? 16 : 0);
            expect(loc->name, "bcast received", e->size_received, rank == 0 ? 0 : 16);
        }
    }
}

static int check_layout(const char *anchor, const char *layout)
{
    trace_model *model = NULL;
    char err[512];
    if (trace_load(anchor, NULL, &model, err, sizeof err) != 0) {
        printf("check_converted: %s\n", err);
        return 1;
    }
    uint64_t ranks = 0, locations = 0;
    for (const char *p = layout;; p++) {
        char *end;
        unsigned long threads = strtoul(p, &end, 10);
        if (end == p) {
            printf("check_converted: a layout is numbers and commas, not '%s'\n", layout);
            trace_free(model);
            return 2;
        }
        for (unsigned long th = 0; th < threads; th++) {
            const trace_location_stats *loc =
                trace_location_by_id(model, ((uint64_t)th << 32) | ranks);
            if (!loc || loc->group != ranks || loc->type != OTF2_LOCATION_TYPE_CPU_THREAD) {
                printf("check_converted: no CPU thread %lu in location group %llu\n", th,
                       (unsigned long long)ranks);
                failures++;
            }
        }
        locations += threads;
        ranks++;
        p = end;
        if (*p != ',')
            break;
    }
    expect("the trace", "location groups", model->location_group_count, ranks);
    expect("the trace", "locations", model->location_count, locations);
    trace_free(model);
    if (!failures)
        printf("check_converted: locations as laid out: %s\n", layout);
    return failures ? 1 : 0;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strncmp(argv[2], "--layout=", 9) == 0)
        return check_layout(argv[1], argv[2] + 9);
    if (argc == 4 && strcmp(argv[1], "--same") == 0)
        return check_same(argv[2], argv[3]);
    if (argc < 3) {
        fprintf(stderr, "usage: check_converted ANCHOR omp|mpi|hybrid [--metrics] [--from-otf1]\n"
                        "       check_converted --same ANCHOR ANCHOR\n"
                        "       check_converted ANCHOR --layout=N[,N...]\n");
        return 2;
    }
    bool omp = strcmp(argv[2], "mpi") != 0, mpi = strcmp(argv[2], "omp") != 0;
    bool metrics = false;
    for (int i = 3; i < argc; i++) {
        metrics |= strcmp(argv[i], "--metrics") == 0;
        from_otf1 |= strcmp(argv[i], "--from-otf1") == 0;
        without_main |= strcmp(argv[i], "--no-main") == 0;
    }
    trace_options opt = {.keep_events = true};
    trace_model *model = NULL;
    char err[512];
    if (trace_load(argv[1], &opt, &model, err, sizeof err) != 0) {
        printf("check_converted: %s\n", err);
        return 1;
    }
    t = model;
    uint32_t processes = mpi ? 2 : 1, threads = omp ? 2 : 1;
    expect("the trace", "locations", t->location_count, processes * threads);
    expect("the trace", "location groups", t->location_group_count, processes);
    expect("the trace", "metric classes", t->metric_class_count, metrics ? 1 : 0);
    for (uint32_t p = 0; p < processes; p++) {
        for (uint32_t th = 0; th < threads; th++) {
            const trace_location_stats *loc = trace_location_by_id(t, ((uint64_t)th << 32) | p);
            if (!loc) {
                printf("check_converted: no location %u of rank %u\n", th, p);
                failures++;
                continue;
            }
            expect(loc->name, "main", visits(loc, "main"), without_main ? 0 : 1);
            expect(loc->name, "location group", loc->group, p);
            expect(loc->name, "location type", loc->type, OTF2_LOCATION_TYPE_CPU_THREAD);
            /* The program region encloses everything on a master thread. */
            uint64_t programs = th == 0 ? 1 : 0;
            expect(loc->name, "program begins", loc->kind_counts[TRACE_EVENT_PROGRAM_BEGIN],
                   programs);
            expect(loc->name, "program ends", loc->kind_counts[TRACE_EVENT_PROGRAM_END], programs);
            if (th == 0 && loc->event_list_len > 0) {
                expect(loc->name, "first event is the program begin", loc->events[0].kind,
                       TRACE_EVENT_PROGRAM_BEGIN);
                expect(loc->name, "last event is the program end",
                       loc->events[loc->event_list_len - 1].kind, TRACE_EVENT_PROGRAM_END);
            }
            if (omp)
                check_openmp(loc, th);
            if (mpi && th == 0)
                check_mpi(loc, p);
            uint64_t regions =
                loc->kind_counts[TRACE_EVENT_ENTER] + loc->kind_counts[TRACE_EVENT_LEAVE];
            expect(loc->name, "metric events", loc->kind_counts[TRACE_EVENT_METRIC],
                   metrics ? regions : 0);
            expect(loc->name, "nesting errors", loc->nesting_errors, 0);
            expect(loc->name, "time order errors", loc->time_decreases, 0);
        }
    }
    const trace_region *send = trace_region_by_name(t, "MPI_Send");
    if (send) {
        expect("MPI_Send", "paradigm", send->paradigm, OTF2_PARADIGM_MPI);
        expect("MPI_Send", "source file is MPI",
               send->source_file && !strcmp(send->source_file, "MPI"), 1);
    }
    const trace_region *program = trace_program_region(t);
    expect("the trace", "a program region", program != NULL, 1);
    const trace_region *par = trace_region_by_name(t, "!$omp parallel @omp.c:10");
    if (par) {
        expect("parallel", "role", par->role, OTF2_REGION_ROLE_PARALLEL);
        expect("parallel", "begin line", par->begin_line, 10);
        expect("parallel", "end line", par->end_line, from_otf1 ? 0 : 20);
    }
    trace_free(model);
    if (!failures)
        printf("check_converted: %s%s: every visit, fork, lock, message and collective "
               "as written\n",
               argv[2], metrics ? " with metrics" : "");
    return failures ? 1 : 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
