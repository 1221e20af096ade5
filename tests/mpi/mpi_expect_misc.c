/* Expectations of the fortran scenario (mpi_fortran.f90: the Fortran
 * bindings must give the same records as C, each call once) and of the
 * clock scenario (mpi_clock.c: with WEFT_CLOCK_SYNC_INTERVAL short, many
 * clock offsets per location and the "weft clock synchronisation" region
 * around the intermediate ones, taken at the same collectives on every
 * rank). */
#include "mpi_check.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_scenarios.h"

#define INT_BYTES 4

/* ---- fortran ------------------------------------------------------------- */

static void expect_fortran(const mpi_ctx *ctx, uint32_t rank, uint32_t thread,
                           mpi_expected_calls *x)
{
    (void)ctx;
    (void)rank;
    (void)thread;
    mpi_expect(x, "MPI_Init", 1);
    mpi_expect(x, "MPI_Send", 1);
    mpi_expect(x, "MPI_Recv", 1);
    mpi_expect(x, "MPI_Irecv", 1);
    mpi_expect(x, "MPI_Isend", 1);
    mpi_expect(x, "MPI_Waitall", 1);
    mpi_expect(x, "MPI_Allreduce", 2);
    mpi_expect(x, "MPI_Bcast", 1);
    mpi_expect(x, "MPI_Comm_split", 1);
    mpi_expect(x, "MPI_Comm_set_name", 1);
    mpi_expect(x, "MPI_Comm_get_name", 1);
    mpi_expect(x, "MPI_Get_processor_name", 1);
    mpi_expect(x, "MPI_Comm_free", 1);
    mpi_expect(x, "MPI_Finalize", 1);
}

/* Allreduce and Bcast (root 0) on MPI_COMM_WORLD, then Allreduce on the
 * split (colour rank / 2, key -rank: world ranks [2c + 1, 2c]); 1 integer
 * each. */
static void check_fortran_collectives(const mpi_ctx *ctx, const trace_location_stats *loc)
{
    uint32_t rank = mpi_loc_rank(loc), n = ctx->ranks;
    const char *label = mpi_loc_label(loc);
    mpi_collective *c = NULL;
    size_t count = mpi_collectives_of(ctx, loc, &c);
    MPI_CHECK_EQ(count, 3, "collective records on %s", label);
    if (count == 3) {
        uint64_t sent, received;
        MPI_CHECK_EQ(c[0].op, OTF2_COLLECTIVE_OP_ALLREDUCE, "%s: first collective", label);
        MPI_CHECK_EQ(c[0].comm, ctx->world_comm, "%s: comm of the first Allreduce", label);
        mpi_uniform_collective_bytes(OTF2_COLLECTIVE_OP_ALLREDUCE, n, rank, 0, INT_BYTES, &sent,
                                     &received);
        MPI_CHECK_EQ(c[0].sent, sent, "%s: bytes sent by MPI_Allreduce", label);
        MPI_CHECK_EQ(c[0].received, received, "%s: bytes received by MPI_Allreduce", label);
        MPI_CHECK_EQ(c[1].op, OTF2_COLLECTIVE_OP_BCAST, "%s: second collective", label);
        MPI_CHECK_EQ(c[1].root, 0, "%s: root of MPI_Bcast", label);
        mpi_uniform_collective_bytes(OTF2_COLLECTIVE_OP_BCAST, n, rank, 0, INT_BYTES, &sent,
                                     &received);
        MPI_CHECK_EQ(c[1].sent, sent, "%s: bytes sent by MPI_Bcast", label);
        MPI_CHECK_EQ(c[1].received, received, "%s: bytes received by MPI_Bcast", label);
        MPI_CHECK_EQ(c[2].op, OTF2_COLLECTIVE_OP_ALLREDUCE, "%s: third collective", label);
        mpi_comm_view view;
        uint32_t pair = rank & ~1u;
        if (!mpi_comm_view_of(ctx, c[2].comm, rank, &view) || view.self || view.count != 2 ||
            mpi_view_world(&view, 0) != pair + 1 || mpi_view_world(&view, 1) != pair)
            mpi_fail("%s: the split's Allreduce is on comm %" PRIu32 ", not on world ranks "
                     "[%" PRIu32 " %" PRIu32 "]",
                     label, c[2].comm, pair + 1, pair);
        mpi_uniform_collective_bytes(OTF2_COLLECTIVE_OP_ALLREDUCE, 2, 0, 0, INT_BYTES, &sent,
                                     &received);
        MPI_CHECK_EQ(c[2].sent, sent, "%s: bytes sent by the split's MPI_Allreduce", label);
    }
    free(c);
}

