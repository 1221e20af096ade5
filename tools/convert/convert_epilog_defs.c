/* SPDX-License-Identifier: BSD-3-Clause */
/* The definitions of a merged EPILOG trace (strings, machines, nodes,
 * locations, files, regions, call sites, metrics, MPI communicators) read
 * into tables, and turned into weft registry definitions; see
 * convert_epilog.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "convert_epilog.h"

/* Ids above these are taken as damage, not as tables to allocate. */
#define MAX_ID (1u << 24)
#define MAX_PROCESSES (1u << 20)
#define MAX_THREADS (1u << 16)

/* The tables below are indexed by id. Ids number the definitions of a kind
 * from 0, in the order they are written, and every definition record takes
 * at least 6 bytes: a record at byte OFFSET can define no id beyond
 * OFFSET / 6. Larger ones (a flipped bit) are damage rather than a table of
 * millions of entries, so that the tables stay proportional to the input
 * (an epik.esd of 1 KB with four flipped bits made weft convert take
 * 1.6 GB). The slack allows for definitions out of order. */
uint32_t weft__elg_id_limit(uint64_t offset)
{
    uint64_t limit = offset / 4 + 4096;
    return limit < MAX_ID ? (uint32_t)limit : MAX_ID;
}

/* Makes *items hold index id (zeroed growth); false when out of memory. */
static bool grow(void **items, uint32_t *count, uint32_t id, size_t elem)
{
    if (id < *count)
        return true;
    uint32_t n = *count ? *count : 16;
    while (n <= id)
        n *= 2;
    void *bigger = realloc(*items, (size_t)n * elem);
    if (!bigger)
        return false;
    memset((char *)bigger + (size_t)*count * elem, 0, (size_t)(n - *count) * elem);
    *items = bigger;
    *count = n;
    return true;
}

#define GROW(defs, array, count, id)                                                               \
    grow((void **)&(defs)->array, &(defs)->count, id, sizeof(*(defs)->array))

const char *weft__elg_string(const elg_defs *d, uint32_t id)
{
    return id < d->string_count && d->strings[id] ? d->strings[id] : NULL;
}

static int fail(elg_convert *c, const epilog_record *rec, const char *what)
{
    snprintf(c->err, sizeof(c->err), "record at byte %llu (type %u, %u bytes): %s",
             (unsigned long long)rec->offset, rec->type, rec->length, what);
    return -1;
}

static int no_memory(elg_convert *c)
{
    snprintf(c->err, sizeof(c->err), "out of memory");
    return -1;
}

/* The id a definition record defines (its first field): 0, or -1 after
 * c->err when the record is cut or the id is beyond weft__elg_id_limit. */
static int defined_id(elg_convert *c, epilog_fields *f, const epilog_record *rec, const char *what,
                      uint32_t *id)
{
    *id = weft__epilog_u4(f);
    char text[160];
    if (!f->ok) {
        snprintf(text, sizeof(text), "not a %s definition", what);
        return fail(c, rec, text);
    }
    if (*id >= weft__elg_id_limit(rec->offset)) {
        snprintf(text, sizeof(text),
                 "a %s definition of id %u, beyond any the file can hold at this point", what, *id);
        return fail(c, rec, text);
    }
    return 0;
}

/* STRING and its STRING_CNT continuations. */
static int read_string(elg_convert *c, epilog_fields *f, const epilog_record *rec)
{
    elg_defs *d = &c->defs;
    uint32_t id;
    if (defined_id(c, f, rec, "string", &id))
        return -1;
    uint8_t continuations = weft__epilog_u1(f);
    size_t len;
    const char *text = weft__epilog_chars(f, &len);
    if (!f->ok)
        return fail(c, rec, "not a string definition");
    if (!GROW(d, strings, string_count, id))
        return no_memory(c);
    char *s = malloc(len + 1);
    if (!s)
        return no_memory(c);
    memcpy(s, text, len);
    s[len] = '\0';
    free(d->strings[id]);
    d->strings[id] = s;
    c->string_continuations = continuations;
    c->continued_string = id;
    return 0;
}

