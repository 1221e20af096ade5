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
