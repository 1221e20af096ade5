/* SPDX-License-Identifier: BSD-3-Clause */
/* MPI_Init and MPI_Finalize on the recorder's side: the job operations of
 * weft/job.h implemented with PMPI on weft's private communicator; see
 * pmpi_internal.h. */
#include <limits.h>
#include <stdlib.h>

/* OTF2's header-only MPI collectives, calling PMPI_* so that weft's own
 * traffic is never recorded. */
#define OTF2_MPI_USE_PMPI
#include <otf2/OTF2_MPI_Collectives.h>

#include "pmpi_internal.h"
#include "weft/job.h"
#include "weft/log.h"

/* The tag of every message weft sends on its private communicator. */
enum { JOB_TAG = 0x5746 };

static MPI_Comm private_comm = MPI_COMM_NULL;

/* The wrappers register the library with the recorder as soon as it is
 * loaded, so that events before MPI_Init wait in memory for the job's
 * experiment directory instead of opening a single-process trace. */
__attribute__((constructor)) static void expect_job(void)
{
    weft_job_expect();
}

MPI_Comm weft__pmpi_private_comm(void)
{
    return private_comm;
}

static int archive_collectives(void *archive, void *data)
{
    (void)data;
    return OTF2_MPI_Archive_SetCollectiveCallbacks(archive, private_comm, MPI_COMM_NULL) ==
                   OTF2_SUCCESS
               ? 0
               : -1;
}

/* One part of a message of weft's own, at most INT_MAX bytes (MPI's count),
 * to or from PEER (the root of a broadcast). */
typedef int part_fn(char *at, int bytes, uint32_t peer);

static int bcast_part(char *at, int bytes, uint32_t root)
{
    return PMPI_Bcast(at, bytes, MPI_BYTE, (int)root, private_comm);
}

static int send_part(char *at, int bytes, uint32_t to)
{
    return PMPI_Send(at, bytes, MPI_BYTE, (int)to, JOB_TAG, private_comm);
}

static int recv_part(char *at, int bytes, uint32_t from)
{
    return PMPI_Recv(at, bytes, MPI_BYTE, (int)from, JOB_TAG, private_comm, MPI_STATUS_IGNORE);
}

/* Moves BYTES at AT in parts (none for 0 bytes); 0, or -1 when MPI failed. */
static int in_parts(part_fn *move, char *at, uint64_t bytes, uint32_t peer)
{
    while (bytes > 0) {
        int part = bytes > INT_MAX ? INT_MAX : (int)bytes;
        if (move(at, part, peer) != MPI_SUCCESS)
            return -1;
        at += part;
        bytes -= (uint64_t)part;
    }
    return 0;
}

static int job_bcast(void *buf, uint64_t bytes, uint32_t root, void *data)
{
    (void)data;
    return in_parts(bcast_part, buf, bytes, root);
}

/* A message of any size: its length (8 bytes), then the bytes in parts.
 * Messages between two ranks on one tag do not overtake each other, so the
 * parts arrive in order. */
static int job_send(const void *buf, uint64_t bytes, uint32_t to, void *data)
{
    (void)data;
    if (PMPI_Send(&bytes, 1, MPI_UINT64_T, (int)to, JOB_TAG, private_comm) != MPI_SUCCESS)
        return -1;
    return in_parts(send_part, (char *)buf, bytes, to); /* only read */
}

static int job_recv(void **buf, uint64_t *bytes, uint32_t from, void *data)
{
    (void)data;
    uint64_t length = 0;
    *buf = NULL;
    *bytes = 0;
    if (PMPI_Recv(&length, 1, MPI_UINT64_T, (int)from, JOB_TAG, private_comm,
                  MPI_STATUS_IGNORE) != MPI_SUCCESS)
        return -1;
    char *space = length < SIZE_MAX ? malloc(length ? (size_t)length : 1) : NULL;
    if (!space)
        return -1; /* the parts stay unreceived: the job is broken anyway */
    if (in_parts(recv_part, space, length, from) != 0) {
        free(space);
        return -1;
    }
    *buf = space;
    *bytes = length;
    return 0;
}

static int job_allreduce_u64(uint64_t *values, uint32_t count, bool max, void *data)
{
    (void)data;
    return PMPI_Allreduce(MPI_IN_PLACE, values, (int)count, MPI_UINT64_T, max ? MPI_MAX : MPI_MIN,
                          private_comm) == MPI_SUCCESS
               ? 0
               : -1;
}

void weft__pmpi_job_start(void)
{
    if (private_comm != MPI_COMM_NULL)
        return; /* MPI_Init after MPI_Init: MPI reports that itself */
    int rank = 0, size = 1;
    if (PMPI_Comm_dup(MPI_COMM_WORLD, &private_comm) != MPI_SUCCESS ||
        PMPI_Comm_rank(private_comm, &rank) != MPI_SUCCESS ||
        PMPI_Comm_size(private_comm, &size) != MPI_SUCCESS) {
        weft_log_error("cannot create weft's MPI communicator; this rank records no MPI events");
        private_comm = MPI_COMM_NULL;
        return;
    }
    weft_job_ops ops = {
        .rank = (uint32_t)rank,
        .size = (uint32_t)size,
        .archive_collectives = archive_collectives,
        .bcast = job_bcast,
        .send = job_send,
        .recv = job_recv,
        .allreduce_u64 = job_allreduce_u64,
    };
    weft_job_attach(&ops);
    weft__pmpi_comms_init();
    weft__pmpi_clock_sync(private_comm);
}

void weft__pmpi_job_finish_sync(void)
{
    if (private_comm != MPI_COMM_NULL)
        PMPI_Barrier(private_comm);
}

void weft__pmpi_job_abort(int error_code)
{
    /* The job is about to be torn down: this rank's part of the trace goes
     * to disk now, for weft recover; the other ranks write theirs when
     * mpirun ends them (docs/FAULTS.md). */
    weft_job_abort(error_code);
}

void weft__pmpi_job_finish(void)
{
    if (private_comm == MPI_COMM_NULL)
        return;
    weft__pmpi_clock_sync(private_comm);
    weft_job_finalize();
    PMPI_Comm_free(&private_comm);
    private_comm = MPI_COMM_NULL;
}