static int continue_string(elg_convert *c, epilog_fields *f, const epilog_record *rec)
{
    elg_defs *d = &c->defs;
    if (c->string_continuations == 0)
        return fail(c, rec, "a string continuation without its string");
    c->string_continuations--;
    size_t len;
    const char *more = weft__epilog_chars(f, &len);
    char *s = d->strings[c->continued_string];
    size_t old = strlen(s);
    char *longer = realloc(s, old + len + 1);
    if (!longer)
        return no_memory(c);
    memcpy(longer + old, more, len);
    longer[old + len] = '\0';
    d->strings[c->continued_string] = longer;
    return 0;
}

/* MPI_COMM (merged traces): a bit vector of global ranks; MPI_COMM_CNT
 * records continue it. */
static int add_comm_bits(elg_convert *c, uint32_t cid, const uint8_t *bits, size_t bytes,
                         size_t first_byte)
{
    elg_comm *comm = &c->defs.comms[cid];
    for (size_t i = 0; i < bytes; i++) {
        for (unsigned b = 0; b < 8; b++) {
            if (!(bits[i] & (1u << b)))
                continue;
            uint32_t *ranks = realloc(comm->ranks, (comm->size + 1) * sizeof(*ranks));
            if (!ranks)
                return no_memory(c);
            comm->ranks = ranks;
            comm->ranks[comm->size++] = (uint32_t)((first_byte + i) * 8 + b);
        }
    }
    return 0;
}

static int read_comm(elg_convert *c, epilog_fields *f, const epilog_record *rec)
{
    elg_defs *d = &c->defs;
    uint32_t cid;
    if (defined_id(c, f, rec, "communicator", &cid))
        return -1;
    uint8_t mode = weft__epilog_u1(f);
    uint32_t bytes = weft__epilog_u4(f);
    if (!f->ok || bytes > MAX_ID)
        return fail(c, rec, "not a communicator definition");
    if (!GROW(d, comms, comm_count, cid))
        return no_memory(c);
    elg_comm *comm = &d->comms[cid];
    free(comm->ranks);
    *comm = (elg_comm){.defined = true, .world = mode == 1};
    size_t here = weft__epilog_left(f) < bytes ? weft__epilog_left(f) : bytes;
    c->comm_bytes_left = bytes - (uint32_t)here;
    c->comm_bytes_seen = here;
    c->continued_comm = cid;
    return add_comm_bits(c, cid, f->at, here, 0);
}

static int continue_comm(elg_convert *c, epilog_fields *f, const epilog_record *rec)
{
    if (c->comm_bytes_left == 0)
        return fail(c, rec, "a communicator continuation without its communicator");
    size_t here = weft__epilog_left(f) < c->comm_bytes_left ? weft__epilog_left(f) : c->comm_bytes_left;
    int status = add_comm_bits(c, c->continued_comm, f->at, here, c->comm_bytes_seen);
    c->comm_bytes_left -= (uint32_t)here;
    c->comm_bytes_seen += here;
    return status;
}

/* MPI_GROUP (EPIK archives): its ranks, continued by MPI_GROUP_CNT. The
 * list grows with the ranks that are there, not with the count announced. */
static int add_group_ranks(elg_convert *c, epilog_fields *f)
{
    elg_group *g = &c->defs.groups[c->continued_group];
    while (c->group_ranks_left > 0 && weft__epilog_left(f) >= 4) {
        if (g->size == g->capacity) {
            uint32_t capacity = g->capacity ? 2 * g->capacity : 64;
            uint32_t *ranks = realloc(g->ranks, capacity * sizeof(*ranks));
            if (!ranks)
                return no_memory(c);
            g->ranks = ranks;
            g->capacity = capacity;
        }
        g->ranks[g->size++] = weft__epilog_u4(f);
        c->group_ranks_left--;
    }
    return 0;
}

