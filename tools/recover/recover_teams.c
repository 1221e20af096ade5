/* SPDX-License-Identifier: BSD-3-Clause */
/* Where each location of a recovered trace ends, so that its OpenMP teams
 * end alike on all their threads.
 *
 * A location loses its last events when its process dies with them in
 * memory, and the threads of a team lose different amounts: one thread's
 * events may end in the team's 1,000th barrier, another's in its 3,000th,
 * or in a later run of the team. Scalasca's analyzer meets its threads at
 * every begin of a team and at every barrier in it, and crashes unless every
 * thread of the team has the same runs of it and, in the last, the same
 * barriers. So the thread that got least far sets the cut: every other
 * thread of the team, in that process, keeps its events up to the same
 * point (the same run, the same barrier entered) and loses the rest, which
 * count as left out (weft::events_left_out), together with the partners of
 * any message among them (recover_match.c leaves the cut events out too).
 * Adding the barriers a short thread lacks, as the recorder's sink does for
 * the one barrier a signal can leave behind (recorder/team_barriers.h),
 * would here make each of thousands of real barriers of the others wait
 * until the end.
 *
 * Two passes over every location's events (none without OpenMP teams),
 * before matching messages:
 * where each thread got to in each team; then, for the threads that got
 * further than the least, the position of the first event past the cut.
 * Only outermost teams are followed (the analyzer refuses nested
 * parallelism), a barrier counts when it is entered directly in one. */
#include "recover.h"

#include <stdlib.h>

#include "grow.h"

enum { NO_TEAM = UINT32_MAX };

typedef struct progress { /* a location's, in one team */
    uint32_t comm;        /* the trace's comm id */
    uint32_t runs;        /* begins of the team */
    uint32_t barriers;    /* barriers entered in the last run */
    bool open;            /* the last run is still open where the events end */
} progress;

typedef struct team_end { /* one location's progress, at its end */
    size_t part;
    size_t location;
    progress at;
} team_end;

typedef struct following {
    recover_state *st;
    size_t part;
    uint32_t team; /* the outermost team open; NO_TEAM */
    uint32_t depth;
    progress *teams;
    size_t team_count, team_capacity;
    /* Second pass: the least progress of each team (lookup by comm), and
     * the first position past it. */
    const team_end *least;
    size_t least_count;
    uint64_t cut;
} following;

static progress *progress_of(following *f, uint32_t comm)
{
    for (size_t i = 0; i < f->team_count; i++)
        if (f->teams[i].comm == comm)
            return &f->teams[i];
    if (!weft__cli_grow(&f->teams, &f->team_capacity, f->team_count + 1, sizeof(*f->teams)))
        return NULL;
    f->teams[f->team_count] = (progress){.comm = comm};
    return &f->teams[f->team_count++];
}

static bool is_barrier(recover_state *st, size_t part, uint32_t local_region)
{
    return weft_registry_region_is_omp_barrier(
        st->reg, (weft_region){recover_map_region(st, part, local_region)});
}

/* Whether a location at AT went past LEAST (the run after it, or a barrier
 * after the last it entered in the same run). */
static bool past(const progress *at, const progress *least)
{
    if (at->runs != least->runs)
        return at->runs > least->runs;
    return least->open && at->barriers > least->barriers;
}

static const progress *least_of(const following *f, uint32_t comm)
{
    for (size_t i = 0; i < f->least_count; i++)
        if (f->least[i].part == f->part && f->least[i].at.comm == comm)
            return &f->least[i].at;
    return NULL;
}

