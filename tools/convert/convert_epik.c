/* SPDX-License-Identifier: BSD-3-Clause */
/* EPIK experiment archives (docs/dev/LEGACY-FORMATS.md 1.1): the unified
 * definitions in epik.esd, each rank's id maps and clock offsets in
 * epik.map, and each rank's events in ELG/NNNNN (gzip-compressed, local
 * ids, local clock, peers as ranks in their communicator). The events of
 * all ranks are merged by time as they are read, one record ahead per rank,
 * so the conversion sees them as in a merged trace: global ids, global
 * times, sends before their receives. */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "convert_epilog.h"

/* Local id to global id, for one kind of definition. */
typedef struct id_map {
    uint32_t *global; /* by local id; ELG_NO_ID where not mapped */
    uint32_t count;
} id_map;

enum { MAP_LOCATION, MAP_REGION, MAP_COMM, MAP_CALL_SITE, MAP_KINDS };

typedef struct rank_state {
    bool mapped; /* the map file has its section */
    id_map maps[MAP_KINDS];
    double offset_time[2], offset[2];
    uint32_t offsets;
    epilog_reader *reader;
    bool has_next;
    elg_event next;
} rank_state;

struct elg_archive {
    char *dir;
    rank_state *ranks;
    uint32_t rank_count;
    uint32_t processes; /* epik.esd defines ranks 0 .. processes - 1 */
    /* reading the map file */
    uint32_t section;
    int map_kind;      /* of the IDMAP being continued, or -1 */
    uint32_t map_next; /* next local id (dense) */
    bool sparse;
    uint32_t values_left;
    bool have_pending_local; /* sparse: a local id waits for its global */
    uint32_t pending_local;
};

static int map_kind(uint8_t type)
{
    switch (type) {
    case ELG_LOCATION:
        return MAP_LOCATION;
    case ELG_REGION:
        return MAP_REGION;
    case ELG_MPI_COMM:
        return MAP_COMM;
    case ELG_CALL_SITE:
        return MAP_CALL_SITE;
    default:
        return -1; /* call paths, windows, groups: not needed */
    }
}

/* LIMIT: weft__elg_id_limit of the record, so that a damaged local id is
 * damage rather than a map of millions of entries. */
static bool set_map(id_map *m, uint32_t local, uint32_t global, uint32_t limit)
{
    if (local >= limit)
        return false;
    if (local >= m->count) {
        uint32_t count = m->count ? m->count : 16;
        while (count <= local)
            count *= 2;
        uint32_t *more = realloc(m->global, count * sizeof(*more));
        if (!more)
            return false;
        for (uint32_t i = m->count; i < count; i++)
            more[i] = ELG_NO_ID;
        m->global = more;
        m->count = count;
    }
    m->global[local] = global;
    return true;
}

/* The values of an IDMAP record and its continuations. */
static bool map_values(struct elg_archive *a, epilog_fields *f, uint64_t offset)
{
    rank_state *r = &a->ranks[a->section];
    uint32_t limit = weft__elg_id_limit(offset);
    while (a->values_left > 0 && weft__epilog_left(f) >= 4) {
        uint32_t v = weft__epilog_u4(f);
        a->values_left--;
        if (a->map_kind < 0)
            continue;
        id_map *m = &r->maps[a->map_kind];
        if (!a->sparse) {
            if (!set_map(m, a->map_next++, v, limit))
                return false;
        } else if (!a->have_pending_local) {
            a->pending_local = v;
            a->have_pending_local = true;
        } else {
            a->have_pending_local = false;
            if (!set_map(m, a->pending_local, v, limit))
                return false;
        }
    }
    return true;
}

/* The record types of epik.map (LEGACY-FORMATS.md 1.7): any other is damage
 * (a type byte overwritten), not a record to skip. */
static bool map_type(uint8_t type)
{
    switch (type) {
    case ELG_OFFSET:
    case ELG_LAST_DEF:
    case ELG_NUM_EVENTS:
    case 21: /* EVENT_TYPES */
    case 22: /* EVENT_COUNTS */
    case ELG_MAP_SECTION:
    case 24: /* MAP_OFFSET */
    case ELG_IDMAP:
    case ELG_IDMAP_CNT:
        return true;
    default:
        return false;
    }
}

