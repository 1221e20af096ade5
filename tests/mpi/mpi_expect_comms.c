/* Expectations of the comms scenario (mpi_comms.c): the calls of each
 * rank, the communicators the trace must define besides MPI_COMM_WORLD and
 * MPI_COMM_SELF (members as world ranks in comm-rank order, derived from
 * the colours, keys and groups the program passes), one ring message on
 * each, each rank sending once on every communicator it belongs to, and
 * the barrier on the first split. */
#include "mpi_check.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_scenarios.h"

enum { MAX_COMMS = 16, MAX_MEMBERS = 64 };

static bool undefined_in_split_b(uint32_t rank, uint32_t n)
{
    return n >= 4 && rank == n - 1;
}

static void expect_comms(const mpi_ctx *ctx, uint32_t rank, uint32_t thread, mpi_expected_calls *x)
{
    (void)thread;
    uint64_t in_b = !undefined_in_split_b(rank, ctx->ranks);
    uint64_t in_created = rank % 2 == 0;
    mpi_expect(x, "MPI_Init", 1);
    mpi_expect(x, "MPI_Comm_dup", 1);
    mpi_expect(x, "MPI_Comm_split", 2);
    mpi_expect(x, "MPI_Cart_create", 1);
    mpi_expect(x, "MPI_Comm_group", 1);
    mpi_expect(x, "MPI_Group_incl", 1);
    mpi_expect(x, "MPI_Comm_create", 1);
    mpi_expect(x, "MPI_Group_free", 2);
    mpi_expect(x, "MPI_Sendrecv", 3 + in_b + in_created); /* dup, split A, cart, ... */
    mpi_expect(x, "MPI_Barrier", 1);
    mpi_expect(x, "MPI_Comm_free", 3 + in_b + in_created);
    mpi_expect(x, "MPI_Finalize", 1);
}

typedef struct member_list {
    const char *what;
    uint32_t count;
    uint32_t rank[MAX_MEMBERS];
} member_list;

/* The communicators mpi_comms.c creates, members in comm-rank order. */
static size_t expected_comms(uint32_t n, member_list *out)
{
    size_t count = 0;
    member_list *dup = &out[count++], *cart = &out[count++];
    member_list *a0 = &out[count++], *a1 = &out[count++];
    member_list *b = &out[count++], *created = &out[count++];
    *dup = (member_list){.what = "Comm_dup"};
    *cart = (member_list){.what = "Cart_create"};
    *a0 = (member_list){.what = "split A colour 0"};
    *a1 = (member_list){.what = "split A colour 1"};
    *b = (member_list){.what = "split B"};
    *created = (member_list){.what = "Comm_create"};
    for (uint32_t r = 0; r < n && r < MAX_MEMBERS; r++) {
        dup->rank[dup->count++] = r;
        cart->rank[cart->count++] = r;
        member_list *a = r % 2 == 0 ? a0 : a1; /* key = rank: ascending */
        a->rank[a->count++] = r;
    }
    for (uint32_t r = n; r-- > 0;) { /* key = n - rank: descending */
        if (!undefined_in_split_b(r, n) && b->count < MAX_MEMBERS)
            b->rank[b->count++] = r;
        if (r % 2 == 0 && created->count < MAX_MEMBERS)
            created->rank[created->count++] = r;
    }
    return count;
}

static bool same_members(const trace_group *g, const member_list *m)
{
    if (g->member_count != m->count)
        return false;
    for (uint32_t i = 0; i < m->count; i++) {
        if (g->members[i] != m->rank[i])
            return false;
    }
    return true;
}

static bool has_member(const member_list *m, uint32_t rank)
{
    for (uint32_t i = 0; i < m->count; i++) {
        if (m->rank[i] == rank)
            return true;
    }
    return false;
}

