/* SPDX-License-Identifier: BSD-3-Clause */
/* The hooks the generated wrappers call (mpi_wrappers.c, and
 * mpi_wrappers_fortran.c with handles converted to C): every piece of what
 * an MPI call records, by concern.
 *
 * Conventions: `ret` is what PMPI returned; a hook that records the result
 * of a call records nothing unless it is MPI_SUCCESS. Handles come as C
 * handles; a handle the call writes (a new request or communicator) comes
 * as a pointer the hook reads after the call. Hooks never change what the
 * program sees: they read arguments, never write them. Every hook is
 * thread-safe (MPI_THREAD_MULTIPLE) and records nothing while recording is
 * off (the recorder drops the events). */
#ifndef WEFT_PMPI_HOOKS_H
#define WEFT_PMPI_HOOKS_H

#include <mpi.h>
#include <stdbool.h>
#include <stdint.h>

#include "pmpi_internal.h"
#include "pmpi_regions.h"
#include "pmpi_requests.h"
#include "weft/definitions.h"
#include "weft/recorder.h"

/* ---- point to point (pmpi_p2p.c) ----------------------------------------- */

/* Before a blocking send (Send, Bsend, Ssend, Rsend, the send half of
 * Sendrecv): the message event. Nothing for MPI_PROC_NULL. Hot path. */
void weft__pmpi_send(int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm);

/* After a blocking receive: the message event from the status (source, tag,
 * size). Nothing for a receive from MPI_PROC_NULL. status may be NULL (then
 * nothing is recorded). Hot path. */
void weft__pmpi_recv(int ret, const MPI_Status *status, MPI_Comm comm);
/* The same with the weft communicator known (Mrecv: the probe's). */
void weft__pmpi_recv_on(int ret, const MPI_Status *status, weft_comm comm);

/* Isend/Ibsend/Issend/Irsend: before the call, the MpiIsend event with a
 * new request id, which it returns (0: no event, for MPI_PROC_NULL); after
 * it, the request is remembered for its completion. The event comes first
 * (as in Score-P) so that no receive can end before its send began. */
uint64_t weft__pmpi_isend_begin(int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm);
void weft__pmpi_isend_end(int ret, uint64_t request_id, const MPI_Request *request);
/* After Irecv: the IrecvRequest event; the receive itself is recorded when
 * the request completes. */
void weft__pmpi_irecv(int ret, int source, MPI_Comm comm, const MPI_Request *request);

/* After Send_init (and B/S/R) and Recv_init: remembers the persistent
 * request; MPI_Start records its events. */
void weft__pmpi_send_init(int ret, int count, MPI_Datatype datatype, int dest, int tag,
                          MPI_Comm comm, const MPI_Request *request);
void weft__pmpi_recv_init(int ret, int source, MPI_Comm comm, const MPI_Request *request);

/* Before Start/Startall: each persistent request gets a new id and its
 * Isend or IrecvRequest event (before the transfer, as for Isend). The _f
 * variant takes Fortran handles. */
void weft__pmpi_start(int count, const MPI_Request *requests);
void weft__pmpi_start_f(int count, const MPI_Fint *requests);

/* After Mprobe/Improbe (flag: whether a message matched): remembers the
 * message's communicator. Before Mrecv/Imrecv: takes it back (the handle
 * becomes MPI_MESSAGE_NULL in the call). */
void weft__pmpi_message_probed(int ret, int flag, MPI_Comm comm, const MPI_Message *message);
weft_comm weft__pmpi_mrecv_begin(const MPI_Message *message);
/* After Imrecv: like Irecv, on the message's communicator. */
void weft__pmpi_imrecv(int ret, weft_comm comm, const MPI_Request *request);

/* Before MPI_Cancel (the cancellation shows when the request completes)
 * and MPI_Request_free (the request is forgotten, active or not). */
void weft__pmpi_cancel(const MPI_Request *request);
void weft__pmpi_request_free(const MPI_Request *request);

/* After a non-blocking collective (or Comm_idup): remembers its request as
 * one whose completion records no message. */
void weft__pmpi_request_collective(int ret, const MPI_Request *request);

