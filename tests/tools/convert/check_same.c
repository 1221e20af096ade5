/* check_converted --same A B: the OTF2 traces weft convert made of two
 * renderings of one run (write_epilog's EPILOG trace and write_otf1's
 * elg2otf conversion of it) must hold the same location groups and
 * locations (ids, so rank and thread number, group and type; names may
 * differ), the same regions (name, paradigm, role, file, first line; B may
 * define regions nobody enters, as elg2otf's "tracing" and "off"), the same
 * visits per region per location, and per location the same sequence of
 * enters, leaves, forks with their team sizes, joins, team begins and ends,
 * messages (peer, tag, size, communicator) and collectives. Metrics and
 * locks are left out: OTF1 has no lock records, and elg2otf's samples are
 * its own. */
#include "check_same.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "otf2_trace.h"

static int differences;

static void differ(const char *where, const char *what, const char *a, const char *b)
{
    printf("check_converted --same: %s: %s: '%s' and '%s'\n", where, what, a, b);
    differences++;
}

static void differ_n(const char *where, const char *what, unsigned long long a,
                     unsigned long long b)
{
    if (a == b)
        return;
    char x[32], y[32];
    snprintf(x, sizeof x, "%llu", a);
    snprintf(y, sizeof y, "%llu", b);
    differ(where, what, x, y);
}

static const char *text(const char *s)
{
    return s ? s : "";
}

static const trace_comm *comm_of(const trace_model *m, uint32_t id)
{
    for (size_t i = 0; i < m->comm_count; i++)
        if (m->comms[i].id == id)
            return &m->comms[i];
    return NULL;
}

/* A communicator as its name (MPI) or paradigm (a thread team, numbered
 * in the order of definition) and size: ids differ between conversions. */
static void describe_comm(const trace_model *m, uint32_t id, char *out, size_t n)
{
    const trace_comm *c = comm_of(m, id);
    uint32_t size = 0;
    for (size_t i = 0; c && i < m->group_count; i++)
        if (m->groups[i].id == c->group)
            size = m->groups[i].member_count;
    const char *name = !c                                 ? "an undefined communicator"
                       : c->paradigm == OTF2_PARADIGM_MPI ? text(c->name)
                                                          : "a thread team";
    snprintf(out, n, "%s of %u", name, size);
}

/* The events both conversions must agree on, as text; false for the others. */
static bool describe(const trace_model *m, const trace_event *e, char *out, size_t n)
{
    const char *kind = trace_event_kind_name(e->kind);
    char comm[128];
    switch (e->kind) {
    case TRACE_EVENT_ENTER:
    case TRACE_EVENT_LEAVE: {
        const trace_region *r = trace_region_by_id(m, e->region);
        snprintf(out, n, "%s %s", kind, r ? text(r->name) : "an undefined region");
        return true;
    }
    case TRACE_EVENT_THREAD_FORK:
        snprintf(out, n, "%s of %u threads", kind, e->team_size);
        return true;
    case TRACE_EVENT_THREAD_JOIN:
    case TRACE_EVENT_MPI_COLLECTIVE_BEGIN:
        snprintf(out, n, "%s", kind);
        return true;
    case TRACE_EVENT_THREAD_TEAM_BEGIN:
    case TRACE_EVENT_THREAD_TEAM_END:
        describe_comm(m, e->comm, comm, sizeof comm);
        snprintf(out, n, "%s in %s", kind, comm);
        return true;
    case TRACE_EVENT_MPI_SEND:
    case TRACE_EVENT_MPI_RECV:
        describe_comm(m, e->comm, comm, sizeof comm);
        snprintf(out, n, "%s peer %u tag %u %llu bytes in %s", kind, e->peer, e->tag,
                 (unsigned long long)e->bytes, comm);
        return true;
    case TRACE_EVENT_MPI_COLLECTIVE_END:
        describe_comm(m, e->comm, comm, sizeof comm);
        snprintf(out, n, "%s op %d root %u sent %llu received %llu in %s", kind,
                 (int)e->collective_op, e->root, (unsigned long long)e->size_sent,
                 (unsigned long long)e->size_received, comm);
        return true;
    default:
        return false;
    }
}

/* The next event of loc from *i on that describe() takes, or false. */
static bool next_described(const trace_model *m, const trace_location_stats *loc, size_t *i,
                           char *out, size_t n)
{
    for (; *i < loc->event_list_len; (*i)++) {
        if (describe(m, &loc->events[*i], out, n)) {
            (*i)++;
            return true;
        }
    }
    return false;
}

static uint64_t entered_anywhere(const trace_model *m, uint32_t region)
{
    uint64_t n = 0;
    for (size_t i = 0; i < m->location_count; i++)
        n += trace_enter_count(&m->locations[i], region);
    return n;
}

/* The program regions are named after each conversion's input, so they
 * differ by name; both must exist, with the same role and paradigm. */
