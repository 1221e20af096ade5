/* MPI test program "comms": creates communicators with Comm_dup,
 * Comm_split (twice, once with MPI_UNDEFINED on the last rank when there
 * are 4 or more), Cart_create and Comm_create, exchanges one ring message
 * on each with MPI_Sendrecv, a barrier on the first split, and frees them
 * all (see mpi_scenarios.h). Received data is checked.
 *
 *   mpirun -np N mpi_comms     (N even) */
#include <mpi.h>

#include "mpi_program.h"
#include "mpi_scenarios.h"

enum { MAX_RANKS = 64 };

static int world_rank, world_size;

/* One MPI_Sendrecv to the next comm rank, from the previous one; the data
 * carries the sender's world rank. */
static void ring(MPI_Comm comm)
{
    int me, n;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &n);
    int out[COMMS_COUNT], in[COMMS_COUNT];
    for (int i = 0; i < COMMS_COUNT; i++)
        out[i] = world_rank;
    MPI_Sendrecv(out, COMMS_COUNT, MPI_INT, (me + 1) % n, COMMS_TAG, in, COMMS_COUNT, MPI_INT,
                 (me + n - 1) % n, COMMS_TAG, comm, MPI_STATUS_IGNORE);
    mpi_program_require(in[COMMS_COUNT - 1] >= 0 && in[COMMS_COUNT - 1] < world_size, world_rank,
                        "received wrong data");
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &world_size);
    mpi_program_require_even(world_rank, world_size);
    mpi_program_require(world_size <= MAX_RANKS, world_rank, "too many ranks");

    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    ring(dup);

    MPI_Comm split_a;
    MPI_Comm_split(MPI_COMM_WORLD, world_rank % 2, world_rank, &split_a);
    ring(split_a);
    MPI_Barrier(split_a);

    MPI_Comm split_b;
    int undefined = world_size >= 4 && world_rank == world_size - 1;
    MPI_Comm_split(MPI_COMM_WORLD, undefined ? MPI_UNDEFINED : 0, world_size - world_rank,
                   &split_b);
    mpi_program_require((split_b == MPI_COMM_NULL) == undefined, world_rank,
                        "MPI_Comm_split with MPI_UNDEFINED");
    if (split_b != MPI_COMM_NULL)
        ring(split_b);

    MPI_Comm cart;
    int dims[1] = {world_size}, periods[1] = {1};
    MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &cart);
    ring(cart);

    /* The even world ranks, highest first. */
    MPI_Group world_group, even_group;
    int evens[MAX_RANKS], even_count = 0;
    for (int r = world_size - 1; r >= 0; r--) {
        if (r % 2 == 0)
            evens[even_count++] = r;
    }
    MPI_Comm_group(MPI_COMM_WORLD, &world_group);
    MPI_Group_incl(world_group, even_count, evens, &even_group);
    MPI_Comm created;
    MPI_Comm_create(MPI_COMM_WORLD, even_group, &created);
    mpi_program_require((created == MPI_COMM_NULL) == (world_rank % 2 == 1), world_rank,
                        "MPI_Comm_create");
    if (created != MPI_COMM_NULL)
        ring(created);
    MPI_Group_free(&even_group);
    MPI_Group_free(&world_group);

    MPI_Comm_free(&dup);
    MPI_Comm_free(&split_a);
    if (split_b != MPI_COMM_NULL)
        MPI_Comm_free(&split_b);
    MPI_Comm_free(&cart);
    if (created != MPI_COMM_NULL)
        MPI_Comm_free(&created);
    MPI_Finalize();
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
