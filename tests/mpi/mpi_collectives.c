/* MPI test program "collectives": every blocking collective of
 * COLL_SEQUENCE (mpi_scenarios.h), in that order, on MPI_COMM_WORLD and then
 * on a split communicator whose ranks run against the world ranks; then three
 * non-blocking collectives on MPI_COMM_WORLD, each completed by MPI_Wait.
 * Results are checked; a wrong value aborts the job.
 *
 *   mpirun -np N mpi_collectives     (N even) */
#include <stdlib.h>

#include <mpi.h>

#include "mpi_program.h"
#include "mpi_scenarios.h"

enum { MAX_RANKS = 64, BUF = 4096 };

static int world_rank;

static void require(int ok, const char *what)
{
    mpi_program_require(ok, world_rank, what);
}

/* counts[i] = i + 1 and displacements packed, for the "v" variants. */
static void v_layout(int n, int *counts, int *displs)
{
    for (int i = 0; i < n; i++) {
        counts[i] = i + 1;
        displs[i] = i == 0 ? 0 : displs[i - 1] + counts[i - 1];
    }
}

static void rooted(MPI_Comm comm, int me, int n, int *a, int *b)
{
    int counts[MAX_RANKS], displs[MAX_RANKS];
    v_layout(n, counts, displs);

    for (int i = 0; i < COLL_BCAST_COUNT; i++)
        a[i] = me == COLL_BCAST_ROOT(n) ? 7 * i : -1;
    MPI_Bcast(a, COLL_BCAST_COUNT, MPI_INT, COLL_BCAST_ROOT(n), comm);
    require(a[COLL_BCAST_COUNT - 1] == 7 * (COLL_BCAST_COUNT - 1), "MPI_Bcast");

    for (int i = 0; i < COLL_GATHER_COUNT; i++)
        a[i] = me;
    MPI_Gather(a, COLL_GATHER_COUNT, MPI_INT, b, COLL_GATHER_COUNT, MPI_INT, COLL_GATHER_ROOT(n),
               comm);
    require(me != COLL_GATHER_ROOT(n) || b[COLL_GATHER_COUNT * (n - 1)] == n - 1, "MPI_Gather");

    for (int i = 0; i <= me; i++)
        a[i] = me;
    MPI_Gatherv(a, me + 1, MPI_INT, b, counts, displs, MPI_INT, COLL_GATHERV_ROOT(n), comm);
    require(me != COLL_GATHERV_ROOT(n) || b[displs[n - 1]] == n - 1, "MPI_Gatherv");

    for (int i = 0; i < COLL_SCATTER_COUNT * n; i++)
        a[i] = i / COLL_SCATTER_COUNT;
    MPI_Scatter(a, COLL_SCATTER_COUNT, MPI_INT, b, COLL_SCATTER_COUNT, MPI_INT,
                COLL_SCATTER_ROOT(n), comm);
    require(b[0] == me, "MPI_Scatter");

    for (int i = 0; i < n; i++)
        for (int k = 0; k < counts[i]; k++)
            a[displs[i] + k] = i;
    MPI_Scatterv(a, counts, displs, MPI_INT, b, me + 1, MPI_INT, COLL_SCATTERV_ROOT(n), comm);
    require(b[me] == me, "MPI_Scatterv");
}

static void all_to_all(MPI_Comm comm, int me, int n, int *a, int *b)
{
    int counts[MAX_RANKS], displs[MAX_RANKS];
    v_layout(n, counts, displs);

    for (int i = 0; i < COLL_ALLGATHER_COUNT; i++)
        a[i] = me;
    MPI_Allgather(a, COLL_ALLGATHER_COUNT, MPI_INT, b, COLL_ALLGATHER_COUNT, MPI_INT, comm);
    require(b[COLL_ALLGATHER_COUNT * (n - 1)] == n - 1, "MPI_Allgather");

    for (int i = 0; i <= me; i++)
        a[i] = me;
    MPI_Allgatherv(a, me + 1, MPI_INT, b, counts, displs, MPI_INT, comm);
    require(b[displs[n - 1]] == n - 1, "MPI_Allgatherv");

    for (int i = 0; i < COLL_ALLTOALL_COUNT * n; i++)
        a[i] = me;
    MPI_Alltoall(a, COLL_ALLTOALL_COUNT, MPI_INT, b, COLL_ALLTOALL_COUNT, MPI_INT, comm);
    require(b[COLL_ALLTOALL_COUNT * (n - 1)] == n - 1, "MPI_Alltoall");

    /* Alltoallv: i + 1 elements to comm rank i, me + 1 from each. */
    int rcounts[MAX_RANKS], rdispls[MAX_RANKS];
    for (int i = 0; i < n; i++) {
        rcounts[i] = me + 1;
        rdispls[i] = i * (me + 1);
    }
    for (int i = 0; i < displs[n - 1] + counts[n - 1]; i++)
        a[i] = me;
    MPI_Alltoallv(a, counts, displs, MPI_INT, b, rcounts, rdispls, MPI_INT, comm);
    require(b[rdispls[n - 1]] == n - 1, "MPI_Alltoallv");

    int wcounts[MAX_RANKS], wdispls[MAX_RANKS];
    MPI_Datatype types[MAX_RANKS];
    for (int i = 0; i < n; i++) {
        wcounts[i] = COLL_ALLTOALLW_COUNT;
        wdispls[i] = i * COLL_ALLTOALLW_COUNT * (int)sizeof(int);
        types[i] = MPI_INT;
        a[i] = me;
    }
    MPI_Alltoallw(a, wcounts, wdispls, types, b, wcounts, wdispls, types, comm);
    require(b[n - 1] == n - 1, "MPI_Alltoallw");
}

