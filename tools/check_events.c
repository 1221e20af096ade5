/* What each location's events must satisfy on their own, checked while they
 * are read (weft check): time never goes back; enter/leave, fork/join,
 * thread team begin/end and collective begin/end pair up; events name
 * defined regions and communicators, and ranks inside them. The records
 * that must agree with other locations' (messages, collectives, lock
 * events) are kept for check_match.c. */
#include "check_internal.h"

#include <inttypes.h>

static check_state *state_of(void *user_data)
{
    return (check_state *)user_data; /* read_state is check_state's first member */
}

/* Where the current event is, and the time-order check every callback makes. */
static check_at here(check_state *c, uint64_t position, OTF2_TimeStamp time)
{
    check_at at = {(uint32_t)c->read.current, position, time};
    if (c->have_time && time < c->last_time)
        weft__check_problem(c, &at,
                            "time goes back by %" PRIu64 " ticks (event %" PRIu64
                            " was at tick %" PRIu64 ", this one is at tick %" PRIu64 ")",
                            c->last_time - time, c->last_position, c->last_time, time);
    c->have_time = true;
    c->last_time = time;
    c->last_position = position;
    return at;
}

static OTF2_CallbackCode out_of_memory(check_state *c)
{
    return weft__summary_interrupt(&c->read, WEFT_ERR_NO_MEMORY);
}

/* A defined communicator's index, or NOT_FOUND after a problem line. */
static size_t comm_of(check_state *c, const check_at *at, OTF2_CommRef comm, const char *what)
{
    size_t index = weft__summary_find_comm(&c->read, comm);
    if (index == NOT_FOUND)
        weft__check_problem(c, at, "%s names undefined communicator %" PRIu64, what,
                            (uint64_t)comm);
    return index;
}

/* ---- regions ---------------------------------------------------------------- */

static OTF2_CallbackCode on_enter(OTF2_LocationRef location, OTF2_TimeStamp time, uint64_t position,
                                  void *user_data, OTF2_AttributeList *attributes,
                                  OTF2_RegionRef region)
{
    (void)location, (void)attributes;
    check_state *c = state_of(user_data);
    check_at at = here(c, position, time);
    if (weft__summary_find_region(&c->read, region) == NOT_FOUND)
        weft__check_problem(c, &at, "enter of undefined region %" PRIu64, (uint64_t)region);
    check_open open = {region, position, time};
    return weft__check_push(&c->regions, &open, sizeof(open)) ? OTF2_CALLBACK_SUCCESS
                                                              : out_of_memory(c);
}

static OTF2_CallbackCode on_leave(OTF2_LocationRef location, OTF2_TimeStamp time, uint64_t position,
                                  void *user_data, OTF2_AttributeList *attributes,
                                  OTF2_RegionRef region)
{
    (void)location, (void)attributes;
    check_state *c = state_of(user_data);
    check_at at = here(c, position, time);
    char left[256], open_name[256];
    weft__check_region_name(c, region, left, sizeof(left));
    if (weft__summary_find_region(&c->read, region) == NOT_FOUND)
        weft__check_problem(c, &at, "leave of undefined region %" PRIu64, (uint64_t)region);
    check_open *open = c->regions.items;
    size_t depth = c->regions.count;
    if (depth == 0) {
        weft__check_problem(c, &at, "leave of %s, but no region is open", left);
        return OTF2_CALLBACK_SUCCESS;
    }
    if (open[depth - 1].ref == region) {
        c->regions.count--;
        return OTF2_CALLBACK_SUCCESS;
    }
    weft__check_problem(
        c, &at, "leave of %s, but the innermost open region is %s (entered at event %" PRIu64 ")",
        left, weft__check_region_name(c, open[depth - 1].ref, open_name, sizeof(open_name)),
        open[depth - 1].position);
    /* Take the regions inside the one left as closed, if it is open at all. */
    for (size_t i = depth; i > 0; i--) {
        if (open[i - 1].ref == region) {
            c->regions.count = i - 1;
            break;
        }
    }
    return OTF2_CALLBACK_SUCCESS;
}

/* ProgramBegin and ProgramEnd enter and leave the program region, which
 * must be defined as Scalasca's reader looks it up (weft/program.h). */
