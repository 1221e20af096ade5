/* Benchmark program for MPI events through libweft-mpi; bench/run-mpi
 * builds it twice (plain mpicc, and `weft compile -- mpicc`, which links
 * libweft-mpi and libweft) and runs it under mpirun with two ranks.
 *
 *   mpi_calls pingpong ITERATIONS    ranks 0 and 1 bounce an 8-byte message
 *                                    (one double) ITERATIONS times: MPI_Send
 *                                    and MPI_Recv on both
 *   mpi_calls allreduce ITERATIONS   every rank calls MPI_Allreduce of one
 *                                    double (sum) ITERATIONS times
 *
 * WARM_UP iterations run first, so connection set-up, the first events
 * (which start recording and define the regions and communicators) and the
 * first buffer touches stay out of the timing. All ranks then leave an
 * MPI_Barrier together, rank 0 times the ITERATIONS with CLOCK_MONOTONIC
 * and prints one line:
 *
 *   <seconds> <iterations> <ranks>
 *
 * The values carried are checked at the end, so nothing is optimised away
 * and a broken wrapper (wrong buffer, wrong partner) cannot go unnoticed. */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { WARM_UP = 1000, TAG = 7 };

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Rank 0 sends, rank 1 adds one and sends back; ranks >= 2 do nothing.
 * Returns the value rank 0 holds at the end (the number of round trips). */
static double pingpong(int rank, long count, double value)
{
    for (long i = 0; i < count; i++) {
        if (rank == 0) {
            MPI_Send(&value, 1, MPI_DOUBLE, 1, TAG, MPI_COMM_WORLD);
            MPI_Recv(&value, 1, MPI_DOUBLE, 1, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (rank == 1) {
            MPI_Recv(&value, 1, MPI_DOUBLE, 0, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            value += 1.0;
            MPI_Send(&value, 1, MPI_DOUBLE, 0, TAG, MPI_COMM_WORLD);
        }
    }
    return value;
}

/* Every rank contributes 1 to each sum; returns the sum of the sums. */
static double allreduce(long count, double total)
{
    for (long i = 0; i < count; i++) {
        double one = 1.0, sum = 0.0;
        MPI_Allreduce(&one, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        total += sum;
    }
    return total;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank = 0, ranks = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    long iterations = argc == 3 ? atol(argv[2]) : 0;
    int kind = 0; /* 1: pingpong, 2: allreduce */
    if (argc == 3 && strcmp(argv[1], "pingpong") == 0)
        kind = 1;
    else if (argc == 3 && strcmp(argv[1], "allreduce") == 0)
        kind = 2;
    if (kind == 0 || iterations <= 0 || (kind == 1 && ranks < 2)) {
        if (rank == 0)
            fprintf(stderr, "usage: mpirun -np 2 %s pingpong|allreduce ITERATIONS\n", argv[0]);
        MPI_Finalize();
        return 2;
    }

    double value = 0.0;
    value = kind == 1 ? pingpong(rank, WARM_UP, value) : allreduce(WARM_UP, value);
    MPI_Barrier(MPI_COMM_WORLD);
    double start = now_s();
    value = kind == 1 ? pingpong(rank, iterations, value) : allreduce(iterations, value);
    double elapsed = now_s() - start;

    /* Ping-pong: rank 0 got back one more per round trip; allreduce: each
     * call summed a 1 from every rank. */
    double expected =
        kind == 1 ? (double)(WARM_UP + iterations) : (double)(WARM_UP + iterations) * ranks;
    int status = 0;
    if (rank == 0 && value != expected) {
        fprintf(stderr, "%s: wrong result %.0f, expected %.0f\n", argv[0], value, expected);
        status = 1;
    }
    if (rank == 0 && status == 0)
        printf("%.9f %ld %d\n", elapsed, iterations, ranks);
    MPI_Finalize();
    return status;
}
/* SPDX-License-Identifier: BSD-3-Clause */
