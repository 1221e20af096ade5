/* SPDX-License-Identifier: BSD-3-Clause */
/* `weft convert` for a merged EPILOG trace; see convert_epilog.h. Two
 * passes over the file: the first reads the definitions and counts the
 * threads of every fork (OTF2's fork names its team size, EPILOG's does
 * not), the second converts the events, which arrive in time order. Memory
 * grows with the definitions, the forks (two bytes each) and the messages
 * in flight, not with the events. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "convert_common.h"
#include "convert_epilog.h"
#include "escape.h"
#include "progress.h"
#include "weft/recorder.h"

static int reader_error(elg_convert *c, const char *path)
{
    weft__cli_line(stderr, "weft convert: '%s': %s", path, c->err);
    return 1;
}

/* Reads (or, when `keep` is false, skips) the definitions of a merged
 * trace, up to LAST_DEF or the first event (then kept as c->pending).
 * 0, or -1 on damage. */
static int read_definitions(elg_convert *c, bool keep)
{
    epilog_record rec;
    int more;
    while ((more = weft__epilog_next(c->reader, &rec, c->err, sizeof(c->err))) == 1) {
        if (rec.type == ELG_LAST_DEF)
            return 0;
        if (rec.type >= 100) {
            c->pending = rec; /* its body stays in the reader until the next read */
            c->have_pending = true;
            return 0;
        }
        if (keep && weft__elg_read_definition(c, &rec))
            return -1;
    }
    return more < 0 ? -1 : 0;
}

/* The next event of a merged trace, skipping definitions and records of
 * types weft does not convert (counted in the first pass). */
static int merged_next(elg_convert *c, elg_event *e)
{
    epilog_record rec;
    for (;;) {
        int more = 1;
        if (c->have_pending) {
            rec = c->pending;
            c->have_pending = false;
        } else {
            more = weft__epilog_next(c->reader, &rec, c->err, sizeof(c->err));
        }
        if (more != 1)
            return more;
        if (rec.type < 100) {
            c->unknown_definitions += c->counting && rec.type != ELG_LAST_DEF;
            continue;
        }
        int decoded = weft__elg_decode_event(c, &rec, e);
        if (decoded <= 0)
            return decoded < 0 ? -1 : 1;
        c->unknown_events += c->counting;
    }
}

/* The next event in time order, of either kind of input. */
static int next_event(elg_convert *c, elg_event *e)
{
    return c->archive ? weft__elg_archive_next(c, e) : merged_next(c, e);
}

/* Per-process tables, sized from the locations. */
static int make_processes(elg_convert *c)
{
    const elg_defs *d = &c->defs;
    for (uint32_t lid = 0; lid < d->location_count; lid++) {
        if (d->locations[lid].defined && d->locations[lid].process >= c->process_count)
            c->process_count = d->locations[lid].process + 1;
    }
    c->processes = calloc(c->process_count ? c->process_count : 1, sizeof(*c->processes));
    c->locations = calloc(d->location_count ? d->location_count : 1, sizeof(*c->locations));
    if (!c->processes || !c->locations)
        return -1;
    for (uint32_t lid = 0; lid < d->location_count; lid++) {
        const elg_location *l = &d->locations[lid];
        if (!l->defined)
            continue;
        elg_process_state *p = &c->processes[l->process];
        p->defined = true;
        if (l->thread >= p->teams.thread_count)
            p->teams.thread_count = l->thread + 1;
        c->locations[lid].process = l->process;
        c->locations[lid].thread = l->thread;
    }
    for (uint32_t pid = 0; pid < c->process_count; pid++) {
        elg_process_state *p = &c->processes[pid];
        if (!p->defined)
            continue;
        p->threads = calloc(p->teams.thread_count, sizeof(*p->threads));
        if (!p->threads || !weft__convert_teams_alloc(&p->teams))
            return -1;
        for (uint32_t t = 0; t < p->teams.thread_count; t++)
            p->threads[t] = WEFT_LOCATION_INVALID;
    }
    return 0;
}

/* Reads the events once: team sizes, and the damage, before anything is
 * written. */
static int first_pass(elg_convert *c, uint64_t *events)
{
    elg_event e;
    int more;
    *events = 0;
    c->counting = true;
    while ((more = next_event(c, &e)) == 1) {
        if (weft__elg_count_event(c, &e))
            return -1;
        (*events)++;
    }
    c->counting = false;
    return more;
}

