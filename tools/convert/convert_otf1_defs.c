/* SPDX-License-Identifier: BSD-3-Clause */
/* The definitions of an OTF version 1 trace: read into tables by the OTF
 * library's handlers, then made registry definitions (convert_otf1.c says
 * how processes, functions and groups map). */
#include <stdlib.h>
#include <string.h>

#include "convert_otf1_internal.h"
#include "weft/recorder.h"

/* ---- tables ------------------------------------------------------------------ */

void *weft__otf1_table_add(otf_table *t, uint32_t id)
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

void weft__otf1_table_sort(otf_table *t)
{
    if (t->count)
        qsort(t->items, t->count, t->size, by_id);
}

void *weft__otf1_table_find(const otf_table *t, uint32_t id)
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
    otf_proc *p = weft__otf1_table_add(&((otf_convert *)data)->procs, process);
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
    otf_group *g = weft__otf1_table_add(&((otf_convert *)data)->groups, group);
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
    otf_func *f = weft__otf1_table_add(&((otf_convert *)data)->funcs, func);
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
    otf_named *n = weft__otf1_table_add(t, id);
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

const char *weft__otf1_named(const otf_table *t, uint32_t id)
{
    const otf_named *n = weft__otf1_table_find(t, id);
    return n ? n->name : NULL;
}

/* Kind, role and paradigm of a function from its group's and its own name
 * (docs/dev/LEGACY-FORMATS.md 2.4); f->kind and f->role are set, for the first pass
 * too. */
void weft__otf1_classify(const otf_convert *c, otf_func *f, weft_region_desc *desc)
{
    const char *group = weft__otf1_named(&c->fgroups, f->group);
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

int weft__otf1_define(otf_convert *c)
{
    otf_proc *procs = c->procs.items;
    for (uint32_t i = 0; i < c->procs.count; i++) {
        otf_proc *p = &procs[i];
        if (p->master == p)
            weft_registry_process(c->reg, p->rank, p->name, NULL);
        if (weft_registry_location_in_group(c->reg, NULL, p->thread, p->rank, &p->lane.loc) !=
            WEFT_OK)
            return -1;
    }
    otf_func *funcs = c->funcs.items;
    for (uint32_t i = 0; i < c->funcs.count; i++) {
        otf_func *f = &funcs[i];
        const otf_named *scl = weft__otf1_table_find(&c->scls, f->source);
        weft_region_desc desc = {.name = f->name,
                                 .file = scl ? weft__otf1_named(&c->files, scl->a) : NULL,
                                 .begin_line = scl ? scl->b : 0};
        weft__otf1_classify(c, f, &desc);
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
weft_comm weft__otf1_comm_of(otf_convert *c, otf_group *g)
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
            const otf_proc *p = weft__otf1_table_find(&c->procs, g->members[i]);
            weft_registry_comm_set_member(c->reg, g->comm, i, p ? p->rank : WEFT_INVALID_ID);
        }
    }
    return g->comm;
}

void weft__otf1_set_definition_handlers(OTF_HandlerArray *h, otf_convert *c)
{
    OTF1_SET(h, c, def_resolution, OTF_DEFTIMERRESOLUTION_RECORD);
    OTF1_SET(h, c, def_process, OTF_DEFPROCESS_RECORD);
    OTF1_SET(h, c, def_group, OTF_DEFPROCESSGROUP_RECORD);
    OTF1_SET(h, c, def_function, OTF_DEFFUNCTION_RECORD);
    OTF1_SET(h, c, def_function_group, OTF_DEFFUNCTIONGROUP_RECORD);
    OTF1_SET(h, c, def_scl_file, OTF_DEFSCLFILE_RECORD);
    OTF1_SET(h, c, def_scl, OTF_DEFSCL_RECORD);
    OTF1_SET(h, c, def_collop, OTF_DEFCOLLOP_RECORD);
    OTF1_SET(h, c, def_counter, OTF_DEFCOUNTER_RECORD);
}

void weft__otf1_free_tables(otf_convert *c)
{
    otf_proc *procs = c->procs.items;
    for (uint32_t i = 0; i < c->procs.count; i++) {
        free(procs[i].name);
        weft__convert_lane_free(&procs[i].lane);
        weft__convert_teams_free(&procs[i].teams);
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
