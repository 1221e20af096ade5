/* SPDX-License-Identifier: BSD-3-Clause */
/* Blocking collectives: MpiCollectiveBegin before the call, MpiCollectiveEnd
 * after it with the operation, the root and what this rank sent and
 * received; see pmpi_hooks.h.
 *
 * The byte counts follow Score-P's rules (docs/MPI.md has the table): a
 * rank counts the data it hands to MPI and the data it gets, its own block
 * included unless the call is MPI_IN_PLACE, relying on matching type
 * signatures (so a gather's root counts its receive blocks). Only
 * arguments MPI reads on this rank are looked at: a receive type on a
 * gather's non-root rank, or a send type with MPI_IN_PLACE, may be
 * anything. On an intercommunicator "the others" are the remote group; its
 * root side passes MPI_ROOT (the root) or MPI_PROC_NULL (the rest), which
 * are recorded as no root. */
#include <stdbool.h>

#include "pmpi_hooks.h"

/* Who takes part, as the byte rules need it. */
typedef struct shape {
    bool inter;
    int size;   /* the local group */
    int others; /* the group data goes to: the remote one on an intercommunicator */
    int rank;   /* this process in the local group */
} shape;

static shape shape_of(MPI_Comm comm)
{
    shape s = {false, 1, 1, 0};
    if (comm == MPI_COMM_WORLD) {
        /* Set before weft__pmpi_world_comm, which the caller has read with
         * acquire (weft__pmpi_collective_begin). */
        s.size = s.others = weft__pmpi_world_size;
        s.rank = weft__pmpi_world_rank;
        return s;
    }
    int inter = 0;
    if (PMPI_Comm_size(comm, &s.size) != MPI_SUCCESS ||
        PMPI_Comm_rank(comm, &s.rank) != MPI_SUCCESS)
        return (shape){false, 1, 1, 0};
    s.others = s.size;
    if (PMPI_Comm_test_inter(comm, &inter) == MPI_SUCCESS && inter) {
        s.inter = true;
        if (PMPI_Comm_remote_size(comm, &s.others) != MPI_SUCCESS)
            s.others = 0;
    }
    return s;
}

static uint64_t type_size(MPI_Datatype type)
{
    return weft__pmpi_type_bytes(1, type);
}

static uint64_t count_at(const int *counts, int i)
{
    return counts[i] > 0 ? (uint64_t)counts[i] : 0;
}

static uint64_t sum(const int *counts, int n)
{
    uint64_t total = 0;
    for (int i = 0; i < n; i++)
        total += count_at(counts, i);
    return total;
}

/* The root argument of the collectives without one. */
enum { NO_ROOT = -1 };

static uint32_t root_of(int root)
{
    return root >= 0 ? (uint32_t)root : WEFT_NO_ROOT;
}

/* The end event; false when there is nothing more to compute (no event,
 * or a failed call, whose end carries 0 bytes). */
static bool ended_early(int ret, weft_collective_op op, weft_comm coll, int root)
{
    if (coll.id == WEFT_INVALID_ID)
        return true;
    if (ret == MPI_SUCCESS)
        return false;
    weft_mpi_collective_end(op, coll, root_of(root), 0, 0);
    return true;
}

weft_comm weft__pmpi_collective_begin(MPI_Comm comm)
{
    weft_comm coll = weft__pmpi_message_comm(comm);
    if (coll.id != WEFT_INVALID_ID)
        weft_mpi_collective_begin();
    return coll;
}

void weft__pmpi_coll_barrier(int ret, weft_collective_op op, weft_comm coll, MPI_Comm comm)
{
    (void)comm;
    if (!ended_early(ret, op, coll, NO_ROOT))
        weft_mpi_collective_end(op, coll, WEFT_NO_ROOT, 0, 0);
}

/* Gather and Reduce: every rank hands a block to the root. */
static void all_to_one(const shape *s, int sendcount, MPI_Datatype sendtype, int recvcount,
                       MPI_Datatype recvtype, int root, bool in_place, uint64_t *sent,
                       uint64_t *received)
{
    *sent = *received = 0;
    if (!s->inter) {
        if (s->rank == root) {
            uint64_t block = weft__pmpi_type_bytes(recvcount, recvtype);
            *sent = in_place ? 0 : block;
            *received = (uint64_t)(in_place ? s->size - 1 : s->size) * block;
        } else {
            *sent = weft__pmpi_type_bytes(sendcount, sendtype);
        }
    } else if (root == MPI_ROOT) {
        *received = (uint64_t)s->others * weft__pmpi_type_bytes(recvcount, recvtype);
    } else if (root != MPI_PROC_NULL) {
        *sent = weft__pmpi_type_bytes(sendcount, sendtype);
    }
}

