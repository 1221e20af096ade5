/* The events `weft summary` reads, location by location
 * (summary_locations.c): enter and leave go to the builder (region times,
 * barrier time), OpenMP lock acquisitions to the builder's lock-waiting
 * account, MPI point-to-point and collective records to the counter tables
 * with their peers as world ranks. */
#include "summary_reader.h"

#include <inttypes.h>
#include <stdlib.h>

static OTF2_CallbackCode on_enter(OTF2_LocationRef location, OTF2_TimeStamp time, uint64_t position,
                                  void *user_data, OTF2_AttributeList *attributes,
                                  OTF2_RegionRef region)
{
    (void)location;
    (void)position;
    (void)attributes;
    read_state *st = user_data;
    size_t index = weft__summary_find_region(st, region);
    if (index == NOT_FOUND) {
        st->undefined_region_count++;
        return OTF2_CALLBACK_SUCCESS;
    }
    weft_status status = weft__summary_enter(st->builder, index, time);
    return status == WEFT_OK ? OTF2_CALLBACK_SUCCESS : weft__summary_interrupt(st, status);
}

static OTF2_CallbackCode on_leave(OTF2_LocationRef location, OTF2_TimeStamp time, uint64_t position,
                                  void *user_data, OTF2_AttributeList *attributes,
                                  OTF2_RegionRef region)
{
    (void)location;
    (void)position;
    (void)attributes;
    read_state *st = user_data;
    size_t index = weft__summary_find_region(st, region);
    if (index == NOT_FOUND)
        st->undefined_region_count++;
    else
        weft__summary_leave(st->builder, index, time);
    return OTF2_CALLBACK_SUCCESS;
}

/* ProgramBegin and ProgramEnd enter and leave the program region. */
static OTF2_CallbackCode on_program_begin(OTF2_LocationRef location, OTF2_TimeStamp time,
                                          uint64_t position, void *user_data,
                                          OTF2_AttributeList *attributes, OTF2_StringRef name,
                                          uint32_t argc, const OTF2_StringRef *args)
{
    (void)location;
    (void)position;
    (void)attributes;
    read_state *st = user_data;
    st->program_region = weft__summary_find_program_region(st, name, argc, args);
    if (st->program_region == NOT_FOUND) {
        st->undefined_region_count++;
        return OTF2_CALLBACK_SUCCESS;
    }
    weft_status status = weft__summary_enter(st->builder, st->program_region, time);
    return status == WEFT_OK ? OTF2_CALLBACK_SUCCESS : weft__summary_interrupt(st, status);
}

