/* Expectations of the point-to-point scenarios, derived from mpi_p2p.c and
 * mpi_nonblocking.c through the constants of mpi_scenarios.h: the calls of
 * each rank, the messages by tag (peer, bytes, how many), and for the
 * nonblocking calls which records each Wait and Test holds. */
#include "mpi_check.h"

#include <inttypes.h>
#include <stdio.h>

#include "mpi_scenarios.h"

#define INT_BYTES 4 /* MPI_INT on every platform the tests run on */

/* ---- p2p ----------------------------------------------------------------- */

static void expect_p2p(const mpi_ctx *ctx, uint32_t rank, uint32_t thread, mpi_expected_calls *x)
{
    (void)ctx;
    (void)rank;
    (void)thread;
    mpi_expect(x, "MPI_Init", 1);
    /* Ring rounds and the Ssend ring: one send and one receive each. */
    mpi_expect(x, "MPI_Send", P2P_RING_ROUNDS);
    mpi_expect(x, "MPI_Recv", P2P_RING_ROUNDS);
    mpi_expect(x, "MPI_Ssend", 1);
    mpi_expect(x, "MPI_Recv", 1);
    mpi_expect(x, "MPI_Buffer_attach", 1);
    mpi_expect(x, "MPI_Bsend", P2P_BSEND_ROUNDS);
    mpi_expect(x, "MPI_Recv", P2P_BSEND_ROUNDS);
    mpi_expect(x, "MPI_Buffer_detach", 1);
    mpi_expect(x, "MPI_Irecv", 1);
    mpi_expect(x, "MPI_Barrier", 1);
    mpi_expect(x, "MPI_Rsend", 1);
    mpi_expect(x, "MPI_Wait", 1);
    mpi_expect(x, "MPI_Sendrecv", 1);
    mpi_expect(x, "MPI_Sendrecv_replace", 1);
    /* Partners: one send and one probed receive each, twice. */
    mpi_expect(x, "MPI_Send", 2);
    mpi_expect(x, "MPI_Probe", 1);
    mpi_expect(x, "MPI_Recv", 1);
    mpi_expect(x, "MPI_Mprobe", 1);
    mpi_expect(x, "MPI_Mrecv", 1);
    mpi_expect(x, "MPI_Finalize", 1);
}

static const uint64_t ring_counts[P2P_RING_ROUNDS] = P2P_RING_COUNTS;
static const uint64_t bsend_counts[P2P_BSEND_ROUNDS] = P2P_BSEND_COUNTS;

static void check_p2p(mpi_ctx *ctx)
{
    const mpi_message_rule rules[] = {
        {P2P_RING_TAG, ring_counts[0] * INT_BYTES, MPI_PEER_RIGHT, 1},
        {P2P_RING_TAG + 1, ring_counts[1] * INT_BYTES, MPI_PEER_RIGHT, 1},
        {P2P_RING_TAG + 2, ring_counts[2] * INT_BYTES, MPI_PEER_RIGHT, 1},
        {P2P_SSEND_TAG, P2P_SSEND_COUNT * INT_BYTES, MPI_PEER_RIGHT, 1},
        {P2P_BSEND_TAG, bsend_counts[0] * INT_BYTES, MPI_PEER_RIGHT, 1},
        {P2P_BSEND_TAG + 1, bsend_counts[1] * INT_BYTES, MPI_PEER_RIGHT, 1},
        {P2P_RSEND_TAG, P2P_RSEND_COUNT * INT_BYTES, MPI_PEER_RIGHT, 1},
        {P2P_SENDRECV_TAG, P2P_SENDRECV_COUNT * INT_BYTES, MPI_PEER_RIGHT, 1},
        {P2P_REPLACE_TAG, P2P_REPLACE_COUNT * INT_BYTES, MPI_PEER_LEFT, 1},
        {P2P_PROBE_TAG, P2P_PROBE_COUNT * INT_BYTES, MPI_PEER_PARTNER, 1},
        {P2P_MPROBE_TAG, P2P_MPROBE_COUNT * INT_BYTES, MPI_PEER_PARTNER, 1},
    };
    mpi_check_message_rules(ctx, 0, rules, sizeof rules / sizeof rules[0]);
    MPI_CHECK_EQ(ctx->messages, 11 * (uint64_t)ctx->ranks, "matched messages");
    for (uint32_t rank = 0; rank < ctx->ranks; rank++) {
        const trace_location_stats *loc = mpi_location(ctx, rank, 0);
        if (loc == NULL)
            continue;
        /* The Rsend's receive is the only nonblocking one. */
        mpi_check_events_in(ctx, loc, "MPI_Wait", TRACE_EVENT_MPI_IRECV, 1);
        MPI_CHECK_EQ(loc->kind_counts[TRACE_EVENT_MPI_SEND], 11, "MpiSend records on %s",
                     mpi_loc_label(loc));
        MPI_CHECK_EQ(loc->kind_counts[TRACE_EVENT_MPI_RECV], 10, "MpiRecv records on %s",
                     mpi_loc_label(loc));
        MPI_CHECK_EQ(loc->kind_counts[TRACE_EVENT_MPI_IRECV], 1, "MpiIrecv records on %s",
                     mpi_loc_label(loc));
    }
}