/* Gatherv: the root's blocks have their own counts. */
static void all_to_one_v(const shape *s, int sendcount, MPI_Datatype sendtype,
                         const int *recvcounts, MPI_Datatype recvtype, int root, bool in_place,
                         uint64_t *sent, uint64_t *received)
{
    *sent = *received = 0;
    if (!s->inter) {
        if (s->rank == root) {
            uint64_t total = sum(recvcounts, s->size);
            uint64_t size = total ? type_size(recvtype) : 0;
            uint64_t mine = count_at(recvcounts, s->rank) * size;
            *sent = in_place ? 0 : mine;
            *received = total * size - (in_place ? mine : 0);
        } else {
            *sent = weft__pmpi_type_bytes(sendcount, sendtype);
        }
    } else if (root == MPI_ROOT) {
        uint64_t total = sum(recvcounts, s->others);
        *received = total ? total * type_size(recvtype) : 0;
    } else if (root != MPI_PROC_NULL) {
        *sent = weft__pmpi_type_bytes(sendcount, sendtype);
    }
}

void weft__pmpi_coll_bcast(int ret, weft_collective_op op, weft_comm coll, MPI_Comm comm, int count,
                           MPI_Datatype datatype, int root)
{
    if (ended_early(ret, op, coll, root))
        return;
    shape s = shape_of(comm);
    uint64_t sent, received;
    /* Bcast is a Gather backwards. */
    all_to_one(&s, count, datatype, count, datatype, root, false, &received, &sent);
    weft_mpi_collective_end(op, coll, root_of(root), sent, received);
}

void weft__pmpi_coll_gather(int ret, weft_collective_op op, weft_comm coll, MPI_Comm comm,
                            const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                            int recvcount, MPI_Datatype recvtype, int root)
{
    if (ended_early(ret, op, coll, root))
        return;
    shape s = shape_of(comm);
    uint64_t sent, received;
    all_to_one(&s, sendcount, sendtype, recvcount, recvtype, root, sendbuf == MPI_IN_PLACE, &sent,
               &received);
    weft_mpi_collective_end(op, coll, root_of(root), sent, received);
}

void weft__pmpi_coll_gatherv(int ret, weft_collective_op op, weft_comm coll, MPI_Comm comm,
                             const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                             const int *recvcounts, MPI_Datatype recvtype, int root)
{
    if (ended_early(ret, op, coll, root))
        return;
    shape s = shape_of(comm);
    uint64_t sent, received;
    all_to_one_v(&s, sendcount, sendtype, recvcounts, recvtype, root, sendbuf == MPI_IN_PLACE,
                 &sent, &received);
    weft_mpi_collective_end(op, coll, root_of(root), sent, received);
}

void weft__pmpi_coll_scatter(int ret, weft_collective_op op, weft_comm coll, MPI_Comm comm,
                             int sendcount, MPI_Datatype sendtype, const void *recvbuf,
                             int recvcount, MPI_Datatype recvtype, int root)
{
    if (ended_early(ret, op, coll, root))
        return;
    shape s = shape_of(comm);
    uint64_t sent, received;
    all_to_one(&s, recvcount, recvtype, sendcount, sendtype, root, recvbuf == MPI_IN_PLACE,
               &received, &sent);
    weft_mpi_collective_end(op, coll, root_of(root), sent, received);
}

void weft__pmpi_coll_scatterv(int ret, weft_collective_op op, weft_comm coll, MPI_Comm comm,
                              const int *sendcounts, MPI_Datatype sendtype, const void *recvbuf,
                              int recvcount, MPI_Datatype recvtype, int root)
{
    if (ended_early(ret, op, coll, root))
        return;
    shape s = shape_of(comm);
    uint64_t sent, received;
    all_to_one_v(&s, recvcount, recvtype, sendcounts, sendtype, root, recvbuf == MPI_IN_PLACE,
                 &received, &sent);
    weft_mpi_collective_end(op, coll, root_of(root), sent, received);
}

/* Alltoall, Allgather, Allreduce: a block to and from every other rank
 * (and oneself, unless in place). */
static void all_to_all(int ret, weft_collective_op op, weft_comm coll, MPI_Comm comm, bool in_place,
                       int sendcount, MPI_Datatype sendtype, int recvcount, MPI_Datatype recvtype)
{
    if (ended_early(ret, op, coll, NO_ROOT))
        return;
    shape s = shape_of(comm);
    uint64_t block = weft__pmpi_type_bytes(recvcount, recvtype);
    uint64_t sent, received;
    if (in_place) {
        sent = received = (uint64_t)(s.others - 1) * block;
    } else {
        sent = (uint64_t)s.others * weft__pmpi_type_bytes(sendcount, sendtype);
        received = (uint64_t)s.others * block;
    }
    weft_mpi_collective_end(op, coll, WEFT_NO_ROOT, sent, received);
}

