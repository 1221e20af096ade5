/* Expectations of the hybrid scenario (mpi_hybrid.c, 2 ranks x
 * HYBRID_THREADS threads through POMP2): MPI calls on the calling thread's
 * own location, messages between equal thread numbers, and per rank the
 * OpenMP structure tests/pomp checks - fork and join on the master, team
 * begin and end on every member, regions named "!$omp parallel @FILE:LINE"
 * with the lines of the source - with a thread team communicator of each
 * rank's own, whose members are that rank's threads. */
#include "mpi_check.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_scenarios.h"

#define INT_BYTES 4

static void expect_hybrid(const mpi_ctx *ctx, uint32_t rank, uint32_t thread, mpi_expected_calls *x)
{
    (void)ctx;
    (void)rank;
    if (thread == 0)
        mpi_expect(x, "MPI_Init_thread", 1);
    mpi_expect(x, "MPI_Sendrecv", 1);
    mpi_expect(x, "MPI_Irecv", 1);
    mpi_expect(x, "MPI_Isend", 1);
    mpi_expect(x, "MPI_Waitall", 1);
    if (thread == 0) {
        mpi_expect(x, "MPI_Allreduce", 1);
        mpi_expect(x, "MPI_Barrier", 1);
        mpi_expect(x, "MPI_Finalize", 1);
    }
}

/* The 1-based line of the first `text` in the source, 0 if none. */
static unsigned source_line(const char *path, const char *text)
{
    FILE *f = path ? fopen(path, "r") : NULL;
    if (f == NULL) {
        mpi_fail("cannot read the program source %s", path ? path : "(not given)");
        return 0;
    }
    char line[1024];
    unsigned number = 0, found = 0;
    while (found == 0 && fgets(line, sizeof line, f) != NULL) {
        number++;
        if (strstr(line, text) != NULL)
            found = number;
    }
    fclose(f);
    if (found == 0)
        mpi_fail("the source has no \"%s\"", text);
    return found;
}

static const trace_region *omp_region(const mpi_ctx *ctx, const char *kind, unsigned line,
                                      OTF2_RegionRole role)
{
    const char *slash = strrchr(ctx->source, '/');
    char name[256];
    snprintf(name, sizeof name, "!$omp %s @%s:%u", kind, slash ? slash + 1 : ctx->source, line);
    const trace_region *r = trace_region_by_name(ctx->t, name);
    if (r == NULL) {
        mpi_fail("no region named \"%s\"", name);
        return NULL;
    }
    MPI_CHECK_EQ(r->role, role, "role of \"%s\"", name);
    MPI_CHECK_EQ(r->paradigm, OTF2_PARADIGM_OPENMP, "paradigm of \"%s\"", name);
    for (uint32_t rank = 0; rank < ctx->ranks; rank++) {
        for (uint32_t t = 0; t < HYBRID_THREADS; t++) {
            const trace_location_stats *loc = mpi_location(ctx, rank, t);
            if (loc != NULL)
                MPI_CHECK_EQ(trace_enter_count(loc, r->id), 1, "enters of \"%s\" on %s", name,
                             mpi_loc_label(loc));
        }
    }
    return r;
}

/* Position of the first event of `kind` on loc, SIZE_MAX if none. */
static size_t first_of(const trace_location_stats *loc, trace_event_kind kind)
{
    for (size_t e = 0; e < loc->event_list_len; e++) {
        if (loc->events[e].kind == kind)
            return e;
    }
    return SIZE_MAX;
}

static size_t first_enter(const mpi_ctx *ctx, const trace_location_stats *loc, const char *name)
{
    const trace_region *r = trace_region_by_name(ctx->t, name);
    for (size_t e = 0; r != NULL && e < loc->event_list_len; e++) {
        if (loc->events[e].kind == TRACE_EVENT_ENTER && loc->events[e].region == r->id)
            return e;
    }
    return SIZE_MAX;
}

/* The team comm of rank `rank`: its members, through the OpenMP
 * COMM_LOCATIONS group, are the rank's thread locations by thread number. */
static void check_team_comm(const mpi_ctx *ctx, uint32_t team, uint32_t rank)
{
    const trace_comm *comm = mpi_comm_by_id(ctx, team);
    const trace_group *g = comm ? mpi_group_by_id(ctx, comm->group) : NULL;
    const trace_group *all = NULL;
    for (size_t i = 0; i < ctx->t->group_count; i++) {
        if (ctx->t->groups[i].paradigm == OTF2_PARADIGM_OPENMP &&
            ctx->t->groups[i].type == OTF2_GROUP_TYPE_COMM_LOCATIONS)
            all = &ctx->t->groups[i];
    }
    if (g == NULL || g->paradigm != OTF2_PARADIGM_OPENMP || all == NULL) {
        mpi_fail("rank %" PRIu32 ": team comm %" PRIu32 " is not an OpenMP comm (or there is no "
                 "OpenMP COMM_LOCATIONS group)",
                 rank, team);
        return;
    }
    MPI_CHECK_EQ(g->member_count, HYBRID_THREADS, "members of the team of rank %" PRIu32, rank);
    for (uint32_t k = 0; k < g->member_count && k < HYBRID_THREADS; k++) {
        uint64_t want = ((uint64_t)k << 32) | rank;
        if (g->members[k] >= all->member_count || all->members[g->members[k]] != want)
            mpi_fail("rank %" PRIu32 ": team member %" PRIu32 " is not location %#" PRIx64, rank, k,
                     want);
    }
}