const mpi_scenario mpi_scenario_p2p = {"p2p", 1, 2, expect_p2p, check_p2p};

/* ---- nonblocking --------------------------------------------------------- */

enum {
    NB_IRECVS = 1 + 2 + 1 + 2 + 1 + 1 + 1, /* Wait, Waitall, Waitany, Waitsome, Test,
                                              Testall, cancelled */
    NB_ISENDS = 1 + 2 + 1 + 2 + 1 + 1,
    NB_ROUNDS = NB_PERSISTENT_START_ROUNDS + NB_PERSISTENT_STARTALL_ROUNDS,
};

static void expect_nonblocking(const mpi_ctx *ctx, uint32_t rank, uint32_t thread,
                               mpi_expected_calls *x)
{
    (void)thread;
    mpi_expect(x, "MPI_Init", 1);
    mpi_expect(x, "MPI_Irecv", NB_IRECVS);
    mpi_expect(x, "MPI_Isend", NB_ISENDS);
    mpi_expect(x, "MPI_Wait", 2 + 1);            /* two in with_wait, the cancelled one */
    mpi_expect(x, "MPI_Waitall", 1 + NB_ROUNDS); /* both_ways, each persistent round */
    mpi_expect(x, "MPI_Waitany", 2);
    long waitsomes = mpi_program_count(ctx, rank, "MPI_Waitsome");
    long tests = mpi_program_count(ctx, rank, "MPI_Test");
    long testalls = mpi_program_count(ctx, rank, "MPI_Testall");
    mpi_expect(x, "MPI_Waitsome", waitsomes > 0 ? (uint64_t)waitsomes : 0);
    mpi_expect(x, "MPI_Test", tests > 0 ? (uint64_t)tests : 0);
    mpi_expect(x, "MPI_Testall", testalls > 0 ? (uint64_t)testalls : 0);
    mpi_expect(x, "MPI_Recv_init", 1);
    mpi_expect(x, "MPI_Send_init", 1);
    mpi_expect(x, "MPI_Start", 2 * NB_PERSISTENT_START_ROUNDS);
    mpi_expect(x, "MPI_Startall", NB_PERSISTENT_STARTALL_ROUNDS);
    mpi_expect(x, "MPI_Request_free", 2);
    mpi_expect(x, "MPI_Cancel", 1);
    mpi_expect(x, "MPI_Test_cancelled", 1);
    mpi_expect(x, "MPI_Finalize", 1);
}

/* Which records each completing call holds on one location. */
static void check_completions(const mpi_ctx *ctx, const trace_location_stats *loc, long tests)
{
    const trace_event_kind isend_done = TRACE_EVENT_MPI_ISEND_COMPLETE;
    const trace_event_kind irecv_done = TRACE_EVENT_MPI_IRECV;
    mpi_check_events_in(ctx, loc, "MPI_Wait", irecv_done, 1);
    mpi_check_events_in(ctx, loc, "MPI_Wait", isend_done, 1);
    mpi_check_events_in(ctx, loc, "MPI_Wait", TRACE_EVENT_MPI_REQUEST_CANCELLED, 1);
    mpi_check_events_in(ctx, loc, "MPI_Waitall", irecv_done, 2 + NB_ROUNDS);
    mpi_check_events_in(ctx, loc, "MPI_Waitall", isend_done, 2 + NB_ROUNDS);
    mpi_check_events_in(ctx, loc, "MPI_Waitany", irecv_done, 1);
    mpi_check_events_in(ctx, loc, "MPI_Waitany", isend_done, 1);
    mpi_check_events_in(ctx, loc, "MPI_Waitsome", irecv_done, 2);
    mpi_check_events_in(ctx, loc, "MPI_Waitsome", isend_done, 2);
    mpi_check_events_in(ctx, loc, "MPI_Testall", irecv_done, 1);
    mpi_check_events_in(ctx, loc, "MPI_Testall", isend_done, 1);
    /* Every MPI_Test on an active request: a RequestTest, or the completion. */
    mpi_check_events_in(ctx, loc, "MPI_Test", irecv_done, 1);
    mpi_check_events_in(ctx, loc, "MPI_Test", isend_done, 1);
    if (tests >= 2)
        mpi_check_events_in(ctx, loc, "MPI_Test", TRACE_EVENT_MPI_REQUEST_TEST,
                            (uint64_t)tests - 2);
    mpi_check_events_in(ctx, loc, "MPI_Start", TRACE_EVENT_MPI_ISEND, NB_PERSISTENT_START_ROUNDS);
    mpi_check_events_in(ctx, loc, "MPI_Start", TRACE_EVENT_MPI_IRECV_REQUEST,
                        NB_PERSISTENT_START_ROUNDS);
    mpi_check_events_in(ctx, loc, "MPI_Startall", TRACE_EVENT_MPI_ISEND,
                        NB_PERSISTENT_STARTALL_ROUNDS);
    mpi_check_events_in(ctx, loc, "MPI_Startall", TRACE_EVENT_MPI_IRECV_REQUEST,
                        NB_PERSISTENT_STARTALL_ROUNDS);
}