void weft__pmpi_coll_allgather(int ret, weft_collective_op op, weft_comm coll, MPI_Comm comm,
                               const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                               int recvcount, MPI_Datatype recvtype)
{
    all_to_all(ret, op, coll, comm, sendbuf == MPI_IN_PLACE, sendcount, sendtype, recvcount,
               recvtype);
}

void weft__pmpi_coll_alltoall(int ret, weft_collective_op op, weft_comm coll, MPI_Comm comm,
                              const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                              int recvcount, MPI_Datatype recvtype)
{
    all_to_all(ret, op, coll, comm, sendbuf == MPI_IN_PLACE, sendcount, sendtype, recvcount,
               recvtype);
}

void weft__pmpi_coll_allreduce(int ret, weft_collective_op op, weft_comm coll, MPI_Comm comm,
                               const void *sendbuf, int count, MPI_Datatype datatype)
{
    all_to_all(ret, op, coll, comm, sendbuf == MPI_IN_PLACE, count, datatype, count, datatype);
}

void weft__pmpi_coll_allgatherv(int ret, weft_collective_op op, weft_comm coll, MPI_Comm comm,
                                const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                const int *recvcounts, MPI_Datatype recvtype)
{
    if (ended_early(ret, op, coll, NO_ROOT))
        return;
    shape s = shape_of(comm);
    uint64_t total = sum(recvcounts, s.others);
    uint64_t size = total ? type_size(recvtype) : 0;
    uint64_t sent, received = total * size;
    if (sendbuf == MPI_IN_PLACE) {
        uint64_t mine = count_at(recvcounts, s.rank) * size;
        received -= mine;
        sent = (uint64_t)(s.others - 1) * mine;
    } else {
        sent = (uint64_t)s.others * weft__pmpi_type_bytes(sendcount, sendtype);
    }
    weft_mpi_collective_end(op, coll, WEFT_NO_ROOT, sent, received);
}

void weft__pmpi_coll_alltoallv(int ret, weft_collective_op op, weft_comm coll, MPI_Comm comm,
                               const void *sendbuf, const int *sendcounts, MPI_Datatype sendtype,
                               const int *recvcounts, MPI_Datatype recvtype)
{
    if (ended_early(ret, op, coll, NO_ROOT))
        return;
    shape s = shape_of(comm);
    uint64_t total = sum(recvcounts, s.others);
    uint64_t size = total ? type_size(recvtype) : 0;
    uint64_t sent, received = total * size;
    if (sendbuf == MPI_IN_PLACE) {
        received -= count_at(recvcounts, s.rank) * size;
        sent = received;
    } else {
        uint64_t send_total = sum(sendcounts, s.others);
        sent = send_total ? send_total * type_size(sendtype) : 0;
    }
    weft_mpi_collective_end(op, coll, WEFT_NO_ROOT, sent, received);
}

/* Alltoallw's types come as C handles or (from Fortran) as Fortran ones. */
static MPI_Datatype type_at(const MPI_Datatype *types, const MPI_Fint *f_types, int i)
{
    return types ? types[i] : PMPI_Type_f2c(f_types[i]);
}

static void alltoallw(int ret, weft_collective_op op, weft_comm coll, MPI_Comm comm,
                      const void *sendbuf, const int *sendcounts, const MPI_Datatype *sendtypes,
                      const MPI_Fint *f_sendtypes, const int *recvcounts,
                      const MPI_Datatype *recvtypes, const MPI_Fint *f_recvtypes)
{
    if (ended_early(ret, op, coll, NO_ROOT))
        return;
    shape s = shape_of(comm);
    uint64_t sent = 0, received = 0;
    for (int i = 0; i < s.others; i++) {
        if (recvcounts[i] > 0)
            received += weft__pmpi_type_bytes(recvcounts[i], type_at(recvtypes, f_recvtypes, i));
        if (sendbuf != MPI_IN_PLACE && sendcounts[i] > 0)
            sent += weft__pmpi_type_bytes(sendcounts[i], type_at(sendtypes, f_sendtypes, i));
    }
    if (sendbuf == MPI_IN_PLACE) {
        if (recvcounts[s.rank] > 0)
            received -=
                weft__pmpi_type_bytes(recvcounts[s.rank], type_at(recvtypes, f_recvtypes, s.rank));
        sent = received;
    }
    weft_mpi_collective_end(op, coll, WEFT_NO_ROOT, sent, received);
}

