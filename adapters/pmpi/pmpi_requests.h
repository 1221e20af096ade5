/* SPDX-License-Identifier: BSD-3-Clause */
/* What weft remembers about MPI requests and matched-probe messages.
 *
 * A request created by a wrapped call (Isend, Irecv, Imrecv, Send_init,
 * Recv_init, a non-blocking collective) is remembered under its handle
 * until the call that completes it (Wait/Test family) or frees it
 * (Request_free): the id that ties its OTF2 events together, what kind it
 * is, its communicator, and for a persistent send the message it sends at
 * every MPI_Start. A message handle from Mprobe/Improbe is remembered with
 * its communicator until Mrecv/Imrecv receives it.
 *
 * Handles are not unique: Open MPI returns one shared, already complete
 * request (ompi_request_empty) for every small send it could finish at
 * once, so several pending Isends of a program may have the same handle.
 * A handle therefore names a list of entries. A completion call claims one
 * entry per handle it is given - the calling thread's oldest first, then
 * any other thread's - and, after the call, completes or unclaims it; two
 * equal handles in one Waitall claim two different entries. Entries are
 * matched by id when they are dropped, so a handle MPI hands to another
 * thread meanwhile is never confused with the one completed.
 *
 * Both tables are keyed by the handle's bits and split into stripes, each
 * with its own mutex, so threads under MPI_THREAD_MULTIPLE rarely meet.
 * Every function is thread-safe. The completion side (what a Wait reports)
 * is pmpi_completion.c. */
#ifndef WEFT_PMPI_REQUESTS_H
#define WEFT_PMPI_REQUESTS_H

#include <mpi.h>
#include <stdbool.h>
#include <stdint.h>

#include "weft/definitions.h"

/* What a request does. Stored in one byte. */
enum {
    WEFT_PMPI_REQUEST_SEND,
    WEFT_PMPI_REQUEST_RECV,
    /* a non-blocking collective (or Comm_idup): completes without events */
    WEFT_PMPI_REQUEST_COLLECTIVE,
    /* a non-blocking MPI-IO operation: `peer` is its I/O handle (an object),
     * `id` its matching id; completes with IoOperationComplete */
    WEFT_PMPI_REQUEST_IO,
    /* Comm_idup: `bytes` is where the program gets the new handle, `tag`
     * and `peer` the parent's key, `creation` its place in the parent's
     * lineage; its completion defines the communicator */
    WEFT_PMPI_REQUEST_COMM,
};

/* Request flags. */
enum {
    WEFT_PMPI_REQUEST_PERSISTENT = 1, /* Send_init/Recv_init: kept until freed */
    WEFT_PMPI_REQUEST_ACTIVE = 2,     /* started and not completed yet */
    WEFT_PMPI_REQUEST_CANCELLING = 4, /* MPI_Cancel was called on it */
    WEFT_PMPI_REQUEST_FORTRAN = 8,    /* COMM: the handle is a Fortran INTEGER */
};

typedef struct weft_pmpi_request {
    uint64_t id;    /* ties the request's events together; new at each start */
    uint64_t bytes; /* persistent send: message size */
    weft_comm comm;
    uint32_t peer;     /* persistent send: receiver's rank in comm */
    uint32_t tag;      /* persistent send */
    uint8_t kind;      /* WEFT_PMPI_REQUEST_SEND ... */
    uint8_t flags;     /* WEFT_PMPI_REQUEST_PERSISTENT | ... */
    uint32_t creation; /* COMM: see there */
} weft_pmpi_request;

/* A new process-unique request id (never 0). Hot-path safe: a thread takes
 * ids from its own block and touches the shared counter once per block. */
uint64_t weft__pmpi_request_id(void);

/* Remembers a request under its handle (another entry if the handle has
 * some already). Out of memory: not remembered (its completion then
 * records nothing), reported once. */
void weft__pmpi_request_remember(MPI_Request handle, const weft_pmpi_request *req);

/* Before a call that may complete handle: claims an active, unclaimed
 * entry of handle (the calling thread's oldest, else any) and copies it
 * into *out. False when there is none. After the call, give it back with
 * weft__pmpi_request_completed or weft__pmpi_request_unclaim. */
bool weft__pmpi_request_claim(MPI_Request handle, weft_pmpi_request *out);

/* The claimed operation `id` of handle did not complete: unclaimed. */
void weft__pmpi_request_unclaim(MPI_Request handle, uint64_t id);

/* The claimed operation `id` of handle completed: a persistent request
 * becomes inactive, any other entry is dropped. */
void weft__pmpi_request_completed(MPI_Request handle, uint64_t id);

/* MPI_Request_free: drops the handle's persistent entry, else the calling
 * thread's oldest unclaimed one, else any unclaimed one. */
void weft__pmpi_request_forget(MPI_Request handle);

/* MPI_Start: gives the persistent request of handle a new id, marks it
 * active and copies it out. False when handle is not a remembered
 * persistent request. */
bool weft__pmpi_request_start(MPI_Request handle, weft_pmpi_request *out);

/* MPI_Cancel: marks an active entry of handle (chosen as by claim), so its
 * completion checks whether the cancellation succeeded. */
void weft__pmpi_request_cancelling(MPI_Request handle);

/* Mprobe/Improbe matched a message on comm: remembered until taken. */
void weft__pmpi_message_remember(MPI_Message message, weft_comm comm);

/* Mrecv/Imrecv: the communicator of a remembered message, forgotten now;
 * WEFT_COMM_INVALID when unknown (also for MPI_MESSAGE_NO_PROC). */
weft_comm weft__pmpi_message_take(MPI_Message message);

#endif /* WEFT_PMPI_REQUESTS_H */