/* The processes epik.esd defines: one more than the highest. */
static uint32_t defined_processes(const elg_defs *d)
{
    uint32_t count = 0;
    for (uint32_t lid = 0; lid < d->location_count; lid++) {
        if (d->locations[lid].defined && d->locations[lid].process >= count)
            count = d->locations[lid].process + 1;
    }
    return count;
}

static int map_record(elg_convert *c, struct elg_archive *a, epilog_reader *rd,
                      const epilog_record *rec)
{
    epilog_fields f = weft__epilog_fields_of(rd, rec);
    const char *what = NULL;
    char text[160];
    if (a->values_left > 0 && rec->type != ELG_IDMAP_CNT) {
        snprintf(text, sizeof(text), "the id map before it announced %u more values than follow",
                 a->values_left);
        what = text;
    } else if (!map_type(rec->type)) {
        what = "a record of a type epik.map does not hold";
    } else if (rec->type == ELG_MAP_SECTION) {
        uint32_t rank = weft__epilog_u4(&f);
        if (!f.ok) {
            what = "not a map section";
        } else if (rank >= a->processes) {
            snprintf(text, sizeof(text), "a map section of rank %u, which epik.esd does not define",
                     rank);
            what = text;
        } else if (rank < a->rank_count && a->ranks[rank].mapped) {
            snprintf(text, sizeof(text), "a second map section of rank %u", rank);
            what = text;
        } else if (rank >= a->rank_count) {
            rank_state *more = realloc(a->ranks, (rank + 1) * sizeof(*more));
            if (!more)
                what = "out of memory";
            else {
                memset(more + a->rank_count, 0, (rank + 1 - a->rank_count) * sizeof(*more));
                a->ranks = more;
                a->rank_count = rank + 1;
            }
        }
        if (!what) {
            a->section = rank;
            a->ranks[rank].mapped = true;
        }
    } else if (a->rank_count == 0 && (rec->type == ELG_IDMAP || rec->type == ELG_OFFSET)) {
        what = "a map record before the first map section";
    } else if (rec->type == ELG_IDMAP) {
        uint8_t type = weft__epilog_u1(&f), mode = weft__epilog_u1(&f);
        a->values_left = weft__epilog_u4(&f);
        a->map_kind = map_kind(type);
        a->sparse = mode == 1;
        a->map_next = 0;
        a->have_pending_local = false;
        if (!f.ok || mode > 1)
            what = "not an id map";
        else if (!map_values(a, &f, rec->offset))
            what = "an id map out of range";
    } else if (rec->type == ELG_IDMAP_CNT) {
        if (a->values_left == 0)
            what = "an id map continuation without its id map";
        else if (!map_values(a, &f, rec->offset))
            what = "an id map out of range";
    } else if (rec->type == ELG_OFFSET) {
        rank_state *r = &a->ranks[a->section];
        double ltime = weft__epilog_d8(&f), offset = weft__epilog_d8(&f);
        if (!f.ok || !isfinite(ltime) || !isfinite(offset))
            what = "not a clock offset";
        else if (r->offsets < 2) {
            r->offset_time[r->offsets] = ltime;
            r->offset[r->offsets++] = offset;
        }
    }
    if (what) {
        snprintf(c->err, sizeof(c->err), "record at byte %llu (type %u): %s",
                 (unsigned long long)rec->offset, rec->type, what);
        return -1;
    }
    return 0;
}

/* The ranks whose events would be lost: a file ELG/NNNNN, or a process of
 * epik.esd, without a map section (epik.map cut or damaged). Says so in
 * c->salvage, which --keep-partial converts around. */
