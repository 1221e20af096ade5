/* SPDX-License-Identifier: BSD-3-Clause */
/* OpenMP barriers per thread team, as the sink writes them; see
 * team_barriers.h. Everything here runs under the sink's mutex. */
#include "team_barriers.h"

#include <string.h>

#include "location.h"
#include "spill.h"
#include "weft/alloc.h"
#include "weft/definitions.h"
#include "weft/recorder.h"

uint8_t *weft__barrier_kinds;
size_t weft__barrier_kinds_size;

enum { KIND_UNKNOWN, KIND_BARRIER, KIND_OTHER };
enum { MAX_CACHED_REGION = 1u << 24, MAX_COUNTED_TEAM = 1u << 20 };

bool weft__barrier_region_slow(uint32_t region)
{
    bool barrier = weft_registry_region_is_omp_barrier(weft_defs_global(), (weft_region){region});
    if (region >= weft__barrier_kinds_size && region < MAX_CACHED_REGION) {
        size_t size = weft__barrier_kinds_size ? weft__barrier_kinds_size : 256;
        while (size <= region)
            size *= 2;
        uint8_t *grown = weft_realloc(weft__barrier_kinds, size);
        if (grown) {
            memset(grown + weft__barrier_kinds_size, KIND_UNKNOWN, size - weft__barrier_kinds_size);
            weft__barrier_kinds = grown;
            weft__barrier_kinds_size = size;
        }
    }
    if (region < weft__barrier_kinds_size)
        weft__barrier_kinds[region] = barrier ? KIND_BARRIER : KIND_OTHER;
    return barrier;
}

void weft__barriers_left(weft_open_scopes *open)
{
    for (uint32_t i = open->depth; i > 0; i--) {
        if (open->items[i - 1].kind == WEFT_SCOPE_TEAM) {
            open->items[i - 1].barriers++;
            return;
        }
    }
}

void weft__barriers_team_begun(weft_loc *loc, uint32_t team)
{
    loc->outer_team = team;
    if (team >= loc->team_runs_size && team < MAX_COUNTED_TEAM) {
        uint32_t size = loc->team_runs_size ? loc->team_runs_size : 8;
        while (size <= team)
            size *= 2;
        uint32_t *grown = weft_realloc(loc->team_runs, size * sizeof(*grown));
        if (!grown)
            return; /* uncounted: no run is added for this team at the end */
        memset(grown + loc->team_runs_size, 0, (size - loc->team_runs_size) * sizeof(*grown));
        loc->team_runs = grown;
        loc->team_runs_size = size;
    }
    if (team < loc->team_runs_size)
        loc->team_runs[team]++;
}

void weft__barriers_forget_runs(weft_loc *loc)
{
    weft_free(loc->team_runs);
    loc->team_runs = NULL;
    loc->team_runs_size = 0;
}

/* Begins of the team LOC began last as its outermost (0: not counted). */
static uint32_t outer_runs(const weft_loc *loc)
{
    return loc->outer_team < loc->team_runs_size ? loc->team_runs[loc->outer_team] : 0;
}

/* ---- the plan at the end ---------------------------------------------------- */

typedef struct team_plan {
    uint32_t team;
    uint32_t most;   /* barriers on the thread with the most, its open one closed */
    uint32_t region; /* a barrier a thread of the team is in at the end */
    bool has_region;
    uint32_t runs;     /* begins of the team, on a thread that has it open outermost */
    uint32_t parallel; /* the region that thread is in directly inside the team */
    bool has_parallel;
} team_plan;

static team_plan *plans;
static size_t plan_count, plan_capacity;

static team_plan *plan_of(uint32_t team, bool add)
{
    for (size_t i = 0; i < plan_count; i++)
        if (plans[i].team == team)
            return &plans[i];
    if (!add)
        return NULL;
    if (plan_count == plan_capacity) {
        size_t capacity = plan_capacity ? 2 * plan_capacity : 8;
        team_plan *grown = weft_realloc(plans, capacity * sizeof(*grown));
        if (!grown)
            return NULL;
        plans = grown;
        plan_capacity = capacity;
    }
    plans[plan_count] = (team_plan){.team = team};
    return &plans[plan_count++];
}

/* Where the outermost team scope of OPEN is, or OPEN->depth when none. */
static uint32_t outermost_team(const weft_open_scopes *open)
{
    uint32_t i = 0;
    while (i < open->depth && open->items[i].kind != WEFT_SCOPE_TEAM)
        i++;
    return i;
}

/* First pass, per location: the begins of each outermost team open on it
 * (the most any thread has made are the team's latest run) and the region
 * the thread is in directly inside it. */
