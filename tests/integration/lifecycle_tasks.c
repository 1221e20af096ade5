/* The "task-undo" case of the lifecycle program (lifecycle.c): a team of
 * one thread through the recorder API, one task, and every answer of
 * weft_task_switch_undo, printed as
 * "undo LAST AGAIN NOT_LAST OTHER_REGION START FIELDS NULL" (1: taken
 * back). Taken back are the switch just recorded (LAST) and a switch with
 * the Enter of the task's region after it (START); not taken back are the
 * same position a second time (nothing there any more), a switch followed
 * by an Enter when only the switch is named, a switch and an Enter of
 * another region, a switch to another task, and no position. The trace
 * then holds the task's creation, one switch into it, its region, its
 * completion and the switch back to the implicit task. */
#include <stdio.h>

#include "weft/recorder.h"
#include "weft/user.h"

/* A user region (its handle is its region id). */
static weft_region define(const char *name)
{
    uint32_t handle = WEFT_USER_HANDLE_UNSET;
    return (weft_region){weft_user_region_register(&handle, name, __FILE__, __LINE__, 1)};
}

void lifecycle_task_undo(void);

void lifecycle_task_undo(void)
{
    weft_region parallel = define("parallel"), body = define("task body");
    weft_comm team = WEFT_COMM_INVALID;
    weft_comm_desc desc = {.paradigm = WEFT_PARADIGM_OPENMP, .parent = WEFT_COMM_INVALID, .key = 1};
    weft_registry_comm(weft_defs_global(), &desc, &team);
    weft_thread_fork(WEFT_PARADIGM_OPENMP, 1);
    weft_thread_team_begin(team, 0);
    weft_enter(parallel);
    weft_task_create(team, 0, 1);

    const void *at = weft_event_position();
    weft_task_switch(team, 0, 1);
    bool last = weft_task_switch_undo(at, team, 0, 1, WEFT_REGION_INVALID);
    bool again = weft_task_switch_undo(at, team, 0, 1, WEFT_REGION_INVALID);

    at = weft_event_position();
    weft_task_switch(team, 0, 1);
    weft_enter(body);
    bool not_last = weft_task_switch_undo(at, team, 0, 1, WEFT_REGION_INVALID);
    bool other_region = weft_task_switch_undo(at, team, 0, 1, parallel);
    bool start = weft_task_switch_undo(at, team, 0, 1, body);

    at = weft_event_position();
    weft_task_switch(team, 0, 1);
    bool fields = weft_task_switch_undo(at, team, 0, 2, WEFT_REGION_INVALID);
    weft_enter(body);
    weft_leave(body);
    weft_task_complete(team, 0, 1);
    weft_task_switch(team, 0, 0);
    bool null_position = weft_task_switch_undo(NULL, team, 0, 0, WEFT_REGION_INVALID);

    weft_leave(parallel);
    weft_thread_team_end(team);
    weft_thread_join(WEFT_PARADIGM_OPENMP);
    printf("undo %d %d %d %d %d %d %d\n", last, again, not_last, other_region, start, fields,
           null_position);
}
/* SPDX-License-Identifier: BSD-3-Clause */
