/* MPI test program "nonblocking": Isend/Irecv completed by every kind of
 * Wait and Test, persistent requests started with Start and Startall, and
 * one receive that is cancelled (see mpi_scenarios.h for tags and sizes).
 * The number of Test, Testall and Waitsome calls depends on timing; they
 * are counted and written to the counts file, with "cancelled" (what
 * MPI_Test_cancelled said).
 *
 *   mpirun -np N mpi_nonblocking [COUNTS_DIR]     (N even) */
#define _POSIX_C_SOURCE 200809L

#include <stdlib.h>
#include <time.h>

#include <mpi.h>

#include "mpi_program.h"
#include "mpi_scenarios.h"

static int rank, size, right, left;
static long tests, testalls, waitsomes;

static int value(int from, int tag, int i)
{
    return from * 100000 + tag * 1000 + i % 1000;
}

static void fill(int *buf, int count, int tag)
{
    for (int i = 0; i < count; i++)
        buf[i] = value(rank, tag, i);
}

static void verify(const int *buf, int count, int from, int tag)
{
    for (int i = 0; i < count; i++)
        mpi_program_require(buf[i] == value(from, tag, i), rank, "received wrong data");
}

static void with_wait(int *out, int *in)
{
    MPI_Request recv, send;
    MPI_Status status;
    MPI_Irecv(in, NB_WAIT_COUNT, MPI_INT, left, NB_WAIT_TAG, MPI_COMM_WORLD, &recv);
    fill(out, NB_WAIT_COUNT, NB_WAIT_TAG);
    MPI_Isend(out, NB_WAIT_COUNT, MPI_INT, right, NB_WAIT_TAG, MPI_COMM_WORLD, &send);
    MPI_Wait(&recv, &status);
    mpi_program_require(status.MPI_SOURCE == left, rank, "MPI_Wait: wrong source");
    MPI_Wait(&send, MPI_STATUS_IGNORE);
    verify(in, NB_WAIT_COUNT, left, NB_WAIT_TAG);
}

/* Two receives and two sends, to both neighbours, with tags tag and tag+1;
 * completed by Waitall (waitsome false) or by a Waitsome loop. */
static void both_ways(int *out, int *in, int tag, const int counts[2], int waitsome)
{
    MPI_Request requests[4];
    int *in_right = in + 5000, *out_left = out + 5000;
    MPI_Irecv(in, counts[0], MPI_INT, left, tag, MPI_COMM_WORLD, &requests[0]);
    MPI_Irecv(in_right, counts[1], MPI_INT, right, tag + 1, MPI_COMM_WORLD, &requests[1]);
    fill(out, counts[0], tag);
    fill(out_left, counts[1], tag + 1);
    MPI_Isend(out, counts[0], MPI_INT, right, tag, MPI_COMM_WORLD, &requests[2]);
    MPI_Isend(out_left, counts[1], MPI_INT, left, tag + 1, MPI_COMM_WORLD, &requests[3]);
    if (!waitsome) {
        MPI_Waitall(4, requests, MPI_STATUSES_IGNORE);
    } else {
        int done = 0, indices[4];
        MPI_Status statuses[4];
        while (done < 4) {
            int completed = 0;
            MPI_Waitsome(4, requests, &completed, indices, statuses);
            waitsomes++;
            mpi_program_require(completed > 0, rank, "MPI_Waitsome completed nothing");
            done += completed;
        }
    }
    verify(in, counts[0], left, tag);
    verify(in_right, counts[1], right, tag + 1);
}

/* A receive from any source, completed with MPI_Waitany (status ignored). */
static void with_waitany(int *out, int *in)
{
    MPI_Request requests[2];
    MPI_Irecv(in, NB_WAITANY_COUNT, MPI_INT, MPI_ANY_SOURCE, NB_WAITANY_TAG, MPI_COMM_WORLD,
              &requests[0]);
    fill(out, NB_WAITANY_COUNT, NB_WAITANY_TAG);
    MPI_Isend(out, NB_WAITANY_COUNT, MPI_INT, right, NB_WAITANY_TAG, MPI_COMM_WORLD, &requests[1]);
    for (int i = 0; i < 2; i++) {
        int index = -1;
        MPI_Waitany(2, requests, &index, MPI_STATUS_IGNORE);
        mpi_program_require(index == 0 || index == 1, rank, "MPI_Waitany: bad index");
    }
    verify(in, NB_WAITANY_COUNT, left, NB_WAITANY_TAG);
}

/* Between two tests: lets the other ranks run (the tests oversubscribe the
 * cores), so that a test loop takes a few rounds, not tens of thousands. */
static void pause_briefly(void)
{
    const struct timespec pause = {.tv_sec = 0, .tv_nsec = 20000};
    nanosleep(&pause, NULL);
}