static void find_unmapped_ranks(elg_convert *c, struct elg_archive *a)
{
    uint32_t lost = 0, first = 0;
    bool has_file = false;
    char path[4200];
    snprintf(path, sizeof(path), "%s/ELG", a->dir);
    DIR *d = opendir(path);
    struct dirent *entry;
    while (d && (entry = readdir(d)) != NULL) {
        const char *name = entry->d_name;
        if (strlen(name) != 5 || strspn(name, "0123456789") != 5)
            continue;
        uint32_t rank = (uint32_t)strtoul(name, NULL, 10);
        if (rank < a->rank_count && a->ranks[rank].mapped)
            continue;
        if (lost++ == 0 || rank < first) {
            first = rank;
            has_file = true;
        }
    }
    if (d)
        closedir(d);
    for (uint32_t lid = 0; lost == 0 && lid < c->defs.location_count; lid++) {
        uint32_t rank = c->defs.locations[lid].process;
        if (c->defs.locations[lid].defined && !(rank < a->rank_count && a->ranks[rank].mapped))
            lost = 1, first = rank; /* the first such process is enough to name */
    }
    if (!lost)
        return;
    char more[40] = "", whose[64];
    if (lost > 1)
        snprintf(more, sizeof(more), " (and %u more ranks)", lost - 1);
    if (has_file)
        snprintf(whose, sizeof(whose), "whose events are in ELG/%05u", first % 100000u);
    else
        snprintf(whose, sizeof(whose), "which epik.esd defines");
    snprintf(c->salvage, sizeof(c->salvage),
             "epik.map has no section for rank %u%s, %s: the map is cut or damaged", first, more,
             whose);
}

/* Puts an archive file's name in front of the message in c->err. */
static void name_archive_file(elg_convert *c, const char *name)
{
    char inner[sizeof(c->err)];
    memcpy(inner, c->err, sizeof(inner));
    snprintf(c->err, sizeof(c->err), "%s: %.490s", name, inner);
}

/* Reads the definitions (epik.esd) and the maps (epik.map). */
int weft__elg_archive_read_definitions(elg_convert *c, const char *dir)
{
    struct elg_archive *a = calloc(1, sizeof(*a));
    if (!a || !(a->dir = strdup(dir))) {
        free(a);
        snprintf(c->err, sizeof(c->err), "out of memory");
        return -1;
    }
    a->map_kind = -1;
    c->archive = a;
    char path[4200];
    epilog_record rec;
    int more;
    snprintf(path, sizeof(path), "%s/epik.esd", dir);
    epilog_reader *rd = weft__epilog_open(path, c->err, sizeof(c->err));
    if (!rd)
        return -1;
    c->reader = rd;
    while ((more = weft__epilog_next(rd, &rec, c->err, sizeof(c->err))) == 1 &&
           rec.type != ELG_LAST_DEF) {
        if (rec.type < 100 && weft__elg_read_definition(c, &rec)) {
            more = -1;
            break;
        }
    }
    weft__epilog_close(rd);
    c->reader = NULL;
    if (more < 0) {
        name_archive_file(c, "epik.esd");
        return -1;
    }
    a->processes = defined_processes(&c->defs);
    snprintf(path, sizeof(path), "%s/epik.map", dir);
    rd = weft__epilog_open(path, c->err, sizeof(c->err));
    if (!rd)
        return -1;
    while ((more = weft__epilog_next(rd, &rec, c->err, sizeof(c->err))) == 1) {
        if (map_record(c, a, rd, &rec)) {
            more = -1;
            break;
        }
    }
    if (more == 0 && a->values_left > 0) {
        snprintf(c->err, sizeof(c->err),
                 "the file ends inside an id map that announced %u more values", a->values_left);
        more = -1;
    }
    weft__epilog_close(rd);
    if (more < 0) {
        name_archive_file(c, "epik.map");
        return -1;
    }
    find_unmapped_ranks(c, a);
    return 0;
}

static uint32_t mapped(const rank_state *r, int kind, uint32_t local)
{
    const id_map *m = &r->maps[kind];
    return local < m->count ? m->global[local] : ELG_NO_ID;
}

static double global_time(const rank_state *r, double t)
{
    if (r->offsets == 0)
        return t;
    if (r->offsets == 1 || r->offset_time[1] == r->offset_time[0])
        return t + r->offset[0];
    double slope = (r->offset[1] - r->offset[0]) / (r->offset_time[1] - r->offset_time[0]);
    return t + r->offset[0] + (t - r->offset_time[0]) * slope;
}

