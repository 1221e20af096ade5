/* SPDX-License-Identifier: BSD-3-Clause */
/* The POMP2 adapter's internals, shared by its entry files (pomp2_c.c for
 * C/C++, pomp2_fortran.c for gfortran) and its modules.
 *
 * OPARI2 hands every construct a handle variable in the application
 * (`OPARI2_Region_handle`, a void*; INTEGER*8 in Fortran) that starts NULL.
 * We store in it a pointer to a pomp_region: the construct's weft regions,
 * registered once from its CTC string. The entry points then only load the
 * handle and record events: nothing on the hot path parses strings. */
#ifndef WEFT_ADAPTERS_POMP_INTERNAL_H
#define WEFT_ADAPTERS_POMP_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "weft/ctc.h"
#include "weft/definitions.h"

/* The parts of a construct that are regions of their own. */
typedef enum pomp_part {
    POMP_MAIN,          /* parallel, for, single, critical, user region, ... */
    POMP_WORK,          /* the worksharing part: for/do/sections/workshare (of a
                           combined parallel construct too) */
    POMP_BLOCK,         /* single/critical/ordered sblock, section, task body */
    POMP_BARRIER,       /* the implicit barrier at the construct's end */
    POMP_CREATE,        /* task creation */
    POMP_UNTIED_BLOCK,  /* the same two for POMP2_Untied_task_* (OPARI2 calls them */
    POMP_UNTIED_CREATE, /* when told to keep untied tasks): the same regions */
    POMP_PART_COUNT
} pomp_part;

/* Regions of the merged proposal's events that POMP2 has no events for,
 * defined on first use from the construct's worksharing part: a loop's
 * chunks and iterations, a workshare's block (Workshare_begin/end). */
typedef enum pomp_sub {
    POMP_SUB_CHUNK,
    POMP_SUB_ITERATION,
    POMP_SUB_WORKSHARE_BLOCK,
    POMP_SUB_COUNT
} pomp_sub;

/* One instrumented construct. A part the construct does not have holds its
 * main region, so a mismatched call still records a valid, balanced pair
 * (e.g. Section_begin on a handle that is not a sections). */
typedef struct pomp_region {
    weft_region part[POMP_PART_COUNT];
    weft_ctc_construct construct;
    uint32_t lock_id;             /* critical: the lock of its name */
    uint32_t sub[POMP_SUB_COUNT]; /* region ids, WEFT_INVALID_ID until defined */
} pomp_region;

/* The construct behind a handle, registering it from ctc (ctc_len bytes at
 * most) when the handle is still unset. Thread-safe: concurrent callers
 * agree on one pomp_region. Without a handle or a readable CTC string, a
 * shared "unknown construct" region is returned, never NULL. */
const pomp_region *weft__pomp_region_of(void **handle, const char *ctc, size_t ctc_len);

/* The same from a construct description another dialect made (POMP 1's
 * descriptors); described may not be NULL. */
const pomp_region *weft__pomp_region_described(void **handle, const weft_ctc_region *described);

/* The same for the merged POMP proposal: its CTC dialect; *malformed tells
 * whether this call registered the handle from a malformed string. */
const pomp_region *weft__pomp_region_of_proposal(void **handle, const char *ctc, bool *malformed);

/* One of those regions of a construct (merged proposal). */
weft_region weft__pomp_subregion(const pomp_region *r, pomp_sub which);

/* The same for calls that carry no CTC string (the handle was set by an
 * earlier call or by POMP2_Init_regions). */
const pomp_region *weft__pomp_region_known(void **handle);

/* POMP2_Assign_handle: registers ctc into *handle unless it is set. */
void weft__pomp_assign(void **handle, const char *ctc, size_t ctc_len);

/* Enter and leave one part of a construct. A part whose region could not be
 * registered (out of memory) records nothing. */
void weft__pomp_enter_part(const pomp_region *r, pomp_part part);
void weft__pomp_leave_part(const pomp_region *r, pomp_part part);
/* The same at a time taken earlier (weft_now); return the time recorded
 * (see weft_enter_at), to pass on to the next event of the group. */
uint64_t weft__pomp_enter_part_at(const pomp_region *r, pomp_part part, uint64_t time);
uint64_t weft__pomp_leave_part_at(const pomp_region *r, pomp_part part, uint64_t time);

/* Region enter and leave of one part of the construct behind a handle; the
 * enter registers the handle from ctc when it is unset. */
void weft__pomp_enter(void **handle, const char *ctc, size_t ctc_len, pomp_part part);
void weft__pomp_leave(void **handle, pomp_part part);

/* POMP2_Init: starts recording and defines every instrumented region. */
void weft__pomp_init(void);

/* Runs the application's POMP2_Init_regions / POMP2_USER_Init_regions once
 * (they exist when the program was linked by `weft compile`). */
void weft__pomp_init_regions(void);

/* ---- threads, teams and tasks (pomp_threads.c) --------------------------- */

/* A task as OPARI2 passes it around (POMP2_Task_handle): the creating
 * thread's number in its team in the upper half, the generation below;
 * generation 0 is a thread's implicit task. */
typedef int64_t pomp_task;

/* Parallel regions, on the forking thread and on every team member. */
void weft__pomp_fork(int if_clause, int num_threads, pomp_task *old_task);
void weft__pomp_join(pomp_task old_task);
void weft__pomp_team_begin(const pomp_region *r);
/* Fork and join for dialects that pass no task handle to the join: the
 * forking thread keeps it (16 nested forks deep). */
void weft__pomp_fork_keeping_task(int if_clause, int num_threads);
void weft__pomp_join_kept_task(void);
void weft__pomp_team_end(const pomp_region *r);

/* Scheduling points (barriers, taskwait): remember the running task at the
 * start; at the end switch back to it if another task ran meanwhile. */
pomp_task weft__pomp_current_task(void);
void weft__pomp_resume(pomp_task old_task);

/* Explicit tasks: a fresh task id (generation 0 never: a wrap skips it),
 * and one with its ThreadTaskCreate event. The events of a task's
 * creation, start and end follow each other with nothing in between and
 * share one timestamp: the _at functions record at `time` and return the
 * time recorded. */
pomp_task weft__pomp_new_task_handle(void);
uint64_t weft__pomp_new_task_at(pomp_task *task, uint64_t time);
uint64_t weft__pomp_switch_into_at(pomp_task task, uint64_t time);
uint64_t weft__pomp_complete_task_at(uint64_t time);

/* The nesting depth of an OpenMP nest lock the calling thread holds, after
 * counting one more (acquire) or one less (release) level. */
uint32_t weft__pomp_nest_enter(uint32_t lock_id);
uint32_t weft__pomp_nest_leave(uint32_t lock_id);

#endif /* WEFT_ADAPTERS_POMP_INTERNAL_H */
