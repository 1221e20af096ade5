/* SPDX-License-Identifier: BSD-3-Clause */
/* OpenMP barriers per thread team (weft check): every thread of a team
 * must run it as often as the others and leave the same number of barriers
 * in each run of it.
 *
 * Scalasca's analyzer replays each location on a thread of its own and
 * meets those threads (with OpenMP barriers of its own) at every OpenMP
 * barrier region the trace leaves: a team whose threads recorded different
 * numbers of barriers sends its threads to different meetings, and it
 * crashes or hangs (seen writing its report); it meets them at every begin
 * of a team as well. A program ended by a signal
 * while one thread waited in a barrier and another still worked, or a
 * barrier recorded on some threads of a team only, does that.
 *
 * A barrier is what the analyzer takes for one: an OpenMP region whose
 * name, before " @", is "!$omp barrier", "!$omp implicit barrier" or
 * "!$omp ibarrier", in any case. A team's runs are told apart by counting
 * each location's begins of its communicator. Only outermost teams (no
 * parent communicator) are compared: the analyzer refuses nested
 * parallelism anyway, and the threads of an inner team may change from
 * one run to the next, which the count would not follow. */
#include "check_internal.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

typedef struct team_run { /* a location's count of begins of one team */
    uint64_t comm;
    uint64_t begins;
} team_run;

typedef struct team_barriers { /* one location's run of a team, ended */
    uint32_t rank;
    uint64_t comm;
    uint64_t run; /* 1 for the location's first begin of comm */
    uint64_t barriers;
    check_at begin;
} team_barriers;

enum { BARRIER_UNKNOWN, BARRIER_YES, BARRIER_NO };

static bool named_barrier(const char *name)
{
    static const char *const names[] = {"!$omp barrier", "!$omp implicit barrier",
                                        "!$omp ibarrier"};
    if (!name)
        return false;
    size_t len = strcspn(name, "@");
    if (name[len] == '@' && len > 0 && name[len - 1] == ' ')
        len--;
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        size_t n = strlen(names[i]);
        bool same = n == len;
        for (size_t k = 0; same && k < n; k++)
            same = tolower((unsigned char)name[k]) == names[i][k];
        if (same)
            return true;
    }
    return false;
}

/* Whether REGION is an OpenMP barrier; the answer is kept per region. */
static bool is_barrier(check_state *c, uint64_t region)
{
    size_t index = weft__trace_find_region(&c->read, region);
    if (index == NOT_FOUND)
        return false;
    if (!c->barrier_kinds) {
        c->barrier_kinds = calloc(c->read.region_count ? c->read.region_count : 1, 1);
        if (!c->barrier_kinds)
            return false;
    }
    uint8_t *kind = &c->barrier_kinds[index];
    if (*kind == BARRIER_UNKNOWN) {
        const region_def *r = &c->read.regions[index];
        bool yes = r->paradigm == OTF2_PARADIGM_OPENMP &&
                   named_barrier(weft__trace_string(&c->read, r->name_ref));
        *kind = yes ? BARRIER_YES : BARRIER_NO;
    }
    return *kind == BARRIER_YES;
}

void weft__check_barrier_left(check_state *c, uint64_t region)
{
    if (c->teams.count > 0 && is_barrier(c, region))
        ((check_open *)c->teams.items)[c->teams.count - 1].count++;
}

static bool outermost(const check_state *c, uint64_t comm)
{
    size_t index = weft__trace_find_comm(&c->read, comm);
    return index != NOT_FOUND && c->read.comms[index].parent == OTF2_UNDEFINED_COMM;
}

weft_status weft__check_team_begun(check_state *c, uint64_t comm, uint64_t *run)
{
    team_run *runs = c->team_runs.items;
    for (size_t i = 0; i < c->team_runs.count; i++) {
        if (runs[i].comm == comm) {
            *run = ++runs[i].begins;
            return WEFT_OK;
        }
    }
    team_run first = {comm, 1};
    *run = 1;
    return weft__check_push(&c->team_runs, &first, sizeof(first)) ? WEFT_OK : WEFT_ERR_NO_MEMORY;
}

