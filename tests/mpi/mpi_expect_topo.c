/* Expectations of the topo scenario (mpi_topo.c): the calls of each rank,
 * and the communicators the newer constructors make, each defined exactly
 * once for the whole job (unified across its ranks) with its members as
 * world ranks in comm-rank order - an intercommunicator with its remote
 * group, one definition per side (no message on it: its two sides' records
 * would name different communicators) - and the messages each rank sends
 * on it. */
#include "mpi_check.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "mpi_scenarios.h"

enum { MAX_COMMS = 24, MAX_MEMBERS = 64 };

typedef struct topo_comm {
    const char *what;
    uint32_t count;
    uint32_t member[MAX_MEMBERS];
    uint32_t parity; /* senders: 0 evens, 1 odds, 2 every member */
} topo_comm;

static void expect_topo(const mpi_ctx *ctx, uint32_t rank, uint32_t thread, mpi_expected_calls *x)
{
    (void)ctx, (void)thread;
    uint64_t odd = rank % 2;
    mpi_expect(x, "MPI_Init", 1);
    mpi_expect(x, "MPI_Cart_create", 1);
    mpi_expect(x, "MPI_Cart_sub", 1);
    mpi_expect(x, "MPI_Graph_create", 1);
    mpi_expect(x, "MPI_Dist_graph_create_adjacent", 1);
    mpi_expect(x, "MPI_Comm_group", 1);
    mpi_expect(x, "MPI_Group_incl", 1);
    mpi_expect(x, "MPI_Comm_create_group", odd);
    mpi_expect(x, "MPI_Group_free", 2);
    mpi_expect(x, "MPI_Comm_idup", 1);
    mpi_expect(x, "MPI_Wait", 1);
    mpi_expect(x, "MPI_Comm_split", 1);
    mpi_expect(x, "MPI_Intercomm_create", 1);
    mpi_expect(x, "MPI_Intercomm_merge", 1);
    /* cart, row, graph, dist, (odd), idup, merged */
    mpi_expect(x, "MPI_Sendrecv", 6 + odd);
    /* the same and the split */
    mpi_expect(x, "MPI_Comm_free", 8 + odd);
    mpi_expect(x, "MPI_Finalize", 1);
}

static topo_comm *add(topo_comm *list, size_t *count, const char *what, uint32_t parity)
{
    topo_comm *c = &list[(*count)++];
    *c = (topo_comm){.what = what, .parity = parity};
    return c;
}

static void push(topo_comm *c, uint32_t rank)
{
    if (c->count < MAX_MEMBERS)
        c->member[c->count++] = rank;
}

static size_t expected_comms(uint32_t n, topo_comm *out)
{
    size_t count = 0;
    topo_comm *cart = add(out, &count, "Cart_create", 2);
    topo_comm *row0 = add(out, &count, "Cart_sub row 0", 2);
    topo_comm *row1 = add(out, &count, "Cart_sub row 1", 2);
    topo_comm *graph = add(out, &count, "Graph_create", 2);
    topo_comm *dist = add(out, &count, "Dist_graph_create_adjacent", 2);
    topo_comm *odd = add(out, &count, "Comm_create_group", 2);
    topo_comm *idup = add(out, &count, "Comm_idup", 2);
    topo_comm *evens = add(out, &count, "Comm_split evens", 3);
    topo_comm *odds = add(out, &count, "Comm_split odds", 3);
    topo_comm *inter_even = add(out, &count, "Intercomm_create (the evens' side)", 3);
    topo_comm *inter_odd = add(out, &count, "Intercomm_create (the odds' side)", 3);
    topo_comm *merged = add(out, &count, "Intercomm_merge", 2);
    for (uint32_t r = 0; r < n; r++) {
        push(cart, r);
        push(r < n / 2 ? row0 : row1, r);
        push(graph, r);
        push(dist, r);
        push(idup, r);
        push(r % 2 ? odds : evens, r);
        if (r % 2) {
            push(odd, r);
            push(inter_even, r); /* an intercommunicator's members: the remote group */
        } else {
            push(inter_odd, r);
        }
    }
    for (uint32_t r = 0; r < n; r += 2) /* the low group (evens) first */
        push(merged, r);
    for (uint32_t r = 1; r < n; r += 2)
        push(merged, r);
    return count;
}

