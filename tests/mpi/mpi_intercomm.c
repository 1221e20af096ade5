/* Point-to-point and a collective on intercommunicators, beside the same on
 * MPI_COMM_WORLD (run_mpi_intercomm.sh checks the trace):
 *   intercomm  (4 ranks) even and odd ranks joined by MPI_Intercomm_create;
 *              each even rank sends one message to the odd rank of the same
 *              position, then all call MPI_Barrier on the intercommunicator;
 *   spawn      (2 ranks) the job spawns 2 more processes of this program,
 *              rank 0 sends one message to the first child, both sides
 *              merge the intercommunicator and call MPI_Allreduce on it.
 * In both, every rank then sends one message around MPI_COMM_WORLD and
 * calls MPI_Allreduce on it. Prints one line per process. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static void world_traffic(void)
{
    int rank, size, token = 1, got = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Sendrecv(&token, 1, MPI_INT, (rank + 1) % size, 9, &got, 1, MPI_INT,
                 (rank + size - 1) % size, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Allreduce(MPI_IN_PLACE, &got, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
}

static int intercomm(void)
{
    int rank, value = 7, position;
    MPI_Comm half, inter;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, rank % 2 ? 0 : 1, 5, &inter);
    MPI_Comm_rank(half, &position);
    if (rank % 2 == 0)
        MPI_Send(&value, 1, MPI_INT, position, 3, inter);
    else
        MPI_Recv(&value, 1, MPI_INT, position, 3, inter, MPI_STATUS_IGNORE);
    MPI_Barrier(inter);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&half);
    return value;
}

static int spawn(const char *program)
{
    MPI_Comm parent, inter, merged;
    int rank, value = 7;
    MPI_Comm_get_parent(&parent);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (parent == MPI_COMM_NULL) {
        char *args[] = {"spawn", NULL};
        MPI_Comm_spawn(program, args, 2, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter,
                       MPI_ERRCODES_IGNORE);
        if (rank == 0)
            MPI_Send(&value, 1, MPI_INT, 0, 3, inter);
    } else {
        inter = parent;
        if (rank == 0)
            MPI_Recv(&value, 1, MPI_INT, 0, 3, inter, MPI_STATUS_IGNORE);
    }
    MPI_Intercomm_merge(inter, parent != MPI_COMM_NULL, &merged);
    MPI_Allreduce(MPI_IN_PLACE, &value, 1, MPI_INT, MPI_SUM, merged);
    MPI_Comm_free(&merged);
    MPI_Comm_disconnect(&inter);
    return value;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int value = argc > 1 && strcmp(argv[1], "spawn") == 0 ? spawn(argv[0]) : intercomm();
    world_traffic();
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    printf("rank %d: %d\n", rank, value);
    MPI_Finalize();
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