weft_status weft__check_team_ended(check_state *c, const check_open *team)
{
    if (!outermost(c, team->ref))
        return WEFT_OK;
    team_barriers b = {.rank = c->read.current_rank,
                       .comm = team->ref,
                       .run = team->run,
                       .barriers = team->count,
                       .begin = {(uint32_t)c->read.current, team->position, team->time}};
    return weft__check_push(&c->team_barriers, &b, sizeof(b)) ? WEFT_OK : WEFT_ERR_NO_MEMORY;
}

static int compare_runs(const void *pa, const void *pb)
{
    const team_barriers *a = pa, *b = pb;
    int r = weft__check_compare_u64(a->rank, b->rank);
    if (!r)
        r = weft__check_compare_u64(a->comm, b->comm);
    if (!r)
        r = weft__check_compare_u64(a->run, b->run);
    if (!r)
        r = weft__check_compare_u64(a->begin.location, b->begin.location);
    return r;
}

static int compare_locations(const void *pa, const void *pb)
{
    const team_barriers *a = pa, *b = pb;
    int r = weft__check_compare_u64(a->rank, b->rank);
    if (!r)
        r = weft__check_compare_u64(a->comm, b->comm);
    if (!r)
        r = weft__check_compare_u64(a->begin.location, b->begin.location);
    if (!r)
        r = weft__check_compare_u64(a->run, b->run);
    return r;
}

/* Every location of a team must run it as often as the others: the
 * analyzer meets its threads at every team begin too. Sorts ALL by team,
 * location and run: each location's last entry is its last run. */
static void match_runs(check_state *c, team_barriers *all, size_t n)
{
    if (n > 1)
        qsort(all, n, sizeof(*all), compare_locations);
    for (size_t start = 0; start < n;) {
        size_t end = start + 1, most = start;
        while (end < n && all[end].rank == all[start].rank && all[end].comm == all[start].comm) {
            if (all[end].run > all[most].run)
                most = end;
            end++;
        }
        for (size_t i = start; i < end; i++) {
            bool last = i + 1 == end || all[i + 1].begin.location != all[i].begin.location;
            if (!last || all[i].run == all[most].run)
                continue;
            char team[300];
            const location_def *other = &c->read.locations[all[most].begin.location];
            const char *name = weft__trace_string(&c->read, other->name_ref);
            weft__check_problem(
                c, &all[i].begin,
                "thread team %s: this location began it %" PRIu64 " time%s (the last here), "
                "location '%s' (%" PRIu64 ") %" PRIu64 " times: Scalasca's analyzer meets its "
                "threads at every begin of a team and crashes when the team's threads began "
                "it different numbers of times",
                weft__check_comm_name(c, all[start].comm, team, sizeof(team)), all[i].run,
                all[i].run == 1 ? "" : "s", name ? name : "?", other->ref, all[most].run);
        }
        start = end;
    }
}

void weft__check_match_barriers(check_state *c)
{
    team_barriers *all = c->team_barriers.items;
    size_t n = c->team_barriers.count;
    if (n > 1)
        qsort(all, n, sizeof(*all), compare_runs);
    for (size_t start = 0; start < n;) {
        size_t end = start + 1, fewest = start, most = start;
        while (end < n && all[end].rank == all[start].rank && all[end].comm == all[start].comm &&
               all[end].run == all[start].run) {
            if (all[end].barriers < all[fewest].barriers)
                fewest = end;
            if (all[end].barriers > all[most].barriers)
                most = end;
            end++;
        }
        if (all[fewest].barriers != all[most].barriers) {
            char team[300];
            const location_def *other = &c->read.locations[all[most].begin.location];
            const char *name = weft__trace_string(&c->read, other->name_ref);
            weft__check_problem(
                c, &all[fewest].begin,
                "thread team %s, this location's run %" PRIu64 " of it (begun here): %" PRIu64
                " OpenMP barriers left in it, but %" PRIu64 " on location '%s' (%" PRIu64
                "): Scalasca's analyzer meets its threads at every barrier of a team and "
                "crashes when the team's threads recorded different numbers",
                weft__check_comm_name(c, all[fewest].comm, team, sizeof(team)), all[fewest].run,
                all[fewest].barriers, all[most].barriers, name ? name : "?", other->ref);
        }
        start = end;
    }
    match_runs(c, all, n);
}

void weft__check_barriers_free(check_state *c)
{
    weft__check_vec_free(&c->team_runs);
    weft__check_vec_free(&c->team_barriers);
    free(c->barrier_kinds);
    c->barrier_kinds = NULL;
}
