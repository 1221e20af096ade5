/* SPDX-License-Identifier: BSD-3-Clause */
/* Point-to-point hooks: blocking messages, the start of non-blocking and
 * persistent ones, matched probes; see pmpi_hooks.h. The completion of
 * requests is pmpi_completion.c.
 *
 * Events follow Score-P: a send's MpiSend or MpiIsend before the transfer
 * (also at MPI_Start), so that no receive ends before its send began; a
 * receive's MpiRecv after it with the status's source, tag and size; a
 * non-blocking receive's MpiIrecvRequest once the request is made. Every
 * non-blocking operation gets a process-unique request id. Ranks are ranks
 * in the communicator, as MPI gives them. Nothing is recorded for
 * MPI_PROC_NULL partners (those calls transfer nothing). */
#include "pmpi_hooks.h"

uint64_t weft__pmpi_status_bytes(const MPI_Status *status)
{
    int count = 0;
    if (PMPI_Get_count(status, MPI_BYTE, &count) == MPI_SUCCESS && count != MPI_UNDEFINED)
        return count > 0 ? (uint64_t)count : 0;
    /* More than INT_MAX bytes. */
    MPI_Count elements = 0;
    if (PMPI_Get_elements_x(status, MPI_BYTE, &elements) == MPI_SUCCESS && elements > 0)
        return (uint64_t)elements;
    return 0;
}

void weft__pmpi_send(int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    if (dest < 0) /* MPI_PROC_NULL */
        return;
    weft_comm c = weft__pmpi_message_comm(comm);
    if (WEFT_UNLIKELY(c.id == WEFT_INVALID_ID))
        return;
    weft_mpi_send((uint32_t)dest, c, (uint32_t)tag, weft__pmpi_type_bytes(count, datatype));
}

void weft__pmpi_recv_on(int ret, const MPI_Status *status, weft_comm comm)
{
    if (ret != MPI_SUCCESS || !status || status->MPI_SOURCE < 0 || comm.id == WEFT_INVALID_ID)
        return;
    weft_mpi_recv((uint32_t)status->MPI_SOURCE, comm, (uint32_t)status->MPI_TAG,
                  weft__pmpi_status_bytes(status));
}

void weft__pmpi_recv(int ret, const MPI_Status *status, MPI_Comm comm)
{
    /* MPI_PROC_NULL: the status says so; no lookup needed. */
    if (ret != MPI_SUCCESS || !status || status->MPI_SOURCE < 0)
        return;
    weft__pmpi_recv_on(ret, status, weft__pmpi_message_comm(comm));
}

uint64_t weft__pmpi_isend_begin(int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    if (dest < 0) /* MPI_PROC_NULL */
        return 0;
    weft_comm c = weft__pmpi_message_comm(comm);
    if (c.id == WEFT_INVALID_ID)
        return 0;
    uint64_t id = weft__pmpi_request_id();
    weft_mpi_isend((uint32_t)dest, c, (uint32_t)tag, weft__pmpi_type_bytes(count, datatype), id);
    return id;
}

void weft__pmpi_isend_end(int ret, uint64_t request_id, const MPI_Request *request)
{
    /* A failed Isend keeps its event without a completion (as in Score-P;
     * MPI's default error handler has aborted the job anyway). */
    if (ret != MPI_SUCCESS || request_id == 0)
        return;
    weft_pmpi_request req = {
        .id = request_id, .kind = WEFT_PMPI_REQUEST_SEND, .flags = WEFT_PMPI_REQUEST_ACTIVE};
    weft__pmpi_request_remember(*request, &req);
}

/* A receive request on c (already made): IrecvRequest, remembered. */
static void receive_requested(weft_comm c, MPI_Request request)
{
    if (c.id == WEFT_INVALID_ID)
        return;
    weft_pmpi_request req = {.id = weft__pmpi_request_id(),
                             .comm = c,
                             .kind = WEFT_PMPI_REQUEST_RECV,
                             .flags = WEFT_PMPI_REQUEST_ACTIVE};
    weft_mpi_irecv_request(req.id);
    weft__pmpi_request_remember(request, &req);
}

