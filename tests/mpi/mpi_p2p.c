/* MPI test program "p2p": every blocking point-to-point call, in rings to
 * the right neighbour and between partner ranks (rank ^ 1), with the tags
 * and sizes of mpi_scenarios.h. Received data is checked; a wrong value
 * aborts the job. Even ranks send first where a send could block.
 *
 *   mpirun -np N mpi_p2p [COUNTS_DIR]     (N even) */
#include <stdlib.h>

#include <mpi.h>

#include "mpi_program.h"
#include "mpi_scenarios.h"

static int rank, size;

/* The value element i of a message from `from` with `tag` carries. */
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

/* Send to the right and receive from the left; even ranks send first, so
 * that a rendezvous-size message cannot deadlock the ring. */
static void ring_send_recv(int *out, int *in, int count, int tag, int synchronous)
{
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    fill(out, count, tag);
    for (int step = 0; step < 2; step++) {
        if ((step == 0) == (rank % 2 == 0)) {
            if (synchronous)
                MPI_Ssend(out, count, MPI_INT, right, tag, MPI_COMM_WORLD);
            else
                MPI_Send(out, count, MPI_INT, right, tag, MPI_COMM_WORLD);
        } else {
            MPI_Recv(in, count, MPI_INT, left, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            verify(in, count, left, tag);
        }
    }
}

static void buffered(int *out, int *in)
{
    const int counts[P2P_BSEND_ROUNDS] = P2P_BSEND_COUNTS;
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int bytes = 0;
    for (int r = 0; r < P2P_BSEND_ROUNDS; r++)
        bytes += counts[r] * (int)sizeof(int) + MPI_BSEND_OVERHEAD;
    void *attached = malloc((size_t)bytes);
    mpi_program_require(attached != NULL, rank, "out of memory");
    MPI_Buffer_attach(attached, bytes);
    for (int r = 0; r < P2P_BSEND_ROUNDS; r++) {
        fill(out, counts[r], P2P_BSEND_TAG + r);
        MPI_Bsend(out, counts[r], MPI_INT, right, P2P_BSEND_TAG + r, MPI_COMM_WORLD);
    }
    for (int r = 0; r < P2P_BSEND_ROUNDS; r++) {
        MPI_Recv(in, counts[r], MPI_INT, left, P2P_BSEND_TAG + r, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
        verify(in, counts[r], left, P2P_BSEND_TAG + r);
    }
    void *detached = NULL;
    int detached_bytes = 0;
    MPI_Buffer_detach(&detached, &detached_bytes);
    free(attached);
}

/* Ready send: the receive is posted before the barrier, the send after. */
static void ready(int *out, int *in)
{
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    MPI_Request request;
    MPI_Irecv(in, P2P_RSEND_COUNT, MPI_INT, left, P2P_RSEND_TAG, MPI_COMM_WORLD, &request);
    MPI_Barrier(MPI_COMM_WORLD);
    fill(out, P2P_RSEND_COUNT, P2P_RSEND_TAG);
    MPI_Rsend(out, P2P_RSEND_COUNT, MPI_INT, right, P2P_RSEND_TAG, MPI_COMM_WORLD);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    verify(in, P2P_RSEND_COUNT, left, P2P_RSEND_TAG);
}

static void combined(int *out, int *in)
{
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    fill(out, P2P_SENDRECV_COUNT, P2P_SENDRECV_TAG);
    MPI_Sendrecv(out, P2P_SENDRECV_COUNT, MPI_INT, right, P2P_SENDRECV_TAG, in, P2P_SENDRECV_COUNT,
                 MPI_INT, left, P2P_SENDRECV_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    verify(in, P2P_SENDRECV_COUNT, left, P2P_SENDRECV_TAG);
    fill(out, P2P_REPLACE_COUNT, P2P_REPLACE_TAG);
    MPI_Sendrecv_replace(out, P2P_REPLACE_COUNT, MPI_INT, left, P2P_REPLACE_TAG, right,
                         P2P_REPLACE_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    verify(out, P2P_REPLACE_COUNT, right, P2P_REPLACE_TAG);
}

/* Partners exchange one message each way: the even rank sends first. The
 * receiver learns source and tag from MPI_Probe (wildcards), or takes the
 * message with MPI_Mprobe + MPI_Mrecv. */
static void probed(int *out, int *in)
{
    int partner = rank ^ 1;
    for (int step = 0; step < 2; step++) {
        if ((step == 0) == (rank % 2 == 0)) {
            fill(out, P2P_PROBE_COUNT, P2P_PROBE_TAG);
            MPI_Send(out, P2P_PROBE_COUNT, MPI_INT, partner, P2P_PROBE_TAG, MPI_COMM_WORLD);
        } else {
            MPI_Status status;
            MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
            mpi_program_require(status.MPI_SOURCE == partner && status.MPI_TAG == P2P_PROBE_TAG,
                                rank, "MPI_Probe found an unexpected message");
            MPI_Recv(in, P2P_PROBE_COUNT, MPI_INT, status.MPI_SOURCE, status.MPI_TAG,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            verify(in, P2P_PROBE_COUNT, partner, P2P_PROBE_TAG);
        }
    }
    for (int step = 0; step < 2; step++) {
        if ((step == 0) == (rank % 2 == 0)) {
            fill(out, P2P_MPROBE_COUNT, P2P_MPROBE_TAG);
            MPI_Send(out, P2P_MPROBE_COUNT, MPI_INT, partner, P2P_MPROBE_TAG, MPI_COMM_WORLD);
        } else {
            MPI_Message message;
            MPI_Status status;
            MPI_Mprobe(MPI_ANY_SOURCE, P2P_MPROBE_TAG, MPI_COMM_WORLD, &message, &status);
            MPI_Mrecv(in, P2P_MPROBE_COUNT, MPI_INT, &message, MPI_STATUS_IGNORE);
            verify(in, P2P_MPROBE_COUNT, partner, P2P_MPROBE_TAG);
        }
    }
}

int main(int argc, char **argv)
{
    const int ring_counts[P2P_RING_ROUNDS] = P2P_RING_COUNTS;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    mpi_program_require_even(rank, size);
    int *out = malloc(10000 * sizeof(int));
    int *in = malloc(10000 * sizeof(int));
    mpi_program_require(out != NULL && in != NULL, rank, "out of memory");

    for (int r = 0; r < P2P_RING_ROUNDS; r++)
        ring_send_recv(out, in, ring_counts[r], P2P_RING_TAG + r, 0);
    ring_send_recv(out, in, P2P_SSEND_COUNT, P2P_SSEND_TAG, 1);
    buffered(out, in);
    ready(out, in);
    combined(out, in);
    probed(out, in);

    free(out);
    free(in);
    MPI_Finalize();
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