static OTF2_CallbackCode on_program_begin(OTF2_LocationRef location, OTF2_TimeStamp time,
                                          uint64_t position, void *user_data,
                                          OTF2_AttributeList *attributes, OTF2_StringRef name,
                                          uint32_t argc, const OTF2_StringRef *args)
{
    (void)location, (void)attributes;
    check_state *c = state_of(user_data);
    check_at at = here(c, position, time);
    size_t index = weft__summary_find_program_region(&c->read, name, argc, args);
    c->program_region = index == NOT_FOUND ? UINT64_MAX : c->read.regions[index].ref;
    if (index == NOT_FOUND)
        weft__check_problem(c, &at,
                            "program begin of '%s' without its program region (an artificial "
                            "measurement-system region named after the program)",
                            weft__summary_string(&c->read, name)
                                ? weft__summary_string(&c->read, name)
                                : "an undefined string");
    check_open open = {c->program_region, position, time};
    return weft__check_push(&c->regions, &open, sizeof(open)) ? OTF2_CALLBACK_SUCCESS
                                                              : out_of_memory(c);
}

static OTF2_CallbackCode on_program_end(OTF2_LocationRef location, OTF2_TimeStamp time,
                                        uint64_t position, void *user_data,
                                        OTF2_AttributeList *attributes, int64_t exit_status)
{
    (void)exit_status;
    check_state *c = state_of(user_data);
    if (c->program_region == UINT64_MAX) {
        check_at at = here(c, position, time);
        const check_open *open = c->regions.items;
        if (c->regions.count > 0 && open[c->regions.count - 1].ref == UINT64_MAX)
            c->regions.count--; /* its begin, without a region, was reported */
        else
            weft__check_problem(c, &at, "program end without a program begin");
        return OTF2_CALLBACK_SUCCESS;
    }
    return on_leave(location, time, position, user_data, attributes, c->program_region);
}

/* ---- threads ------------------------------------------------------------------ */

/* Scalasca's analyzer needs a region around every fork and join: it finds
 * the call path of a join by walking back to the enclosing enter, and
 * crashes where there is none. */
static void check_enclosed(check_state *c, const check_at *at, const char *what)
{
    if (c->regions.count == 0)
        weft__check_problem(c, at,
                            "%s that no region encloses (Scalasca's analyzer crashes on it; "
                            "a program begin event would enclose it)",
                            what);
}