/* Reads rank r's next event into its lookahead, in global terms. */
static int advance(elg_convert *c, uint32_t rank)
{
    rank_state *r = &c->archive->ranks[rank];
    epilog_record rec;
    int more;
    r->has_next = false;
    while ((more = weft__epilog_next(r->reader, &rec, c->err, sizeof(c->err))) == 1) {
        if (rec.type < 100)
            continue; /* local definitions: the archive's are unified */
        elg_event *e = &r->next;
        c->reader = r->reader; /* the byte order of this file */
        int status = weft__elg_decode_raw(c, &rec, e);
        if (status < 0)
            return -1;
        if (status > 0) {
            if (c->counting)
                c->unknown_events++;
            continue;
        }
        e->lid = mapped(r, MAP_LOCATION, e->lid);
        if (e->type == ELG_ENTER)
            e->region = mapped(r, MAP_REGION, e->region);
        if (e->type == ELG_ENTER_CS)
            e->region = mapped(r, MAP_CALL_SITE, e->region);
        if (e->type == ELG_MPI_SEND || e->type == ELG_MPI_RECV || e->type == ELG_MPI_COLLEXIT)
            e->comm = mapped(r, MAP_COMM, e->comm);
        e->peers_are_ranks = true;
        e->time = global_time(r, e->time);
        if (!isfinite(e->time) || e->time < 0) {
            snprintf(c->err, sizeof(c->err),
                     "record at byte %llu (type %u): the rank's clock offset puts the event at "
                     "%g s, before the trace began",
                     (unsigned long long)rec.offset, rec.type, e->time);
            return -1;
        }
        if (weft__elg_check_references(c, &rec, e) < 0)
            return -1;
        r->has_next = true;
        return 1;
    }
    return more;
}

/* Puts the rank's file in front of the message in c->err. */
static void name_file(elg_convert *c, uint32_t rank)
{
    char inner[sizeof(c->err)];
    memcpy(inner, c->err, sizeof(inner));
    snprintf(c->err, sizeof(c->err), "ELG/%05u: %.490s", rank % 100000u, inner);
}

int weft__elg_archive_open_events(elg_convert *c)
{
    struct elg_archive *a = c->archive;
    for (uint32_t rank = 0; rank < a->rank_count; rank++) {
        rank_state *r = &a->ranks[rank];
        if (!r->mapped)
            continue;
        char path[4200];
        snprintf(path, sizeof(path), "%s/ELG/%05u", a->dir, rank);
        r->reader = weft__epilog_open(path, c->err, sizeof(c->err));
        if (!r->reader || advance(c, rank) < 0) {
            if (r->reader)
                name_file(c, rank);
            return -1;
        }
    }
    return 0;
}

int weft__elg_archive_next(elg_convert *c, elg_event *e)
{
    struct elg_archive *a = c->archive;
    int64_t best = -1;
    for (uint32_t rank = 0; rank < a->rank_count; rank++) {
        if (a->ranks[rank].has_next &&
            (best < 0 || a->ranks[rank].next.time < a->ranks[best].next.time))
            best = rank;
    }
    if (best < 0)
        return 0;
    *e = a->ranks[best].next;
    if (advance(c, (uint32_t)best) < 0) {
        name_file(c, (uint32_t)best);
        return -1;
    }
    return 1;
}

void weft__elg_archive_close_events(elg_convert *c)
{
    struct elg_archive *a = c->archive;
    for (uint32_t rank = 0; a && rank < a->rank_count; rank++) {
        weft__epilog_close(a->ranks[rank].reader);
        a->ranks[rank].reader = NULL;
        a->ranks[rank].has_next = false;
    }
    c->reader = NULL;
}

void weft__elg_archive_free(elg_convert *c)
{
    struct elg_archive *a = c->archive;
    if (!a)
        return;
    weft__elg_archive_close_events(c);
    for (uint32_t rank = 0; rank < a->rank_count; rank++)
        for (int k = 0; k < MAP_KINDS; k++)
            free(a->ranks[rank].maps[k].global);
    free(a->ranks);
    free(a->dir);
    free(a);
    c->archive = NULL;
}
