/* SPDX-License-Identifier: BSD-3-Clause */
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
#include <stdatomic.h>
#include <stdint.h>

#include "pmpi_regions.h"
#include "weft/definitions.h"

/* ---- pmpi_job.c --------------------------------------------------------- */

/* After PMPI_Init or PMPI_Init_thread succeeded, on the calling thread:
 * creates the private communicator, attaches the recorder's job (one
 * experiment directory, the OTF2 archive opened collectively), defines
 * MPI_COMM_WORLD and MPI_COMM_SELF, and measures the first clock offsets.
 * Collective over MPI_COMM_WORLD. */
void weft__pmpi_job_start(void);

/* Inside the MPI_Finalize region, before its leave: a barrier on weft's own
 * communicator, so that every rank's MPI_Finalize spans the moment all of
 * them got there, as analyzers that treat it as synchronising expect.
 * Collective. */
void weft__pmpi_job_finish_sync(void);

/* Before PMPI_Finalize, on the calling thread: last clock offsets, then the
 * recorder writes the trace of the whole job. Collective. */
void weft__pmpi_job_finish(void);

/* MPI_Abort, before PMPI_Abort: this rank's part of the trace goes to disk
 * (weft_job_abort). */
void weft__pmpi_job_abort(int error_code);

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

/* ---- pmpi_comms.c: communicators for events ------------------------------ */

/* The weft communicator of MPI_COMM_WORLD (WEFT_INVALID_ID until
 * weft__pmpi_comms_init). Written once by weft__pmpi_comms_init (release
 * store, after weft__pmpi_world_rank/size), read with acquire. */
extern _Atomic uint32_t weft__pmpi_world_comm;
/* This process's rank in MPI_COMM_WORLD and its size; valid once
 * weft__pmpi_world_comm is (read them after an acquire load of it). */
extern int weft__pmpi_world_rank;
extern int weft__pmpi_world_size;

/* The weft communicator of comm, defining it first if it was never seen (a
 * communicator made by a call weft does not wrap, or through PMPI by a
 * library: its key is a hash of its members' world ranks). Returns
 * WEFT_COMM_INVALID for MPI_COMM_NULL, before weft__pmpi_comms_init, or when
 * it cannot be defined. Thread-safe; takes no lock for known communicators. */
weft_comm weft__pmpi_comm_lookup(MPI_Comm comm);

/* A communicator whose members are those of group (keyed by them, as a
 * communicator weft did not see being made): what RMA group
 * synchronisation names. WEFT_COMM_INVALID for an empty group. */
weft_comm weft__pmpi_comm_of_group(MPI_Group group);

/* The same, with MPI_COMM_WORLD answered from a cached value: the hot path
 * of every message event. */
static inline weft_comm weft__pmpi_comm_of(MPI_Comm comm)
{
    if (WEFT_LIKELY(comm == MPI_COMM_WORLD))
        /* Acquire: pairs with the release store in weft__pmpi_comms_init. */
        return (weft_comm){atomic_load_explicit(&weft__pmpi_world_comm, memory_order_acquire)};
    return weft__pmpi_comm_lookup(comm);
}

/* The communicator for a message or collective record on comm: as
 * weft__pmpi_comm_of, but WEFT_COMM_INVALID for an intercommunicator, whose
 * messages and collectives are recorded as their regions only
 * (pmpi_comms.c says why). */
weft_comm weft__pmpi_message_comm_lookup(MPI_Comm comm);
static inline weft_comm weft__pmpi_message_comm(MPI_Comm comm)
{
    if (WEFT_LIKELY(comm == MPI_COMM_WORLD))
        return (weft_comm){atomic_load_explicit(&weft__pmpi_world_comm, memory_order_acquire)};
    return weft__pmpi_message_comm_lookup(comm);
}

/* ---- shared helpers ------------------------------------------------------ */

/* count elements of type in bytes; 0 for count <= 0 or MPI_DATATYPE_NULL
 * (then the type is not looked at: a datatype argument MPI ignores may be
 * anything). Only call it for arguments MPI uses: PMPI_Type_size on an
 * invalid datatype invokes MPI's error handler. Hot-path safe. */
static inline uint64_t weft__pmpi_type_bytes(int count, MPI_Datatype type)
{
    int size = 0;
    if (count <= 0 || type == MPI_DATATYPE_NULL || PMPI_Type_size(type, &size) != MPI_SUCCESS ||
        size <= 0)
        return 0;
    return (uint64_t)count * (uint64_t)size;
}

/* The size of a received message in bytes, from its status (0 when MPI
 * cannot tell). */
uint64_t weft__pmpi_status_bytes(const MPI_Status *status);

#endif /* WEFT_PMPI_INTERNAL_H */
