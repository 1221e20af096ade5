/* Expectations of the collectives scenario (mpi_collectives.c): the calls
 * of each rank, and its collective records one by one - the blocking
 * collectives of COLL_SEQUENCE on MPI_COMM_WORLD, then on the split
 * communicator, each with its operation, root (comm rank as passed) and
 * byte counts; the non-blocking collectives and their waits hold none. */
#include "mpi_check.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "mpi_scenarios.h"

#define INT_BYTES 4
#define DOUBLE_BYTES 8

#define COLL_OP(name) OTF2_COLLECTIVE_OP_##name,
static const uint32_t sequence[] = {COLL_SEQUENCE(COLL_OP)};
#undef COLL_OP
#define COLL_NAME(name) #name,
static const char *const sequence_names[] = {COLL_SEQUENCE(COLL_NAME)};
#undef COLL_NAME
enum { SEQUENCE_LENGTH = sizeof sequence / sizeof sequence[0] };

/* Region names of the sequence, in order. */
static const char *const regions[SEQUENCE_LENGTH] = {
    "MPI_Barrier",   "MPI_Bcast",          "MPI_Gather",
    "MPI_Gatherv",   "MPI_Scatter",        "MPI_Scatterv",
    "MPI_Allgather", "MPI_Allgatherv",     "MPI_Alltoall",
    "MPI_Alltoallv", "MPI_Alltoallw",      "MPI_Reduce",
    "MPI_Allreduce", "MPI_Reduce_scatter", "MPI_Reduce_scatter_block",
    "MPI_Scan",      "MPI_Exscan",
};

static void expect_collectives(const mpi_ctx *ctx, uint32_t rank, uint32_t thread,
                               mpi_expected_calls *x)
{
    (void)ctx;
    (void)rank;
    (void)thread;
    mpi_expect(x, "MPI_Init", 1);
    for (size_t i = 0; i < SEQUENCE_LENGTH; i++)
        mpi_expect(x, regions[i], 2); /* on MPI_COMM_WORLD and on the split */
    mpi_expect(x, "MPI_Comm_split", 1);
    mpi_expect(x, "MPI_Comm_free", 1);
    mpi_expect(x, "MPI_Ibarrier", 1);
    mpi_expect(x, "MPI_Ibcast", 1);
    mpi_expect(x, "MPI_Iallreduce", 1);
    mpi_expect(x, "MPI_Wait", 3);
    mpi_expect(x, "MPI_Finalize", 1);
}

/* What the record of sequence[k] must say on comm rank me of n. */
typedef struct expected_record {
    uint32_t root;
    uint64_t sent, received;
} expected_record;

static expected_record expected(size_t k, uint32_t n, uint32_t me)
{
    uint64_t tri = (uint64_t)n * (n + 1) / 2; /* sum of the v counts i + 1 */
    uint64_t mine = me + 1;                   /* my v count */
    expected_record x = {.root = OTF2_UNDEFINED_UINT32};
    uint64_t bytes = 0;
    switch (sequence[k]) {
    case OTF2_COLLECTIVE_OP_BCAST:
        x.root = COLL_BCAST_ROOT(n);
        bytes = COLL_BCAST_COUNT * INT_BYTES;
        break;
    case OTF2_COLLECTIVE_OP_GATHER:
        x.root = COLL_GATHER_ROOT(n);
        bytes = COLL_GATHER_COUNT * INT_BYTES;
        break;
    case OTF2_COLLECTIVE_OP_GATHERV:
        x.root = COLL_GATHERV_ROOT(n);
        x.sent = mine * INT_BYTES;
        x.received = me == x.root ? tri * INT_BYTES : 0;
        return x;
    case OTF2_COLLECTIVE_OP_SCATTER:
        x.root = COLL_SCATTER_ROOT(n);
        bytes = COLL_SCATTER_COUNT * INT_BYTES;
        break;
    case OTF2_COLLECTIVE_OP_SCATTERV:
        x.root = COLL_SCATTERV_ROOT(n);
        x.sent = me == x.root ? tri * INT_BYTES : 0;
        x.received = mine * INT_BYTES;
        return x;
    case OTF2_COLLECTIVE_OP_ALLGATHER:
        bytes = COLL_ALLGATHER_COUNT * INT_BYTES;
        break;
    case OTF2_COLLECTIVE_OP_ALLGATHERV:
        x.sent = n * mine * INT_BYTES;
        x.received = tri * INT_BYTES;
        return x;
    case OTF2_COLLECTIVE_OP_ALLTOALL:
        bytes = COLL_ALLTOALL_COUNT * INT_BYTES;
        break;
    case OTF2_COLLECTIVE_OP_ALLTOALLV:
    case OTF2_COLLECTIVE_OP_REDUCE_SCATTER:
        x.sent = tri * INT_BYTES;
        x.received = n * mine * INT_BYTES;
        return x;
    case OTF2_COLLECTIVE_OP_ALLTOALLW:
        bytes = COLL_ALLTOALLW_COUNT * INT_BYTES;
        break;
    case OTF2_COLLECTIVE_OP_REDUCE:
        x.root = COLL_REDUCE_ROOT(n);
        bytes = COLL_REDUCE_COUNT * INT_BYTES;
        break;
    case OTF2_COLLECTIVE_OP_ALLREDUCE:
        bytes = COLL_ALLREDUCE_COUNT * DOUBLE_BYTES;
        break;
    case OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK:
        bytes = COLL_REDUCE_SCATTER_BLOCK_COUNT * INT_BYTES;
        break;
    case OTF2_COLLECTIVE_OP_SCAN:
    case OTF2_COLLECTIVE_OP_EXSCAN:
        bytes = COLL_SCAN_COUNT * INT_BYTES;
        break;
    default: /* BARRIER */
        break;
    }
    mpi_uniform_collective_bytes(sequence[k], n, me, x.root, bytes, &x.sent, &x.received);
    return x;
}

