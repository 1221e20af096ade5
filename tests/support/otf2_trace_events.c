/* Event reading for the test trace reader: reads one location's events with a local OTF2
 * event reader and folds each into that location's statistics (counts per kind and
 * region, region nesting, timestamp order), keeping the event itself only on request.
 * Records outside trace_event_kind count as OTHER. It knows nothing about archives or
 * definitions beyond the region table; otf2_trace.c drives it.
 */
#include "otf2_trace_internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Sizes of the pieces of a nesting error text: a region label ("'name' (id)", long names
 * cut), and the detail that follows the "location L, event N at t=T: " prefix. They are
 * chosen so that prefix and detail always fit TRACE_ERROR_TEXT_LEN. */
enum { LABEL_LEN = 64, DETAIL_LEN = 192 };

/* Reading state of one location; the userData of every event callback. */
typedef struct location_reader {
    trace__loader *ld;
    trace_location_stats *loc;
    uint32_t *open_regions; /* stack of entered regions, innermost last */
    size_t depth;
    size_t open_cap;
    size_t event_cap;
    uint64_t handled; /* records that reached a callback */
    uint32_t program_region; /* entered by ProgramBegin */
} location_reader;

/* Writes "'name' (id)" or "region id (undefined)" for error texts. */
static void region_label(const trace_model *t, uint32_t region, char *buf, size_t len)
{
    const trace_region *r = trace_region_by_id(t, region);
    if (r != NULL && r->name != NULL)
        snprintf(buf, len, "'%s' (%" PRIu32 ")", r->name, region);
    else
        snprintf(buf, len, "region %" PRIu32 " (undefined)", region);
}

static void nesting_error(location_reader *r, uint64_t position, uint64_t time, const char *what)
{
    trace_location_stats *loc = r->loc;
    if (loc->nesting_errors++ > 0)
        return;
    snprintf(loc->first_nesting_error, sizeof loc->first_nesting_error,
             "location %" PRIu64 ", event %" PRIu64 " at t=%" PRIu64 ": %s", loc->id, position,
             time, what);
}

static void check_time(location_reader *r, uint64_t position, uint64_t time)
{
    trace_location_stats *loc = r->loc;
    if (r->handled == 0) {
        loc->first_time = time;
    } else if (time < loc->last_time && loc->time_decreases++ == 0) {
        snprintf(loc->first_time_error, sizeof loc->first_time_error,
                 "location %" PRIu64 ", event %" PRIu64 ": time %" PRIu64
                 " is before the previous event's %" PRIu64,
                 loc->id, position, time, loc->last_time);
    }
    loc->last_time = time;
}

static OTF2_CallbackCode enter_region(location_reader *r, uint32_t region)
{
    void *grown = trace__grow(r->open_regions, &r->open_cap, r->depth, sizeof *r->open_regions);
    if (grown == NULL) {
        trace__fail(r->ld, "out of memory for the region stack of location %" PRIu64, r->loc->id);
        return OTF2_CALLBACK_INTERRUPT;
    }
    r->open_regions = grown;
    r->open_regions[r->depth++] = region;
    if (r->depth > r->loc->max_depth)
        r->loc->max_depth = (uint32_t)r->depth;
    return OTF2_CALLBACK_SUCCESS;
}

/* A leave must close the innermost open region. If it closes an outer one instead, the
 * regions inside it are taken as closed too, so that one slip is reported once. */
static void leave_region(location_reader *r, uint64_t position, uint64_t time, uint32_t region)
{
    const trace_model *t = r->ld->model;
    char text[DETAIL_LEN];
    char left[LABEL_LEN];
    char innermost[LABEL_LEN];
    region_label(t, region, left, sizeof left);
    if (r->depth == 0) {
        snprintf(text, sizeof text, "leave of %s with no region open", left);
        nesting_error(r, position, time, text);
        return;
    }
    if (r->open_regions[r->depth - 1] == region) {
        r->depth--;
        return;
    }
    region_label(t, r->open_regions[r->depth - 1], innermost, sizeof innermost);
    snprintf(text, sizeof text, "leave of %s while %s is the innermost open region", left,
             innermost);
    nesting_error(r, position, time, text);
    for (size_t i = r->depth; i-- > 0;) {
        if (r->open_regions[i] == region) {
            r->depth = i;
            break;
        }
    }
}

static void count_region(trace_location_stats *loc, const trace_event *ev)
{
    if (ev->region >= loc->region_slots) {
        loc->undefined_region_events++;
        return;
    }
    if (ev->kind == TRACE_EVENT_ENTER)
        loc->enter_counts[ev->region]++;
    else
        loc->leave_counts[ev->region]++;
}

static OTF2_CallbackCode keep_event(location_reader *r, const trace_event *ev)
{
    trace_location_stats *loc = r->loc;
    void *grown = trace__grow(loc->events, &r->event_cap, loc->event_list_len, sizeof *loc->events);
    if (grown == NULL) {
        trace__fail(r->ld, "out of memory for the events of location %" PRIu64, loc->id);
        return OTF2_CALLBACK_INTERRUPT;
    }
    loc->events = grown;
    loc->events[loc->event_list_len++] = *ev;
    return OTF2_CALLBACK_SUCCESS;
}

/* Common path of every callback: statistics first, then the optional event list. */
static OTF2_CallbackCode record(void *data, uint64_t position, const trace_event *ev)
{
    location_reader *r = data;
    trace_location_stats *loc = r->loc;
    check_time(r, position, ev->time);
    r->handled++;
    loc->kind_counts[ev->kind]++;
    if ((ev->kind == TRACE_EVENT_THREAD_FORK || ev->kind == TRACE_EVENT_THREAD_JOIN) &&
        r->depth == 0)
        nesting_error(r, position, ev->time,
                      ev->kind == TRACE_EVENT_THREAD_FORK ? "thread fork with no region open"
                                                          : "thread join with no region open");
    if (ev->kind == TRACE_EVENT_ENTER || ev->kind == TRACE_EVENT_LEAVE) {
        count_region(loc, ev);
        if (ev->kind == TRACE_EVENT_LEAVE)
            leave_region(r, position, ev->time, ev->region);
        else if (enter_region(r, ev->region) != OTF2_CALLBACK_SUCCESS)
            return OTF2_CALLBACK_INTERRUPT;
    }
    return r->ld->keep_events ? keep_event(r, ev) : OTF2_CALLBACK_SUCCESS;
}