static bool same_members(const trace_group *g, const topo_comm *c)
{
    if (g->member_count != c->count)
        return false;
    for (uint32_t i = 0; i < c->count; i++) {
        if (g->members[i] != c->member[i])
            return false;
    }
    return true;
}

/* Whether world rank `rank` sends on c (parity 3: nobody). */
static bool sends_on(const topo_comm *c, uint32_t rank)
{
    if (c->parity == 3)
        return false;
    if (c->parity < 2)
        return rank % 2 == c->parity;
    for (uint32_t i = 0; i < c->count; i++) {
        if (c->member[i] == rank)
            return true;
    }
    return false;
}

/* Each expected comm has one definition of its members with exactly the
 * expected sends on it from every rank; several expected comms may share
 * members (then any assignment of definitions that fits the sends does);
 * no other MPI comm is defined. */
static void check_topo(mpi_ctx *ctx)
{
    topo_comm want[MAX_COMMS];
    size_t count = expected_comms(ctx->ranks, want);
    bool used[1024] = {false};
    for (size_t i = 0; i < count; i++) {
        bool found = false;
        for (size_t c = 0; c < ctx->t->comm_count && c < 1024 && !found; c++) {
            const trace_comm *comm = &ctx->t->comms[c];
            const trace_group *g = mpi_group_by_id(ctx, comm->group);
            if (used[c] || comm->id == ctx->world_comm || g == NULL ||
                g->paradigm != OTF2_PARADIGM_MPI || g->type != OTF2_GROUP_TYPE_COMM_GROUP ||
                !same_members(g, &want[i]))
                continue;
            bool fits = true;
            for (uint32_t rank = 0; rank < ctx->ranks && fits; rank++) {
                const trace_location_stats *loc = mpi_location(ctx, rank, 0);
                uint64_t sends = 0;
                for (size_t e = 0; loc != NULL && e < loc->event_list_len; e++)
                    sends += loc->events[e].kind == TRACE_EVENT_MPI_SEND &&
                             loc->events[e].comm == comm->id;
                fits = sends == (sends_on(&want[i], rank) ? 1u : 0u);
            }
            if (fits) {
                used[c] = true;
                found = true;
            }
        }
        if (!found)
            mpi_fail("no MPI comm for %s with its members and one send from each sender",
                     want[i].what);
    }
    for (size_t c = 0; c < ctx->t->comm_count && c < 1024; c++) {
        const trace_comm *comm = &ctx->t->comms[c];
        const trace_group *g = mpi_group_by_id(ctx, comm->group);
        if (!used[c] && comm->id != ctx->world_comm && g != NULL &&
            g->paradigm == OTF2_PARADIGM_MPI && g->type == OTF2_GROUP_TYPE_COMM_GROUP)
            mpi_fail("MPI comm %" PRIu32 " (%" PRIu32 " members) is defined, but not expected "
                     "(a communicator defined twice?)",
                     comm->id, g->member_count);
    }
    /* A ring on 6 comms for evens, 7 for odds. */
    uint64_t expected = 0;
    for (size_t i = 0; i < count; i++)
        for (uint32_t r = 0; r < ctx->ranks; r++)
            expected += sends_on(&want[i], r);
    MPI_CHECK_EQ(ctx->messages, expected, "matched messages");
}

const mpi_scenario mpi_scenario_topo = {"topo", 1, 2, expect_topo, check_topo};
/* SPDX-License-Identifier: BSD-3-Clause */