static int read_group(elg_convert *c, epilog_fields *f, const epilog_record *rec)
{
    elg_defs *d = &c->defs;
    uint32_t gid;
    if (defined_id(c, f, rec, "MPI group", &gid))
        return -1;
    uint8_t mode = weft__epilog_u1(f);
    uint32_t count = weft__epilog_u4(f);
    if (!f->ok || count >= MAX_PROCESSES)
        return fail(c, rec, "not an MPI group definition");
    if (!GROW(d, groups, group_count, gid))
        return no_memory(c);
    elg_group *g = &d->groups[gid];
    free(g->ranks);
    *g = (elg_group){.defined = true, .mode = mode};
    bool listed = !(mode & 3); /* world and self groups list no ranks */
    c->continued_group = gid;
    c->group_ranks_left = listed ? count : 0;
    return add_group_ranks(c, f);
}

/* One definition record into the tables; unknown ones are counted. */
int weft__elg_read_definition(elg_convert *c, const epilog_record *rec)
{
    elg_defs *d = &c->defs;
    epilog_fields f = weft__epilog_fields_of(c->reader, rec);
    uint32_t id;
    switch (rec->type) {
    case ELG_STRING:
        return read_string(c, &f, rec);
    case ELG_STRING_CNT:
        return continue_string(c, &f, rec);
    case ELG_MPI_COMM:
        return read_comm(c, &f, rec);
    case ELG_MPI_COMM_CNT:
        return continue_comm(c, &f, rec);
    case ELG_MPI_GROUP:
        return read_group(c, &f, rec);
    case ELG_MPI_GROUP_CNT:
        if (c->group_ranks_left == 0)
            return fail(c, rec, "a group continuation without its group");
        return add_group_ranks(c, &f);
    case ELG_MPI_COMM_REF: {
        uint32_t cid, gid;
        if (defined_id(c, &f, rec, "communicator reference", &cid))
            return -1;
        gid = weft__epilog_u4(&f);
        if (!f.ok || gid >= MAX_ID)
            return fail(c, rec, "not a communicator reference");
        if (!GROW(d, comm_groups, comm_group_count, cid))
            return no_memory(c);
        d->comm_groups[cid] = gid + 1;
        return 0;
    }
    case ELG_NODE:
        if (defined_id(c, &f, rec, "node", &id))
            return -1;
        if (!GROW(d, nodes, node_count, id))
            return no_memory(c);
        weft__epilog_u4(&f); /* machine */
        weft__epilog_u4(&f); /* cpus */
        d->nodes[id] = (elg_node){.defined = true, .name = weft__epilog_u4(&f)};
        return f.ok ? 0 : fail(c, rec, "a node definition cut short");
    case ELG_LOCATION:
        if (defined_id(c, &f, rec, "location", &id))
            return -1;
        if (!GROW(d, locations, location_count, id))
            return no_memory(c);
        weft__epilog_u4(&f); /* machine */
        d->locations[id] = (elg_location){.defined = true, .node = weft__epilog_u4(&f)};
        d->locations[id].process = weft__epilog_u4(&f);
        d->locations[id].thread = weft__epilog_u4(&f);
        if (!f.ok || d->locations[id].process >= MAX_PROCESSES ||
            d->locations[id].thread >= MAX_THREADS ||
            d->locations[id].process >= weft__elg_id_limit(rec->offset) ||
            d->locations[id].thread >= weft__elg_id_limit(rec->offset))
            return fail(c, rec,
                        "a location definition cut short, or of a process or thread "
                        "number out of range");
        return 0;
    case ELG_FILE:
        if (defined_id(c, &f, rec, "file", &id))
            return -1;
        if (!GROW(d, files, file_count, id))
            return no_memory(c);
        d->files[id] = weft__epilog_u4(&f) + 1; /* string id + 1; 0: undefined */
        return f.ok ? 0 : fail(c, rec, "a file definition cut short");
    case ELG_REGION: {
        if (defined_id(c, &f, rec, "region", &id))
            return -1;
        if (!GROW(d, regions, region_count, id))
            return no_memory(c);
        elg_region *r = &d->regions[id];
        *r = (elg_region){.defined = true, .name = weft__epilog_u4(&f), .file = weft__epilog_u4(&f)};
        r->begin_line = weft__epilog_u4(&f);
        r->end_line = weft__epilog_u4(&f);
        weft__epilog_u4(&f); /* description */
        r->type = weft__epilog_u1(&f);
        return f.ok ? 0 : fail(c, rec, "a region definition cut short");
    }
    case ELG_CALL_SITE:
        if (defined_id(c, &f, rec, "call site", &id))
            return -1;
        if (!GROW(d, call_sites, call_site_count, id))
            return no_memory(c);
        weft__epilog_u4(&f);                         /* file */
        weft__epilog_u4(&f);                         /* line */
        d->call_sites[id] = weft__epilog_u4(&f) + 1; /* entered region + 1 */
        return f.ok ? 0 : fail(c, rec, "a call site cut short");
    case ELG_METRIC: {
        if (d->metric_count >= ELG_MAX_METRICS)
            return fail(c, rec, "more metrics than weft records (64)");
        elg_metric *m = &d->metrics[d->metric_count++];
        weft__epilog_u4(&f); /* id: metrics are used in definition order */
        m->name = weft__epilog_u4(&f);
        m->description = weft__epilog_u4(&f);
        m->float_values = weft__epilog_u1(&f) == 1;
        m->mode = weft__epilog_u1(&f);
        m->interval = weft__epilog_u1(&f);
        return f.ok ? 0 : fail(c, rec, "a metric definition cut short");
    }
    case 3:
    case 5:
    case 6:
    case 12:
    case 14:
    case 16:
    case 17:
    case 18:
    case 20:
    case 21:
    case 22:
    case 23:
    case 24:
    case 25:
    case 26:
    case 30:
    case 60:
    case 61:
        /* Known, and not needed: machines (the nodes name the hosts), process
         * and thread names, clock offsets and id maps (of EPIK archives, not
         * merged traces), event counts, call paths, topologies, RMA windows,
         * and the optional request attributes of EPIK's enhanced mode. */
        return 0;
    default:
        c->unknown_definitions++;
        return 0;
    }
}

