/* The events `weft summary` reads, location by location: enter and leave go
 * to the builder (region times, barrier time), OpenMP lock acquisitions to
 * the builder's lock-waiting account, MPI point-to-point and collective
 * records to the counter tables with their peers as world ranks. Events are
 * read in chunks so that progress can be reported between them; only one
 * location is open at any time. */
#include "summary_reader.h"
#include "summary_progress.h"

#include <inttypes.h>
#include <stdlib.h>

/* Events per OTF2_Reader_ReadLocalEvents call: a few milliseconds of work. */
#define CHUNK_EVENTS 1048576

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

/* --- Reading, location by location -------------------------------------------------- */

/* Local definitions hold the mapping tables of a location; they are optional. */
static weft_status read_local_defs(read_state *st, OTF2_Reader *reader, uint64_t location)
{
    OTF2_DefReader *defs = OTF2_Reader_GetDefReader(reader, location);
    if (!defs) {
        weft__summary_otf2_message[0] = '\0'; /* whatever OTF2 said about the missing file */
        return WEFT_OK;
    }
    uint64_t count = 0;
    OTF2_ErrorCode code = OTF2_Reader_ReadAllLocalDefinitions(reader, defs, &count);
    if (code != OTF2_SUCCESS) {
        weft__summary_report(st, code, DAMAGED,
                             "cannot read the definitions of location %" PRIu64 " in", location);
        return WEFT_ERR_OTF2;
    }
    if (!weft__summary_otf2_ok(st, OTF2_Reader_CloseDefReader(reader, defs),
                               "cannot close the local definitions of"))
        return WEFT_ERR_OTF2;
    return WEFT_OK;
}

/* Reads the open event reader EVENTS to its end, in chunks, reporting progress. */
static weft_status read_chunks(read_state *st, OTF2_Reader *reader, OTF2_EvtReader *events,
                               uint64_t location, summary_progress *progress)
{
    for (;;) {
        uint64_t count = 0;
        OTF2_ErrorCode code = OTF2_Reader_ReadLocalEvents(reader, events, CHUNK_EVENTS, &count);
        st->event_count += count;
        if (code != OTF2_SUCCESS) {
            if (st->failure == WEFT_ERR_NO_MEMORY) {
                weft__summary_report(st, OTF2_SUCCESS, NULL, "out of memory reading");
                return WEFT_ERR_NO_MEMORY;
            }
            weft__summary_report(st, code, DAMAGED,
                                 "cannot read the events of location %" PRIu64 " in", location);
            return WEFT_ERR_OTF2;
        }
        if (count < CHUNK_EVENTS)
            return WEFT_OK;
        weft__summary_progress_update(progress, st->event_count, st->current);
    }
}

/* Reads one location's local definitions and events. A location whose
 * definition claims no events may lack an event file. */
static weft_status read_location(read_state *st, OTF2_Reader *reader, bool have_def_files,
                                 const OTF2_EvtReaderCallbacks *cb, summary_progress *progress)
{
    const location_def *def = &st->locations[st->current];
    uint64_t location = def->ref;
    if (have_def_files) {
        weft_status status = read_local_defs(st, reader, location);
        if (status != WEFT_OK)
            return status;
    }
    OTF2_EvtReader *events = OTF2_Reader_GetEvtReader(reader, location);
    if (!events && def->event_count == 0) {
        weft__summary_otf2_message[0] = '\0';
        return WEFT_OK;
    }
    if (!events) {
        weft__summary_report(st, OTF2_SUCCESS, DAMAGED,
                             "cannot open the events of location %" PRIu64 " in", location);
        return WEFT_ERR_OTF2;
    }
    if (!weft__summary_otf2_ok(st, OTF2_Reader_RegisterEvtCallbacks(reader, events, cb, st),
                               "cannot set up reading the events of"))
        return WEFT_ERR_OTF2;

    st->current_rank = def->rank;
    weft__summary_location_begin(st->builder);
    weft_status status = read_chunks(st, reader, events, location, progress);
    if (status != WEFT_OK)
        return status;
    weft__summary_location_end(st->builder);
    st->location_omp[st->current] = weft__summary_builder_location_omp(st->builder);
    if (!weft__summary_otf2_ok(st, OTF2_Reader_CloseEvtReader(reader, events),
                               "cannot close the events of"))
        return WEFT_ERR_OTF2;
    return WEFT_OK;
}

/* The events the definitions announce, or 0 when some location leaves it open. */
static uint64_t announced_events(const read_state *st)
{
    uint64_t total = 0;
    for (size_t i = 0; i < st->location_count; i++) {
        uint64_t count = st->locations[i].event_count;
        if (count == OTF2_UNDEFINED_UINT64 || total > UINT64_MAX - count)
            return 0;
        total += count;
    }
    return total;
}

static weft_status read_locations(read_state *st, OTF2_Reader *reader,
                                  const OTF2_EvtReaderCallbacks *cb)
{
    for (size_t i = 0; i < st->location_count; i++) {
        if (!weft__summary_otf2_ok(st, OTF2_Reader_SelectLocation(reader, st->locations[i].ref),
                                   "cannot select the locations of"))
            return WEFT_ERR_OTF2;
    }
    bool have_def_files = OTF2_Reader_OpenDefFiles(reader) == OTF2_SUCCESS;
    weft__summary_otf2_message[0] = '\0'; /* local definition files are optional */
    if (!weft__summary_otf2_ok(st, OTF2_Reader_OpenEvtFiles(reader),
                               "cannot open the event files of"))
        return WEFT_ERR_OTF2;

    summary_progress progress;
    weft__summary_progress_start(&progress, st->progress, announced_events(st), st->location_count);
    for (st->current = 0; st->current < st->location_count; st->current++) {
        weft__summary_progress_update(&progress, st->event_count, st->current);
        weft_status status = read_location(st, reader, have_def_files, cb, &progress);
        if (status != WEFT_OK) {
            weft__summary_progress_finish(&progress, st->event_count);
            return status;
        }
    }
    weft__summary_progress_finish(&progress, st->event_count);

    if (!weft__summary_otf2_ok(st, OTF2_Reader_CloseEvtFiles(reader),
                               "cannot close the event files of"))
        return WEFT_ERR_OTF2;
    if (have_def_files && !weft__summary_otf2_ok(st, OTF2_Reader_CloseDefFiles(reader),
                                                 "cannot close the definition files of"))
        return WEFT_ERR_OTF2;
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
    if (status == WEFT_OK)
        status = read_locations(st, reader, cb);
    OTF2_EvtReaderCallbacks_Delete(cb);
    return status;
}
