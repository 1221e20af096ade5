/* What the parts of the MPI adapter (libweft-mpi) share.
 *
 *   wrappers (generated from mpi_functions.spec) ── hooks: p2p, requests,
 *       collectives, communicators (pmpi_*.c)
 *   pmpi_job.c    MPI_Init/MPI_Finalize: joins the recorder's job
 *                 (weft/job.h), weft's private communicator
 *   clock_sync.c  clock offsets against rank 0 (at init, finalize and at
 *                 collectives on MPI_COMM_WORLD)
 *
 * Everything weft sends itself goes through PMPI_* on the private
 * communicator, never through MPI_* (which would record it) and never on a
 * user communicator (which could match the user's messages). */
#ifndef WEFT_PMPI_INTERNAL_H
#define WEFT_PMPI_INTERNAL_H

#include <mpi.h>
#include <stdint.h>

#include "weft/definitions.h"

/* ---- pmpi_job.c --------------------------------------------------------- */

/* After PMPI_Init or PMPI_Init_thread succeeded, on the calling thread:
 * creates the private communicator, attaches the recorder's job (one
 * experiment directory, the OTF2 archive opened collectively), defines
 * MPI_COMM_WORLD and MPI_COMM_SELF, and measures the first clock offsets.
 * Collective over MPI_COMM_WORLD. */
void weft__pmpi_job_start(void);

/* Before PMPI_Finalize, on the calling thread: last clock offsets, then the
 * recorder writes the trace of the whole job. Collective. */
void weft__pmpi_job_finish(void);

/* weft's duplicate of MPI_COMM_WORLD (MPI_COMM_NULL before job start). */
MPI_Comm weft__pmpi_private_comm(void);

/* ---- pmpi_comms.c ------------------------------------------------------- */

/* Defines MPI_COMM_WORLD (first, key WEFT_COMM_KEY_MPI_WORLD) and
 * MPI_COMM_SELF (key WEFT_COMM_KEY_MPI_SELF) in the registry. */
void weft__pmpi_comms_init(void);

/* ---- clock_sync.c ------------------------------------------------------- */

/* Measures this rank's clock offset against rank 0 and hands it to the
 * recorder (weft_clock_offset_add); collective over `comm`, which spans all
 * ranks. Takes O(log ranks) rounds. */
void weft__pmpi_clock_sync(MPI_Comm comm);

/* Called after every completed collective on MPI_COMM_WORLD, on every rank
 * in the same order: takes an intermediate offset when
 * WEFT_CLOCK_SYNC_INTERVAL has passed since the last one (all ranks agree
 * without extra messages between checkpoints). */
void weft__pmpi_clock_checkpoint(void);

#endif /* WEFT_PMPI_INTERNAL_H */