/* A zeroed event of `kind` at `time`; memset also clears the union's unused bytes. */
static trace_event new_event(trace_event_kind kind, uint64_t time)
{
    trace_event ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = kind;
    ev.time = time;
    return ev;
}

static OTF2_CallbackCode record_other(void *data, uint64_t position, uint64_t time)
{
    trace_event ev = new_event(TRACE_EVENT_OTHER, time);
    return record(data, position, &ev);
}

/* ---- Callbacks for the kinds of trace_event_kind, in its order. All ignore the location
 * argument (userData knows it) and the attribute list. ---- */

static OTF2_CallbackCode on_enter(OTF2_LocationRef location, OTF2_TimeStamp time, uint64_t position,
                                  void *data, OTF2_AttributeList *attributes, OTF2_RegionRef region)
{
    (void)location;
    (void)attributes;
    trace_event ev = new_event(TRACE_EVENT_ENTER, time);
    ev.region = region;
    return record(data, position, &ev);
}

static OTF2_CallbackCode on_leave(OTF2_LocationRef location, OTF2_TimeStamp time, uint64_t position,
                                  void *data, OTF2_AttributeList *attributes, OTF2_RegionRef region)
{
    (void)location;
    (void)attributes;
    trace_event ev = new_event(TRACE_EVENT_LEAVE, time);
    ev.region = region;
    return record(data, position, &ev);
}

static OTF2_CallbackCode on_thread_fork(OTF2_LocationRef location, OTF2_TimeStamp time,
                                        uint64_t position, void *data,
                                        OTF2_AttributeList *attributes, OTF2_Paradigm paradigm,
                                        uint32_t requested_threads)
{
    (void)location;
    (void)attributes;
    trace_event ev = new_event(TRACE_EVENT_THREAD_FORK, time);
    ev.paradigm = paradigm;
    ev.team_size = requested_threads;
    return record(data, position, &ev);
}

static OTF2_CallbackCode on_thread_join(OTF2_LocationRef location, OTF2_TimeStamp time,
                                        uint64_t position, void *data,
                                        OTF2_AttributeList *attributes, OTF2_Paradigm paradigm)
{
    (void)location;
    (void)attributes;
    trace_event ev = new_event(TRACE_EVENT_THREAD_JOIN, time);
    ev.paradigm = paradigm;
    return record(data, position, &ev);
}

static OTF2_CallbackCode team_event(void *data, uint64_t position, trace_event_kind kind,
                                    uint64_t time, OTF2_CommRef team)
{
    trace_event ev = new_event(kind, time);
    ev.comm = team;
    return record(data, position, &ev);
}

static OTF2_CallbackCode on_team_begin(OTF2_LocationRef location, OTF2_TimeStamp time,
                                       uint64_t position, void *data,
                                       OTF2_AttributeList *attributes, OTF2_CommRef team)
{
    (void)location;
    (void)attributes;
    return team_event(data, position, TRACE_EVENT_THREAD_TEAM_BEGIN, time, team);
}

static OTF2_CallbackCode on_team_end(OTF2_LocationRef location, OTF2_TimeStamp time,
                                     uint64_t position, void *data, OTF2_AttributeList *attributes,
                                     OTF2_CommRef team)
{
    (void)location;
    (void)attributes;
    return team_event(data, position, TRACE_EVENT_THREAD_TEAM_END, time, team);
}

static OTF2_CallbackCode lock_event(void *data, uint64_t position, trace_event_kind kind,
                                    uint64_t time, OTF2_Paradigm paradigm, uint32_t lock_id,
                                    uint32_t order)
{
    trace_event ev = new_event(kind, time);
    ev.paradigm = paradigm;
    ev.lock_id = lock_id;
    ev.acquisition_order = order;
    return record(data, position, &ev);
}

static OTF2_CallbackCode on_acquire_lock(OTF2_LocationRef location, OTF2_TimeStamp time,
                                         uint64_t position, void *data,
                                         OTF2_AttributeList *attributes, OTF2_Paradigm paradigm,
                                         uint32_t lock_id, uint32_t order)
{
    (void)location;
    (void)attributes;
    return lock_event(data, position, TRACE_EVENT_THREAD_ACQUIRE_LOCK, time, paradigm, lock_id,
                      order);
}

static OTF2_CallbackCode on_release_lock(OTF2_LocationRef location, OTF2_TimeStamp time,
                                         uint64_t position, void *data,
                                         OTF2_AttributeList *attributes, OTF2_Paradigm paradigm,
                                         uint32_t lock_id, uint32_t order)
{
    (void)location;
    (void)attributes;
    return lock_event(data, position, TRACE_EVENT_THREAD_RELEASE_LOCK, time, paradigm, lock_id,
                      order);
}

static OTF2_CallbackCode task_event(void *data, uint64_t position, trace_event_kind kind,
                                    uint64_t time, OTF2_CommRef team, uint32_t creating_thread,
                                    uint32_t generation)
{
    trace_event ev = new_event(kind, time);
    ev.comm = team;
    ev.creating_thread = creating_thread;
    ev.generation = generation;
    return record(data, position, &ev);
}

static OTF2_CallbackCode on_task_create(OTF2_LocationRef location, OTF2_TimeStamp time,
                                        uint64_t position, void *data,
                                        OTF2_AttributeList *attributes, OTF2_CommRef team,
                                        uint32_t creating_thread, uint32_t generation)
{
    (void)location;
    (void)attributes;
    return task_event(data, position, TRACE_EVENT_THREAD_TASK_CREATE, time, team, creating_thread,
                      generation);
}