static void check_threads_of(const mpi_ctx *ctx, uint32_t rank, uint32_t *team)
{
    *team = OTF2_UNDEFINED_COMM;
    for (uint32_t t = 0; t < HYBRID_THREADS; t++) {
        const trace_location_stats *loc = mpi_location(ctx, rank, t);
        if (loc == NULL)
            continue;
        const char *label = mpi_loc_label(loc);
        MPI_CHECK_EQ(loc->kind_counts[TRACE_EVENT_THREAD_FORK], t == 0, "forks on %s", label);
        MPI_CHECK_EQ(loc->kind_counts[TRACE_EVENT_THREAD_JOIN], t == 0, "joins on %s", label);
        MPI_CHECK_EQ(loc->kind_counts[TRACE_EVENT_THREAD_TEAM_BEGIN], 1, "team begins on %s",
                     label);
        MPI_CHECK_EQ(loc->kind_counts[TRACE_EVENT_THREAD_TEAM_END], 1, "team ends on %s", label);
        size_t begin = first_of(loc, TRACE_EVENT_THREAD_TEAM_BEGIN);
        size_t end = first_of(loc, TRACE_EVENT_THREAD_TEAM_END);
        if (begin == SIZE_MAX || end == SIZE_MAX)
            continue;
        uint32_t comm = loc->events[begin].comm;
        if (t == 0) {
            *team = comm;
            size_t fork = first_of(loc, TRACE_EVENT_THREAD_FORK);
            size_t join = first_of(loc, TRACE_EVENT_THREAD_JOIN);
            if (fork != SIZE_MAX && loc->events[fork].team_size != HYBRID_THREADS)
                mpi_fail("%s: fork requests %" PRIu32 " threads", label,
                         loc->events[fork].team_size);
            if (!(fork < begin && end < join && join < first_enter(ctx, loc, "MPI_Allreduce")))
                mpi_fail("%s: not fork, team begin, team end, join, MPI_Allreduce in that order",
                         label);
        } else if (comm != *team) {
            mpi_fail("%s: team begin names comm %" PRIu32 ", the master's is %" PRIu32, label, comm,
                     *team);
        }
        MPI_CHECK_EQ(loc->events[end].comm, comm, "team of the team end on %s", label);
        /* The thread's MPI calls happen inside the team. */
        const char *inside[] = {"MPI_Sendrecv", "MPI_Irecv", "MPI_Isend", "MPI_Waitall"};
        for (size_t i = 0; i < 4; i++) {
            size_t at = first_enter(ctx, loc, inside[i]);
            if (at != SIZE_MAX && !(begin < at && at < end))
                mpi_fail("%s: %s is not inside the thread team", label, inside[i]);
        }
    }
}

/* BARRIER_MARK: the source text on the line the parallel region's implicit
 * barrier is named by; with_atomic: whether the atomic has a region (POMP2
 * yes; OMPT no: clang compiles it to an instruction, no runtime call). */
static void check_hybrid_common(mpi_ctx *ctx, const char *barrier_mark, bool with_atomic)
{
    for (uint32_t t = 0; t < HYBRID_THREADS; t++) {
        const mpi_message_rule rules[] = {
            {t, HYBRID_COUNT * INT_BYTES, MPI_PEER_PARTNER, 1},
            {HYBRID_NB_TAG + t, HYBRID_COUNT * INT_BYTES, MPI_PEER_PARTNER, 1},
        };
        mpi_check_message_rules(ctx, t, rules, 2);
    }
    MPI_CHECK_EQ(ctx->messages, 2 * (uint64_t)HYBRID_THREADS * ctx->ranks, "matched messages");
    if (ctx->source == NULL) {
        mpi_fail("the hybrid scenario needs the program's source");
        return;
    }
    omp_region(ctx, "parallel", source_line(ctx->source, "#pragma omp parallel"),
               OTF2_REGION_ROLE_PARALLEL);
    omp_region(ctx, "implicit barrier", source_line(ctx->source, barrier_mark),
               OTF2_REGION_ROLE_IMPLICIT_BARRIER);
    if (with_atomic)
        omp_region(ctx, "atomic", source_line(ctx->source, "#pragma omp atomic"),
                   OTF2_REGION_ROLE_ATOMIC);
    uint32_t teams[2] = {OTF2_UNDEFINED_COMM, OTF2_UNDEFINED_COMM};
    for (uint32_t rank = 0; rank < ctx->ranks && rank < 2; rank++) {
        check_threads_of(ctx, rank, &teams[rank]);
        if (teams[rank] != OTF2_UNDEFINED_COMM)
            check_team_comm(ctx, teams[rank], rank);
    }
    if (teams[0] != OTF2_UNDEFINED_COMM && teams[0] == teams[1])
        mpi_fail("both ranks' thread teams are comm %" PRIu32 "; each rank needs its own",
                 teams[0]);
}

/* Through POMP2: OPARI2 names the implicit barrier by the region's end. */
static void check_hybrid(mpi_ctx *ctx)
{
    check_hybrid_common(ctx, "/* end: parallel */", true);
}

/* Through OMPT (clang, libomp, `weft run`): the runtime names the implicit
 * barrier by the parallel region's own call, on its pragma's line. */
static void check_hybrid_ompt(mpi_ctx *ctx)
{
    check_hybrid_common(ctx, "#pragma omp parallel", false);
}

const mpi_scenario mpi_scenario_hybrid = {"hybrid", HYBRID_THREADS, 2, expect_hybrid, check_hybrid};
const mpi_scenario mpi_scenario_hybrid_ompt = {"hybrid_ompt", HYBRID_THREADS, 2, expect_hybrid,
                                               check_hybrid_ompt};
/* SPDX-License-Identifier: BSD-3-Clause */