/* ---- definitions into the registry -------------------------------------------- */

/* Role and paradigm of an EPILOG region (docs/dev/LEGACY-FORMATS.md 1.6). */
static void region_kind(uint8_t type, const char *name, const char *file, weft_region_role *role,
                        weft_paradigm *paradigm)
{
#define R(x) WEFT_REGION_ROLE_##x
    static const weft_region_role omp_roles[] = {
        R(PARALLEL),        R(LOOP),          R(SECTIONS),         R(SECTION),
        R(WORKSHARE),       R(SINGLE),        R(MASTER),           R(CRITICAL),
        R(ATOMIC),          R(BARRIER),       R(IMPLICIT_BARRIER), R(FLUSH),
        R(CRITICAL_SBLOCK), R(SINGLE_SBLOCK), R(ORDERED),          R(ORDERED_SBLOCK)};
    static const weft_region_role mpi_roles[] = {R(BARRIER), R(COLL_ONE2ALL), R(COLL_ALL2ONE),
                                                 R(COLL_ALL2ALL), R(COLL_OTHER)};
    *paradigm = WEFT_PARADIGM_USER;
    *role = type == 2 ? R(LOOP) : type == 0 ? R(UNKNOWN) : R(FUNCTION);
    if (type >= 11 && type <= 26) {
        *paradigm = WEFT_PARADIGM_OPENMP;
        *role = omp_roles[type - 11];
    } else if (type >= 4 && type <= 8) {
        *paradigm = WEFT_PARADIGM_MPI;
        *role = mpi_roles[type - 4];
    } else if ((name && strncmp(name, "MPI_", 4) == 0) || (file && strcmp(file, "MPI") == 0)) {
        *paradigm = WEFT_PARADIGM_MPI;
        *role = R(FUNCTION);
    } else if ((name && strncmp(name, "omp_", 4) == 0) || (file && strcmp(file, "OMP") == 0)) {
        *paradigm = WEFT_PARADIGM_OPENMP;
        *role = R(FUNCTION);
    } else if (file && strcmp(file, "EPIK") == 0) {
        *paradigm = WEFT_PARADIGM_MEASUREMENT_SYSTEM;
        *role = R(ARTIFICIAL);
    }
#undef R
}

static int define_regions(elg_convert *c)
{
    const elg_defs *d = &c->defs;
    c->regions = calloc(d->region_count ? d->region_count : 1, sizeof(*c->regions));
    if (!c->regions)
        return -1;
    for (uint32_t rid = 0; rid < d->region_count; rid++) {
        const elg_region *r = &d->regions[rid];
        c->regions[rid] = WEFT_REGION_INVALID;
        if (!r->defined)
            continue;
        const char *name = weft__elg_string(d, r->name);
        const char *file = r->file < d->file_count && d->files[r->file]
                               ? weft__elg_string(d, d->files[r->file] - 1)
                               : NULL;
        weft_region_desc desc = {.name = name ? name : "(unnamed region)",
                                 .file = file,
                                 .begin_line = r->begin_line == ELG_NO_ID ? 0 : r->begin_line,
                                 .end_line = r->end_line == ELG_NO_ID ? 0 : r->end_line};
        region_kind(r->type, name, file, &desc.role, &desc.paradigm);
        if (weft_registry_region(c->reg, &desc, &c->regions[rid]) != WEFT_OK)
            return -1;
    }
    return 0;
}

/* Processes (with their node's name) and locations, process by process. */
static int define_locations(elg_convert *c)
{
    const elg_defs *d = &c->defs;
    for (uint32_t lid = 0; lid < d->location_count; lid++) {
        const elg_location *l = &d->locations[lid];
        if (!l->defined)
            continue;
        const char *host = l->node < d->node_count && d->nodes[l->node].defined
                               ? weft__elg_string(d, d->nodes[l->node].name)
                               : NULL;
        weft_registry_process(c->reg, l->process, host ? host : "unknown node", NULL);
        weft_location loc;
        if (weft_registry_location_in_group(c->reg, NULL, l->thread, l->process, &loc) != WEFT_OK)
            return -1;
        c->locations[lid].lane.loc = loc;
        c->processes[l->process].threads[l->thread] = loc;
    }
    return 0;
}