static OTF2_CallbackCode on_task_switch(OTF2_LocationRef location, OTF2_TimeStamp time,
                                        uint64_t position, void *data,
                                        OTF2_AttributeList *attributes, OTF2_CommRef team,
                                        uint32_t creating_thread, uint32_t generation)
{
    (void)location;
    (void)attributes;
    return task_event(data, position, TRACE_EVENT_THREAD_TASK_SWITCH, time, team, creating_thread,
                      generation);
}

static OTF2_CallbackCode on_task_complete(OTF2_LocationRef location, OTF2_TimeStamp time,
                                          uint64_t position, void *data,
                                          OTF2_AttributeList *attributes, OTF2_CommRef team,
                                          uint32_t creating_thread, uint32_t generation)
{
    (void)location;
    (void)attributes;
    return task_event(data, position, TRACE_EVENT_THREAD_TASK_COMPLETE, time, team, creating_thread,
                      generation);
}

/* Point-to-point message events; request_id is 0 for the blocking ones. */
static OTF2_CallbackCode message_event(void *data, uint64_t position, trace_event_kind kind,
                                       uint64_t time, uint32_t peer, OTF2_CommRef comm,
                                       uint32_t tag, uint64_t bytes, uint64_t request_id)
{
    trace_event ev = new_event(kind, time);
    ev.comm = comm;
    ev.peer = peer;
    ev.tag = tag;
    ev.bytes = bytes;
    ev.request_id = request_id;
    return record(data, position, &ev);
}

static OTF2_CallbackCode on_mpi_send(OTF2_LocationRef location, OTF2_TimeStamp time,
                                     uint64_t position, void *data, OTF2_AttributeList *attributes,
                                     uint32_t receiver, OTF2_CommRef comm, uint32_t tag,
                                     uint64_t bytes)
{
    (void)location;
    (void)attributes;
    return message_event(data, position, TRACE_EVENT_MPI_SEND, time, receiver, comm, tag, bytes, 0);
}

static OTF2_CallbackCode on_mpi_recv(OTF2_LocationRef location, OTF2_TimeStamp time,
                                     uint64_t position, void *data, OTF2_AttributeList *attributes,
                                     uint32_t sender, OTF2_CommRef comm, uint32_t tag,
                                     uint64_t bytes)
{
    (void)location;
    (void)attributes;
    return message_event(data, position, TRACE_EVENT_MPI_RECV, time, sender, comm, tag, bytes, 0);
}

static OTF2_CallbackCode on_mpi_isend(OTF2_LocationRef location, OTF2_TimeStamp time,
                                      uint64_t position, void *data, OTF2_AttributeList *attributes,
                                      uint32_t receiver, OTF2_CommRef comm, uint32_t tag,
                                      uint64_t bytes, uint64_t request_id)
{
    (void)location;
    (void)attributes;
    return message_event(data, position, TRACE_EVENT_MPI_ISEND, time, receiver, comm, tag, bytes,
                         request_id);
}

static OTF2_CallbackCode on_mpi_irecv(OTF2_LocationRef location, OTF2_TimeStamp time,
                                      uint64_t position, void *data, OTF2_AttributeList *attributes,
                                      uint32_t sender, OTF2_CommRef comm, uint32_t tag,
                                      uint64_t bytes, uint64_t request_id)
{
    (void)location;
    (void)attributes;
    return message_event(data, position, TRACE_EVENT_MPI_IRECV, time, sender, comm, tag, bytes,
                         request_id);
}

static OTF2_CallbackCode request_event(void *data, uint64_t position, trace_event_kind kind,
                                       uint64_t time, uint64_t request_id)
{
    trace_event ev = new_event(kind, time);
    ev.request_id = request_id;
    return record(data, position, &ev);
}

static OTF2_CallbackCode on_isend_complete(OTF2_LocationRef location, OTF2_TimeStamp time,
                                           uint64_t position, void *data,
                                           OTF2_AttributeList *attributes, uint64_t request_id)
{
    (void)location;
    (void)attributes;
    return request_event(data, position, TRACE_EVENT_MPI_ISEND_COMPLETE, time, request_id);
}

static OTF2_CallbackCode on_irecv_request(OTF2_LocationRef location, OTF2_TimeStamp time,
                                          uint64_t position, void *data,
                                          OTF2_AttributeList *attributes, uint64_t request_id)
{
    (void)location;
    (void)attributes;
    return request_event(data, position, TRACE_EVENT_MPI_IRECV_REQUEST, time, request_id);
}

static OTF2_CallbackCode on_request_test(OTF2_LocationRef location, OTF2_TimeStamp time,
                                         uint64_t position, void *data,
                                         OTF2_AttributeList *attributes, uint64_t request_id)
{
    (void)location;
    (void)attributes;
    return request_event(data, position, TRACE_EVENT_MPI_REQUEST_TEST, time, request_id);
}

static OTF2_CallbackCode on_request_cancelled(OTF2_LocationRef location, OTF2_TimeStamp time,
                                              uint64_t position, void *data,
                                              OTF2_AttributeList *attributes, uint64_t request_id)
{
    (void)location;
    (void)attributes;
    return request_event(data, position, TRACE_EVENT_MPI_REQUEST_CANCELLED, time, request_id);
}

static OTF2_CallbackCode on_collective_begin(OTF2_LocationRef location, OTF2_TimeStamp time,
                                             uint64_t position, void *data,
                                             OTF2_AttributeList *attributes)
{
    (void)location;
    (void)attributes;
    trace_event ev = new_event(TRACE_EVENT_MPI_COLLECTIVE_BEGIN, time);
    return record(data, position, &ev);
}

static OTF2_CallbackCode on_collective_end(OTF2_LocationRef location, OTF2_TimeStamp time,
                                           uint64_t position, void *data,
                                           OTF2_AttributeList *attributes, OTF2_CollectiveOp op,
                                           OTF2_CommRef comm, uint32_t root, uint64_t size_sent,
                                           uint64_t size_received)
{
    (void)location;
    (void)attributes;
    trace_event ev = new_event(TRACE_EVENT_MPI_COLLECTIVE_END, time);
    ev.comm = comm;
    ev.collective_op = op;
    ev.root = root;
    ev.size_sent = size_sent;
    ev.size_received = size_received;
    return record(data, position, &ev);
}

