/* An MPI program for the tests of `weft run`, built without weft: each rank
 * says hello, the ranks meet in a barrier and pass one message around a
 * ring. `weft run` must find libmpi among its DT_NEEDED entries and preload
 * the MPI wrappers, so that its trace holds MPI_Init and MPI_Finalize. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank = 0, size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    printf("hello from rank %d of %d\n", rank, size);
    MPI_Barrier(MPI_COMM_WORLD);
    int token = rank;
    int next = (rank + 1) % size, previous = (rank + size - 1) % size;
    MPI_Sendrecv_replace(&token, 1, MPI_INT, next, 7, previous, 7, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE);
    MPI_Finalize();
    return token == previous ? 0 : 1;
}
/* SPDX-License-Identifier: BSD-3-Clause */