static void same_regions(const trace_model *a, const trace_model *b)
{
    const trace_region *pa = trace_program_region(a), *pb = trace_program_region(b);
    if (!pa || !pb)
        differ("the program", "region", pa ? "defined" : "not defined",
               pb ? "defined" : "not defined");
    else if (pa->role != pb->role || pa->paradigm != pb->paradigm)
        differ("the program", "region", "of one kind", "of another");
    for (size_t i = 0; i < a->region_count; i++) {
        const trace_region *x = &a->regions[i], *y = trace_region_by_name(b, x->name);
        if (x == pa)
            continue;
        if (!y) {
            differ(text(x->name), "region", "defined", "not defined");
            continue;
        }
        differ_n(x->name, "paradigm", x->paradigm, y->paradigm);
        differ_n(x->name, "role", x->role, y->role);
        differ_n(x->name, "first line", x->begin_line, y->begin_line);
        if (strcmp(text(x->source_file), text(y->source_file)) != 0)
            differ(x->name, "source file", text(x->source_file), text(y->source_file));
    }
    for (size_t i = 0; i < b->region_count; i++) {
        const trace_region *y = &b->regions[i];
        if (y != pb && !trace_region_by_name(a, y->name) && entered_anywhere(b, y->id))
            differ(text(y->name), "region", "not defined", "entered");
    }
}

static void same_location(const trace_model *a, const trace_location_stats *x, const trace_model *b,
                          const trace_location_stats *y)
{
    char where[96];
    snprintf(where, sizeof where, "rank %u thread %u", (unsigned)(x->id & 0xFFFFFFFFu),
             (unsigned)(x->id >> 32));
    differ_n(where, "location group", x->group, y->group);
    differ_n(where, "location type", x->type, y->type);
    static const trace_event_kind kinds[] = {TRACE_EVENT_ENTER,
                                             TRACE_EVENT_LEAVE,
                                             TRACE_EVENT_THREAD_FORK,
                                             TRACE_EVENT_THREAD_JOIN,
                                             TRACE_EVENT_THREAD_TEAM_BEGIN,
                                             TRACE_EVENT_THREAD_TEAM_END,
                                             TRACE_EVENT_MPI_SEND,
                                             TRACE_EVENT_MPI_RECV,
                                             TRACE_EVENT_MPI_COLLECTIVE_BEGIN,
                                             TRACE_EVENT_MPI_COLLECTIVE_END};
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
        differ_n(where, trace_event_kind_name(kinds[k]), x->kind_counts[kinds[k]],
                 y->kind_counts[kinds[k]]);
    for (size_t i = 0; i < a->region_count; i++) {
        const trace_region *r = &a->regions[i], *s = trace_region_by_name(b, r->name);
        char what[300];
        snprintf(what, sizeof what, "visits of %s", text(r->name));
        differ_n(where, what, trace_enter_count(x, r->id), s ? trace_enter_count(y, s->id) : 0);
    }
    char ex[400], ey[400];
    size_t i = 0, j = 0, position = 0;
    for (;;) {
        bool more_x = next_described(a, x, &i, ex, sizeof ex);
        bool more_y = next_described(b, y, &j, ey, sizeof ey);
        if (!more_x && !more_y)
            break;
        position++;
        if (more_x && more_y && strcmp(ex, ey) == 0)
            continue;
        char what[64];
        snprintf(what, sizeof what, "event %zu", position);
        differ(where, what, more_x ? ex : "(none)", more_y ? ey : "(none)");
        break; /* one is enough: the rest is out of step */
    }
}

int check_same(const char *anchor_a, const char *anchor_b)
{
    trace_options opt = {.keep_events = true};
    trace_model *a = NULL, *b = NULL;
    char err[512];
    if (trace_load(anchor_a, &opt, &a, err, sizeof err) != 0 ||
        trace_load(anchor_b, &opt, &b, err, sizeof err) != 0) {
        printf("check_converted --same: %s\n", err);
        trace_free(a);
        return 1;
    }
    differ_n("the traces", "location groups", a->location_group_count, b->location_group_count);
    differ_n("the traces", "locations", a->location_count, b->location_count);
    for (size_t i = 0; i < a->location_group_count; i++) {
        const trace_location_group *g = &a->location_groups[i], *h = NULL;
        for (size_t k = 0; k < b->location_group_count; k++)
            if (b->location_groups[k].id == g->id)
                h = &b->location_groups[k];
        char where[48];
        snprintf(where, sizeof where, "location group %u", g->id);
        if (!h)
            differ(where, "location group", "defined", "not defined");
        else
            differ_n(where, "type", g->type, h->type);
    }
    same_regions(a, b);
    for (size_t i = 0; i < a->location_count; i++) {
        const trace_location_stats *x = &a->locations[i], *y = trace_location_by_id(b, x->id);
        char where[64];
        snprintf(where, sizeof where, "rank %u thread %u", (unsigned)(x->id & 0xFFFFFFFFu),
                 (unsigned)(x->id >> 32));
        if (!y)
            differ(where, "location", "defined", "not defined");
        else
            same_location(a, x, b, y);
    }
    for (size_t i = 0; i < b->location_count; i++) {
        const trace_location_stats *y = &b->locations[i];
        char where[64];
        snprintf(where, sizeof where, "rank %u thread %u", (unsigned)(y->id & 0xFFFFFFFFu),
                 (unsigned)(y->id >> 32));
        if (!trace_location_by_id(a, y->id))
            differ(where, "location", "not defined", "defined");
    }
    trace_free(a);
    trace_free(b);
    if (!differences)
        printf("check_converted --same: the same locations, regions, visits, forks, teams, "
               "messages and collectives\n");
    return differences ? 1 : 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
