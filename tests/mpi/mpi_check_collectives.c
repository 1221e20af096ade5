/* Collective records across ranks: every member of a communicator records
 * the same sequence of operations (with the same root) on it, the
 * operation is the one its region's name says, and roots are set exactly
 * for the rooted operations. Also the byte-count convention of
 * MpiCollectiveEnd, written once here for the scenarios to use.
 *
 * Byte counts follow Score-P (its scorep_mpi_coll_bytes_* functions, which
 * docs/MPI.md is to state for weft; no MPI_IN_PLACE here), with n ranks in
 * the comm and `bytes` = count x type size per peer:
 *   BARRIER                     0 / 0
 *   BCAST, SCATTER              root n*bytes / bytes; others 0 / bytes
 *   GATHER, REDUCE              bytes / root n*bytes, others 0
 *   ALLGATHER, ALLTOALL(W), ALLREDUCE, REDUCE_SCATTER_BLOCK   n*bytes / n*bytes
 *   SCAN                        (n - me)*bytes / (me + 1)*bytes
 *   EXSCAN                      (n - me - 1)*bytes / me*bytes
 * (sent / received; the v variants sum the per-rank counts the same way,
 * see mpi_expect_collectives.c). */
#include "mpi_check.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void mpi_uniform_collective_bytes(uint32_t op, uint32_t n, uint32_t me, uint32_t root,
                                  uint64_t bytes, uint64_t *sent, uint64_t *received)
{
    bool is_root = me == root;
    *sent = 0;
    *received = 0;
    switch (op) {
    case OTF2_COLLECTIVE_OP_BCAST:
    case OTF2_COLLECTIVE_OP_SCATTER:
        *sent = is_root ? n * bytes : 0;
        *received = bytes;
        break;
    case OTF2_COLLECTIVE_OP_GATHER:
    case OTF2_COLLECTIVE_OP_REDUCE:
        *sent = bytes;
        *received = is_root ? n * bytes : 0;
        break;
    case OTF2_COLLECTIVE_OP_ALLGATHER:
    case OTF2_COLLECTIVE_OP_ALLTOALL:
    case OTF2_COLLECTIVE_OP_ALLTOALLW:
    case OTF2_COLLECTIVE_OP_ALLREDUCE:
    case OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK:
        *sent = n * bytes;
        *received = n * bytes;
        break;
    case OTF2_COLLECTIVE_OP_SCAN:
        *sent = (n - me) * bytes;
        *received = (me + 1) * bytes;
        break;
    case OTF2_COLLECTIVE_OP_EXSCAN:
        *sent = (n - me - 1) * bytes;
        *received = me * bytes;
        break;
    default: /* BARRIER; the v variants are not uniform */
        break;
    }
}

size_t mpi_collectives_of(const mpi_ctx *ctx, const trace_location_stats *loc, mpi_collective **out)
{
    const mpi_location_index *ix = &ctx->loc[loc - ctx->t->locations];
    size_t count = 0;
    *out = calloc(loc->kind_counts[TRACE_EVENT_MPI_COLLECTIVE_END] + 1, sizeof **out);
    if (*out == NULL) {
        mpi_fail("out of memory");
        exit(1);
    }
    for (size_t e = 0; e < loc->event_list_len; e++) {
        const trace_event *ev = &loc->events[e];
        if (ev->kind != TRACE_EVENT_MPI_COLLECTIVE_END)
            continue;
        int64_t enter = ix->enclosing[e];
        (*out)[count++] = (mpi_collective){
            .comm = ev->comm,
            .op = ev->collective_op,
            .root = ev->root,
            .sent = ev->size_sent,
            .received = ev->size_received,
            .region = enter >= 0 ? loc->events[enter].region : OTF2_UNDEFINED_REGION,
            .time = ev->time,
        };
    }
    return count;
}

static bool rooted(uint32_t op)
{
    return op == OTF2_COLLECTIVE_OP_BCAST || op == OTF2_COLLECTIVE_OP_GATHER ||
           op == OTF2_COLLECTIVE_OP_GATHERV || op == OTF2_COLLECTIVE_OP_SCATTER ||
           op == OTF2_COLLECTIVE_OP_SCATTERV || op == OTF2_COLLECTIVE_OP_REDUCE;
}