/* ---- completion: the Wait and Test family (pmpi_completion.c) ------------ */

/* Requests a call may complete without heap memory. */
enum { WEFT_PMPI_INLINE_REQUESTS = 4 };

/* MPI_STATUS_SIZE, the MPI_Fint count of a Fortran status (the build reads
 * it from mpif-config.h). */
#ifndef WEFT_PMPI_F_STATUS_SIZE
#define WEFT_PMPI_F_STATUS_SIZE (sizeof(MPI_Status) / sizeof(MPI_Fint))
#endif

/* One request of a completion call, as it was before the call. */
typedef struct weft_pmpi_pending {
    MPI_Request handle;
    weft_pmpi_request req;
    int status_index; /* its status among those MPI fills */
    bool tracked;     /* req is the entry claimed for handle */
    bool done;        /* completed by the call */
    bool failed;      /* completed with an error (MPI_ERR_IN_STATUS) */
} weft_pmpi_pending;

/* What a Wait/Test call needs to know after MPI has completed (and nulled)
 * its requests. Lives on the wrapper's stack; begin fills it, exactly one
 * end function reports and releases it. */
typedef struct weft_pmpi_completion {
    int count;
    bool tracked;       /* some request is remembered */
    bool one_status;    /* one status for the completed request (Wait, Waitany, Test, Testany) */
    bool have_statuses; /* statuses / f_statuses are what MPI fills */
    weft_pmpi_pending *pending;
    MPI_Status *statuses;
    MPI_Fint *f_statuses; /* Fortran wrappers: statuses in Fortran layout */
    void *heap;           /* pending and statuses beyond the inline space */
    weft_pmpi_pending inline_pending[WEFT_PMPI_INLINE_REQUESTS];
    MPI_Status inline_statuses[WEFT_PMPI_INLINE_REQUESTS];
    MPI_Fint inline_f_statuses[WEFT_PMPI_INLINE_REQUESTS * WEFT_PMPI_F_STATUS_SIZE];
} weft_pmpi_completion;

/* Before the call: looks up the count requests (one_status: the call takes
 * one status, not an array). Returns the statuses to pass to PMPI: the
 * caller's, or weft's own when the caller passed MPI_STATUS(ES)_IGNORE and a
 * completed receive will need its status (the caller's are never written
 * when it said ignore). If the memory for more than
 * WEFT_PMPI_INLINE_REQUESTS requests cannot be had, nothing is claimed, the
 * caller's statuses are passed and the call records no completion. */
MPI_Status *weft__pmpi_completion_begin(weft_pmpi_completion *c, int count,
                                        const MPI_Request *requests, MPI_Status *statuses,
                                        bool one_status);
/* The same for the Fortran wrappers: Fortran request handles and statuses
 * (MPI_F_STATUS(ES)_IGNORE). */
MPI_Fint *weft__pmpi_completion_begin_f(weft_pmpi_completion *c, int count,
                                        const MPI_Fint *requests, MPI_Fint *statuses,
                                        bool one_status);

/* After the call; each records the completed requests (IsendComplete, Irecv
 * with the status's source, tag and size, or RequestCancelled) and, for
 * tests, a RequestTest for every active request that did not complete.
 *   all:     Wait, Waitall (with MPI_ERR_IN_STATUS: the statuses tell)
 *   test:    Test, Testall (flag: all completed)
 *   waitany, testany: index (MPI_UNDEFINED: none) counted from index_base
 *   some:    Waitsome/Testsome: outcount indices from index_base */
void weft__pmpi_completion_all(weft_pmpi_completion *c, int ret);
void weft__pmpi_completion_test(weft_pmpi_completion *c, int ret, int flag);
void weft__pmpi_completion_waitany(weft_pmpi_completion *c, int ret, int index, int index_base);
void weft__pmpi_completion_testany(weft_pmpi_completion *c, int ret, int index, int flag,
                                   int index_base);
void weft__pmpi_completion_some(weft_pmpi_completion *c, int ret, int outcount, const int *indices,
                                int index_base, bool test);

/* ---- blocking collectives (pmpi_collectives.c) ---------------------------- */

