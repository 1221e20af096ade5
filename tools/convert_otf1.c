/* OTF version 1 into OTF2; see convert_otf1.h. The OTF library reads the
 * definitions, then the events of all streams merged in time order. Two
 * passes over the events: the first counts the threads of every fork (a
 * master's "parallel region", which OTF1 writes instead of fork/join), the
 * second converts. Processes without a parent are MPI processes, ranked in
 * the order of their ids; a process with a parent is a thread of it,
 * numbered in the order of its id among its siblings (VampirTrace's and
 * elg2otf's conventions). OTF1 has no lock events. */
#include "convert_otf1.h"

#include <otf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "convert_common.h"
#include "summary_progress.h"
#include "weft/recorder.h"
#include "weft/trace_writer.h"

enum { KIND_REGION, KIND_FORK, KIND_IDLE };
#define TEAM_BIT 0x80000000u
#define IDLE_ENTRY 0xFFFFFFFEu
#define FORK_ENTRY 0xFFFFFFFDu

/* Every table entry starts with its OTF id; tables are sorted by it. */
typedef struct otf_proc {
    uint32_t id, parent;
    char *name;
    uint32_t rank, thread; /* location group, thread number */
    struct otf_proc *master;
    weft_location loc;
    uint32_t *stack; /* function ids; TEAM_BIT: began a team */
    uint32_t depth, capacity;
    uint64_t last_time;
    /* masters */
    uint32_t thread_count;
    uint16_t *team_sizes;
    uint32_t fork_count, forks_seen;
    bool in_fork;
    uint64_t *entered; /* first pass: the threads in the current team */
    weft_comm team;
} otf_proc;

typedef struct otf_func {
    uint32_t id;
    char *name;
    uint32_t group, source;
    int kind;
    weft_region_role role;
    weft_region region;
} otf_func;

typedef struct otf_group {
    uint32_t id;
    char *name;
    uint32_t *members, count;
    weft_comm comm;
    bool comm_made;
} otf_group;

typedef struct otf_named {
    uint32_t id;
    char *name;
    uint32_t a, b; /* scl: file, line; counter: properties */
    weft_metric metric;
} otf_named;

typedef struct otf_table {
    void *items;
    uint32_t count, capacity;
    size_t size;
} otf_table;

typedef struct otf_convert {
    const char *input;
    char err[512];
    uint64_t resolution;
    otf_table procs, funcs, groups, fgroups, files, scls, collops, counters;
    uint32_t ranks;
    bool second_pass, failed;
    weft_trace_writer *writer;
    weft_registry *reg;
    convert_channels *channels;
    uint64_t events, time_min, time_max, time_fixes, receives_without_size, collectives_dropped;
    bool any_time, world_made;
    struct pending_collective {
        uint64_t match;
        uint32_t op, group, root;
        uint64_t sent, received;
    } * pending;
    uint32_t pending_count;
} otf_convert;

/* ---- tables ------------------------------------------------------------------ */

static void *table_add(otf_table *t, uint32_t id)
{
    if (t->count == t->capacity) {
        uint32_t capacity = t->capacity ? t->capacity * 2 : 16;
        void *items = realloc(t->items, capacity * t->size);
        if (!items)
            return NULL;
        t->items = items;
        t->capacity = capacity;
    }
    void *item = (char *)t->items + (size_t)t->count++ * t->size;
    memset(item, 0, t->size);
    *(uint32_t *)item = id;
    return item;
}