static void check_record(const mpi_collective *c, size_t k, uint32_t n, uint32_t me,
                         const char *label, const char *on)
{
    expected_record x = expected(k, n, me);
    if (c->op != sequence[k]) {
        mpi_fail("%s: collective record %zu on %s is op %" PRIu32 ", expected %s (%" PRIu32 ")",
                 label, k + 1, on, c->op, sequence_names[k], sequence[k]);
        return;
    }
    MPI_CHECK_EQ(c->root, x.root, "%s: root of %s on %s", label, regions[k], on);
    MPI_CHECK_EQ(c->sent, x.sent, "%s: bytes sent of %s on %s", label, regions[k], on);
    MPI_CHECK_EQ(c->received, x.received, "%s: bytes received of %s on %s", label, regions[k], on);
}

/* The split of `rank`: world ranks {2c, 2c + 1}, key size - rank, so comm
 * rank 0 is the odd one. Checks the definition; returns false if wrong. */
static bool check_split(const mpi_ctx *ctx, uint32_t comm, uint32_t rank, const char *label)
{
    mpi_comm_view view;
    uint32_t pair = rank & ~1u;
    if (comm == ctx->world_comm || !mpi_comm_view_of(ctx, comm, rank, &view) || view.self ||
        view.count != 2 || mpi_view_world(&view, 0) != pair + 1 ||
        mpi_view_world(&view, 1) != pair) {
        mpi_fail("%s: the split communicator (comm %" PRIu32 ") is not the world ranks "
                 "[%" PRIu32 ", %" PRIu32 "] in that order",
                 label, comm, pair + 1, pair);
        return false;
    }
    return true;
}

static void check_rank(const mpi_ctx *ctx, const trace_location_stats *loc)
{
    uint32_t rank = mpi_loc_rank(loc);
    const char *label = mpi_loc_label(loc);
    mpi_collective *records = NULL;
    size_t count = mpi_collectives_of(ctx, loc, &records);
    MPI_CHECK_EQ(count, 2 * SEQUENCE_LENGTH, "collective records on %s", label);
    if (count == 2 * SEQUENCE_LENGTH) {
        uint32_t split = records[SEQUENCE_LENGTH].comm;
        bool split_ok = check_split(ctx, split, rank, label);
        for (size_t k = 0; k < SEQUENCE_LENGTH; k++) {
            MPI_CHECK_EQ(records[k].comm, ctx->world_comm, "%s: comm of %s %zu", label, regions[k],
                         k + 1);
            check_record(&records[k], k, ctx->ranks, rank, label, "MPI_COMM_WORLD");
            const mpi_collective *c = &records[SEQUENCE_LENGTH + k];
            MPI_CHECK_EQ(c->comm, split, "%s: comm of %s on the split", label, regions[k]);
            if (split_ok)
                check_record(c, k, 2, rank % 2 == 1 ? 0 : 1, label, "the split");
        }
    }
    free(records);
    const char *nonblocking[] = {"MPI_Wait", "MPI_Ibarrier", "MPI_Ibcast", "MPI_Iallreduce"};
    for (size_t i = 0; i < 4; i++) {
        for (int kind = TRACE_EVENT_MPI_SEND; kind <= TRACE_EVENT_MPI_COLLECTIVE_END; kind++)
            mpi_check_events_in(ctx, loc, nonblocking[i], (trace_event_kind)kind, 0);
    }
}

static void check_collectives(mpi_ctx *ctx)
{
    unsigned mpi_comms = 0;
    for (size_t i = 0; i < ctx->t->comm_count; i++)
        mpi_comms += ctx->t->comms[i].paradigm == OTF2_PARADIGM_MPI;
    MPI_CHECK_EQ(mpi_comms, 2 + ctx->ranks / 2, "MPI comms (world, self and the splits)");
    MPI_CHECK_EQ(ctx->messages, 0, "point-to-point messages");
    for (uint32_t rank = 0; rank < ctx->ranks; rank++) {
        const trace_location_stats *loc = mpi_location(ctx, rank, 0);
        if (loc != NULL)
            check_rank(ctx, loc);
    }
}

const mpi_scenario mpi_scenario_collectives = {"collectives", 1, 2, expect_collectives,
                                               check_collectives};
/* SPDX-License-Identifier: BSD-3-Clause */