static OTF2_CallbackCode on_metric(OTF2_LocationRef location, OTF2_TimeStamp time,
                                   uint64_t position, void *data, OTF2_AttributeList *attributes,
                                   OTF2_MetricRef metric, uint8_t count, const OTF2_Type *types,
                                   const OTF2_MetricValue *values)
{
    (void)location;
    (void)attributes;
    trace_event ev = new_event(TRACE_EVENT_METRIC, time);
    ev.metric = metric;
    ev.metric_count = count;
    if (count > 0)
        ev.metric_type = types[0];
    for (uint8_t i = 0; i < count && i < TRACE_METRIC_VALUES_KEPT; i++)
        ev.metric_values[i] = values[i].unsigned_int;
    return record(data, position, &ev);
}

static OTF2_CallbackCode on_measurement(OTF2_LocationRef location, OTF2_TimeStamp time,
                                        uint64_t position, void *data,
                                        OTF2_AttributeList *attributes, OTF2_MeasurementMode mode)
{
    (void)location;
    (void)attributes;
    trace_event ev = new_event(TRACE_EVENT_MEASUREMENT_ON_OFF, time);
    ev.measurement_mode = mode;
    return record(data, position, &ev);
}

static OTF2_CallbackCode on_buffer_flush(OTF2_LocationRef location, OTF2_TimeStamp time,
                                         uint64_t position, void *data,
                                         OTF2_AttributeList *attributes, OTF2_TimeStamp stop_time)
{
    (void)location;
    (void)attributes;
    trace_event ev = new_event(TRACE_EVENT_BUFFER_FLUSH, time);
    ev.stop_time = stop_time;
    return record(data, position, &ev);
}

/* ---- The program: ProgramBegin enters the region that matches it the way Scalasca's
 * reader finds it (its name is the path without directories, its canonical name the path
 * and the arguments joined by spaces), ProgramEnd leaves it. ---- */

static bool program_region_matches(const trace_model *t, const trace_region *region,
                                   OTF2_StringRef name, uint32_t argc, const OTF2_StringRef *argv)
{
    const char *path = trace_string_text(t, name);
    if (!path || !region->name || !region->canonical_name ||
        region->role != OTF2_REGION_ROLE_ARTIFICIAL ||
        region->paradigm != OTF2_PARADIGM_MEASUREMENT_SYSTEM)
        return false;
    const char *slash = strrchr(path, '/');
    if (strcmp(region->name, slash ? slash + 1 : path) != 0)
        return false;
    const char *canonical = region->canonical_name;
    size_t len = strlen(path);
    if (strncmp(canonical, path, len) != 0)
        return false;
    canonical += len;
    for (uint32_t i = 0; i < argc; i++) {
        const char *arg = trace_string_text(t, argv[i]);
        if (!arg || *canonical != ' ' || strncmp(canonical + 1, arg, strlen(arg)) != 0)
            return false;
        canonical += 1 + strlen(arg);
    }
    return *canonical == '\0';
}

static OTF2_CallbackCode on_program_begin(OTF2_LocationRef location, OTF2_TimeStamp time,
                                          uint64_t position, void *data,
                                          OTF2_AttributeList *attributes, OTF2_StringRef name,
                                          uint32_t argc, const OTF2_StringRef *argv)
{
    (void)location;
    (void)attributes;
    location_reader *r = data;
    const trace_model *t = r->ld->model;
    trace_event ev = new_event(TRACE_EVENT_PROGRAM_BEGIN, time);
    ev.program_name = name;
    ev.program_argument_count = argc;
    ev.program_region = UINT32_MAX;
    for (size_t i = 0; i < t->region_count; i++) {
        if (program_region_matches(t, &t->regions[i], name, argc, argv)) {
            ev.program_region = t->regions[i].id;
            break;
        }
    }
    if (ev.program_region == UINT32_MAX)
        nesting_error(r, position, time, "program begin without a matching program region");
    r->program_region = ev.program_region;
    if (r->ld->model->program_region == UINT32_MAX)
        r->ld->model->program_region = ev.program_region;
    OTF2_CallbackCode code = record(data, position, &ev);
    if (code == OTF2_CALLBACK_SUCCESS)
        code = enter_region(r, ev.program_region);
    return code;
}

static OTF2_CallbackCode on_program_end(OTF2_LocationRef location, OTF2_TimeStamp time,
                                        uint64_t position, void *data,
                                        OTF2_AttributeList *attributes, int64_t exit_status)
{
    (void)location;
    (void)attributes;
    location_reader *r = data;
    trace_event ev = new_event(TRACE_EVENT_PROGRAM_END, time);
    ev.exit_status = exit_status;
    OTF2_CallbackCode code = record(data, position, &ev);
    leave_region(r, position, time, r->program_region);
    return code;
}

/* ---- MPI-IO and one-sided records ---- */

#define IO_RMA_COMMON                                                                              \
    OTF2_LocationRef location, OTF2_TimeStamp time, uint64_t position, void *data,                 \
        OTF2_AttributeList *attributes
#define IO_RMA_UNUSED (void)location, (void)attributes

static OTF2_CallbackCode io_rma(void *data, uint64_t position, trace_event_kind kind, uint64_t time,
                                uint32_t object, uint32_t remote, uint32_t mode, uint32_t flags,
                                uint64_t amount, uint64_t received, uint64_t id)
{
    trace_event ev = new_event(kind, time);
    ev.object = object;
    ev.remote = remote;
    ev.mode = mode;
    ev.flags = flags;
    ev.amount = amount;
    ev.amount_received = received;
    ev.matching_id = id;
    return record(data, position, &ev);
}