static void reductions(MPI_Comm comm, int me, int n, int *a, int *b)
{
    for (int i = 0; i < COLL_REDUCE_COUNT; i++)
        a[i] = 1;
    MPI_Reduce(a, b, COLL_REDUCE_COUNT, MPI_INT, MPI_SUM, COLL_REDUCE_ROOT(n), comm);
    require(me != COLL_REDUCE_ROOT(n) || b[0] == n, "MPI_Reduce");

    double x[COLL_ALLREDUCE_COUNT], y[COLL_ALLREDUCE_COUNT];
    for (int i = 0; i < COLL_ALLREDUCE_COUNT; i++)
        x[i] = 1.0;
    MPI_Allreduce(x, y, COLL_ALLREDUCE_COUNT, MPI_DOUBLE, MPI_SUM, comm);
    require(y[0] == (double)n, "MPI_Allreduce");

    int counts[MAX_RANKS], displs[MAX_RANKS];
    v_layout(n, counts, displs);
    for (int i = 0; i < displs[n - 1] + counts[n - 1]; i++)
        a[i] = 1;
    MPI_Reduce_scatter(a, b, counts, MPI_INT, MPI_SUM, comm);
    require(b[me] == n, "MPI_Reduce_scatter");

    for (int i = 0; i < COLL_REDUCE_SCATTER_BLOCK_COUNT * n; i++)
        a[i] = 1;
    MPI_Reduce_scatter_block(a, b, COLL_REDUCE_SCATTER_BLOCK_COUNT, MPI_INT, MPI_SUM, comm);
    require(b[0] == n, "MPI_Reduce_scatter_block");

    for (int i = 0; i < COLL_SCAN_COUNT; i++)
        a[i] = 1;
    MPI_Scan(a, b, COLL_SCAN_COUNT, MPI_INT, MPI_SUM, comm);
    require(b[0] == me + 1, "MPI_Scan");
    MPI_Exscan(a, b, COLL_SCAN_COUNT, MPI_INT, MPI_SUM, comm);
    require(me == 0 || b[0] == me, "MPI_Exscan");
}

static void all_collectives(MPI_Comm comm, int *a, int *b)
{
    int me, n;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &n);
    require(n <= MAX_RANKS, "too many ranks");
    MPI_Barrier(comm);
    rooted(comm, me, n, a, b);
    all_to_all(comm, me, n, a, b);
    reductions(comm, me, n, a, b);
}

static void nonblocking(int *a)
{
    MPI_Request request;
    MPI_Ibarrier(MPI_COMM_WORLD, &request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    for (int i = 0; i < COLL_BCAST_COUNT; i++)
        a[i] = world_rank == 0 ? 3 * i : -1;
    MPI_Ibcast(a, COLL_BCAST_COUNT, MPI_INT, 0, MPI_COMM_WORLD, &request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    require(a[1] == 3, "MPI_Ibcast");
    double x[COLL_ALLREDUCE_COUNT] = {2.0}, y[COLL_ALLREDUCE_COUNT];
    MPI_Iallreduce(x, y, COLL_ALLREDUCE_COUNT, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    require(y[0] > 0.0, "MPI_Iallreduce");
}

int main(int argc, char **argv)
{
    int size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    mpi_program_require_even(world_rank, size);
    int *a = calloc(BUF, sizeof(int));
    int *b = calloc(BUF, sizeof(int));
    require(a != NULL && b != NULL, "out of memory");

    all_collectives(MPI_COMM_WORLD, a, b);
    MPI_Comm split;
    MPI_Comm_split(MPI_COMM_WORLD, world_rank / 2, size - world_rank, &split);
    all_collectives(split, a, b);
    MPI_Comm_free(&split);
    nonblocking(a);

    free(a);
    free(b);
    MPI_Finalize();
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