static OTF2_CallbackCode on_program_end(OTF2_LocationRef location, OTF2_TimeStamp time,
                                        uint64_t position, void *user_data,
                                        OTF2_AttributeList *attributes, int64_t exit_status)
{
    (void)location;
    (void)position;
    (void)attributes;
    (void)exit_status;
    read_state *st = user_data;
    if (st->program_region == NOT_FOUND)
        st->undefined_region_count++;
    else
        weft__summary_leave(st->builder, st->program_region, time);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_acquire_lock(OTF2_LocationRef location, OTF2_TimeStamp time,
                                         uint64_t position, void *user_data,
                                         OTF2_AttributeList *attributes, OTF2_Paradigm model,
                                         uint32_t lock, uint32_t order)
{
    (void)location;
    (void)position;
    (void)attributes;
    (void)lock;
    (void)order;
    read_state *st = user_data;
    if (model == OTF2_PARADIGM_OPENMP)
        weft__summary_lock_acquired(st->builder, time);
    return OTF2_CALLBACK_SUCCESS;
}

/* --- MPI ---------------------------------------------------------------------------- */

/* Adds one message to the pair SENDER -> RECEIVER and to communicator COMM
 * (a ref): FIELD 0 counts sends, 2 receives; the next counter sums bytes. */
static OTF2_CallbackCode count_message(read_state *st, uint32_t sender, uint32_t receiver,
                                       OTF2_CommRef comm, int field, uint64_t bytes)
{
    uint64_t *pair = weft__summary_table_counters(st->pairs, (uint64_t)sender << 32 | receiver);
    uint64_t *by_comm = weft__summary_table_counters(st->comm_p2p, comm);
    if (!pair || !by_comm)
        return weft__summary_interrupt(st, WEFT_ERR_NO_MEMORY);
    pair[field]++;
    pair[field + 1] += bytes;
    by_comm[field]++;
    by_comm[field + 1] += bytes;
    return OTF2_CALLBACK_SUCCESS;
}

static size_t comm_index(read_state *st, OTF2_CommRef comm)
{
    size_t index = weft__summary_find_comm(st, comm);
    if (index == NOT_FOUND)
        st->undefined_comm_count++;
    return index;
}

static OTF2_CallbackCode sent(read_state *st, uint32_t receiver, OTF2_CommRef comm, uint64_t bytes)
{
    uint32_t to = weft__summary_world_rank(st, comm_index(st, comm), receiver, st->current_rank);
    return count_message(st, st->current_rank, to, comm, 0, bytes);
}

static OTF2_CallbackCode received(read_state *st, uint32_t sender, OTF2_CommRef comm,
                                  uint64_t bytes)
{
    uint32_t from = weft__summary_world_rank(st, comm_index(st, comm), sender, st->current_rank);
    return count_message(st, from, st->current_rank, comm, 2, bytes);
}

static OTF2_CallbackCode on_send(OTF2_LocationRef location, OTF2_TimeStamp time, uint64_t position,
                                 void *user_data, OTF2_AttributeList *attributes, uint32_t receiver,
                                 OTF2_CommRef comm, uint32_t tag, uint64_t bytes)
{
    (void)location;
    (void)time;
    (void)position;
    (void)attributes;
    (void)tag;
    return sent(user_data, receiver, comm, bytes);
}

static OTF2_CallbackCode on_isend(OTF2_LocationRef location, OTF2_TimeStamp time, uint64_t position,
                                  void *user_data, OTF2_AttributeList *attributes,
                                  uint32_t receiver, OTF2_CommRef comm, uint32_t tag,
                                  uint64_t bytes, uint64_t request)
{
    (void)request;
    return on_send(location, time, position, user_data, attributes, receiver, comm, tag, bytes);
}

static OTF2_CallbackCode on_recv(OTF2_LocationRef location, OTF2_TimeStamp time, uint64_t position,
                                 void *user_data, OTF2_AttributeList *attributes, uint32_t sender,
                                 OTF2_CommRef comm, uint32_t tag, uint64_t bytes)
{
    (void)location;
    (void)time;
    (void)position;
    (void)attributes;
    (void)tag;
    return received(user_data, sender, comm, bytes);
}

static OTF2_CallbackCode on_irecv(OTF2_LocationRef location, OTF2_TimeStamp time, uint64_t position,
                                  void *user_data, OTF2_AttributeList *attributes, uint32_t sender,
                                  OTF2_CommRef comm, uint32_t tag, uint64_t bytes, uint64_t request)
{
    (void)request;
    return on_recv(location, time, position, user_data, attributes, sender, comm, tag, bytes);
}

static OTF2_CallbackCode collective(read_state *st, OTF2_CollectiveOp op, OTF2_CommRef comm,
                                    uint64_t sent_bytes, uint64_t received_bytes)
{
    (void)comm_index(st, comm); /* counts an undefined communicator */
    uint64_t *c = weft__summary_table_counters(st->collectives, (uint64_t)comm << 32 | op);
    if (!c)
        return weft__summary_interrupt(st, WEFT_ERR_NO_MEMORY);
    c[0]++;
    c[1] += sent_bytes;
    c[2] += received_bytes;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_collective_end(OTF2_LocationRef location, OTF2_TimeStamp time,
                                           uint64_t position, void *user_data,
                                           OTF2_AttributeList *attributes, OTF2_CollectiveOp op,
                                           OTF2_CommRef comm, uint32_t root, uint64_t sent_bytes,
                                           uint64_t received_bytes)
{
    (void)location;
    (void)time;
    (void)position;
    (void)attributes;
    (void)root;
    return collective(user_data, op, comm, sent_bytes, received_bytes);
}

/* OTF2 3's record for the completion of a non-blocking collective (weft
 * itself records those as regions only; other tools may write it). */
static OTF2_CallbackCode on_nonblocking_collective(OTF2_LocationRef location, OTF2_TimeStamp time,
                                                   uint64_t position, void *user_data,
                                                   OTF2_AttributeList *attributes,
                                                   OTF2_CollectiveOp op, OTF2_CommRef comm,
                                                   uint32_t root, uint64_t sent_bytes,
                                                   uint64_t received_bytes, uint64_t request)
{
    (void)request;
    return on_collective_end(location, time, position, user_data, attributes, op, comm, root,
                             sent_bytes, received_bytes);
}

static weft_status set_callbacks(read_state *st, OTF2_EvtReaderCallbacks *cb)
{
    OTF2_ErrorCode code = OTF2_EvtReaderCallbacks_SetEnterCallback(cb, on_enter);
    if (code == OTF2_SUCCESS)
        code = OTF2_EvtReaderCallbacks_SetLeaveCallback(cb, on_leave);
    if (code == OTF2_SUCCESS)
        code = OTF2_EvtReaderCallbacks_SetProgramBeginCallback(cb, on_program_begin);
    if (code == OTF2_SUCCESS)
        code = OTF2_EvtReaderCallbacks_SetProgramEndCallback(cb, on_program_end);
    if (code == OTF2_SUCCESS)
        code = OTF2_EvtReaderCallbacks_SetThreadAcquireLockCallback(cb, on_acquire_lock);
    if (code == OTF2_SUCCESS)
        code = OTF2_EvtReaderCallbacks_SetMpiSendCallback(cb, on_send);
    if (code == OTF2_SUCCESS)
        code = OTF2_EvtReaderCallbacks_SetMpiIsendCallback(cb, on_isend);
    if (code == OTF2_SUCCESS)
        code = OTF2_EvtReaderCallbacks_SetMpiRecvCallback(cb, on_recv);
    if (code == OTF2_SUCCESS)
        code = OTF2_EvtReaderCallbacks_SetMpiIrecvCallback(cb, on_irecv);
    if (code == OTF2_SUCCESS)
        code = OTF2_EvtReaderCallbacks_SetMpiCollectiveEndCallback(cb, on_collective_end);
    if (code == OTF2_SUCCESS)
        code = OTF2_EvtReaderCallbacks_SetNonBlockingCollectiveCompleteCallback(
            cb, on_nonblocking_collective);
    return weft__summary_otf2_ok(st, code, "cannot set up reading the events of") ? WEFT_OK
                                                                                  : WEFT_ERR_OTF2;
}

/* --- Per location ----------------------------------------------------------------- */

static weft_status begin_location(read_state *st)
{
    st->program_region = NOT_FOUND;
    weft__summary_location_begin(st->builder);
    return WEFT_OK;
}

static weft_status end_location(read_state *st)
{
    weft__summary_location_end(st->builder);
    st->location_omp[st->current] = weft__summary_builder_location_omp(st->builder);
    return WEFT_OK;
}

/* Marks the builder's barrier and lock-waiting regions from their definitions. */
static void mark_waiting_regions(read_state *st)
{
    for (size_t i = 0; i < st->region_count; i++) {
        const region_def *r = &st->regions[i];
        weft_summary_kind kind =
            weft__summary_classify(r->paradigm, r->role, weft__summary_string(st, r->name_ref),
                                   weft__summary_string(st, r->file_ref));
        weft__summary_builder_set_wait(st->builder, i, kind.wait);
    }
}

weft_status weft__summary_read_events(read_state *st, OTF2_Reader *reader)
{
    st->builder = weft__summary_builder_create(st->region_count);
    st->pairs = weft__summary_table_create();
    st->comm_p2p = weft__summary_table_create();
    st->collectives = weft__summary_table_create();
    st->location_omp =
        calloc(st->location_count ? st->location_count : 1, sizeof(weft_summary_omp));
    OTF2_EvtReaderCallbacks *cb = OTF2_EvtReaderCallbacks_New();
    if (!st->builder || !st->pairs || !st->comm_p2p || !st->collectives || !st->location_omp ||
        !cb) {
        OTF2_EvtReaderCallbacks_Delete(cb);
        weft__summary_report(st, OTF2_SUCCESS, NULL, "out of memory reading");
        return WEFT_ERR_NO_MEMORY;
    }
    mark_waiting_regions(st);
    weft_status status = set_callbacks(st, cb);
    const weft_summary_location_hooks hooks = {begin_location, end_location};
    if (status == WEFT_OK)
        status = weft__summary_read_locations(st, reader, cb, &hooks);
    OTF2_EvtReaderCallbacks_Delete(cb);
    return status;
}