/* Before the call: the CollectiveBegin event; returns comm's weft
 * communicator (WEFT_COMM_INVALID: neither event is recorded). */
weft_comm weft__pmpi_collective_begin(MPI_Comm comm);

/* After the call: the CollectiveEnd event of operation op on coll (from
 * weft__pmpi_collective_begin), with the root (WEFT_NO_ROOT without one,
 * or for MPI_ROOT/MPI_PROC_NULL on an intercommunicator) and the bytes this
 * rank sent and received by Score-P's rules (docs/MPI.md). A failed call
 * records 0 bytes. Arguments as the MPI call's; sendbuf/recvbuf only
 * tell MPI_IN_PLACE. */
void weft__pmpi_coll_barrier(int ret, weft_collective_op op, weft_comm coll, MPI_Comm comm);
void weft__pmpi_coll_bcast(int ret, weft_collective_op op, weft_comm coll, MPI_Comm comm, int count,
                           MPI_Datatype datatype, int root);
void weft__pmpi_coll_gather(int ret, weft_collective_op op, weft_comm coll, MPI_Comm comm,
                            const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                            int recvcount, MPI_Datatype recvtype, int root);
void weft__pmpi_coll_gatherv(int ret, weft_collective_op op, weft_comm coll, MPI_Comm comm,
                             const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                             const int *recvcounts, MPI_Datatype recvtype, int root);
void weft__pmpi_coll_scatter(int ret, weft_collective_op op, weft_comm coll, MPI_Comm comm,
                             int sendcount, MPI_Datatype sendtype, const void *recvbuf,
                             int recvcount, MPI_Datatype recvtype, int root);
void weft__pmpi_coll_scatterv(int ret, weft_collective_op op, weft_comm coll, MPI_Comm comm,
                              const int *sendcounts, MPI_Datatype sendtype, const void *recvbuf,
                              int recvcount, MPI_Datatype recvtype, int root);
void weft__pmpi_coll_allgather(int ret, weft_collective_op op, weft_comm coll, MPI_Comm comm,
                               const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                               int recvcount, MPI_Datatype recvtype);
void weft__pmpi_coll_allgatherv(int ret, weft_collective_op op, weft_comm coll, MPI_Comm comm,
                                const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                const int *recvcounts, MPI_Datatype recvtype);
void weft__pmpi_coll_alltoall(int ret, weft_collective_op op, weft_comm coll, MPI_Comm comm,
                              const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                              int recvcount, MPI_Datatype recvtype);
void weft__pmpi_coll_alltoallv(int ret, weft_collective_op op, weft_comm coll, MPI_Comm comm,
                               const void *sendbuf, const int *sendcounts, MPI_Datatype sendtype,
                               const int *recvcounts, MPI_Datatype recvtype);
void weft__pmpi_coll_alltoallw(int ret, weft_collective_op op, weft_comm coll, MPI_Comm comm,
                               const void *sendbuf, const int *sendcounts,
                               const MPI_Datatype *sendtypes, const int *recvcounts,
                               const MPI_Datatype *recvtypes);
/* alltoallw with Fortran datatype handles. */
void weft__pmpi_coll_alltoallw_f(int ret, weft_collective_op op, weft_comm coll, MPI_Comm comm,
                                 const void *sendbuf, const int *sendcounts,
                                 const MPI_Fint *sendtypes, const int *recvcounts,
                                 const MPI_Fint *recvtypes);
void weft__pmpi_coll_reduce(int ret, weft_collective_op op, weft_comm coll, MPI_Comm comm,
                            const void *sendbuf, int count, MPI_Datatype datatype, int root);
void weft__pmpi_coll_allreduce(int ret, weft_collective_op op, weft_comm coll, MPI_Comm comm,
                               const void *sendbuf, int count, MPI_Datatype datatype);
void weft__pmpi_coll_reduce_scatter(int ret, weft_collective_op op, weft_comm coll, MPI_Comm comm,
                                    const void *sendbuf, const int *recvcounts,
                                    MPI_Datatype datatype);