static void check_nonblocking(mpi_ctx *ctx)
{
    const uint64_t waitall_counts[2] = NB_WAITALL_COUNTS;
    const mpi_message_rule rules[] = {
        {NB_WAIT_TAG, NB_WAIT_COUNT * INT_BYTES, MPI_PEER_RIGHT, 1},
        {NB_WAITALL_TAG, waitall_counts[0] * INT_BYTES, MPI_PEER_RIGHT, 1},
        {NB_WAITALL_TAG + 1, waitall_counts[1] * INT_BYTES, MPI_PEER_LEFT, 1},
        {NB_WAITANY_TAG, NB_WAITANY_COUNT * INT_BYTES, MPI_PEER_RIGHT, 1},
        {NB_WAITSOME_TAG, NB_WAITSOME_COUNT * INT_BYTES, MPI_PEER_RIGHT, 1},
        {NB_WAITSOME_TAG + 1, (NB_WAITSOME_COUNT + 1) * INT_BYTES, MPI_PEER_LEFT, 1},
        {NB_TEST_TAG, NB_TEST_COUNT * INT_BYTES, MPI_PEER_RIGHT, 1},
        {NB_TESTALL_TAG, NB_TESTALL_COUNT * INT_BYTES, MPI_PEER_RIGHT, 1},
        {NB_PERSISTENT_TAG, NB_PERSISTENT_COUNT * INT_BYTES, MPI_PEER_RIGHT, NB_ROUNDS},
    };
    mpi_check_message_rules(ctx, 0, rules, sizeof rules / sizeof rules[0]);
    MPI_CHECK_EQ(ctx->messages, (uint64_t)(NB_ISENDS + NB_ROUNDS) * ctx->ranks, "matched messages");
    for (uint32_t rank = 0; rank < ctx->ranks; rank++) {
        const trace_location_stats *loc = mpi_location(ctx, rank, 0);
        if (loc == NULL)
            continue;
        long cancelled = mpi_program_count(ctx, rank, "cancelled");
        if (cancelled != 1)
            mpi_fail("rank %" PRIu32 ": MPI_Test_cancelled said %ld; the test expects Open MPI "
                     "to cancel the unmatched receive",
                     rank, cancelled);
        check_completions(ctx, loc, mpi_program_count(ctx, rank, "MPI_Test"));
        const char *label = mpi_loc_label(loc);
        MPI_CHECK_EQ(loc->kind_counts[TRACE_EVENT_MPI_ISEND], NB_ISENDS + NB_ROUNDS,
                     "MpiIsend records on %s", label);
        MPI_CHECK_EQ(loc->kind_counts[TRACE_EVENT_MPI_ISEND_COMPLETE], NB_ISENDS + NB_ROUNDS,
                     "MpiIsendComplete records on %s", label);
        MPI_CHECK_EQ(loc->kind_counts[TRACE_EVENT_MPI_IRECV_REQUEST], NB_IRECVS + NB_ROUNDS,
                     "MpiIrecvRequest records on %s", label);
        MPI_CHECK_EQ(loc->kind_counts[TRACE_EVENT_MPI_IRECV], NB_IRECVS - 1 + NB_ROUNDS,
                     "MpiIrecv records on %s", label);
        MPI_CHECK_EQ(loc->kind_counts[TRACE_EVENT_MPI_REQUEST_CANCELLED], 1,
                     "MpiRequestCancelled records on %s", label);
        MPI_CHECK_EQ(loc->kind_counts[TRACE_EVENT_MPI_SEND] +
                         loc->kind_counts[TRACE_EVENT_MPI_RECV],
                     0, "blocking message records on %s", label);
    }
}

const mpi_scenario mpi_scenario_nonblocking = {"nonblocking", 1, 2, expect_nonblocking,
                                               check_nonblocking};
/* SPDX-License-Identifier: BSD-3-Clause */