static void check_fortran(mpi_ctx *ctx)
{
    const mpi_message_rule rules[] = {
        {1, 4 * INT_BYTES, MPI_PEER_RIGHT, 1},
        {2, 3 * INT_BYTES, MPI_PEER_LEFT, 1},
    };
    mpi_check_message_rules(ctx, 0, rules, 2);
    MPI_CHECK_EQ(ctx->messages, 2 * (uint64_t)ctx->ranks, "matched messages");
    for (uint32_t rank = 0; rank < ctx->ranks; rank++) {
        const trace_location_stats *loc = mpi_location(ctx, rank, 0);
        if (loc != NULL)
            check_fortran_collectives(ctx, loc);
    }
}

const mpi_scenario mpi_scenario_fortran = {"fortran", 1, 2, expect_fortran, check_fortran};

/* ---- clock --------------------------------------------------------------- */

static void expect_clock(const mpi_ctx *ctx, uint32_t rank, uint32_t thread, mpi_expected_calls *x)
{
    (void)thread;
    long iterations = mpi_program_count(ctx, rank, "iterations");
    uint64_t it = iterations > 0 ? (uint64_t)iterations : 0;
    mpi_expect(x, "MPI_Init", 1);
    mpi_expect(x, "MPI_Send", it);
    mpi_expect(x, "MPI_Recv", it);
    mpi_expect(x, "MPI_Allreduce", it);
    mpi_expect(x, "MPI_Finalize", 1);
}

static void check_clock(mpi_ctx *ctx)
{
    long iterations = mpi_program_count(ctx, 0, "iterations");
    for (uint32_t rank = 1; rank < ctx->ranks; rank++)
        MPI_CHECK_EQ(mpi_program_count(ctx, rank, "iterations"), iterations,
                     "iterations of rank %" PRIu32 " vs rank 0", rank);
    if (iterations < 2)
        mpi_fail("the program ran only %ld iterations", iterations);
    const mpi_message_rule rules[] = {
        {CLOCK_TAG, INT_BYTES, MPI_PEER_PARTNER, iterations > 0 ? (uint32_t)iterations : 0}};
    mpi_check_message_rules(ctx, 0, rules, 1);
    MPI_CHECK_EQ(ctx->messages, (uint64_t)iterations * ctx->ranks, "matched messages");

    const trace_region *sync = trace_region_by_name(ctx->t, "weft clock synchronisation");
    if (sync == NULL) {
        mpi_fail("no region \"weft clock synchronisation\"");
        return;
    }
    MPI_CHECK_EQ(sync->paradigm, OTF2_PARADIGM_MEASUREMENT_SYSTEM,
                 "paradigm of \"weft clock synchronisation\"");
    uint64_t first = 0;
    for (uint32_t rank = 0; rank < ctx->ranks; rank++) {
        const trace_location_stats *loc = mpi_location(ctx, rank, 0);
        if (loc == NULL)
            continue;
        uint64_t syncs = trace_enter_count(loc, sync->id);
        if (rank == 0)
            first = syncs;
        if (syncs == 0)
            mpi_fail("%s never enters \"weft clock synchronisation\"", mpi_loc_label(loc));
        MPI_CHECK_EQ(syncs, first, "clock synchronisations of rank %" PRIu32 " vs rank 0", rank);
        if (syncs + 2 > loc->clock_offset_count)
            mpi_fail("%s: %" PRIu64 " intermediate synchronisations but only %zu ClockOffset "
                     "records (expected one each, plus MPI_Init's and MPI_Finalize's)",
                     mpi_loc_label(loc), syncs, loc->clock_offset_count);
        mpi_collective *c = NULL;
        size_t count = mpi_collectives_of(ctx, loc, &c);
        MPI_CHECK_EQ(count, (uint64_t)iterations, "collective records on %s", mpi_loc_label(loc));
        for (size_t k = 0; k < count; k++) {
            if (c[k].op != OTF2_COLLECTIVE_OP_ALLREDUCE || c[k].comm != ctx->world_comm ||
                c[k].sent != ctx->ranks * INT_BYTES || c[k].received != ctx->ranks * INT_BYTES) {
                mpi_fail("%s: collective %zu is not an MPI_Allreduce of one int on "
                         "MPI_COMM_WORLD (op %" PRIu32 ", comm %" PRIu32 ", %" PRIu64 "/%" PRIu64
                         " bytes)",
                         mpi_loc_label(loc), k + 1, c[k].op, c[k].comm, c[k].sent, c[k].received);
                break;
            }
        }
        free(c);
    }
}

/* At least three offsets per location: MPI_Init's, one intermediate and
 * MPI_Finalize's. */
const mpi_scenario mpi_scenario_clock = {"clock", 1, 3, expect_clock, check_clock};
/* SPDX-License-Identifier: BSD-3-Clause */