static void plan_runs(weft_loc *loc, void *context)
{
    (void)context;
    const weft_open_scopes *open = &loc->open;
    uint32_t i = outermost_team(open);
    if (weft__spill_active(loc) || i == open->depth)
        return;
    team_plan *plan = plan_of(open->items[i].id, true);
    if (!plan)
        return;
    if (outer_runs(loc) > plan->runs)
        plan->runs = outer_runs(loc);
    if (!plan->has_parallel && i + 1 < open->depth &&
        open->items[i + 1].kind == WEFT_SCOPE_REGION) {
        plan->parallel = open->items[i + 1].id;
        plan->has_parallel = true;
    }
}

/* Whether loc is in an earlier run of its outermost team TEAM than the
 * latest any thread began (it had not yet left it when another thread
 * began the next): that run's barriers are not the latest run's. */
static bool in_earlier_run(const weft_loc *loc, uint32_t team, const team_plan *plan)
{
    return team == loc->outer_team && outer_runs(loc) < plan->runs;
}

/* Second pass: for each team open on loc, its barriers once an open barrier
 * in it (the first region scope above it that is one, below the next team)
 * is closed, on threads in the team's latest run. */
static void plan_barriers(weft_loc *loc, void *context)
{
    (void)context;
    if (weft__spill_active(loc))
        return;
    const weft_open_scopes *open = &loc->open;
    uint32_t outermost = outermost_team(open);
    for (uint32_t i = outermost; i < open->depth; i++) {
        const weft_scope *team = &open->items[i];
        if (team->kind != WEFT_SCOPE_TEAM)
            continue;
        const weft_scope *in_barrier = NULL;
        for (uint32_t j = i + 1; j < open->depth && !in_barrier; j++) {
            const weft_scope *s = &open->items[j];
            if (s->kind == WEFT_SCOPE_TEAM)
                break;
            if (s->kind == WEFT_SCOPE_REGION && weft__barrier_region(s->id))
                in_barrier = s;
        }
        team_plan *plan = plan_of(team->id, true);
        if (!plan)
            return;
        if (i == outermost && in_earlier_run(loc, team->id, plan))
            continue;
        uint32_t final = team->barriers + (in_barrier ? 1 : 0);
        if (final > plan->most)
            plan->most = final;
        if (in_barrier && !plan->has_region) {
            plan->region = in_barrier->id;
            plan->has_region = true;
        }
    }
}

void weft__barriers_plan(void)
{
    plan_count = 0;
    weft__loc_for_each(plan_runs, NULL);
    weft__loc_for_each(plan_barriers, NULL);
}

uint32_t weft__barriers_missing(weft_loc *loc, const weft_scope *scope, uint32_t *region)
{
    weft_open_scopes *open = &loc->open;
    weft_scope *below = open->depth > 0 ? &open->items[open->depth - 1] : NULL;
    uint32_t have;
    uint32_t team;
    if (scope->kind == WEFT_SCOPE_TEAM) {
        team = scope->id;
        have = scope->barriers;
    } else if (scope->kind == WEFT_SCOPE_REGION && below && below->kind == WEFT_SCOPE_TEAM) {
        team = below->id;
        have = below->barriers;
    } else {
        return 0;
    }
    const team_plan *plan = plan_of(team, false);
    if (!plan || !plan->has_region || plan->most <= have || in_earlier_run(loc, team, plan))
        return 0;
    if (scope->kind != WEFT_SCOPE_TEAM)
        below->barriers = plan->most; /* the team's own closing adds none */
    *region = plan->region;
    return plan->most - have;
}

bool weft__barriers_missing_run(const weft_loc *loc, uint32_t *team, uint32_t *parallel,
                                uint32_t *barriers, uint32_t *region)
{
    uint32_t runs = outer_runs(loc);
    if (runs == 0 || outermost_team(&loc->open) != loc->open.depth)
        return false; /* only a thread in no team: the run is of its outermost one */
    const team_plan *plan = plan_of(loc->outer_team, false);
    if (!plan || !plan->has_parallel || plan->runs != runs + 1)
        return false;
    *team = loc->outer_team;
    *parallel = plan->parallel;
    *barriers = plan->has_region ? plan->most : 0;
    *region = plan->region;
    return true;
}

void weft__barriers_forget(void)
{
    weft_free(plans);
    plans = NULL;
    plan_count = plan_capacity = 0;
    weft_free(weft__barrier_kinds);
    weft__barrier_kinds = NULL;
    weft__barrier_kinds_size = 0;
}