void weft__pmpi_coll_alltoallw(int ret, weft_collective_op op, weft_comm coll, MPI_Comm comm,
                               const void *sendbuf, const int *sendcounts,
                               const MPI_Datatype *sendtypes, const int *recvcounts,
                               const MPI_Datatype *recvtypes)
{
    alltoallw(ret, op, coll, comm, sendbuf, sendcounts, sendtypes, NULL, recvcounts, recvtypes,
              NULL);
}

void weft__pmpi_coll_alltoallw_f(int ret, weft_collective_op op, weft_comm coll, MPI_Comm comm,
                                 const void *sendbuf, const int *sendcounts,
                                 const MPI_Fint *sendtypes, const int *recvcounts,
                                 const MPI_Fint *recvtypes)
{
    alltoallw(ret, op, coll, comm, sendbuf, sendcounts, NULL, sendtypes, recvcounts, NULL,
              recvtypes);
}

void weft__pmpi_coll_reduce(int ret, weft_collective_op op, weft_comm coll, MPI_Comm comm,
                            const void *sendbuf, int count, MPI_Datatype datatype, int root)
{
    if (ended_early(ret, op, coll, root))
        return;
    shape s = shape_of(comm);
    uint64_t sent, received;
    all_to_one(&s, count, datatype, count, datatype, root, sendbuf == MPI_IN_PLACE, &sent,
               &received);
    weft_mpi_collective_end(op, coll, root_of(root), sent, received);
}

void weft__pmpi_coll_reduce_scatter(int ret, weft_collective_op op, weft_comm coll, MPI_Comm comm,
                                    const void *sendbuf, const int *recvcounts,
                                    MPI_Datatype datatype)
{
    if (ended_early(ret, op, coll, NO_ROOT))
        return;
    shape s = shape_of(comm);
    uint64_t total = sum(recvcounts, s.size); /* the counts are per local rank */
    uint64_t size = total ? type_size(datatype) : 0;
    uint64_t mine = count_at(recvcounts, s.rank) * size;
    uint64_t sent = total * size, received;
    if (s.inter) {
        received = (uint64_t)s.others * mine;
    } else if (sendbuf == MPI_IN_PLACE) {
        sent -= mine;
        received = (uint64_t)(s.size - 1) * mine;
    } else {
        received = (uint64_t)s.size * mine;
    }
    weft_mpi_collective_end(op, coll, WEFT_NO_ROOT, sent, received);
}

void weft__pmpi_coll_reduce_scatter_block(int ret, weft_collective_op op, weft_comm coll,
                                          MPI_Comm comm, const void *sendbuf, int recvcount,
                                          MPI_Datatype datatype)
{
    if (ended_early(ret, op, coll, NO_ROOT))
        return;
    shape s = shape_of(comm);
    uint64_t block = weft__pmpi_type_bytes(recvcount, datatype);
    uint64_t bytes = (uint64_t)(sendbuf == MPI_IN_PLACE ? s.size - 1 : s.size) * block;
    weft_mpi_collective_end(op, coll, WEFT_NO_ROOT, bytes, bytes);
}

/* Scan: rank r sends its block to ranks r.. and receives from ranks ..r;
 * in place (and always for Exscan) without its own. */
static void scan(int ret, weft_collective_op op, weft_comm coll, MPI_Comm comm, bool in_place,
                 int count, MPI_Datatype datatype)
{
    if (ended_early(ret, op, coll, NO_ROOT))
        return;
    shape s = shape_of(comm);
    uint64_t block = weft__pmpi_type_bytes(count, datatype);
    int own = in_place ? 0 : 1;
    uint64_t sent = (uint64_t)(s.size - s.rank - 1 + own) * block;
    uint64_t received = (uint64_t)(s.rank + own) * block;
    weft_mpi_collective_end(op, coll, WEFT_NO_ROOT, sent, received);
}

void weft__pmpi_coll_scan(int ret, weft_collective_op op, weft_comm coll, MPI_Comm comm,
                          const void *sendbuf, int count, MPI_Datatype datatype)
{
    scan(ret, op, coll, comm, sendbuf == MPI_IN_PLACE, count, datatype);
}

void weft__pmpi_coll_exscan(int ret, weft_collective_op op, weft_comm coll, MPI_Comm comm,
                            int count, MPI_Datatype datatype)
{
    scan(ret, op, coll, comm, true, count, datatype);
}