void weft__pmpi_irecv(int ret, int source, MPI_Comm comm, const MPI_Request *request)
{
    if (ret != MPI_SUCCESS)
        return;
    receive_requested(source != MPI_PROC_NULL ? weft__pmpi_message_comm(comm) : WEFT_COMM_INVALID,
                      *request);
}

void weft__pmpi_send_init(int ret, int count, MPI_Datatype datatype, int dest, int tag,
                          MPI_Comm comm, const MPI_Request *request)
{
    if (ret != MPI_SUCCESS)
        return;
    weft_comm c = dest >= 0 ? weft__pmpi_message_comm(comm) : WEFT_COMM_INVALID;
    if (c.id == WEFT_INVALID_ID)
        return;
    weft_pmpi_request req = {.bytes = weft__pmpi_type_bytes(count, datatype),
                             .comm = c,
                             .peer = (uint32_t)dest,
                             .tag = (uint32_t)tag,
                             .kind = WEFT_PMPI_REQUEST_SEND,
                             .flags = WEFT_PMPI_REQUEST_PERSISTENT};
    weft__pmpi_request_remember(*request, &req);
}

void weft__pmpi_recv_init(int ret, int source, MPI_Comm comm, const MPI_Request *request)
{
    if (ret != MPI_SUCCESS)
        return;
    weft_comm c = source != MPI_PROC_NULL ? weft__pmpi_message_comm(comm) : WEFT_COMM_INVALID;
    if (c.id == WEFT_INVALID_ID)
        return;
    weft_pmpi_request req = {
        .comm = c, .kind = WEFT_PMPI_REQUEST_RECV, .flags = WEFT_PMPI_REQUEST_PERSISTENT};
    weft__pmpi_request_remember(*request, &req);
}

static void start_one(MPI_Request handle)
{
    weft_pmpi_request req;
    if (handle == MPI_REQUEST_NULL || !weft__pmpi_request_start(handle, &req))
        return;
    if (req.kind == WEFT_PMPI_REQUEST_SEND)
        weft_mpi_isend(req.peer, req.comm, req.tag, req.bytes, req.id);
    else if (req.kind == WEFT_PMPI_REQUEST_RECV)
        weft_mpi_irecv_request(req.id);
}

void weft__pmpi_start(int count, const MPI_Request *requests)
{
    for (int i = 0; i < count; i++)
        start_one(requests[i]);
}

void weft__pmpi_start_f(int count, const MPI_Fint *requests)
{
    for (int i = 0; i < count; i++)
        start_one(PMPI_Request_f2c(requests[i]));
}

void weft__pmpi_message_probed(int ret, int flag, MPI_Comm comm, const MPI_Message *message)
{
    if (ret != MPI_SUCCESS || !flag || *message == MPI_MESSAGE_NULL ||
        *message == MPI_MESSAGE_NO_PROC)
        return;
    weft_comm c = weft__pmpi_message_comm(comm);
    if (c.id != WEFT_INVALID_ID)
        weft__pmpi_message_remember(*message, c);
}

weft_comm weft__pmpi_mrecv_begin(const MPI_Message *message)
{
    return weft__pmpi_message_take(*message);
}

void weft__pmpi_imrecv(int ret, weft_comm comm, const MPI_Request *request)
{
    if (ret == MPI_SUCCESS)
        receive_requested(comm, *request);
}

void weft__pmpi_cancel(const MPI_Request *request)
{
    if (*request != MPI_REQUEST_NULL)
        weft__pmpi_request_cancelling(*request);
}

void weft__pmpi_request_free(const MPI_Request *request)
{
    /* Before the call: afterwards the handle is MPI_REQUEST_NULL, and MPI may
     * already have given it to another thread's new request. An active
     * request freed this way completes unseen: it is forgotten (as Score-P
     * does). */
    if (*request != MPI_REQUEST_NULL)
        weft__pmpi_request_forget(*request);
}

void weft__pmpi_request_collective(int ret, const MPI_Request *request)
{
    if (ret != MPI_SUCCESS || *request == MPI_REQUEST_NULL)
        return;
    weft_pmpi_request req = {.id = weft__pmpi_request_id(),
                             .kind = WEFT_PMPI_REQUEST_COLLECTIVE,
                             .flags = WEFT_PMPI_REQUEST_ACTIVE};
    weft__pmpi_request_remember(*request, &req);
}