static int by_id(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static void table_sort(otf_table *t)
{
    if (t->count)
        qsort(t->items, t->count, t->size, by_id);
}

static void *table_find(const otf_table *t, uint32_t id)
{
    return t->count ? bsearch(&id, t->items, t->count, t->size, by_id) : NULL;
}

static char *copy(const char *s)
{
    return strdup(s ? s : "");
}

/* ---- definitions ------------------------------------------------------------------ */

static int def_resolution(void *data, uint32_t stream, uint64_t ticks, OTF_KeyValueList *kv)
{
    (void)stream, (void)kv;
    ((otf_convert *)data)->resolution = ticks;
    return OTF_RETURN_OK;
}

static int def_process(void *data, uint32_t stream, uint32_t process, const char *name,
                       uint32_t parent, OTF_KeyValueList *kv)
{
    (void)stream, (void)kv;
    otf_proc *p = table_add(&((otf_convert *)data)->procs, process);
    if (!p)
        return OTF_RETURN_ABORT;
    p->parent = parent;
    p->name = copy(name);
    return OTF_RETURN_OK;
}

static int def_group(void *data, uint32_t stream, uint32_t group, const char *name, uint32_t count,
                     const uint32_t *procs, OTF_KeyValueList *kv)
{
    (void)stream, (void)kv;
    otf_group *g = table_add(&((otf_convert *)data)->groups, group);
    if (!g || !(g->members = malloc((count ? count : 1) * sizeof(uint32_t))))
        return OTF_RETURN_ABORT;
    memcpy(g->members, procs, count * sizeof(uint32_t));
    g->count = count;
    g->name = copy(name);
    return OTF_RETURN_OK;
}

static int def_function(void *data, uint32_t stream, uint32_t func, const char *name,
                        uint32_t group, uint32_t source, OTF_KeyValueList *kv)
{
    (void)stream, (void)kv;
    otf_func *f = table_add(&((otf_convert *)data)->funcs, func);
    if (!f)
        return OTF_RETURN_ABORT;
    f->name = copy(name);
    f->group = group;
    f->source = source;
    return OTF_RETURN_OK;
}

/* Function groups, source files, collective operations: an id and a name. */
static int def_named(otf_table *t, uint32_t id, const char *name, uint32_t a, uint32_t b)
{
    otf_named *n = table_add(t, id);
    if (!n)
        return OTF_RETURN_ABORT;
    n->name = copy(name);
    n->a = a;
    n->b = b;
    return OTF_RETURN_OK;
}

static int def_function_group(void *data, uint32_t stream, uint32_t group, const char *name,
                              OTF_KeyValueList *kv)
{
    (void)stream, (void)kv;
    return def_named(&((otf_convert *)data)->fgroups, group, name, 0, 0);
}

static int def_scl_file(void *data, uint32_t stream, uint32_t file, const char *name,
                        OTF_KeyValueList *kv)
{
    (void)stream, (void)kv;
    return def_named(&((otf_convert *)data)->files, file, name, 0, 0);
}

static int def_scl(void *data, uint32_t stream, uint32_t source, uint32_t file, uint32_t line,
                   OTF_KeyValueList *kv)
{
    (void)stream, (void)kv;
    return def_named(&((otf_convert *)data)->scls, source, NULL, file, line);
}

static int def_collop(void *data, uint32_t stream, uint32_t op, const char *name, uint32_t type,
                      OTF_KeyValueList *kv)
{
    (void)stream, (void)kv;
    return def_named(&((otf_convert *)data)->collops, op, name, type, 0);
}

static int def_counter(void *data, uint32_t stream, uint32_t counter, const char *name,
                       uint32_t properties, uint32_t group, const char *unit, OTF_KeyValueList *kv)
{
    (void)stream, (void)kv, (void)group;
    otf_convert *c = data;
    if (def_named(&c->counters, counter, name, properties, 0) != OTF_RETURN_OK)
        return OTF_RETURN_ABORT;
    otf_named *n = (otf_named *)c->counters.items + c->counters.count - 1;
    free(n->name);
    /* name and unit, kept together: "name\0unit" */
    size_t a = strlen(name ? name : ""), b = strlen(unit ? unit : "");
    n->name = malloc(a + b + 2);
    if (!n->name)
        return OTF_RETURN_ABORT;
    memcpy(n->name, name ? name : "", a + 1);
    memcpy(n->name + a + 1, unit ? unit : "", b + 1);
    return OTF_RETURN_OK;
}

/* ---- definitions into the registry ------------------------------------------------ */

static const char *named(const otf_table *t, uint32_t id)
{
    const otf_named *n = table_find(t, id);
    return n ? n->name : NULL;
}

/* Ranks of MPI processes, thread numbers of threads, masters' tables. */
static int arrange_processes(otf_convert *c)
{
    otf_proc *procs = c->procs.items;
    for (uint32_t i = 0; i < c->procs.count; i++) {
        if (procs[i].parent == 0)
            procs[i].rank = c->ranks++;
    }
    for (uint32_t i = 0; i < c->procs.count; i++) {
        otf_proc *p = &procs[i];
        p->master = p->parent ? table_find(&c->procs, p->parent) : p;
        if (!p->master || p->master->parent != 0) {
            snprintf(c->err, sizeof(c->err),
                     "process %u names the parent %u, which is not a process without a parent",
                     p->id, p->parent);
            return -1;
        }
        p->rank = p->master->rank;
        p->thread = p->parent ? ++p->master->thread_count : 0; /* in id order */
    }
    for (uint32_t i = 0; i < c->procs.count; i++) {
        otf_proc *p = &procs[i];
        if (p->parent == 0) {
            p->thread_count++;
            p->entered = calloc((p->thread_count + 63) / 64, sizeof(uint64_t));
            if (!p->entered)
                return -1;
        }
    }
    return 0;
}

/* Kind, role and paradigm of a function from its group's and its own name
 * (LEGACY-FORMATS.md 2.4); f->kind and f->role are set, for the first pass
 * too. */
static void classify(const otf_convert *c, otf_func *f, weft_region_desc *desc)
{
    const char *group = named(&c->fgroups, f->group);
    desc->paradigm = WEFT_PARADIGM_USER;
    desc->role = WEFT_REGION_ROLE_FUNCTION;
    f->kind = KIND_REGION;
    if (group && strcmp(group, "PREG") == 0)
        f->kind = KIND_FORK;
    else if (group && strcmp(group, "IDLE") == 0)
        f->kind = KIND_IDLE;
    else if (weft__convert_omp_role(f->name, &desc->role))
        desc->paradigm = WEFT_PARADIGM_OPENMP;
    else if (strncmp(f->name, "MPI_", 4) == 0 || (group && strcmp(group, "MPI") == 0)) {
        desc->paradigm = WEFT_PARADIGM_MPI;
        int op = weft__convert_collective_op(f->name);
        desc->role = op == WEFT_COLLECTIVE_BARRIER ? WEFT_REGION_ROLE_BARRIER
                     : op == WEFT_COLLECTIVE_BCAST || op == WEFT_COLLECTIVE_SCATTER ||
                             op == WEFT_COLLECTIVE_SCATTERV
                         ? WEFT_REGION_ROLE_COLL_ONE2ALL
                     : op == WEFT_COLLECTIVE_GATHER || op == WEFT_COLLECTIVE_GATHERV ||
                             op == WEFT_COLLECTIVE_REDUCE
                         ? WEFT_REGION_ROLE_COLL_ALL2ONE
                     : op >= 0 ? WEFT_REGION_ROLE_COLL_ALL2ALL
                               : WEFT_REGION_ROLE_FUNCTION;
        desc->file = "MPI";
    } else if (strncmp(f->name, "omp_", 4) == 0) {
        desc->paradigm = WEFT_PARADIGM_OPENMP;
        desc->file = "OMP";
    }
    f->role = desc->role;
}

static int define(otf_convert *c)
{
    otf_proc *procs = c->procs.items;
    for (uint32_t i = 0; i < c->procs.count; i++) {
        otf_proc *p = &procs[i];
        if (p->parent == 0)
            weft_registry_process(c->reg, p->rank, p->name, NULL);
        char name[64];
        snprintf(name, sizeof(name), p->thread ? "Thread %u" : "Master thread", p->thread);
        if (weft_registry_location_in_group(c->reg, name, p->thread, p->rank, &p->loc) != WEFT_OK)
            return -1;
    }
    otf_func *funcs = c->funcs.items;
    for (uint32_t i = 0; i < c->funcs.count; i++) {
        otf_func *f = &funcs[i];
        const otf_named *scl = table_find(&c->scls, f->source);
        weft_region_desc desc = {.name = f->name,
                                 .file = scl ? named(&c->files, scl->a) : NULL,
                                 .begin_line = scl ? scl->b : 0};
        classify(c, f, &desc);
        f->region = WEFT_REGION_INVALID;
        if (f->kind == KIND_REGION && weft_registry_region(c->reg, &desc, &f->region) != WEFT_OK)
            return -1;
    }
    otf_named *counters = c->counters.items;
    for (uint32_t i = 0; i < c->counters.count; i++) {
        const char *unit = counters[i].name + strlen(counters[i].name) + 1;
        bool absolute = (counters[i].a & OTF_COUNTER_TYPE_BITS) == OTF_COUNTER_TYPE_ABS;
        weft_metric_member_desc m = {.name = counters[i].name,
                                     .unit = *unit ? unit : "#",
                                     .source = strncmp(counters[i].name, "PAPI_", 5) == 0
                                                   ? WEFT_METRIC_SOURCE_PAPI
                                                   : WEFT_METRIC_SOURCE_OTHER,
                                     .mode = absolute ? WEFT_METRIC_MODE_ABSOLUTE_POINT
                                                      : WEFT_METRIC_MODE_ACCUMULATED_START};
        if (weft_registry_metric_class(c->reg, &m, 1, &counters[i].metric) != WEFT_OK)
            return -1;
    }
    return 0;
}

/* The MPI communicator of a process group, defined on first use: members
 * are the ranks of its processes, in its order. */
static weft_comm comm_of(otf_convert *c, otf_group *g)
{
    if (g->comm_made)
        return g->comm;
    g->comm_made = true;
    bool world = !c->world_made && g->count == c->ranks;
    c->world_made = c->world_made || world;
    weft_comm_desc desc = {.name = world ? "MPI_COMM_WORLD" : g->name,
                           .paradigm = WEFT_PARADIGM_MPI,
                           .parent = WEFT_COMM_INVALID,
                           .key = world ? WEFT_COMM_KEY_MPI_WORLD : 2 + (uint64_t)g->id};
    g->comm = WEFT_COMM_INVALID;
    if (weft_registry_comm(c->reg, &desc, &g->comm) == WEFT_OK) {
        for (uint32_t i = 0; i < g->count; i++) {
            const otf_proc *p = table_find(&c->procs, g->members[i]);
            weft_registry_comm_set_member(c->reg, g->comm, i, p ? p->rank : WEFT_INVALID_ID);
        }
    }
    return g->comm;
}

/* ---- events --------------------------------------------------------------------- */

static int fail(otf_convert *c, const char *fmt, uint64_t time, uint32_t process)
{
    if (!c->failed)
        snprintf(c->err, sizeof(c->err), fmt, (unsigned long long)time, process);
    c->failed = true;
    return OTF_RETURN_ABORT;
}

static int emit(otf_convert *c, otf_proc *p, weft_event *e)
{
    if (e->time < p->last_time) {
        e->time = p->last_time;
        c->time_fixes++;
    }
    p->last_time = e->time;
    if (!c->any_time || e->time < c->time_min)
        c->time_min = e->time;
    if (!c->any_time || e->time > c->time_max)
        c->time_max = e->time;
    c->any_time = true;
    c->events++;
    if (weft_trace_writer_event(c->writer, p->loc, e) != WEFT_OK) {
        c->failed = true;
        snprintf(c->err, sizeof(c->err), "the OTF2 library refused an event (see above)");
        return OTF_RETURN_ABORT;
    }
    return OTF_RETURN_OK;
}

static bool push(otf_proc *p, uint32_t entry)
{
    if (p->depth == p->capacity) {
        uint32_t capacity = p->capacity ? p->capacity * 2 : 16;
        uint32_t *stack = realloc(p->stack, capacity * sizeof(*stack));
        if (!stack)
            return false;
        p->stack = stack;
        p->capacity = capacity;
    }
    p->stack[p->depth++] = entry;
    return true;
}

static otf_proc *proc_of(otf_convert *c, uint32_t process, uint64_t time)
{
    otf_proc *p = table_find(&c->procs, process);
    if (!p)
        fail(c, "an event at time %llu of the undefined process %u", time, process);
    return p;
}

static int on_enter(void *data, uint64_t time, uint32_t function, uint32_t process, uint32_t source,
                    OTF_KeyValueList *kv)
{
    (void)source, (void)kv;
    otf_convert *c = data;
    otf_proc *p = proc_of(c, process, time);
    otf_func *f = table_find(&c->funcs, function);
    if (!p)
        return OTF_RETURN_ABORT;
    if (!f)
        return fail(c, "an enter at time %llu (process %u) of an undefined function", time,
                    process);
    otf_proc *m = p->master;
    if (!c->second_pass) { /* count the threads that enter a parallel region in a fork */
        if (f->kind == KIND_FORK && p == m) {
            m->in_fork = true;
            memset(m->entered, 0, ((m->thread_count + 63) / 64) * sizeof(uint64_t));
        } else if (f->role == WEFT_REGION_ROLE_PARALLEL && f->kind == KIND_REGION && m->in_fork) {
            m->entered[p->thread / 64] |= UINT64_C(1) << (p->thread % 64);
        }
        if (!push(p, f->kind == KIND_FORK ? FORK_ENTRY : function))
            return fail(c, "out of memory at time %llu (process %u)", time, process);
        return OTF_RETURN_OK;
    }
    if (f->kind == KIND_IDLE)
        return push(p, IDLE_ENTRY) ? OTF_RETURN_OK
                                   : fail(c, "out of memory at %llu (%u)", time, process);
    if (f->kind == KIND_FORK) {
        uint32_t size = m->forks_seen < m->fork_count ? m->team_sizes[m->forks_seen] : 1;
        m->forks_seen++;
        weft_comm_desc team = {.paradigm = WEFT_PARADIGM_OPENMP,
                               .parent = WEFT_COMM_INVALID,
                               .key = ((uint64_t)m->rank << 16) | size};
        m->team = WEFT_COMM_INVALID;
        if (weft_registry_comm(c->reg, &team, &m->team) == WEFT_OK) {
            otf_proc *procs = c->procs.items;
            for (uint32_t i = 0; i < c->procs.count; i++) {
                if (procs[i].master == m && procs[i].thread < size)
                    weft_registry_comm_set_member(c->reg, m->team, procs[i].thread,
                                                  procs[i].loc.id);
            }
        }
        m->in_fork = true;
        weft_event e = {.kind = WEFT_EVENT_THREAD_FORK,
                        .time = time,
                        .small = WEFT_PARADIGM_OPENMP,
                        .ref = size};
        return push(p, FORK_ENTRY) ? emit(c, p, &e)
                                   : fail(c, "out of memory at %llu (%u)", time, process);
    }
    uint32_t entry = function;
    if (f->role == WEFT_REGION_ROLE_PARALLEL && m->in_fork && m->team.id != WEFT_INVALID_ID) {
        weft_event team = {
            .kind = WEFT_EVENT_THREAD_TEAM_BEGIN, .time = time, .ref = m->team.id, .a = p->thread};
        if (emit(c, p, &team))
            return OTF_RETURN_ABORT;
        entry |= TEAM_BIT;
    }
    if (!push(p, entry))
        return fail(c, "out of memory at time %llu (process %u)", time, process);
    weft_event e = {.kind = WEFT_EVENT_ENTER, .time = time, .ref = f->region.id};
    return emit(c, p, &e);
}

static int on_leave(void *data, uint64_t time, uint32_t function, uint32_t process, uint32_t source,
                    OTF_KeyValueList *kv)
{
    (void)source, (void)kv;
    otf_convert *c = data;
    otf_proc *p = proc_of(c, process, time);
    if (!p)
        return OTF_RETURN_ABORT;
    if (p->depth == 0)
        return fail(c, "a leave at time %llu (process %u) with nothing entered", time, process);
    uint32_t entry = p->stack[--p->depth];
    otf_proc *m = p->master;
    if (!c->second_pass) {
        if (entry == FORK_ENTRY && p == m && m->in_fork) {
            uint32_t size = 0;
            for (uint32_t t = 0; t < m->thread_count; t++)
                size += (m->entered[t / 64] >> (t % 64)) & 1u;
            uint16_t *sizes = realloc(m->team_sizes, (m->fork_count + 1) * sizeof(*sizes));
            if (!sizes)
                return fail(c, "out of memory at time %llu (process %u)", time, process);
            m->team_sizes = sizes;
            m->team_sizes[m->fork_count++] = (uint16_t)(size ? size : 1);
            m->in_fork = false;
        }
        return OTF_RETURN_OK;
    }
    (void)function; /* OTF1 leaves the innermost function, named or not (0) */
    if (entry == IDLE_ENTRY)
        return OTF_RETURN_OK;
    if (entry == FORK_ENTRY) {
        m->in_fork = false;
        weft_event e = {
            .kind = WEFT_EVENT_THREAD_JOIN, .time = time, .small = WEFT_PARADIGM_OPENMP};
        return emit(c, p, &e);
    }
    const otf_func *f = table_find(&c->funcs, entry & ~TEAM_BIT);
    weft_event e = {.kind = WEFT_EVENT_LEAVE, .time = time, .ref = f->region.id};
    if (emit(c, p, &e))
        return OTF_RETURN_ABORT;
    if (entry & TEAM_BIT) {
        weft_event team = {.kind = WEFT_EVENT_THREAD_TEAM_END, .time = time, .ref = m->team.id};
        return emit(c, p, &team);
    }
    return OTF_RETURN_OK;
}

/* The position of process in group, or -1. */
static int64_t position_in(const otf_convert *c, const otf_group *g, uint32_t process)
{
    const otf_proc *p = table_find(&c->procs, process);
    for (uint32_t i = 0; p && i < g->count; i++) {
        const otf_proc *member = table_find(&c->procs, g->members[i]);
        if (member && member->rank == p->rank)
            return i;
    }
    return -1;
}

static int message(otf_convert *c, uint64_t time, uint32_t self_id, uint32_t peer_id,
                   uint32_t group, uint32_t tag, uint32_t length, bool send)
{
    if (!c->second_pass)
        return OTF_RETURN_OK;
    otf_proc *p = proc_of(c, self_id, time);
    otf_group *g = table_find(&c->groups, group);
    int64_t self = g ? position_in(c, g, self_id) : -1, peer = g ? position_in(c, g, peer_id) : -1;
    if (!p || self < 0 || peer < 0)
        return fail(c,
                    "a message at time %llu (process %u) in a group that does not hold both "
                    "ends",
                    time, self_id);
    uint64_t bytes = length;
    if (send && !weft__convert_channel_send(c->channels, (uint32_t)self, (uint32_t)peer, group, tag,
                                            length))
        return fail(c, "out of memory at time %llu (process %u)", time, self_id);
    /* elg2otf writes receives with length 0: the size is the send's */
    if (!send && length == 0 &&
        !weft__convert_channel_receive(c->channels, (uint32_t)peer, (uint32_t)self, group, tag,
                                       &bytes))
        c->receives_without_size++;
    else if (!send && length != 0)
        weft__convert_channel_receive(c->channels, (uint32_t)peer, (uint32_t)self, group, tag,
                                      &(uint64_t){0});
    weft_event e = {.kind = send ? WEFT_EVENT_MPI_SEND : WEFT_EVENT_MPI_RECV,
                    .time = time,
                    .ref = comm_of(c, g).id,
                    .a = (uint32_t)peer,
                    .b = tag,
                    .bytes = bytes};
    return emit(c, p, &e);
}

static int on_send(void *data, uint64_t time, uint32_t sender, uint32_t receiver, uint32_t group,
                   uint32_t tag, uint32_t length, uint32_t source, OTF_KeyValueList *kv)
{
    (void)source, (void)kv;
    return message(data, time, sender, receiver, group, tag, length, true);
}

static int on_recv(void *data, uint64_t time, uint32_t receiver, uint32_t sender, uint32_t group,
                   uint32_t tag, uint32_t length, uint32_t source, OTF_KeyValueList *kv)
{
    (void)source, (void)kv;
    return message(data, time, receiver, sender, group, tag, length, false);
}

/* A collective inside an MPI function: its begin and end. */
static int collective(otf_convert *c, otf_proc *p, uint64_t begin, uint64_t end, uint32_t op_id,
                      uint32_t group, uint32_t root, uint64_t sent, uint64_t received)
{
    const otf_func *f = p->depth ? table_find(&c->funcs, p->stack[p->depth - 1] & ~TEAM_BIT) : NULL;
    otf_group *g = table_find(&c->groups, group);
    int op = weft__convert_collective_op(named(&c->collops, op_id));
    if (op < 0 && f)
        op = weft__convert_collective_op(f->name);
    int64_t root_rank = root ? (g ? position_in(c, g, root) : -1) : -2;
    if (!f || strncmp(f->name, "MPI_", 4) != 0 || !g || op < 0 || root_rank == -1) {
        c->collectives_dropped++; /* an OpenMP barrier's (elg2otf), or unknown */
        return OTF_RETURN_OK;
    }
    weft_event b = {.kind = WEFT_EVENT_MPI_COLLECTIVE_BEGIN, .time = begin};
    weft_event e = {.kind = WEFT_EVENT_MPI_COLLECTIVE_END,
                    .time = end,
                    .small = (uint8_t)op,
                    .ref = comm_of(c, g).id,
                    .a = root_rank < 0 ? WEFT_NO_ROOT : (uint32_t)root_rank,
                    .bytes = sent,
                    .bytes_received = received};
    if (emit(c, p, &b))
        return OTF_RETURN_ABORT;
    return emit(c, p, &e);
}

static int on_collop(void *data, uint64_t time, uint32_t process, uint32_t op, uint32_t group,
                     uint32_t root, uint32_t sent, uint32_t received, uint64_t duration,
                     uint32_t source, OTF_KeyValueList *kv)
{
    (void)source, (void)kv;
    otf_convert *c = data;
    if (!c->second_pass)
        return OTF_RETURN_OK;
    otf_proc *p = proc_of(c, process, time);
    return p ? collective(c, p, time, time + duration, op, group, root, sent, received)
             : OTF_RETURN_ABORT;
}

static int on_begin_collop(void *data, uint64_t time, uint32_t process, uint32_t op, uint64_t match,
                           uint32_t group, uint32_t root, uint64_t sent, uint64_t received,
                           uint32_t scl, OTF_KeyValueList *kv)
{
    (void)time, (void)process, (void)scl, (void)kv;
    otf_convert *c = data;
    if (!c->second_pass)
        return OTF_RETURN_OK;
    struct pending_collective *more = realloc(c->pending, (c->pending_count + 1) * sizeof(*more));
    if (!more)
        return fail(c, "out of memory at time %llu (process %u)", time, process);
    c->pending = more;
    c->pending[c->pending_count++] =
        (struct pending_collective){match, op, group, root, sent, received};
    otf_proc *p = proc_of(c, process, time);
    weft_event b = {.kind = WEFT_EVENT_MPI_COLLECTIVE_BEGIN, .time = time};
    return p ? emit(c, p, &b) : OTF_RETURN_ABORT;
}

static int on_end_collop(void *data, uint64_t time, uint32_t process, uint64_t match,
                         OTF_KeyValueList *kv)
{
    (void)kv;
    otf_convert *c = data;
    if (!c->second_pass)
        return OTF_RETURN_OK;
    otf_proc *p = proc_of(c, process, time);
    for (uint32_t i = 0; p && i < c->pending_count; i++) {
        struct pending_collective pc = c->pending[i];
        if (pc.match != match)
            continue;
        c->pending[i] = c->pending[--c->pending_count];
        otf_group *g = table_find(&c->groups, pc.group);
        int op = weft__convert_collective_op(named(&c->collops, pc.op));
        int64_t root = pc.root ? (g ? position_in(c, g, pc.root) : -1) : -2;
        if (!g || op < 0 || root == -1) {
            c->collectives_dropped++;
            return OTF_RETURN_OK;
        }
        weft_event e = {.kind = WEFT_EVENT_MPI_COLLECTIVE_END,
                        .time = time,
                        .small = (uint8_t)op,
                        .ref = comm_of(c, g).id,
                        .a = root < 0 ? WEFT_NO_ROOT : (uint32_t)root,
                        .bytes = pc.sent,
                        .bytes_received = pc.received};
        return emit(c, p, &e);
    }
    return p ? fail(c, "a collective end at time %llu (process %u) without its begin", time,
                    process)
             : OTF_RETURN_ABORT;
}

static int on_counter(void *data, uint64_t time, uint32_t process, uint32_t counter, uint64_t value,
                      OTF_KeyValueList *kv)
{
    (void)kv;
    otf_convert *c = data;
    if (!c->second_pass)
        return OTF_RETURN_OK;
    otf_proc *p = proc_of(c, process, time);
    otf_named *n = table_find(&c->counters, counter);
    if (!p || !n)
        return p ? fail(c, "a counter at time %llu (process %u) that is not defined", time, process)
                 : OTF_RETURN_ABORT;
    weft_event e = {.kind = WEFT_EVENT_METRIC,
                    .time = time,
                    .ref = n->metric.id,
                    .value_count = 1,
                    .values = &value};
    return emit(c, p, &e);
}

/* A line OTF cannot parse: damage (a cut or overwritten stream). */
static int on_unknown(void *data, uint64_t time, uint32_t process, const char *record)
{
    otf_convert *c = data;
    if (!c->failed)
        snprintf(c->err, sizeof(c->err),
                 "a record OTF cannot read, after time %llu of process %u: \"%.60s\"",
                 (unsigned long long)time, process, record ? record : "");
    c->failed = true;
    return OTF_RETURN_ABORT;
}

/* ---- reading -------------------------------------------------------------------- */

static OTF_HandlerArray *handlers(otf_convert *c, bool definitions)
{
    OTF_HandlerArray *h = OTF_HandlerArray_open();
    if (!h)
        return NULL;
#define SET(fn, record)                                                                            \
    do {                                                                                           \
        /* OTF takes every handler as one type; void (*)(void) converts to any. */                 \
        OTF_HandlerArray_setHandler(h, (OTF_FunctionPointer *)(void (*)(void))fn, record);         \
        OTF_HandlerArray_setFirstHandlerArg(h, c, record);                                         \
    } while (0)
    if (definitions) {
        SET(def_resolution, OTF_DEFTIMERRESOLUTION_RECORD);
        SET(def_process, OTF_DEFPROCESS_RECORD);
        SET(def_group, OTF_DEFPROCESSGROUP_RECORD);
        SET(def_function, OTF_DEFFUNCTION_RECORD);
        SET(def_function_group, OTF_DEFFUNCTIONGROUP_RECORD);
        SET(def_scl_file, OTF_DEFSCLFILE_RECORD);
        SET(def_scl, OTF_DEFSCL_RECORD);
        SET(def_collop, OTF_DEFCOLLOP_RECORD);
        SET(def_counter, OTF_DEFCOUNTER_RECORD);
    } else {
        SET(on_enter, OTF_ENTER_RECORD);
        SET(on_leave, OTF_LEAVE_RECORD);
        SET(on_send, OTF_SEND_RECORD);
        SET(on_recv, OTF_RECEIVE_RECORD);
        SET(on_collop, OTF_COLLOP_RECORD);
        SET(on_begin_collop, OTF_BEGINCOLLOP_RECORD);
        SET(on_end_collop, OTF_ENDCOLLOP_RECORD);
        SET(on_counter, OTF_COUNTER_RECORD);
    }
    SET(on_unknown, OTF_UNKNOWN_RECORD);
#undef SET
    return h;
}

/* The name stub OTF wants ("run" for run.otf); malloc'ed. */
static char *name_stub(const char *path)
{
    char *stub = strdup(path);
    size_t len = stub ? strlen(stub) : 0;
    if (len > 4 && strcmp(stub + len - 4, ".otf") == 0)
        stub[len - 4] = '\0';
    return stub;
}

/* One pass: the definitions (first) or the events; -1 on an error. */
static int read_pass(otf_convert *c, bool definitions, int progress, uint64_t announced)
{
    char *stub = name_stub(c->input);
    OTF_FileManager *files = stub ? OTF_FileManager_open(100) : NULL;
    OTF_Reader *reader = files ? OTF_Reader_open(stub, files) : NULL;
    OTF_HandlerArray *h = reader ? handlers(c, definitions) : NULL;
    int status = 0;
    if (!h) {
        snprintf(c->err, sizeof(c->err), "the OTF library cannot open it as an OTF trace");
        status = -1;
    } else if (definitions) {
        if (OTF_Reader_readDefinitions(reader, h) == OTF_READ_ERROR || c->failed) {
            if (!c->failed)
                snprintf(c->err, sizeof(c->err), "its definitions cannot be read");
            status = -1;
        }
    } else {
        summary_progress p;
        weft__summary_progress_start(&p, (weft_summary_progress_mode)progress, announced, 0);
        p.command = "weft convert";
        OTF_Reader_setRecordLimit(reader, 100000);
        uint64_t read, total = 0;
        while ((read = OTF_Reader_readEvents(reader, h)) != 0 && read != OTF_READ_ERROR &&
               !c->failed) {
            total += read;
            if (c->second_pass)
                weft__summary_progress_update(&p, total, 0);
        }
        if (c->second_pass)
            weft__summary_progress_finish(&p, total);
        if (read == OTF_READ_ERROR || c->failed) {
            if (!c->failed)
                snprintf(c->err, sizeof(c->err), "its events cannot be read after %llu records",
                         (unsigned long long)total);
            status = -1;
        }
        if (!c->second_pass)
            c->events = total;
    }
    if (h)
        OTF_HandlerArray_close(h);
    if (reader)
        OTF_Reader_close(reader);
    if (files)
        OTF_FileManager_close(files);
    free(stub);
    return status;
}

/* Closes what the input left open (leaves only). */
static uint64_t close_open(otf_convert *c)
{
    uint64_t closed = 0;
    otf_proc *procs = c->procs.items;
    for (uint32_t i = 0; i < c->procs.count; i++) {
        otf_proc *p = &procs[i];
        while (p->depth > 0 && !c->failed) {
            on_leave(c, p->last_time, 0, p->id, 0, NULL);
            closed++;
        }
    }
    return closed;
}

static void free_tables(otf_convert *c)
{
    otf_proc *procs = c->procs.items;
    for (uint32_t i = 0; i < c->procs.count; i++) {
        free(procs[i].name);
        free(procs[i].stack);
        free(procs[i].team_sizes);
        free(procs[i].entered);
    }
    otf_func *funcs = c->funcs.items;
    for (uint32_t i = 0; i < c->funcs.count; i++)
        free(funcs[i].name);
    otf_group *groups = c->groups.items;
    for (uint32_t i = 0; i < c->groups.count; i++) {
        free(groups[i].name);
        free(groups[i].members);
    }
    otf_table *named_tables[] = {&c->fgroups, &c->files, &c->scls, &c->collops, &c->counters};
    for (size_t t = 0; t < sizeof(named_tables) / sizeof(named_tables[0]); t++) {
        otf_named *n = named_tables[t]->items;
        for (uint32_t i = 0; i < named_tables[t]->count; i++)
            free(n[i].name);
        free(named_tables[t]->items);
    }
    free(c->procs.items);
    free(c->funcs.items);
    free(c->groups.items);
    free(c->pending);
    weft__convert_channels_free(c->channels);
}

static void report(const otf_convert *c, uint64_t closed)
{
    if (c->receives_without_size)
        fprintf(stderr,
                "weft convert: %llu receives of length 0 came before their send: their "
                "size is written as 0\n",
                (unsigned long long)c->receives_without_size);
    if (closed)
        fprintf(stderr,
                "weft convert: %llu functions left open were closed at their process's "
                "last event\n",
                (unsigned long long)closed);
    if (c->time_fixes)
        fprintf(stderr,
                "weft convert: %llu events earlier than the one before them on their "
                "process got that one's time\n",
                (unsigned long long)c->time_fixes);
}

int weft__convert_otf1(const char *input, const char *output, bool keep_partial, int progress)
{
    otf_convert c = {.input = input};
    c.procs.size = sizeof(otf_proc);
    c.funcs.size = sizeof(otf_func);
    c.groups.size = sizeof(otf_group);
    c.fgroups.size = c.files.size = c.scls.size = c.collops.size = c.counters.size =
        sizeof(otf_named);
    c.resolution = 1000000;
    int status = 1;
    uint64_t closed = 0;
    c.channels = weft__convert_channels_new();
    if (!c.channels || read_pass(&c, true, progress, 0))
        goto report_error;
    otf_table *tables[] = {&c.procs, &c.funcs, &c.groups,  &c.fgroups,
                           &c.files, &c.scls,  &c.collops, &c.counters};
    for (size_t t = 0; t < sizeof(tables) / sizeof(tables[0]); t++)
        table_sort(tables[t]);
    otf_func *funcs = c.funcs.items;
    for (uint32_t i = 0; i < c.funcs.count; i++) {
        weft_region_desc desc = {.name = funcs[i].name};
        classify(&c, &funcs[i], &desc);
    }
    if (arrange_processes(&c) || read_pass(&c, false, progress, 0))
        goto report_error;
    otf_proc *procs = c.procs.items;
    for (uint32_t i = 0; i < c.procs.count; i++)
        procs[i].depth = 0; /* the first pass's stacks */
    if (weft_trace_writer_open(output, &c.writer) != WEFT_OK)
        goto out;
    c.reg = weft_trace_writer_registry(c.writer);
    c.second_pass = true;
    uint64_t announced = c.events;
    c.events = 0;
    if (define(&c)) {
        snprintf(c.err, sizeof(c.err), "out of memory defining the trace");
        goto report_error;
    }
    if (read_pass(&c, false, progress, announced))
        goto report_error;
    closed = close_open(&c);
    weft_clock_properties clock = {.ticks_per_second = c.resolution,
                                   .global_offset = c.any_time ? c.time_min : 0,
                                   .trace_length = c.any_time ? c.time_max - c.time_min : 0};
    weft_status st = weft_trace_writer_close(c.writer, &clock);
    c.writer = NULL;
    if (st == WEFT_OK) {
        report(&c, closed);
        status = 0;
    }
    goto out;
report_error:
    fprintf(stderr, "weft convert: '%s': %s\n", input, c.err);
out:
    if (c.writer) {
        if (keep_partial) {
            weft_clock_properties partial = {.ticks_per_second = c.resolution};
            weft_trace_writer_close(c.writer, &partial);
            fprintf(stderr, "weft convert: the partial trace is kept in '%s'\n", output);
        } else {
            weft_trace_writer_discard(c.writer);
        }
    }
    free_tables(&c);
    return status;
}

bool weft__convert_is_otf1(const char *path)
{
    char *stub = name_stub(path);
    if (!stub)
        return false;
    char master[4200];
    snprintf(master, sizeof(master), "%s.otf", stub);
    free(stub);
    FILE *f = fopen(master, "r");
    if (!f)
        return false;
    /* A master control file: lines "<stream>:<process>[,<process>...]" in hex. */
    char line[256];
    bool ok = fgets(line, sizeof(line), f) != NULL;
    size_t digits = ok ? strspn(line, "0123456789abcdefABCDEF") : 0;
    ok = ok && digits > 0 && line[digits] == ':';
    fclose(f);
    return ok;
}