static weft_status follow(recover_state *st, size_t index, uint64_t position, const weft_event *e,
                          void *context)
{
    (void)index;
    following *f = context;
    if (f->cut != UINT64_MAX)
        return WEFT_OK;
    progress *p = NULL;
    if (e->kind == WEFT_EVENT_THREAD_TEAM_BEGIN && f->depth++ == 0) {
        f->team = recover_map_comm(st, f->part, e->ref);
        if (!(p = progress_of(f, f->team)))
            return WEFT_ERR_NO_MEMORY;
        p->runs++;
        p->barriers = 0;
        p->open = true;
    } else if (e->kind == WEFT_EVENT_THREAD_TEAM_END && f->depth > 0 && --f->depth == 0) {
        if ((p = progress_of(f, f->team)) == NULL)
            return WEFT_ERR_NO_MEMORY;
        p->open = false;
        p = NULL; /* ending a run goes past nothing */
        f->team = NO_TEAM;
    } else if (e->kind == WEFT_EVENT_ENTER && f->depth == 1 && is_barrier(st, f->part, e->ref)) {
        if (!(p = progress_of(f, f->team)))
            return WEFT_ERR_NO_MEMORY;
        p->barriers++;
    }
    const progress *least = p && f->least ? least_of(f, p->comm) : NULL;
    if (least && past(p, least))
        f->cut = position;
    return WEFT_OK;
}

static int by_team(const void *pa, const void *pb)
{
    const team_end *a = pa, *b = pb;
    if (a->part != b->part)
        return a->part < b->part ? -1 : 1;
    if (a->at.comm != b->at.comm)
        return a->at.comm < b->at.comm ? -1 : 1;
    return 0;
}

/* The least progress of each team (sorted by team), over its locations. */
static size_t keep_least(team_end *ends, size_t count, bool *any_ahead)
{
    size_t kept = 0;
    *any_ahead = false;
    for (size_t start = 0; start < count;) {
        size_t end = start + 1, least = start;
        while (end < count && by_team(&ends[end], &ends[start]) == 0) {
            if (past(&ends[least].at, &ends[end].at))
                least = end;
            end++;
        }
        for (size_t i = start; i < end; i++)
            if (past(&ends[i].at, &ends[least].at))
                *any_ahead = true;
        ends[kept++] = ends[least];
        start = end;
    }
    return kept;
}

weft_status recover_plan_teams(recover_state *st)
{
    if (!recover_has_comm(st, WEFT_PARADIGM_OPENMP))
        return WEFT_OK; /* no thread team: nothing to plan, no pass over the events */
    team_end *ends = NULL;
    size_t count = 0, capacity = 0;
    weft_status status = WEFT_OK;
    for (size_t l = 0; l < st->location_count && status == WEFT_OK; l++) {
        following f = {.st = st, .part = st->locations[l].part, .team = NO_TEAM, .cut = UINT64_MAX};
        status = recover_read_location(st, l, follow, &f);
        for (size_t i = 0; status == WEFT_OK && i < f.team_count; i++) {
            if (!weft__cli_grow(&ends, &capacity, count + 1, sizeof(*ends)))
                status = WEFT_ERR_NO_MEMORY;
            else
                ends[count++] = (team_end){f.part, l, f.teams[i]};
        }
        free(f.teams);
    }
    bool any_ahead = false;
    size_t least_count = 0;
    if (status == WEFT_OK && count > 1) {
        qsort(ends, count, sizeof(*ends), by_team);
        least_count = keep_least(ends, count, &any_ahead);
    }
    if (status == WEFT_OK && any_ahead) {
        st->cuts = malloc(st->location_count * sizeof(*st->cuts));
        if (!st->cuts)
            status = WEFT_ERR_NO_MEMORY;
        for (size_t l = 0; status == WEFT_OK && l < st->location_count; l++) {
            following f = {.st = st,
                           .part = st->locations[l].part,
                           .team = NO_TEAM,
                           .least = ends,
                           .least_count = least_count,
                           .cut = UINT64_MAX};
            status = recover_read_location(st, l, follow, &f);
            st->cuts[l] = f.cut;
            free(f.teams);
        }
    }
    free(ends);
    return status;
}

bool recover_cut(const recover_state *st, size_t index, uint64_t position)
{
    return st->cuts && position >= st->cuts[index];
}