static OTF2_CallbackCode on_fork(OTF2_LocationRef location, OTF2_TimeStamp time, uint64_t position,
                                 void *user_data, OTF2_AttributeList *attributes,
                                 OTF2_Paradigm model, uint32_t threads)
{
    (void)location, (void)attributes, (void)model, (void)threads;
    check_state *c = state_of(user_data);
    check_at at = here(c, position, time);
    check_enclosed(c, &at, "thread fork");
    c->forks++;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_join(OTF2_LocationRef location, OTF2_TimeStamp time, uint64_t position,
                                 void *user_data, OTF2_AttributeList *attributes,
                                 OTF2_Paradigm model)
{
    (void)location, (void)attributes, (void)model;
    check_state *c = state_of(user_data);
    check_at at = here(c, position, time);
    check_enclosed(c, &at, "thread join");
    if (c->forks == 0)
        weft__check_problem(c, &at, "thread join without a fork");
    else
        c->forks--;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_team_begin(OTF2_LocationRef location, OTF2_TimeStamp time,
                                       uint64_t position, void *user_data,
                                       OTF2_AttributeList *attributes, OTF2_CommRef team)
{
    (void)location, (void)attributes;
    check_state *c = state_of(user_data);
    check_at at = here(c, position, time);
    comm_of(c, &at, team, "thread team begin");
    check_open open = {team, position, time};
    return weft__check_push(&c->teams, &open, sizeof(open)) ? OTF2_CALLBACK_SUCCESS
                                                            : out_of_memory(c);
}

static OTF2_CallbackCode on_team_end(OTF2_LocationRef location, OTF2_TimeStamp time,
                                     uint64_t position, void *user_data,
                                     OTF2_AttributeList *attributes, OTF2_CommRef team)
{
    (void)location, (void)attributes;
    check_state *c = state_of(user_data);
    check_at at = here(c, position, time);
    comm_of(c, &at, team, "thread team end");
    check_open *open = c->teams.items;
    size_t depth = c->teams.count;
    char name[300], inner[300];
    if (depth == 0) {
        weft__check_problem(c, &at, "end of thread team %s, which this location did not begin",
                            weft__check_comm_name(c, team, name, sizeof(name)));
    } else if (open[depth - 1].ref != team) {
        weft__check_problem(c, &at,
                            "end of thread team %s, but the innermost team is %s (begun at "
                            "event %" PRIu64 ")",
                            weft__check_comm_name(c, team, name, sizeof(name)),
                            weft__check_comm_name(c, open[depth - 1].ref, inner, sizeof(inner)),
                            open[depth - 1].position);
        for (size_t i = depth; i > 0; i--) {
            if (open[i - 1].ref == team) {
                c->teams.count = i - 1;
                break;
            }
        }
    } else {
        c->teams.count--;
    }
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_task(OTF2_LocationRef location, OTF2_TimeStamp time, uint64_t position,
                                 void *user_data, OTF2_AttributeList *attributes, OTF2_CommRef team,
                                 uint32_t thread, uint32_t generation)
{
    (void)location, (void)attributes, (void)thread, (void)generation;
    check_state *c = state_of(user_data);
    check_at at = here(c, position, time);
    comm_of(c, &at, team, "a task event");
    return OTF2_CALLBACK_SUCCESS;
}

/* ---- locks -------------------------------------------------------------------- */

static OTF2_CallbackCode lock_event(check_state *c, uint64_t position, OTF2_TimeStamp time,
                                    OTF2_Paradigm model, uint32_t lock, uint32_t order,
                                    bool acquire)
{
    check_lock l = {.rank = c->read.current_rank,
                    .lock = (uint64_t)model << 32 | lock,
                    .order = order,
                    .acquire = acquire,
                    .at = here(c, position, time)};
    return weft__check_push(&c->locks, &l, sizeof(l)) ? OTF2_CALLBACK_SUCCESS : out_of_memory(c);
}

static OTF2_CallbackCode on_acquire(OTF2_LocationRef location, OTF2_TimeStamp time,
                                    uint64_t position, void *user_data,
                                    OTF2_AttributeList *attributes, OTF2_Paradigm model,
                                    uint32_t lock, uint32_t order)
{
    (void)location, (void)attributes;
    return lock_event(state_of(user_data), position, time, model, lock, order, true);
}

static OTF2_CallbackCode on_release(OTF2_LocationRef location, OTF2_TimeStamp time,
                                    uint64_t position, void *user_data,
                                    OTF2_AttributeList *attributes, OTF2_Paradigm model,
                                    uint32_t lock, uint32_t order)
{
    (void)location, (void)attributes;
    return lock_event(state_of(user_data), position, time, model, lock, order, false);
}

/* ---- MPI ---------------------------------------------------------------------- */

/* The world rank of PEER in COMM, or WEFT_SUMMARY_NO_RANK after a problem. */
static uint32_t peer_of(check_state *c, const check_at *at, size_t comm, uint32_t peer,
                        const char *role)
{
    if (comm == NOT_FOUND)
        return WEFT_SUMMARY_NO_RANK;
    uint64_t size = weft__summary_comm_size(&c->read, comm);
    uint32_t world = weft__summary_world_rank(&c->read, comm, peer, c->read.current_rank);
    if ((size > 0 && peer >= size) || world == WEFT_SUMMARY_NO_RANK) {
        char name[300];
        weft__check_problem(
            c, at, "%s rank %" PRIu32 " is outside communicator %s (%" PRIu64 " members)", role,
            peer, weft__check_comm_name(c, c->read.comms[comm].ref, name, sizeof(name)), size);
        return WEFT_SUMMARY_NO_RANK;
    }
    return world;
}

static OTF2_CallbackCode message(check_state *c, uint64_t position, OTF2_TimeStamp time,
                                 uint32_t peer, OTF2_CommRef comm, uint32_t tag, uint64_t bytes,
                                 bool send, uint64_t posted)
{
    check_at at = here(c, position, time);
    size_t index = comm_of(c, &at, comm, send ? "a send" : "a receive");
    uint32_t other = peer_of(c, &at, index, peer, send ? "receiver" : "sender");
    if (other == WEFT_SUMMARY_NO_RANK)
        return OTF2_CALLBACK_SUCCESS;
    uint32_t own = c->read.current_rank;
    check_message m = {.comm = comm,
                       .sender = send ? own : other,
                       .receiver = send ? other : own,
                       .tag = tag,
                       .bytes = bytes,
                       .order_time = posted,
                       .at = at};
    return weft__check_push(send ? &c->sends : &c->receives, &m, sizeof(m)) ? OTF2_CALLBACK_SUCCESS
                                                                            : out_of_memory(c);
}

static OTF2_CallbackCode on_send(OTF2_LocationRef location, OTF2_TimeStamp time, uint64_t position,
                                 void *user_data, OTF2_AttributeList *attributes, uint32_t receiver,
                                 OTF2_CommRef comm, uint32_t tag, uint64_t bytes)
{
    (void)location, (void)attributes;
    return message(state_of(user_data), position, time, receiver, comm, tag, bytes, true, time);
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
    (void)location, (void)attributes;
    return message(state_of(user_data), position, time, sender, comm, tag, bytes, false, time);
}

/* A non-blocking receive is ordered among the receives of its channel by
 * when it was posted (its MpiIrecvRequest), which MPI matches in. */
static OTF2_CallbackCode on_irecv_request(OTF2_LocationRef location, OTF2_TimeStamp time,
                                          uint64_t position, void *user_data,
                                          OTF2_AttributeList *attributes, uint64_t request)
{
    (void)location, (void)attributes;
    check_state *c = state_of(user_data);
    here(c, position, time);
    check_open posted = {request, position, time};
    return weft__check_push(&c->requests, &posted, sizeof(posted)) ? OTF2_CALLBACK_SUCCESS
                                                                   : out_of_memory(c);
}

static OTF2_CallbackCode on_irecv(OTF2_LocationRef location, OTF2_TimeStamp time, uint64_t position,
                                  void *user_data, OTF2_AttributeList *attributes, uint32_t sender,
                                  OTF2_CommRef comm, uint32_t tag, uint64_t bytes, uint64_t request)
{
    (void)location, (void)attributes;
    check_state *c = state_of(user_data);
    uint64_t posted = time;
    check_open *open = c->requests.items;
    for (size_t i = c->requests.count; i > 0; i--) {
        if (open[i - 1].ref == request) {
            posted = open[i - 1].time;
            open[i - 1] = open[--c->requests.count];
            break;
        }
    }
    return message(c, position, time, sender, comm, tag, bytes, false, posted);
}

static OTF2_CallbackCode on_collective_begin(OTF2_LocationRef location, OTF2_TimeStamp time,
                                             uint64_t position, void *user_data,
                                             OTF2_AttributeList *attributes)
{
    (void)location, (void)attributes;
    check_state *c = state_of(user_data);
    check_at at = here(c, position, time);
    if (c->collective_open)
        weft__check_problem(c, &at,
                            "collective begin inside the collective begun at event %" PRIu64,
                            c->collective_begin.position);
    c->collective_open = true;
    c->collective_begin = (check_open){0, position, time};
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_collective_end(OTF2_LocationRef location, OTF2_TimeStamp time,
                                           uint64_t position, void *user_data,
                                           OTF2_AttributeList *attributes, OTF2_CollectiveOp op,
                                           OTF2_CommRef comm, uint32_t root, uint64_t sent,
                                           uint64_t received)
{
    (void)location, (void)attributes, (void)sent, (void)received;
    check_state *c = state_of(user_data);
    check_at at = here(c, position, time);
    if (!c->collective_open)
        weft__check_problem(c, &at, "collective end without its begin");
    c->collective_open = false;
    if (comm_of(c, &at, comm, "a collective") == NOT_FOUND)
        return OTF2_CALLBACK_SUCCESS;
    check_collective coll = {
        .comm = comm, .rank = c->read.current_rank, .root = root, .op = op, .at = at};
    return weft__check_push(&c->collectives, &coll, sizeof(coll)) ? OTF2_CALLBACK_SUCCESS
                                                                  : out_of_memory(c);
}

/* ---- events that only need to be in time order ---------------------------------- */

static OTF2_CallbackCode on_request(OTF2_LocationRef location, OTF2_TimeStamp time,
                                    uint64_t position, void *user_data,
                                    OTF2_AttributeList *attributes, uint64_t request)
{
    (void)location, (void)attributes, (void)request;
    here(state_of(user_data), position, time);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_metric(OTF2_LocationRef location, OTF2_TimeStamp time,
                                   uint64_t position, void *user_data,
                                   OTF2_AttributeList *attributes, OTF2_MetricRef metric,
                                   uint8_t count, const OTF2_Type *types,
                                   const OTF2_MetricValue *values)
{
    (void)location, (void)attributes, (void)metric, (void)count, (void)types, (void)values;
    here(state_of(user_data), position, time);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_on_off(OTF2_LocationRef location, OTF2_TimeStamp time,
                                   uint64_t position, void *user_data,
                                   OTF2_AttributeList *attributes, OTF2_MeasurementMode mode)
{
    (void)location, (void)attributes, (void)mode;
    here(state_of(user_data), position, time);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_flush(OTF2_LocationRef location, OTF2_TimeStamp time, uint64_t position,
                                  void *user_data, OTF2_AttributeList *attributes,
                                  OTF2_TimeStamp stop)
{
    (void)location, (void)attributes, (void)stop;
    here(state_of(user_data), position, time);
    return OTF2_CALLBACK_SUCCESS;
}

weft_status weft__check_set_callbacks(check_state *c, OTF2_EvtReaderCallbacks *cb)
{
    OTF2_ErrorCode codes[] = {
        OTF2_EvtReaderCallbacks_SetEnterCallback(cb, on_enter),
        OTF2_EvtReaderCallbacks_SetLeaveCallback(cb, on_leave),
        OTF2_EvtReaderCallbacks_SetProgramBeginCallback(cb, on_program_begin),
        OTF2_EvtReaderCallbacks_SetProgramEndCallback(cb, on_program_end),
        OTF2_EvtReaderCallbacks_SetThreadForkCallback(cb, on_fork),
        OTF2_EvtReaderCallbacks_SetThreadJoinCallback(cb, on_join),
        OTF2_EvtReaderCallbacks_SetThreadTeamBeginCallback(cb, on_team_begin),
        OTF2_EvtReaderCallbacks_SetThreadTeamEndCallback(cb, on_team_end),
        OTF2_EvtReaderCallbacks_SetThreadTaskCreateCallback(cb, on_task),
        OTF2_EvtReaderCallbacks_SetThreadTaskSwitchCallback(cb, on_task),
        OTF2_EvtReaderCallbacks_SetThreadTaskCompleteCallback(cb, on_task),
        OTF2_EvtReaderCallbacks_SetThreadAcquireLockCallback(cb, on_acquire),
        OTF2_EvtReaderCallbacks_SetThreadReleaseLockCallback(cb, on_release),
        OTF2_EvtReaderCallbacks_SetMpiSendCallback(cb, on_send),
        OTF2_EvtReaderCallbacks_SetMpiIsendCallback(cb, on_isend),
        OTF2_EvtReaderCallbacks_SetMpiRecvCallback(cb, on_recv),
        OTF2_EvtReaderCallbacks_SetMpiIrecvCallback(cb, on_irecv),
        OTF2_EvtReaderCallbacks_SetMpiIrecvRequestCallback(cb, on_irecv_request),
        OTF2_EvtReaderCallbacks_SetMpiIsendCompleteCallback(cb, on_request),
        OTF2_EvtReaderCallbacks_SetMpiRequestTestCallback(cb, on_request),
        OTF2_EvtReaderCallbacks_SetMpiRequestCancelledCallback(cb, on_request),
        OTF2_EvtReaderCallbacks_SetMpiCollectiveBeginCallback(cb, on_collective_begin),
        OTF2_EvtReaderCallbacks_SetMpiCollectiveEndCallback(cb, on_collective_end),
        OTF2_EvtReaderCallbacks_SetMetricCallback(cb, on_metric),
        OTF2_EvtReaderCallbacks_SetMeasurementOnOffCallback(cb, on_on_off),
        OTF2_EvtReaderCallbacks_SetBufferFlushCallback(cb, on_flush),
    };
    for (size_t i = 0; i < sizeof(codes) / sizeof(codes[0]); i++) {
        if (!weft__summary_otf2_ok(&c->read, codes[i], "cannot set up reading the events of"))
            return WEFT_ERR_OTF2;
    }
    return WEFT_OK;
}

/* ---- per location ----------------------------------------------------------------- */

static weft_status begin_location(read_state *st)
{
    check_state *c = state_of(st);
    c->regions.count = c->teams.count = c->requests.count = 0;
    c->program_region = UINT64_MAX;
    c->forks = 0;
    c->collective_open = false;
    c->have_time = false;
    return WEFT_OK;
}

/* What is still open when a location's events end. */
static weft_status end_location(read_state *st)
{
    check_state *c = state_of(st);
    check_at at = {(uint32_t)st->current, c->last_position, c->last_time};
    const check_open *open = c->regions.items;
    char name[256];
    for (size_t i = c->regions.count; i > 0; i--)
        weft__check_problem(
            c, &at, "region %s, entered at event %" PRIu64 ", is still open at the end",
            weft__check_region_name(c, open[i - 1].ref, name, sizeof(name)), open[i - 1].position);
    open = c->teams.items;
    for (size_t i = c->teams.count; i > 0; i--)
        weft__check_problem(c, &at, "thread team %s, begun at event %" PRIu64 ", never ends",
                            weft__check_comm_name(c, open[i - 1].ref, name, sizeof(name)),
                            open[i - 1].position);
    if (c->forks > 0)
        weft__check_problem(c, &at, "%" PRIu64 " thread fork%s without a join", c->forks,
                            c->forks == 1 ? "" : "s");
    if (c->collective_open)
        weft__check_problem(c, &at, "the collective begun at event %" PRIu64 " never ends",
                            c->collective_begin.position);
    return WEFT_OK;
}

const weft_summary_location_hooks weft__check_location_hooks = {begin_location, end_location};