static OTF2_CallbackCode on_io_create(IO_RMA_COMMON, OTF2_IoHandleRef handle,
                                      OTF2_IoAccessMode mode, OTF2_IoCreationFlag creation,
                                      OTF2_IoStatusFlag status)
{
    IO_RMA_UNUSED;
    (void)status;
    return io_rma(data, position, TRACE_EVENT_IO_CREATE_HANDLE, time, handle, 0, mode, creation, 0,
                  0, 0);
}

static OTF2_CallbackCode on_io_destroy(IO_RMA_COMMON, OTF2_IoHandleRef handle)
{
    IO_RMA_UNUSED;
    return io_rma(data, position, TRACE_EVENT_IO_DESTROY_HANDLE, time, handle, 0, 0, 0, 0, 0, 0);
}

static OTF2_CallbackCode on_io_begin(IO_RMA_COMMON, OTF2_IoHandleRef handle,
                                     OTF2_IoOperationMode mode, OTF2_IoOperationFlag flags,
                                     uint64_t bytes, uint64_t id)
{
    IO_RMA_UNUSED;
    return io_rma(data, position, TRACE_EVENT_IO_OPERATION_BEGIN, time, handle, 0, mode, flags,
                  bytes, 0, id);
}

static OTF2_CallbackCode on_io_issued(IO_RMA_COMMON, OTF2_IoHandleRef handle, uint64_t id)
{
    IO_RMA_UNUSED;
    return io_rma(data, position, TRACE_EVENT_IO_OPERATION_ISSUED, time, handle, 0, 0, 0, 0, 0, id);
}

static OTF2_CallbackCode on_io_complete(IO_RMA_COMMON, OTF2_IoHandleRef handle, uint64_t bytes,
                                        uint64_t id)
{
    IO_RMA_UNUSED;
    return io_rma(data, position, TRACE_EVENT_IO_OPERATION_COMPLETE, time, handle, 0, 0, 0, bytes,
                  0, id);
}

static OTF2_CallbackCode on_io_seek(IO_RMA_COMMON, OTF2_IoHandleRef handle, int64_t offset,
                                    OTF2_IoSeekOption whence, uint64_t result)
{
    IO_RMA_UNUSED;
    (void)offset;
    return io_rma(data, position, TRACE_EVENT_IO_SEEK, time, handle, 0, whence, 0, result, 0, 0);
}

static OTF2_CallbackCode on_win_create(IO_RMA_COMMON, OTF2_RmaWinRef win)
{
    IO_RMA_UNUSED;
    return io_rma(data, position, TRACE_EVENT_RMA_WIN_CREATE, time, win, 0, 0, 0, 0, 0, 0);
}

static OTF2_CallbackCode on_win_destroy(IO_RMA_COMMON, OTF2_RmaWinRef win)
{
    IO_RMA_UNUSED;
    return io_rma(data, position, TRACE_EVENT_RMA_WIN_DESTROY, time, win, 0, 0, 0, 0, 0, 0);
}

static OTF2_CallbackCode on_rma_coll_begin(IO_RMA_COMMON)
{
    IO_RMA_UNUSED;
    return io_rma(data, position, TRACE_EVENT_RMA_COLLECTIVE_BEGIN, time, UINT32_MAX, 0, 0, 0, 0, 0,
                  0);
}

static OTF2_CallbackCode on_rma_coll_end(IO_RMA_COMMON, OTF2_CollectiveOp op,
                                         OTF2_RmaSyncLevel level, OTF2_RmaWinRef win, uint32_t root,
                                         uint64_t sent, uint64_t received)
{
    IO_RMA_UNUSED;
    return io_rma(data, position, TRACE_EVENT_RMA_COLLECTIVE_END, time, win, root, level, op, sent,
                  received, 0);
}

static OTF2_CallbackCode on_rma_group_sync(IO_RMA_COMMON, OTF2_RmaSyncLevel level,
                                           OTF2_RmaWinRef win, OTF2_GroupRef group)
{
    IO_RMA_UNUSED;
    return io_rma(data, position, TRACE_EVENT_RMA_GROUP_SYNC, time, win, group, level, 0, 0, 0, 0);
}

static OTF2_CallbackCode on_rma_request_lock(IO_RMA_COMMON, OTF2_RmaWinRef win, uint32_t remote,
                                             uint64_t id, OTF2_LockType type)
{
    IO_RMA_UNUSED;
    return io_rma(data, position, TRACE_EVENT_RMA_REQUEST_LOCK, time, win, remote, type, 0, 0, 0,
                  id);
}

static OTF2_CallbackCode on_rma_acquire_lock(IO_RMA_COMMON, OTF2_RmaWinRef win, uint32_t remote,
                                             uint64_t id, OTF2_LockType type)
{
    IO_RMA_UNUSED;
    return io_rma(data, position, TRACE_EVENT_RMA_ACQUIRE_LOCK, time, win, remote, type, 0, 0, 0,
                  id);
}

static OTF2_CallbackCode on_rma_release_lock(IO_RMA_COMMON, OTF2_RmaWinRef win, uint32_t remote,
                                             uint64_t id)
{
    IO_RMA_UNUSED;
    return io_rma(data, position, TRACE_EVENT_RMA_RELEASE_LOCK, time, win, remote, 0, 0, 0, 0, id);
}

static OTF2_CallbackCode on_rma_sync(IO_RMA_COMMON, OTF2_RmaWinRef win, uint32_t remote,
                                     OTF2_RmaSyncType type)
{
    IO_RMA_UNUSED;
    return io_rma(data, position, TRACE_EVENT_RMA_SYNC, time, win, remote, type, 0, 0, 0, 0);
}

static OTF2_CallbackCode on_rma_put(IO_RMA_COMMON, OTF2_RmaWinRef win, uint32_t remote,
                                    uint64_t bytes, uint64_t id)
{
    IO_RMA_UNUSED;
    return io_rma(data, position, TRACE_EVENT_RMA_PUT, time, win, remote, 0, 0, bytes, 0, id);
}

