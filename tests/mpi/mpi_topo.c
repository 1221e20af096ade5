/* MPI test program "topo": communicators made by the constructors weft
 * wraps beside the classic ones - Cart_sub, Graph_create,
 * Dist_graph_create_adjacent, Comm_create_group, Comm_idup,
 * Intercomm_create and Intercomm_merge - with one message on each (see
 * mpi_scenarios.h). Received data is checked.
 *
 *   mpirun -np N mpi_topo     (N even) */
#include <mpi.h>

#include "mpi_program.h"
#include "mpi_scenarios.h"

enum { MAX_RANKS = 64 };

static int world_rank, world_size;

/* One MPI_Sendrecv with the neighbours of a ring over comm; the data
 * carries the sender's world rank. */
static void ring(MPI_Comm comm)
{
    int me, n;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &n);
    int out[TOPO_COUNT], in[TOPO_COUNT];
    for (int i = 0; i < TOPO_COUNT; i++)
        out[i] = world_rank;
    MPI_Sendrecv(out, TOPO_COUNT, MPI_INT, (me + 1) % n, TOPO_TAG, in, TOPO_COUNT, MPI_INT,
                 (me + n - 1) % n, TOPO_TAG, comm, MPI_STATUS_IGNORE);
    mpi_program_require(in[0] >= 0 && in[0] < world_size, world_rank, "ring: wrong data");
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &world_size);
    mpi_program_require_even(world_rank, world_size);
    mpi_program_require(world_size <= MAX_RANKS, world_rank, "too many ranks");
    int n = world_size;

    MPI_Comm cart, row;
    int dims[2] = {2, n / 2}, periods[2] = {1, 1}, remain[2] = {0, 1};
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
    ring(cart);
    MPI_Cart_sub(cart, remain, &row);
    ring(row);

    MPI_Comm graph, dist;
    int index[MAX_RANKS], edges[2 * MAX_RANKS];
    for (int r = 0; r < n; r++) {
        edges[2 * r] = (r + n - 1) % n;
        edges[2 * r + 1] = (r + 1) % n;
        index[r] = 2 * (r + 1);
    }
    MPI_Graph_create(MPI_COMM_WORLD, n, index, edges, 0, &graph);
    ring(graph);
    int left = (world_rank + n - 1) % n, right = (world_rank + 1) % n;
    int weight = 1; /* (Open MPI's MPI_UNWEIGHTED points at nothing; GCC objects) */
    MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &left, &weight, 1, &right, &weight,
                                   MPI_INFO_NULL, 0, &dist);
    ring(dist);

    MPI_Group world_group, odd_group;
    int odds[MAX_RANKS], odd_count = 0;
    for (int r = 1; r < n; r += 2)
        odds[odd_count++] = r;
    MPI_Comm_group(MPI_COMM_WORLD, &world_group);
    MPI_Group_incl(world_group, odd_count, odds, &odd_group);
    MPI_Comm odd = MPI_COMM_NULL;
    if (world_rank % 2 == 1) {
        MPI_Comm_create_group(MPI_COMM_WORLD, odd_group, TOPO_TAG, &odd);
        ring(odd);
    }
    MPI_Group_free(&odd_group);
    MPI_Group_free(&world_group);

    MPI_Comm idup;
    MPI_Request request;
    MPI_Comm_idup(MPI_COMM_WORLD, &idup, &request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    ring(idup);

    MPI_Comm half, inter, merged;
    int colour = world_rank % 2;
    MPI_Comm_split(MPI_COMM_WORLD, colour, world_rank, &half);
    /* No message on the intercommunicator: each side defines it with the
     * other side as members, so the two halves of a message would not meet
     * (see docs/MPI.md). */
    MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, colour ? 0 : 1, TOPO_TAG, &inter);
    MPI_Intercomm_merge(inter, colour, &merged);
    ring(merged);

    MPI_Comm_free(&merged);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&half);
    MPI_Comm_free(&idup);
    if (odd != MPI_COMM_NULL)
        MPI_Comm_free(&odd);
    MPI_Comm_free(&dist);
    MPI_Comm_free(&graph);
    MPI_Comm_free(&row);
    MPI_Comm_free(&cart);
    MPI_Finalize();
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
