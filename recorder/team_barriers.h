/* SPDX-License-Identifier: BSD-3-Clause */
/* OpenMP barriers per thread team, as the sink writes them.
 *
 * Scalasca's analyzer meets its own threads at every OpenMP barrier of a
 * team it replays, so every thread of a team must leave the same number of
 * barriers (weft check: check_barriers.c). A program ended by a signal or
 * exit() inside a parallel region breaks that when one thread waits in a
 * barrier another has not reached: the sink closes the waiting thread's
 * barrier, and the others never had it. So the sink counts, in each open
 * team scope, the barriers its thread left there; at the end it finds, per
 * team, the most any thread will have once its open barrier is closed, and
 * the closing of a thread with fewer adds the barrier the others are in,
 * at the end time, before leaving the team's outermost region. Likewise a
 * thread that had not begun the run of its team another thread is in gets
 * that run, after its own open run (if it was still in the one before) is
 * closed. Threads whose events wait in the spill file at the end are not
 * counted. */
#ifndef WEFT_RECORDER_TEAM_BARRIERS_H
#define WEFT_RECORDER_TEAM_BARRIERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "open_scopes.h"
#include "weft/compiler.h"

struct weft_loc;

/* Per region id: 0 not looked up yet, 1 an OpenMP barrier, 2 not. Read and
 * grown under the sink's mutex. */
extern uint8_t *weft__barrier_kinds;
extern size_t weft__barrier_kinds_size;

bool weft__barrier_region_slow(uint32_t region);

/* Whether REGION is an OpenMP barrier (explicit or implicit). */
static inline bool weft__barrier_region(uint32_t region)
{
    if (WEFT_LIKELY(region < weft__barrier_kinds_size && weft__barrier_kinds[region] != 0))
        return weft__barrier_kinds[region] == 1;
    return weft__barrier_region_slow(region);
}

/* A barrier was left on the location whose scopes are OPEN: counted in its
 * innermost team scope. */
void weft__barriers_left(weft_open_scopes *open);

/* LOC began TEAM as its outermost team: counted per team. */
void weft__barriers_team_begun(struct weft_loc *loc, uint32_t team);

/* Frees LOC's counts of team begins (after its end's closing). */
void weft__barriers_forget_runs(struct weft_loc *loc);

/* At the end, before any location's scopes are closed: the most barriers
 * each open team will have on any of its threads. */
void weft__barriers_plan(void);

/* Before closing SCOPE, just popped from LOC's open scopes: how many
 * barriers to add first (the scope is the outermost region in a team, or a
 * team with no region open in it) and which barrier region (*region); the
 * team scope below then counts them. 0 outside the end's closing, and for
 * a thread still in an earlier run of its outermost team than the latest
 * (the barriers counted are the latest run's). */
uint32_t weft__barriers_missing(struct weft_loc *loc, const weft_scope *scope, uint32_t *region);

/* At the end, for a location in no team (nothing more open, or the master
 * about to close the fork of that run): whether its thread had not yet
 * begun the run of its outermost team that another thread is in (a signal
 * between the two begins), and then the team, the region the
 * other thread is in inside it, and the barriers (of REGION) it has there.
 * The sink writes that run at the end time. */
bool weft__barriers_missing_run(const struct weft_loc *loc, uint32_t *team, uint32_t *parallel,
                                uint32_t *barriers, uint32_t *region);

/* Frees the plan (after the end's closing) and the region kinds. */
void weft__barriers_forget(void);

#endif /* WEFT_RECORDER_TEAM_BARRIERS_H */