static OTF2_CallbackCode on_rma_get(IO_RMA_COMMON, OTF2_RmaWinRef win, uint32_t remote,
                                    uint64_t bytes, uint64_t id)
{
    IO_RMA_UNUSED;
    return io_rma(data, position, TRACE_EVENT_RMA_GET, time, win, remote, 0, 0, bytes, 0, id);
}

static OTF2_CallbackCode on_rma_atomic(IO_RMA_COMMON, OTF2_RmaWinRef win, uint32_t remote,
                                       OTF2_RmaAtomicType type, uint64_t sent, uint64_t received,
                                       uint64_t id)
{
    IO_RMA_UNUSED;
    return io_rma(data, position, TRACE_EVENT_RMA_ATOMIC, time, win, remote, type, 0, sent,
                  received, id);
}

static OTF2_CallbackCode on_rma_complete(IO_RMA_COMMON, OTF2_RmaWinRef win, uint64_t id)
{
    IO_RMA_UNUSED;
    return io_rma(data, position, TRACE_EVENT_RMA_OP_COMPLETE, time, win, 0, 0, 0, 0, 0, id);
}

/* ---- OTHER: records from a newer OTF2 ("Unknown") and known records weft may write
 * that have no kind of their own. Records with no callback at all are still counted as
 * OTHER, afterwards, from OTF2's count of events read. ---- */

static OTF2_CallbackCode on_unknown(OTF2_LocationRef location, OTF2_TimeStamp time,
                                    uint64_t position, void *data, OTF2_AttributeList *attributes)
{
    (void)location;
    (void)attributes;
    return record_other(data, position, time);
}


/* ThreadCreate, ThreadBegin, ThreadWait and ThreadEnd share this signature. */
static OTF2_CallbackCode on_thread_lifecycle(OTF2_LocationRef location, OTF2_TimeStamp time,
                                             uint64_t position, void *data,
                                             OTF2_AttributeList *attributes,
                                             OTF2_CommRef contingent, uint64_t sequence)
{
    (void)location;
    (void)attributes;
    (void)contingent;
    (void)sequence;
    return record_other(data, position, time);
}

/* CommCreate and CommDestroy share this signature. */
static OTF2_CallbackCode on_comm_lifecycle(OTF2_LocationRef location, OTF2_TimeStamp time,
                                           uint64_t position, void *data,
                                           OTF2_AttributeList *attributes, OTF2_CommRef comm)
{
    (void)location;
    (void)attributes;
    (void)comm;
    return record_other(data, position, time);
}

static OTF2_CallbackCode on_nbc_request(OTF2_LocationRef location, OTF2_TimeStamp time,
                                        uint64_t position, void *data,
                                        OTF2_AttributeList *attributes, uint64_t request_id)
{
    (void)location;
    (void)attributes;
    (void)request_id;
    return record_other(data, position, time);
}

static OTF2_CallbackCode on_nbc_complete(OTF2_LocationRef location, OTF2_TimeStamp time,
                                         uint64_t position, void *data,
                                         OTF2_AttributeList *attributes, OTF2_CollectiveOp op,
                                         OTF2_CommRef comm, uint32_t root, uint64_t size_sent,
                                         uint64_t size_received, uint64_t request_id)
{
    (void)location;
    (void)attributes;
    (void)op;
    (void)comm;
    (void)root;
    (void)size_sent;
    (void)size_received;
    (void)request_id;
    return record_other(data, position, time);
}

static OTF2_CallbackCode on_parameter_string(OTF2_LocationRef location, OTF2_TimeStamp time,
                                             uint64_t position, void *data,
                                             OTF2_AttributeList *attributes,
                                             OTF2_ParameterRef parameter, OTF2_StringRef value)
{
    (void)location;
    (void)attributes;
    (void)parameter;
    (void)value;
    return record_other(data, position, time);
}

static OTF2_CallbackCode on_parameter_int(OTF2_LocationRef location, OTF2_TimeStamp time,
                                          uint64_t position, void *data,
                                          OTF2_AttributeList *attributes,
                                          OTF2_ParameterRef parameter, int64_t value)
{
    (void)location;
    (void)attributes;
    trace_event ev = new_event(TRACE_EVENT_PARAMETER_INT, time);
    ev.parameter = parameter;
    ev.parameter_value = value;
    return record(data, position, &ev);
}

static OTF2_CallbackCode on_parameter_unsigned(OTF2_LocationRef location, OTF2_TimeStamp time,
                                               uint64_t position, void *data,
                                               OTF2_AttributeList *attributes,
                                               OTF2_ParameterRef parameter, uint64_t value)
{
    (void)location;
    (void)attributes;
    (void)parameter;
    (void)value;
    return record_other(data, position, time);
}

typedef struct setter_result {
    OTF2_ErrorCode rc;
    const char *what;
} setter_result;