static void print_members(char *buf, size_t len, const member_list *m)
{
    size_t used = (size_t)snprintf(buf, len, "[");
    for (uint32_t i = 0; i < m->count && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%" PRIu32, i ? " " : "", m->rank[i]);
    if (used < len)
        snprintf(buf + used, len - used, "]");
}

/* Pairs each expected communicator with a defined one of the same members;
 * found[i] is its comm id, or OTF2_UNDEFINED_COMM. */
static void find_comms(const mpi_ctx *ctx, const member_list *want, size_t count, uint32_t *found)
{
    bool used[1024] = {false};
    for (size_t i = 0; i < count; i++) {
        found[i] = OTF2_UNDEFINED_COMM;
        for (size_t c = 0; c < ctx->t->comm_count && c < 1024; c++) {
            const trace_comm *comm = &ctx->t->comms[c];
            const trace_group *g = mpi_group_by_id(ctx, comm->group);
            if (used[c] || comm->id == ctx->world_comm || g == NULL ||
                g->paradigm != OTF2_PARADIGM_MPI || g->type != OTF2_GROUP_TYPE_COMM_GROUP ||
                !same_members(g, &want[i]))
                continue;
            used[c] = true;
            found[i] = comm->id;
            break;
        }
        if (found[i] == OTF2_UNDEFINED_COMM) {
            char members[256];
            print_members(members, sizeof members, &want[i]);
            mpi_fail("no MPI comm with members %s (from %s)", members, want[i].what);
        }
    }
    for (size_t c = 0; c < ctx->t->comm_count && c < 1024; c++) {
        const trace_comm *comm = &ctx->t->comms[c];
        const trace_group *g = mpi_group_by_id(ctx, comm->group);
        if (!used[c] && comm->id != ctx->world_comm && g != NULL &&
            g->paradigm == OTF2_PARADIGM_MPI && g->type == OTF2_GROUP_TYPE_COMM_GROUP)
            mpi_fail("MPI comm %" PRIu32 " (\"%s\", %" PRIu32 " members) was not created by "
                     "the program",
                     comm->id, comm->name ? comm->name : "", g->member_count);
    }
}

/* Each rank sends exactly once on each communicator it belongs to. */
static void check_sends(const mpi_ctx *ctx, const member_list *want, const uint32_t *found,
                        size_t count)
{
    for (uint32_t rank = 0; rank < ctx->ranks; rank++) {
        const trace_location_stats *loc = mpi_location(ctx, rank, 0);
        if (loc == NULL)
            continue;
        for (size_t i = 0; i < count; i++) {
            if (found[i] == OTF2_UNDEFINED_COMM)
                continue;
            uint64_t sends = 0;
            for (size_t e = 0; e < loc->event_list_len; e++)
                sends +=
                    loc->events[e].kind == TRACE_EVENT_MPI_SEND && loc->events[e].comm == found[i];
            MPI_CHECK_EQ(sends, has_member(&want[i], rank), "%s: MpiSend records on the %s comm",
                         mpi_loc_label(loc), want[i].what);
        }
        MPI_CHECK_EQ(loc->kind_counts[TRACE_EVENT_MPI_SEND],
                     3 + !undefined_in_split_b(rank, ctx->ranks) + (rank % 2 == 0),
                     "%s: MpiSend records", mpi_loc_label(loc));
    }
}

/* The one collective: MPI_Barrier on split A of the rank's colour (found
 * by its members: on 2 ranks, Comm_create makes a comm with the same). */
static void check_barrier(const mpi_ctx *ctx, const member_list *want)
{
    for (uint32_t rank = 0; rank < ctx->ranks; rank++) {
        const trace_location_stats *loc = mpi_location(ctx, rank, 0);
        if (loc == NULL)
            continue;
        mpi_collective *records = NULL;
        size_t count = mpi_collectives_of(ctx, loc, &records);
        MPI_CHECK_EQ(count, 1, "%s: collective records", mpi_loc_label(loc));
        if (count == 1) {
            MPI_CHECK_EQ(records[0].op, OTF2_COLLECTIVE_OP_BARRIER, "%s: operation",
                         mpi_loc_label(loc));
            const trace_comm *comm = mpi_comm_by_id(ctx, records[0].comm);
            const trace_group *g = comm ? mpi_group_by_id(ctx, comm->group) : NULL;
            if (g == NULL || !same_members(g, &want[2 + rank % 2]))
                mpi_fail("%s: the barrier is on comm %" PRIu32 ", not on split A",
                         mpi_loc_label(loc), records[0].comm);
        }
        free(records);
    }
}

static void check_comms(mpi_ctx *ctx)
{
    member_list want[MAX_COMMS];
    uint32_t found[MAX_COMMS];
    size_t count = expected_comms(ctx->ranks, want);
    find_comms(ctx, want, count, found);
    uint64_t total = 0;
    for (size_t i = 0; i < count; i++) {
        total += want[i].count;
        if (found[i] != OTF2_UNDEFINED_COMM && found[i] < ctx->comm_slots)
            MPI_CHECK_EQ(ctx->messages_per_comm[found[i]], want[i].count, "messages on the %s comm",
                         want[i].what);
    }
    MPI_CHECK_EQ(ctx->messages, total, "matched messages");
    check_sends(ctx, want, found, count);
    check_barrier(ctx, want);
}

const mpi_scenario mpi_scenario_comms = {"comms", 1, 2, expect_comms, check_comms};
/* SPDX-License-Identifier: BSD-3-Clause */
