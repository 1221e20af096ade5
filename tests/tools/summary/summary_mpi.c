/* Test program for `weft summary` (check_summary.py, scenario "mpi"), run
 * under mpirun -np 2 and linked with libweft-mpi. Messages and collectives
 * whose counts and sizes are fixed, on four communicators:
 *
 *   MPI_COMM_WORLD  rank 0 -> 1: 5 MPI_Send of 100 ints (400 B each)
 *                   rank 1 -> 0: 3 MPI_Isend of 10 doubles (80 B), MPI_Irecv +
 *                   MPI_Waitall on rank 0
 *                   3 MPI_Allreduce of 1 double, 1 MPI_Barrier
 *   dup of WORLD    4 MPI_Sendrecv exchanging 16 B in both directions
 *                   2 MPI_Bcast of 64 B from rank 0
 *   split, ranks    world rank 1 (rank 0 there) -> world rank 0: 7 MPI_Send of
 *   reversed        8 B, addressed to rank 1 of the split communicator
 *   MPI_COMM_SELF   each rank: 1 MPI_Sendrecv of 4 B to itself
 *
 * Received data is checked; a wrong value aborts the job. Keep
 * check_summary.py's MPI_* constants in step with this file. */
#include <stdio.h>

#include <mpi.h>

static int rank;

static void require(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "summary_mpi %d: %s\n", rank, what);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
}

static void world_messages(void)
{
    int ints[100];
    double doubles[3][10];
    MPI_Request requests[3];
    for (int m = 0; m < 5; m++) {
        for (int i = 0; i < 100; i++)
            ints[i] = rank == 0 ? m * 1000 + i : -1;
        if (rank == 0) {
            MPI_Send(ints, 100, MPI_INT, 1, 10, MPI_COMM_WORLD);
        } else {
            MPI_Recv(ints, 100, MPI_INT, 0, 10, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            require(ints[99] == m * 1000 + 99, "wrong MPI_Send data");
        }
    }
    for (int m = 0; m < 3; m++) {
        for (int i = 0; i < 10; i++)
            doubles[m][i] = rank == 1 ? m + i * 0.5 : -1.0;
        if (rank == 1)
            MPI_Isend(doubles[m], 10, MPI_DOUBLE, 0, 20 + m, MPI_COMM_WORLD, &requests[m]);
        else
            MPI_Irecv(doubles[m], 10, MPI_DOUBLE, 1, 20 + m, MPI_COMM_WORLD, &requests[m]);
    }
    MPI_Waitall(3, requests, MPI_STATUSES_IGNORE);
    require(doubles[2][9] == 2 + 4.5, "wrong MPI_Isend data");
}

static void world_collectives(void)
{
    for (int c = 0; c < 3; c++) {
        double mine = rank + c, sum = 0;
        MPI_Allreduce(&mine, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        require(sum == 1 + 2 * c, "wrong MPI_Allreduce sum");
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

static void dup_traffic(void)
{
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    for (int m = 0; m < 4; m++) {
        char out[16], in[16];
        for (int i = 0; i < 16; i++)
            out[i] = (char)(rank * 50 + m + i);
        MPI_Sendrecv(out, 16, MPI_BYTE, 1 - rank, 30, in, 16, MPI_BYTE, 1 - rank, 30, dup,
                     MPI_STATUS_IGNORE);
        require(in[15] == (char)((1 - rank) * 50 + m + 15), "wrong MPI_Sendrecv data");
    }
    for (int b = 0; b < 2; b++) {
        char data[64];
        for (int i = 0; i < 64; i++)
            data[i] = rank == 0 ? (char)(b + i) : 0;
        MPI_Bcast(data, 64, MPI_BYTE, 0, dup);
        require(data[63] == (char)(b + 63), "wrong MPI_Bcast data");
    }
    MPI_Comm_free(&dup);
}

/* Ranks reversed: world rank 1 is rank 0 of `split` and sends to its rank 1,
 * world rank 0; the summary must name the pair 1 -> 0. */
static void split_traffic(void)
{
    MPI_Comm split;
    MPI_Comm_split(MPI_COMM_WORLD, 0, 1 - rank, &split);
    int split_rank = -1;
    MPI_Comm_rank(split, &split_rank);
    require(split_rank == 1 - rank, "MPI_Comm_split did not reverse the ranks");
    for (int m = 0; m < 7; m++) {
        double value = m;
        if (split_rank == 0) {
            MPI_Send(&value, 1, MPI_DOUBLE, 1, 40, split);
        } else {
            MPI_Recv(&value, 1, MPI_DOUBLE, 0, 40, split, MPI_STATUS_IGNORE);
            require(value == m, "wrong data on the split communicator");
        }
    }
    MPI_Comm_free(&split);
}

static void self_traffic(void)
{
    int out = rank + 7, in = -1;
    MPI_Sendrecv(&out, 1, MPI_INT, 0, 50, &in, 1, MPI_INT, 0, 50, MPI_COMM_SELF, MPI_STATUS_IGNORE);
    require(in == out, "wrong data on MPI_COMM_SELF");
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int size = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    require(size == 2, "run with exactly 2 ranks");
    world_messages();
    world_collectives();
    dup_traffic();
    split_traffic();
    self_traffic();
    MPI_Finalize();
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