/* The setters fail only for a NULL callbacks struct, but each return is checked anyway. */
static int register_callbacks(trace__loader *ld, OTF2_EvtReaderCallbacks *cb)
{
    const setter_result results[] = {
        {OTF2_EvtReaderCallbacks_SetEnterCallback(cb, on_enter), "SetEnterCallback"},
        {OTF2_EvtReaderCallbacks_SetLeaveCallback(cb, on_leave), "SetLeaveCallback"},
        {OTF2_EvtReaderCallbacks_SetThreadForkCallback(cb, on_thread_fork),
         "SetThreadForkCallback"},
        {OTF2_EvtReaderCallbacks_SetThreadJoinCallback(cb, on_thread_join),
         "SetThreadJoinCallback"},
        {OTF2_EvtReaderCallbacks_SetThreadTeamBeginCallback(cb, on_team_begin),
         "SetThreadTeamBeginCallback"},
        {OTF2_EvtReaderCallbacks_SetThreadTeamEndCallback(cb, on_team_end),
         "SetThreadTeamEndCallback"},
        {OTF2_EvtReaderCallbacks_SetThreadAcquireLockCallback(cb, on_acquire_lock),
         "SetThreadAcquireLockCallback"},
        {OTF2_EvtReaderCallbacks_SetThreadReleaseLockCallback(cb, on_release_lock),
         "SetThreadReleaseLockCallback"},
        {OTF2_EvtReaderCallbacks_SetThreadTaskCreateCallback(cb, on_task_create),
         "SetThreadTaskCreateCallback"},
        {OTF2_EvtReaderCallbacks_SetThreadTaskSwitchCallback(cb, on_task_switch),
         "SetThreadTaskSwitchCallback"},
        {OTF2_EvtReaderCallbacks_SetThreadTaskCompleteCallback(cb, on_task_complete),
         "SetThreadTaskCompleteCallback"},
        {OTF2_EvtReaderCallbacks_SetMpiSendCallback(cb, on_mpi_send), "SetMpiSendCallback"},
        {OTF2_EvtReaderCallbacks_SetMpiRecvCallback(cb, on_mpi_recv), "SetMpiRecvCallback"},
        {OTF2_EvtReaderCallbacks_SetMpiIsendCallback(cb, on_mpi_isend), "SetMpiIsendCallback"},
        {OTF2_EvtReaderCallbacks_SetMpiIsendCompleteCallback(cb, on_isend_complete),
         "SetMpiIsendCompleteCallback"},
        {OTF2_EvtReaderCallbacks_SetMpiIrecvRequestCallback(cb, on_irecv_request),
         "SetMpiIrecvRequestCallback"},
        {OTF2_EvtReaderCallbacks_SetMpiIrecvCallback(cb, on_mpi_irecv), "SetMpiIrecvCallback"},
        {OTF2_EvtReaderCallbacks_SetMpiRequestTestCallback(cb, on_request_test),
         "SetMpiRequestTestCallback"},
        {OTF2_EvtReaderCallbacks_SetMpiRequestCancelledCallback(cb, on_request_cancelled),
         "SetMpiRequestCancelledCallback"},
        {OTF2_EvtReaderCallbacks_SetMpiCollectiveBeginCallback(cb, on_collective_begin),
         "SetMpiCollectiveBeginCallback"},
        {OTF2_EvtReaderCallbacks_SetMpiCollectiveEndCallback(cb, on_collective_end),
         "SetMpiCollectiveEndCallback"},
        {OTF2_EvtReaderCallbacks_SetMetricCallback(cb, on_metric), "SetMetricCallback"},
        {OTF2_EvtReaderCallbacks_SetMeasurementOnOffCallback(cb, on_measurement),
         "SetMeasurementOnOffCallback"},
        {OTF2_EvtReaderCallbacks_SetBufferFlushCallback(cb, on_buffer_flush),
         "SetBufferFlushCallback"},
        {OTF2_EvtReaderCallbacks_SetUnknownCallback(cb, on_unknown), "SetUnknownCallback"},
        {OTF2_EvtReaderCallbacks_SetIoCreateHandleCallback(cb, on_io_create), "SetIoCreateHandle"},
        {OTF2_EvtReaderCallbacks_SetIoDestroyHandleCallback(cb, on_io_destroy),
         "SetIoDestroyHandle"},
        {OTF2_EvtReaderCallbacks_SetIoOperationBeginCallback(cb, on_io_begin),
         "SetIoOperationBegin"},
        {OTF2_EvtReaderCallbacks_SetIoOperationIssuedCallback(cb, on_io_issued),
         "SetIoOperationIssued"},
        {OTF2_EvtReaderCallbacks_SetIoOperationCompleteCallback(cb, on_io_complete),
         "SetIoOperationComplete"},
        {OTF2_EvtReaderCallbacks_SetIoSeekCallback(cb, on_io_seek), "SetIoSeek"},
        {OTF2_EvtReaderCallbacks_SetRmaWinCreateCallback(cb, on_win_create), "SetRmaWinCreate"},
        {OTF2_EvtReaderCallbacks_SetRmaWinDestroyCallback(cb, on_win_destroy), "SetRmaWinDestroy"},
        {OTF2_EvtReaderCallbacks_SetRmaCollectiveBeginCallback(cb, on_rma_coll_begin),
         "SetRmaCollectiveBegin"},
        {OTF2_EvtReaderCallbacks_SetRmaCollectiveEndCallback(cb, on_rma_coll_end),
         "SetRmaCollectiveEnd"},
        {OTF2_EvtReaderCallbacks_SetRmaGroupSyncCallback(cb, on_rma_group_sync), "SetRmaGroupSync"},
        {OTF2_EvtReaderCallbacks_SetRmaRequestLockCallback(cb, on_rma_request_lock),
         "SetRmaRequestLock"},
        {OTF2_EvtReaderCallbacks_SetRmaAcquireLockCallback(cb, on_rma_acquire_lock),
         "SetRmaAcquireLock"},
        {OTF2_EvtReaderCallbacks_SetRmaReleaseLockCallback(cb, on_rma_release_lock),
         "SetRmaReleaseLock"},
        {OTF2_EvtReaderCallbacks_SetRmaSyncCallback(cb, on_rma_sync), "SetRmaSync"},
        {OTF2_EvtReaderCallbacks_SetRmaPutCallback(cb, on_rma_put), "SetRmaPut"},
        {OTF2_EvtReaderCallbacks_SetRmaGetCallback(cb, on_rma_get), "SetRmaGet"},
        {OTF2_EvtReaderCallbacks_SetRmaAtomicCallback(cb, on_rma_atomic), "SetRmaAtomic"},
        {OTF2_EvtReaderCallbacks_SetRmaOpCompleteBlockingCallback(cb, on_rma_complete),
         "SetRmaOpCompleteBlocking"},
        {OTF2_EvtReaderCallbacks_SetRmaOpCompleteNonBlockingCallback(cb, on_rma_complete),
         "SetRmaOpCompleteNonBlocking"},
        {OTF2_EvtReaderCallbacks_SetRmaOpCompleteRemoteCallback(cb, on_rma_complete),
         "SetRmaOpCompleteRemote"},
        {OTF2_EvtReaderCallbacks_SetProgramBeginCallback(cb, on_program_begin),
         "SetProgramBeginCallback"},
        {OTF2_EvtReaderCallbacks_SetProgramEndCallback(cb, on_program_end),
         "SetProgramEndCallback"},
        {OTF2_EvtReaderCallbacks_SetThreadCreateCallback(cb, on_thread_lifecycle),
         "SetThreadCreateCallback"},
        {OTF2_EvtReaderCallbacks_SetThreadBeginCallback(cb, on_thread_lifecycle),
         "SetThreadBeginCallback"},
        {OTF2_EvtReaderCallbacks_SetThreadWaitCallback(cb, on_thread_lifecycle),
         "SetThreadWaitCallback"},
        {OTF2_EvtReaderCallbacks_SetThreadEndCallback(cb, on_thread_lifecycle),
         "SetThreadEndCallback"},
        {OTF2_EvtReaderCallbacks_SetCommCreateCallback(cb, on_comm_lifecycle),
         "SetCommCreateCallback"},
        {OTF2_EvtReaderCallbacks_SetCommDestroyCallback(cb, on_comm_lifecycle),
         "SetCommDestroyCallback"},
        {OTF2_EvtReaderCallbacks_SetNonBlockingCollectiveRequestCallback(cb, on_nbc_request),
         "SetNonBlockingCollectiveRequestCallback"},
        {OTF2_EvtReaderCallbacks_SetNonBlockingCollectiveCompleteCallback(cb, on_nbc_complete),
         "SetNonBlockingCollectiveCompleteCallback"},
        {OTF2_EvtReaderCallbacks_SetParameterStringCallback(cb, on_parameter_string),
         "SetParameterStringCallback"},
        {OTF2_EvtReaderCallbacks_SetParameterIntCallback(cb, on_parameter_int),
         "SetParameterIntCallback"},
        {OTF2_EvtReaderCallbacks_SetParameterUnsignedIntCallback(cb, on_parameter_unsigned),
         "SetParameterUnsignedIntCallback"},
    };
    for (size_t i = 0; i < sizeof results / sizeof results[0]; i++) {
        if (trace__check(ld, results[i].rc, results[i].what))
            return -1;
    }
    return 0;
}