int weft__elg_definitions_complete(elg_convert *c)
{
    if (c->string_continuations == 0 && c->comm_bytes_left == 0 && c->group_ranks_left == 0)
        return 0;
    snprintf(c->err, sizeof(c->err), "the definitions end before the continuation records of a %s",
             c->string_continuations ? "string"
             : c->comm_bytes_left    ? "communicator"
                                     : "group");
    return -1;
}

int weft__elg_resolve_comm_groups(elg_convert *c, uint32_t processes)
{
    elg_defs *d = &c->defs;
    for (uint32_t cid = 0; cid < d->comm_group_count; cid++) {
        if (!d->comm_groups[cid])
            continue;
        uint32_t gid = d->comm_groups[cid] - 1;
        if (gid >= d->group_count || !d->groups[gid].defined) {
            snprintf(c->err, sizeof(c->err), "communicator %u refers to the undefined group %u",
                     cid, gid);
            return -1;
        }
        const elg_group *g = &d->groups[gid];
        if (!GROW(d, comms, comm_count, cid))
            return no_memory(c);
        elg_comm *comm = &d->comms[cid];
        free(comm->ranks);
        *comm = (elg_comm){.defined = true, .world = g->mode & 1, .self = (g->mode & 2) != 0};
        uint32_t size = comm->world ? processes : comm->self ? 0 : g->size;
        comm->ranks = malloc((size ? size : 1) * sizeof(uint32_t));
        if (!comm->ranks)
            return no_memory(c);
        for (uint32_t i = 0; i < size; i++)
            comm->ranks[i] = comm->world ? i : g->ranks[i];
        comm->size = size;
    }
    return 0;
}

void weft__elg_defs_free(elg_defs *d)
{
    for (uint32_t i = 0; i < d->group_count; i++)
        free(d->groups[i].ranks);
    free(d->groups);
    free(d->comm_groups);
    for (uint32_t i = 0; i < d->string_count; i++)
        free(d->strings[i]);
    for (uint32_t i = 0; i < d->comm_count; i++)
        free(d->comms[i].ranks);
    free(d->strings);
    free(d->nodes);
    free(d->locations);
    free(d->files);
    free(d->regions);
    free(d->call_sites);
    free(d->comms);
    memset(d, 0, sizeof(*d));
}