/* MPI communicators: the first world-like one is MPI_COMM_WORLD. */
static int define_comms(elg_convert *c)
{
    const elg_defs *d = &c->defs;
    c->comms = calloc(d->comm_count ? d->comm_count : 1, sizeof(*c->comms));
    if (!c->comms)
        return -1;
    bool world_seen = false;
    for (uint32_t cid = 0; cid < d->comm_count; cid++) {
        const elg_comm *m = &d->comms[cid];
        c->comms[cid] = WEFT_COMM_INVALID;
        if (!m->defined)
            continue;
        bool world = m->world && !world_seen;
        world_seen = world_seen || world;
        char name[64];
        snprintf(name, sizeof(name),
                 world          ? "MPI_COMM_WORLD"
                 : m->size == 1 ? "MPI_COMM_SELF"
                                : "MPI comm %u",
                 cid);
        weft_comm_desc desc = {.name = name,
                               .paradigm = WEFT_PARADIGM_MPI,
                               .parent = WEFT_COMM_INVALID,
                               .key = world ? WEFT_COMM_KEY_MPI_WORLD : 2 + (uint64_t)cid};
        if (weft_registry_comm(c->reg, &desc, &c->comms[cid]) != WEFT_OK)
            return -1;
        for (uint32_t i = 0; i < m->size; i++)
            weft_registry_comm_set_member(c->reg, c->comms[cid], i, m->ranks[i]);
    }
    return 0;
}

/* One metric class of every EPILOG metric; none when one has float values
 * (weft's metrics are integers): said once. */
static int define_metrics(elg_convert *c)
{
    const elg_defs *d = &c->defs;
    c->metric = (weft_metric){WEFT_INVALID_ID};
    if (d->metric_count == 0)
        return 0;
    weft_metric_member_desc members[ELG_MAX_METRICS];
    for (uint32_t i = 0; i < d->metric_count; i++) {
        const elg_metric *m = &d->metrics[i];
        if (m->float_values) {
            weft__cli_line(stderr,
                           "weft convert: the metric '%s' has floating-point values, which "
                           "weft does not convert; the trace has no metrics",
                           weft__elg_string(d, m->name) ? weft__elg_string(d, m->name) : "?");
            return 0;
        }
        const char *name = weft__elg_string(d, m->name);
        /* counter (0) from the start (0): accumulated; sample (2): absolute */
        uint8_t mode =
            m->mode == 2 ? WEFT_METRIC_MODE_ABSOLUTE_POINT : WEFT_METRIC_MODE_ACCUMULATED_START;
        members[i] = (weft_metric_member_desc){.name = name ? name : "metric",
                                               .description = weft__elg_string(d, m->description),
                                               .unit = "#",
                                               .source = name && strncmp(name, "PAPI_", 5) == 0
                                                             ? WEFT_METRIC_SOURCE_PAPI
                                                             : WEFT_METRIC_SOURCE_OTHER,
                                               .mode = mode};
    }
    return weft_registry_metric_class(c->reg, members, d->metric_count, &c->metric) == WEFT_OK ? 0
                                                                                               : -1;
}

/* ---- the conversion ---------------------------------------------------------------- */

static int second_pass(elg_convert *c, const elg_options *o, uint64_t announced)
{
    weft_cli_progress progress;
    weft__cli_progress_start(&progress, (weft_progress_mode)o->progress, announced, 0);
    progress.command = "weft convert";
    elg_event e;
    int more;
    uint64_t read = 0;
    while ((more = next_event(c, &e)) == 1) {
        if (weft__elg_convert_event(c, &e))
            return -1;
        weft__cli_progress_update(&progress, ++read, 0);
    }
    weft__cli_progress_finish(&progress, announced);
    return more;
}

static void report(const elg_convert *c, uint64_t closed)
{
    if (c->unknown_definitions + c->unknown_events)
        weft__cli_line(stderr,
                       "weft convert: skipped %llu definition and %llu event records of types weft "
                       "does not convert",
                       (unsigned long long)c->unknown_definitions,
                       (unsigned long long)c->unknown_events);
    if (c->receives_without_size)
        weft__cli_line(stderr,
                       "weft convert: %llu receives came before their send: their size is written "
                       "as 0",
                       (unsigned long long)c->receives_without_size);
    if (c->collectives_unknown)
        weft__cli_line(
            stderr,
            "weft convert: %llu collective ends of an unknown operation or root were left "
            "out",
            (unsigned long long)c->collectives_unknown);
    if (c->exits_without_enter + closed)
        weft__cli_line(
            stderr,
            "weft convert: %llu exits without an open region were left out, %llu regions "
            "left open were closed at their location's last event",
            (unsigned long long)c->exits_without_enter, (unsigned long long)closed);
    if (c->out.time_fixes)
        weft__cli_line(
            stderr,
            "weft convert: %llu events earlier than the one before them on their location "
            "got that one's time",
            (unsigned long long)c->out.time_fixes);
}