void weft__pmpi_coll_reduce_scatter_block(int ret, weft_collective_op op, weft_comm coll,
                                          MPI_Comm comm, const void *sendbuf, int recvcount,
                                          MPI_Datatype datatype);
void weft__pmpi_coll_scan(int ret, weft_collective_op op, weft_comm coll, MPI_Comm comm,
                          const void *sendbuf, int count, MPI_Datatype datatype);
void weft__pmpi_coll_exscan(int ret, weft_collective_op op, weft_comm coll, MPI_Comm comm,
                            int count, MPI_Datatype datatype);

/* ---- communicators (pmpi_comms.c) ----------------------------------------- */

/* After a call that made *newcomm from parent, collectively over parent
 * (Comm_dup, Comm_split, Comm_create, Cart_create, Intercomm_create, ...):
 * defines it, keyed by its lineage. Counts the call on every rank of the
 * parent, also where *newcomm is MPI_COMM_NULL. */
void weft__pmpi_comm_derived(int ret, MPI_Comm parent, const MPI_Comm *newcomm);
/* After Comm_idup: the new communicator is defined (keyed by its lineage,
 * as Comm_dup's) when the request completes; _f: newcomm is the Fortran
 * INTEGER MPI writes the handle into. */
void weft__pmpi_comm_idup(int ret, MPI_Comm parent, const MPI_Comm *newcomm,
                          const MPI_Request *request);
void weft__pmpi_comm_idup_f(int ret, MPI_Comm parent, const MPI_Fint *newcomm,
                            const MPI_Request *request);
/* The completion of a Comm_idup request (pmpi_completion.c). */
void weft__pmpi_comm_idup_done(const weft_pmpi_request *req);

/* After a call that not all of a parent's ranks make (Comm_create_group,
 * Intercomm_merge): defines *newcomm keyed by its members. */
void weft__pmpi_comm_by_members(int ret, const MPI_Comm *newcomm);

/* A communicator being freed: its handle and weft communicator. */
typedef struct weft_pmpi_comm_ref {
    MPI_Comm handle;
    weft_comm comm;
} weft_pmpi_comm_ref;
/* Comm_free, Comm_disconnect: before the call (which nulls the handle) and
 * after it; the handle leaves the lookup table, the definition stays. */
weft_pmpi_comm_ref weft__pmpi_comm_free_begin(const MPI_Comm *comm);
void weft__pmpi_comm_free_end(int ret, weft_pmpi_comm_ref freed);

/* ---- MPI-IO (pmpi_io.c) ---------------------------------------------------- */

/* After MPI_File_open: defines the file and a handle of its own and records
 * IoCreateHandle. name is name_len bytes (a Fortran CHARACTER argument,
 * trailing blanks dropped) or, with name_len SIZE_MAX, a C string. */
void weft__pmpi_file_open(int ret, MPI_Comm comm, const char *name, size_t name_len, int amode,
                          const MPI_File *fh);
/* MPI_File_close: before the call (which nulls the handle) the file's I/O
 * handle is forgotten; after it, IoDestroyHandle. */
weft_object weft__pmpi_file_close_begin(const MPI_File *fh);
void weft__pmpi_file_close_end(int ret, weft_object handle);

/* One I/O operation: its handle (WEFT_OBJECT_INVALID: nothing recorded)
 * and matching id. */
typedef struct weft_pmpi_io {
    weft_object handle;
    uint64_t id;
} weft_pmpi_io;
/* Before a read, write or sync: IoOperationBegin of count elements of
 * datatype (mode WEFT_IO_MODE_*, flags WEFT_IO_FLAG_*). */
weft_pmpi_io weft__pmpi_io_begin(MPI_File fh, uint8_t mode, uint32_t flags, int count,
                                 MPI_Datatype datatype);
/* After a blocking one: IoOperationComplete with the bytes of status
 * (NULL, or a failed call: 0). */
