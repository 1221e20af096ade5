/* SPDX-License-Identifier: BSD-3-Clause */
/* Keeping a location's scopes balanced across a pause of recording.
 *
 * While recording is paused (weft_user_off, POMP2_Off, omp_control_tool
 * pause) nothing is recorded, but a thread goes on entering and leaving
 * regions, beginning and ending teams, taking and releasing locks. Left
 * alone, a region entered before the pause and left during it would never
 * be closed, and one entered during the pause and left after it would be
 * closed without an opening. So each location tracks, in its slow path, the
 * scopes opened since the pause began:
 *
 *   - an opening while paused is not recorded; it is pushed as unrecorded;
 *   - a closing that matches a pushed scope is recorded exactly when its
 *     opening was, and removes it;
 *   - a closing with no pushed match closes a scope opened before the pause:
 *     it is recorded, at its true time, even while paused;
 *   - after the pause, the location stays on the slow path (openings are
 *     pushed as recorded) until everything pushed is closed.
 *
 * Scopes are regions (enter/leave), thread teams (begin/end), forks (fork/
 * join), locks (acquire/release, matched by lock id in any order) and MPI
 * collectives (begin/end: a pause switched on by another thread while this
 * one waits in a collective must not cut the collective in half). Other
 * events are simply not recorded while paused. */
#ifndef WEFT_RECORDER_PAUSE_H
#define WEFT_RECORDER_PAUSE_H

#include <stdbool.h>
#include <stdint.h>

typedef struct weft_pause_scope {
    uint32_t ref;  /* region, team or lock id; 0 for a fork or a collective */
    uint8_t kind;  /* the opening event's kind */
    bool recorded; /* its opening is in the trace */
} weft_pause_scope;

typedef struct weft_pause_stack {
    weft_pause_scope *items; /* innermost last */
    uint32_t depth, capacity;
} weft_pause_stack;

/* Decides whether an event of this kind and ref, on the calling thread's
 * stack, is recorded now that recording is `paused` (or not), and keeps the
 * stack up to date. */
bool weft__pause_admit(weft_pause_stack *stack, uint8_t kind, uint32_t ref, bool paused);

void weft__pause_free(weft_pause_stack *stack);

#endif /* WEFT_RECORDER_PAUSE_H */