static bool is_directory(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int weft__elg_scan(elg_convert *c, const char *path, uint64_t *events)
{
    if (is_directory(path)) {
        if (weft__elg_archive_read_definitions(c, path))
            return c->reader || c->archive ? -1 : -2;
    } else {
        c->reader = weft__epilog_open(path, c->err, sizeof(c->err));
        if (!c->reader)
            return -2;
        if (read_definitions(c, true))
            return -1;
    }
    if (weft__elg_definitions_complete(c))
        return -1;
    c->channels = weft__convert_channels_new();
    if (!c->channels || make_processes(c)) {
        snprintf(c->err, sizeof(c->err), "out of memory");
        return -1;
    }
    if (c->archive && (weft__elg_resolve_comm_groups(c, c->process_count) || weft__elg_archive_open_events(c)))
        return -1;
    int status = first_pass(c, events) < 0 ? -1 : 0;
    if (c->archive)
        weft__elg_archive_close_events(c);
    if (status == 0 && *events == 0 && !c->salvage[0])
        snprintf(c->salvage, sizeof(c->salvage), "%s",
                 c->archive ? "its rank files hold no events"
                            : "it holds no events: only its header, or definitions without events "
                              "(cut right after them)");
    return status;
}

/* Opens the input again for the second pass. */
static int reopen(elg_convert *c, const char *path)
{
    if (c->archive)
        return weft__elg_archive_open_events(c);
    weft__epilog_close(c->reader);
    c->have_pending = false;
    c->reader = weft__epilog_open(path, c->err, sizeof(c->err));
    return c->reader ? read_definitions(c, false) : -1;
}

static int convert(elg_convert *c, const elg_options *o)
{
    uint64_t announced = 0;
    int scanned = weft__elg_scan(c, o->input, &announced);
    if (scanned == -2) {
        weft__cli_line(stderr, "weft convert: %s", c->err);
        return 1;
    }
    if (scanned < 0 || reopen(c, o->input))
        return reader_error(c, o->input);
    if (c->salvage[0] && !o->keep_partial) {
        weft__cli_line(stderr, "weft convert: '%s': %s; --keep-partial converts what can be read",
                       o->input, c->salvage);
        return 1;
    }
    if (!weft__convert_output_open(&c->out, o->output, o->input))
        return 1;
    c->reg = weft_trace_writer_registry(c->out.writer);
    uint64_t closed = 0;
    if (define_locations(c) || define_regions(c) || define_comms(c) || define_metrics(c)) {
        snprintf(c->err, sizeof(c->err), "out of memory defining the trace");
        return reader_error(c, o->input);
    }
    if (second_pass(c, o, announced) < 0 || weft__elg_close_open_regions(c, &closed))
        return reader_error(c, o->input);
    if (weft__convert_output_close(&c->out, ELG_TICKS_PER_SECOND) != WEFT_OK) {
        weft__cli_line(stderr, "weft convert: writing '%s' failed", o->output);
        return 1;
    }
    report(c, closed);
    if (c->salvage[0]) { /* --keep-partial: what could be read is converted */
        weft__cli_line(stderr, "weft convert: '%s': %s", o->input, c->salvage);
        weft__cli_line(stderr, "weft convert: the partial trace is kept in '%s'", o->output);
        return 1;
    }
    return 0;
}

int weft__convert_epilog(const elg_options *o)
{
    elg_convert c = {0};
    int status = convert(&c, o);
    weft__convert_output_abandon(&c.out, ELG_TICKS_PER_SECOND, o->keep_partial, o->output);
    if (!c.archive)
        weft__epilog_close(c.reader);
    weft__elg_archive_free(&c);
    weft__elg_events_free(&c);
    weft__elg_defs_free(&c.defs);
    return status;
}