void weft__pmpi_io_end(int ret, const weft_pmpi_io *io, const MPI_Status *status);
/* After a non-blocking one: IoOperationIssued; the request completes it. */
void weft__pmpi_io_issued(int ret, const weft_pmpi_io *io, const MPI_Request *request);
/* After a split collective's _begin: issued, completed by its _end. */
void weft__pmpi_io_split_begun(int ret, const weft_pmpi_io *io, MPI_File fh);
void weft__pmpi_io_split_end(int ret, MPI_File fh, const MPI_Status *status);
/* After MPI_File_seek(_shared): IoSeek with the resulting position. */
void weft__pmpi_io_seek(int ret, MPI_File fh, MPI_Offset offset, int whence, bool shared);

/* ---- one-sided communication (pmpi_rma.c) ------------------------------------ */

/* After a window was made over comm: defines it, records RmaWinCreate. */
void weft__pmpi_win_created(int ret, MPI_Comm comm, const MPI_Win *win);
/* MPI_Win_free: before (the handle is nulled) and after the call. */
weft_object weft__pmpi_win_free_begin(const MPI_Win *win);
void weft__pmpi_win_free_end(int ret, weft_object object);

typedef enum weft_pmpi_rma_op {
    WEFT_PMPI_RMA_PUT,
    WEFT_PMPI_RMA_GET,
    WEFT_PMPI_RMA_ACCUMULATE,
    WEFT_PMPI_RMA_GET_ACCUMULATE,
    WEFT_PMPI_RMA_FETCH_AND_OP,
    WEFT_PMPI_RMA_COMPARE_AND_SWAP,
} weft_pmpi_rma_op;
/* Before Put, Get, the accumulates (and their request-based forms):
 * RmaPut/RmaGet/RmaAtomic with count x type bytes to the target (and
 * result_count x result_type back); completed by the epoch's end. */
void weft__pmpi_rma_transfer(weft_pmpi_rma_op op, MPI_Win win, int target, int count,
                             MPI_Datatype type, int result_count, MPI_Datatype result_type);
/* Win_fence: RmaCollectiveBegin before; after, the completions of the
 * epoch's operations and RmaCollectiveEnd. */
void weft__pmpi_win_fence_begin(void);
void weft__pmpi_win_fence_end(int ret, MPI_Win win);
/* Win_post (exposure) and Win_start: RmaGroupSync with the group. */
void weft__pmpi_win_group_open(int ret, MPI_Win win, MPI_Group group, bool exposure);
/* Win_wait/Win_test (exposure; done: the test's flag) and Win_complete
 * (which completes the access epoch's operations): RmaGroupSync. */
void weft__pmpi_win_group_close(int ret, MPI_Win win, bool exposure, int done);
/* Win_lock(_all): RmaRequestLock before (returns the lock id, 0: nothing
 * recorded), RmaAcquireLock after. */
uint64_t weft__pmpi_win_lock_begin(MPI_Win win, int rank, bool all, int lock_type);
void weft__pmpi_win_lock_end(int ret, MPI_Win win, int rank, bool all, int lock_type,
                             uint64_t lock_id);
/* Win_unlock(_all): completes the operations on the target(s), then
 * RmaReleaseLock. */
void weft__pmpi_win_unlock(int ret, MPI_Win win, int rank, bool all);
/* Win_flush(_local)(_all): completes the operations on the target(s). */
void weft__pmpi_win_flush(int ret, MPI_Win win, int rank, bool all);
/* Win_sync: RmaSync. */
void weft__pmpi_win_sync(int ret, MPI_Win win);

/* ---- Fortran (pmpi_fortran.c) --------------------------------------------- */

/* A Fortran buffer argument as C sees it: Fortran's MPI_IN_PLACE (the
 * address of Open MPI's common block) becomes MPI_IN_PLACE. */
const void *weft__pmpi_f_buffer(const void *buffer);
/* The status to pass to a Fortran PMPI call: the caller's, or `local` when
 * the caller passed MPI_F_STATUS_IGNORE. */
MPI_Fint *weft__pmpi_f_status_arg(MPI_Fint *status, MPI_Fint *local);
/* After the call: the status in C form (in *c_status), NULL when the call
 * failed. */
const MPI_Status *weft__pmpi_f_status_read(int ret, const MPI_Fint *f_status, MPI_Status *c_status);

#endif /* WEFT_PMPI_HOOKS_H */