static void with_tests(int *out, int *in)
{
    MPI_Request recv, send;
    int flag = 0;
    MPI_Irecv(in, NB_TEST_COUNT, MPI_INT, left, NB_TEST_TAG, MPI_COMM_WORLD, &recv);
    fill(out, NB_TEST_COUNT, NB_TEST_TAG);
    MPI_Isend(out, NB_TEST_COUNT, MPI_INT, right, NB_TEST_TAG, MPI_COMM_WORLD, &send);
    for (flag = 0; !flag; tests++) {
        MPI_Test(&recv, &flag, MPI_STATUS_IGNORE);
        if (!flag)
            pause_briefly();
    }
    for (flag = 0; !flag; tests++) {
        MPI_Test(&send, &flag, MPI_STATUS_IGNORE);
        if (!flag)
            pause_briefly();
    }
    verify(in, NB_TEST_COUNT, left, NB_TEST_TAG);

    MPI_Request both[2];
    MPI_Irecv(in, NB_TESTALL_COUNT, MPI_INT, left, NB_TESTALL_TAG, MPI_COMM_WORLD, &both[0]);
    fill(out, NB_TESTALL_COUNT, NB_TESTALL_TAG);
    MPI_Isend(out, NB_TESTALL_COUNT, MPI_INT, right, NB_TESTALL_TAG, MPI_COMM_WORLD, &both[1]);
    for (flag = 0; !flag; testalls++) {
        MPI_Testall(2, both, &flag, MPI_STATUSES_IGNORE);
        if (!flag)
            pause_briefly();
    }
    verify(in, NB_TESTALL_COUNT, left, NB_TESTALL_TAG);
}

static void persistent(int *out, int *in)
{
    MPI_Request requests[2];
    MPI_Recv_init(in, NB_PERSISTENT_COUNT, MPI_INT, left, NB_PERSISTENT_TAG, MPI_COMM_WORLD,
                  &requests[0]);
    MPI_Send_init(out, NB_PERSISTENT_COUNT, MPI_INT, right, NB_PERSISTENT_TAG, MPI_COMM_WORLD,
                  &requests[1]);
    fill(out, NB_PERSISTENT_COUNT, NB_PERSISTENT_TAG);
    for (int round = 0; round < NB_PERSISTENT_START_ROUNDS + NB_PERSISTENT_STARTALL_ROUNDS;
         round++) {
        if (round < NB_PERSISTENT_START_ROUNDS) {
            MPI_Start(&requests[0]);
            MPI_Start(&requests[1]);
        } else {
            MPI_Startall(2, requests);
        }
        MPI_Waitall(2, requests, MPI_STATUSES_IGNORE);
        verify(in, NB_PERSISTENT_COUNT, left, NB_PERSISTENT_TAG);
    }
    MPI_Request_free(&requests[0]);
    MPI_Request_free(&requests[1]);
}

/* A receive nobody matches, cancelled; returns what MPI_Test_cancelled said. */
static int cancelled_receive(int *in)
{
    MPI_Request request;
    MPI_Status status;
    int cancelled = 0;
    MPI_Irecv(in, 1, MPI_INT, MPI_ANY_SOURCE, NB_CANCEL_TAG, MPI_COMM_WORLD, &request);
    MPI_Cancel(&request);
    MPI_Wait(&request, &status);
    MPI_Test_cancelled(&status, &cancelled);
    return cancelled;
}

int main(int argc, char **argv)
{
    const int waitall_counts[2] = NB_WAITALL_COUNTS;
    const int waitsome_counts[2] = {NB_WAITSOME_COUNT, NB_WAITSOME_COUNT + 1};
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    mpi_program_require_even(rank, size);
    right = (rank + 1) % size;
    left = (rank + size - 1) % size;
    int *out = calloc(10000, sizeof(int));
    int *in = calloc(10000, sizeof(int));
    mpi_program_require(out != NULL && in != NULL, rank, "out of memory");

    with_wait(out, in);
    both_ways(out, in, NB_WAITALL_TAG, waitall_counts, 0);
    with_waitany(out, in);
    both_ways(out, in, NB_WAITSOME_TAG, waitsome_counts, 1);
    with_tests(out, in);
    persistent(out, in);
    int cancelled = cancelled_receive(in);

    const mpi_count counts[] = {
        {"MPI_Test", tests},
        {"MPI_Testall", testalls},
        {"MPI_Waitsome", waitsomes},
        {"cancelled", cancelled},
    };
    mpi_program_write_counts(argc > 1 ? argv[1] : NULL, rank, counts, 4);
    free(out);
    free(in);
    MPI_Finalize();
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