static int by_time(const void *a, const void *b)
{
    const mpi_collective *x = a, *y = b;
    return (x->time > y->time) - (x->time < y->time);
}

/* The records of one rank (all its locations) on comm, in time order. */
static size_t rank_sequence(const mpi_ctx *ctx, uint32_t rank, uint32_t comm, mpi_collective **out)
{
    size_t count = 0, cap = 0;
    *out = NULL;
    for (size_t i = 0; i < ctx->t->location_count; i++) {
        const trace_location_stats *loc = &ctx->t->locations[i];
        if (mpi_loc_rank(loc) != rank)
            continue;
        mpi_collective *all = NULL;
        size_t n = mpi_collectives_of(ctx, loc, &all);
        for (size_t k = 0; k < n; k++) {
            if (all[k].comm != comm)
                continue;
            if (count == cap) {
                cap = cap ? cap * 2 : 64;
                *out = realloc(*out, cap * sizeof **out);
                if (*out == NULL) {
                    mpi_fail("out of memory");
                    exit(1);
                }
            }
            (*out)[count++] = all[k];
        }
        free(all);
    }
    if (count > 1)
        qsort(*out, count, sizeof **out, by_time);
    return count;
}

static void check_record(const mpi_ctx *ctx, const mpi_collective *c, uint32_t comm_size,
                         uint32_t rank, size_t k)
{
    const char *region = mpi_region_name(ctx, c->region);
    int op = mpi_collective_op_of(region);
    if (op >= 0 && (uint32_t)op != c->op)
        mpi_fail("rank %" PRIu32 ": collective %zu on comm %" PRIu32 " in %s has operation %" PRIu32
                 ", expected %d",
                 rank, k + 1, c->comm, region, c->op, op);
    if (rooted(c->op) && c->root >= comm_size)
        mpi_fail("rank %" PRIu32 ": %s on comm %" PRIu32 " has root %" PRIu32
                 ", not a rank of the comm",
                 rank, region, c->comm, c->root);
    if (!rooted(c->op) && c->root != OTF2_UNDEFINED_UINT32)
        mpi_fail("rank %" PRIu32 ": %s on comm %" PRIu32 " has root %" PRIu32
                 ", expected none (OTF2_UNDEFINED_UINT32)",
                 rank, region, c->comm, c->root);
}

static void check_comm(const mpi_ctx *ctx, const trace_comm *comm)
{
    mpi_comm_view view;
    if (!mpi_comm_view_of(ctx, comm->id, 0, &view) || view.self)
        return;
    mpi_collective *first = NULL;
    size_t first_count = 0;
    uint32_t first_rank = UINT32_MAX;
    for (uint32_t i = 0; i < view.count; i++) {
        uint32_t rank = mpi_view_world(&view, i);
        mpi_collective *seq = NULL;
        size_t count = rank_sequence(ctx, rank, comm->id, &seq);
        for (size_t k = 0; k < count; k++)
            check_record(ctx, &seq[k], view.count, rank, k);
        if (first_rank == UINT32_MAX) {
            first = seq;
            first_count = count;
            first_rank = rank;
            continue;
        }
        if (count != first_count)
            mpi_fail("comm %" PRIu32 ": rank %" PRIu32 " has %zu collective records, rank %" PRIu32
                     " has %zu",
                     comm->id, rank, count, first_rank, first_count);
        for (size_t k = 0; k < count && k < first_count; k++) {
            if (seq[k].op != first[k].op || seq[k].root != first[k].root) {
                mpi_fail("comm %" PRIu32 ": collective %zu is op %" PRIu32 " root %" PRIu32
                         " on rank %" PRIu32 " but op %" PRIu32 " root %" PRIu32
                         " on rank %" PRIu32,
                         comm->id, k + 1, seq[k].op, seq[k].root, rank, first[k].op, first[k].root,
                         first_rank);
                break;
            }
        }
        free(seq);
    }
    free(first);
}

void mpi_check_collective_sequences(const mpi_ctx *ctx)
{
    for (size_t i = 0; i < ctx->t->comm_count; i++) {
        if (ctx->t->comms[i].paradigm == OTF2_PARADIGM_MPI)
            check_comm(ctx, &ctx->t->comms[i]);
    }
}
/* SPDX-License-Identifier: BSD-3-Clause */