/* End of a location: regions still open are nesting errors (one per region), records OTF2
 * read without a callback are OTHER events, and the event list loses its slack. */
static void finish_location(location_reader *r, uint64_t events_read)
{
    trace_location_stats *loc = r->loc;
    if (r->depth > 0) {
        char innermost[LABEL_LEN];
        char text[DETAIL_LEN];
        region_label(r->ld->model, r->open_regions[r->depth - 1], innermost, sizeof innermost);
        snprintf(text, sizeof text, "%zu region(s) still open at the end, innermost %s", r->depth,
                 innermost);
        nesting_error(r, events_read, loc->last_time, text);
        loc->nesting_errors += r->depth - 1;
    }
    loc->event_count = events_read > r->handled ? events_read : r->handled;
    loc->unhandled_event_count = loc->event_count - r->handled;
    loc->kind_counts[TRACE_EVENT_OTHER] += loc->unhandled_event_count;
    if (loc->events != NULL && loc->event_list_len < r->event_cap) {
        trace_event *shrunk = realloc(loc->events, loc->event_list_len * sizeof *loc->events);
        if (shrunk != NULL)
            loc->events = shrunk;
    }
}

static int read_events(OTF2_Reader *reader, location_reader *r, OTF2_EvtReader *evt_reader,
                       OTF2_EvtReaderCallbacks *cb)
{
    trace__loader *ld = r->ld;
    char what[128];
    uint64_t events_read = 0;
    if (register_callbacks(ld, cb) ||
        trace__check(ld, OTF2_Reader_RegisterEvtCallbacks(reader, evt_reader, cb, r),
                     "OTF2_Reader_RegisterEvtCallbacks"))
        return -1;
    snprintf(what, sizeof what, "OTF2_Reader_ReadAllLocalEvents (location %" PRIu64 ")",
             r->loc->id);
    if (trace__check(ld, OTF2_Reader_ReadAllLocalEvents(reader, evt_reader, &events_read), what))
        return -1;
    finish_location(r, events_read);
    return 0;
}

/* OTF2 creates no event file for a location that never got an event writer. Such a
 * location is skipped without asking OTF2 (which would print errors), and
 * OTF2_Reader_GetEvtReader also fails for an empty or one-byte file, as it reads the first
 * chunk header at once. Either is accepted, and flagged, for a location defined with 0
 * events, and a failure otherwise. */
static int no_event_file(trace__loader *ld, trace_location_stats *loc)
{
    loc->event_file_missing = true;
    if (loc->defined_event_count == 0)
        return 0;
    return trace__fail(
        ld, "no readable event file for location %" PRIu64 ", which should hold %" PRIu64 " events",
        loc->id, loc->defined_event_count);
}

int trace__events_read_location(OTF2_Reader *reader, trace__loader *ld, trace_location_stats *loc)
{
    OTF2_EvtReaderCallbacks *cb = OTF2_EvtReaderCallbacks_New();
    if (cb == NULL)
        return trace__fail(ld, "OTF2_EvtReaderCallbacks_New failed");
    OTF2_EvtReader *evt_reader = NULL;
    if (!trace__local_file_absent(ld, loc->id, "evt"))
        evt_reader = OTF2_Reader_GetEvtReader(reader, loc->id);
    if (evt_reader == NULL) {
        OTF2_EvtReaderCallbacks_Delete(cb);
        return no_event_file(ld, loc);
    }
    location_reader r = {.ld = ld, .loc = loc, .program_region = UINT32_MAX};
    int result = read_events(reader, &r, evt_reader, cb);
    OTF2_ErrorCode rc = OTF2_Reader_CloseEvtReader(reader, evt_reader);
    if (result == 0)
        result = trace__check(ld, rc, "OTF2_Reader_CloseEvtReader");
    OTF2_EvtReaderCallbacks_Delete(cb);
    free(r.open_regions);
    return result;
}
/* SPDX-License-Identifier: BSD-3-Clause */
