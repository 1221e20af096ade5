/* Replays task-scheduling callback sequences that libomp reported in real
 * runs into libweft-ompt, in a fixed order across two threads, so that a
 * sequence libomp produces only now and then (it depends on which thread
 * takes a queued untied part first) is tested on every run. The tool is
 * the real one (ompt_start_tool, its callbacks, the recorder writing the
 * trace at exit); this program plays the runtime's part, with real
 * threads, and the test reads the trace back (trace_regions, weft check).
 * The sequences were taken from libweft-ompt with a callback log:
 *
 *   replay_schedule nested-yield    an untied task yields before it has
 *       recorded anything; a second runs nested in that taskyield, yields
 *       to a third, which returns to it; each part then returns to the task
 *       it ran in (libomp's scheduling parent), the first to the implicit
 *       task. (tests/ompt/untied_nested_yield.c, 4 threads)
 *   replay_schedule straight-on     a part of P returns, the thread goes
 *       straight on into Q, whose first part only requeues it; then Q starts
 *       again on the same thread: the switch back from P stays left out
 *       (recorded when Q's start is taken back, it came right before Q's
 *       next start, the shape Scalasca's analyzer crashes on). (the same
 *       program)
 *   replay_schedule empty-start     an untied task's first part only requeues
 *       it on thread 0; thread 1 runs it: its start shows on thread 1 only.
 *   replay_schedule moves           a part of an untied task returns on
 *       thread 0 after recording something; thread 1 resumes it: its region
 *       shows once on each thread, each left where it was entered.
 *   replay_schedule overlap         thread 0 runs a part of an untied task
 *       that records something and returns; thread 1 resumes it, and thread
 *       0, whose part finishes last, reports the completion: thread 1 gets
 *       no task callback before it leaves its barrier (untied_yield.c, 2
 *       threads under load).
 *   replay_schedule part-elsewhere  inside T's taskwait thread 0 starts U,
 *       whose first part requeues it; thread 1 takes U and runs it, and
 *       thread 0's part, finishing last, reports U's completion back to T.
 *       (BOTS health, untied, 4 threads)
 */
#include <omp-tools.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

ompt_start_tool_result_t *ompt_start_tool(unsigned int omp_version, const char *runtime_version);

enum op {
    CREATE,
    SCHEDULE,
    CRITICAL,
    TASKWAIT_BEGIN,
    TASKWAIT_END,
    BARRIER_BEGIN,
    BARRIER_END,
    END
};
enum { THREADS = 2, TASKS = 8 };

/* One callback (or group) on one thread. Task 0 is the thread's implicit
 * task, 1.. explicit tasks; CREATE creates task `a` (untied). */
typedef struct step {
    int thread;
    enum op op;
    int a;
    ompt_task_status_t status;
    int b;
} step;

#define DO(th, o)                                                                                  \
    {                                                                                              \
        .thread = (th), .op = (o)                                                                  \
    }
/* A sync region in task `task` (the task the runtime names in it). */
#define IN(th, o, task)                                                                            \
    {                                                                                              \
        .thread = (th), .op = (o), .a = (task)                                                     \
    }
#define NEW(th, task)                                                                              \
    {                                                                                              \
        .thread = (th), .op = CREATE, .a = (task)                                                  \
    }
#define SWITCH(th, from, st, to)                                                                   \
    {                                                                                              \
        .thread = (th), .op = SCHEDULE, .a = (from), .status = (st), .b = (to)                     \
    }
static const step nested_yield[] = {
    NEW(0, 1),
    NEW(0, 2),
    NEW(0, 3),
    SWITCH(0, 0, ompt_task_switch, 1), /* 1 starts, records nothing */
    SWITCH(0, 1, ompt_task_yield, 2),  /* 2 runs in 1's taskyield */
    DO(0, CRITICAL),
    SWITCH(0, 2, ompt_task_yield, 3), /* 3 runs in 2's taskyield */
    DO(0, CRITICAL),
    SWITCH(0, 3, ompt_task_switch, 2), /* 3's part returns */
    SWITCH(0, 2, ompt_task_switch, 1), /* 2's part returns */
    SWITCH(0, 1, ompt_task_switch, 0), /* 1's part returns */
    SWITCH(0, 0, ompt_task_switch, 3),
    DO(0, CRITICAL),
    SWITCH(0, 3, ompt_task_complete, 0),
    SWITCH(0, 0, ompt_task_switch, 2),
    DO(0, CRITICAL),
    SWITCH(0, 2, ompt_task_complete, 0),
    SWITCH(0, 0, ompt_task_switch, 1),
    DO(0, CRITICAL),
    SWITCH(0, 1, ompt_task_complete, 0),
    DO(0, END),
    DO(1, END)};

static const step straight_on[] = {
    NEW(0, 1),
    NEW(0, 2),
    SWITCH(0, 0, ompt_task_switch, 1),
    DO(0, CRITICAL),
    SWITCH(0, 1, ompt_task_switch, 0), /* 1's part returns */
    SWITCH(0, 0, ompt_task_switch, 2), /* straight on into 2 */
    SWITCH(0, 2, ompt_task_switch, 0), /* 2's first part requeues it */
    SWITCH(0, 0, ompt_task_switch, 2),
    DO(0, CRITICAL),
    SWITCH(0, 2, ompt_task_complete, 0),
    SWITCH(0, 0, ompt_task_switch, 1),
    DO(0, CRITICAL),
    SWITCH(0, 1, ompt_task_complete, 0),
    DO(0, END),
    DO(1, END)};

static const step empty_start[] = {
    NEW(0, 1),
    SWITCH(0, 0, ompt_task_switch, 1), /* its first part requeues it */
    SWITCH(0, 1, ompt_task_switch, 0),
    SWITCH(1, 0, ompt_task_switch, 1),
    DO(1, CRITICAL),
    SWITCH(1, 1, ompt_task_complete, 0),
    DO(0, END),
    DO(1, END)};

static const step moves[] = {
    NEW(0, 1),
    SWITCH(0, 0, ompt_task_switch, 1),
    DO(0, CRITICAL),
    SWITCH(0, 1, ompt_task_switch, 0), /* the part returns at a taskyield */
    DO(0, CRITICAL),                   /* thread 0 goes on in its implicit task */
    SWITCH(1, 0, ompt_task_switch, 1),
    DO(1, CRITICAL), /* thread 1 resumes it */
    SWITCH(1, 1, ompt_task_complete, 0),
    DO(0, END),
    DO(1, END)};

static const step overlap[] = {
    NEW(0, 1),
    DO(0, BARRIER_BEGIN),
    DO(1, BARRIER_BEGIN),
    SWITCH(0, 0, ompt_task_switch, 1),
    DO(0, CRITICAL),
    SWITCH(0, 1, ompt_task_switch, 0),   /* its part returns, the rest queued */
    SWITCH(1, 0, ompt_task_switch, 1),   /* thread 1 resumes it */
    SWITCH(0, 1, ompt_task_complete, 0), /* thread 0's part ends last */
    DO(1, BARRIER_END),
    DO(0, BARRIER_END),
    DO(0, END),
    DO(1, END)};

static const step part_elsewhere[] = {
    NEW(0, 1),
    NEW(0, 3), /* the team's threads take tasks in the barrier */
    DO(0, BARRIER_BEGIN),
    DO(1, BARRIER_BEGIN),
    SWITCH(0, 0, ompt_task_switch, 1),
    DO(0, CRITICAL),
    NEW(0, 2),
    IN(0, TASKWAIT_BEGIN, 1),
    SWITCH(0, 1, ompt_task_switch, 2), /* 2 starts in 1's taskwait */
    SWITCH(0, 2, ompt_task_switch, 1), /* its first part requeues it */
    SWITCH(1, 0, ompt_task_switch, 2),
    DO(1, CRITICAL),                     /* thread 1 runs 2 */
    SWITCH(0, 2, ompt_task_complete, 1), /* thread 0's part ends last */
    SWITCH(1, 0, ompt_task_switch, 3),   /* thread 1 left 2 unreported */
    DO(1, CRITICAL),
    SWITCH(1, 3, ompt_task_complete, 0),
    IN(0, TASKWAIT_END, 1),
    DO(0, CRITICAL),
    SWITCH(0, 1, ompt_task_complete, 0),
    DO(0, BARRIER_END),
    DO(1, BARRIER_END),
    DO(0, END),
    DO(1, END)};

static ompt_callback_t callbacks[64];
static ompt_data_t parallel_data, initial_task, implicit_tasks[THREADS], tasks[TASKS];
static const step *steps;
static atomic_int turn;
static int critical_lock;

static void site(void)
{
} /* the constructs' code address */

static ompt_set_result_t set_callback(ompt_callbacks_t event, ompt_callback_t callback)
{
    if ((size_t)event >= sizeof(callbacks) / sizeof(callbacks[0]))
        return ompt_set_never;
    callbacks[event] = callback;
    return ompt_set_always;
}

static ompt_interface_fn_t lookup(const char *name)
{
    return strcmp(name, "ompt_set_callback") == 0 ? (ompt_interface_fn_t)set_callback : NULL;
}

/* Calls the tool's handler of `event`, of type ompt_callback_TYPE_t. */
#define CALL_AS(type, event, ...)                                                                  \
    do {                                                                                           \
        if (callbacks[ompt_callback_##event])                                                      \
            ((ompt_callback_##type##_t)callbacks[ompt_callback_##event])(__VA_ARGS__);             \
    } while (0)
#define CALL(event, ...) CALL_AS(event, event, __VA_ARGS__)

static ompt_data_t *task_data(int thread, int task)
{
    return task == 0 ? &implicit_tasks[thread] : &tasks[task];
}

static void play(const step *s)
{
    const void *at = (const void *)(size_t)site;
    ompt_wait_id_t lock = (ompt_wait_id_t)(size_t)&critical_lock;
    switch (s->op) {
    case CREATE:
        CALL(task_create, task_data(s->thread, 0), NULL, &tasks[s->a],
             ompt_task_explicit | ompt_task_untied, 0, at);
        break;
    case SCHEDULE:
        CALL(task_schedule, task_data(s->thread, s->a), s->status, task_data(s->thread, s->b));
        break;
    case CRITICAL:
        CALL(mutex_acquire, ompt_mutex_critical, 0, 0, lock, at);
        CALL_AS(mutex, mutex_acquired, ompt_mutex_critical, lock, at);
        CALL_AS(mutex, mutex_released, ompt_mutex_critical, lock, at);
        break;
    case TASKWAIT_BEGIN: /* in task a */
    case TASKWAIT_END:
        CALL(sync_region, ompt_sync_region_taskwait,
             s->op == TASKWAIT_BEGIN ? ompt_scope_begin : ompt_scope_end, &parallel_data,
             task_data(s->thread, s->a), at);
        break;
    case BARRIER_BEGIN:
    case BARRIER_END:
        CALL(sync_region, ompt_sync_region_barrier_implicit_parallel,
             s->op == BARRIER_BEGIN ? ompt_scope_begin : ompt_scope_end, &parallel_data,
             task_data(s->thread, 0), at);
        break;
    case END:
        break;
    }
}

/* Plays this thread's steps, each when its turn comes. */
static void *member(void *arg)
{
    int thread = (int)(size_t)arg;
    CALL(implicit_task, ompt_scope_begin, &parallel_data, &implicit_tasks[thread], THREADS,
         (unsigned)thread, ompt_task_implicit);
    for (int i = 0;; i++) { /* every thread's steps end with an END */
        if (steps[i].thread != thread)
            continue;
        while (atomic_load(&turn) != i)
            ;
        play(&steps[i]);
        atomic_store(&turn, i + 1);
        if (steps[i].op == END)
            break;
    }
    CALL(implicit_task, ompt_scope_end, &parallel_data, &implicit_tasks[thread], THREADS,
         (unsigned)thread, ompt_task_implicit);
    return NULL;
}

int main(int argc, char **argv)
{
    const char *name = argc > 1 ? argv[1] : "";
    steps = strcmp(name, "nested-yield") == 0     ? nested_yield
            : strcmp(name, "straight-on") == 0    ? straight_on
            : strcmp(name, "empty-start") == 0    ? empty_start
            : strcmp(name, "moves") == 0          ? moves
            : strcmp(name, "overlap") == 0        ? overlap
            : strcmp(name, "part-elsewhere") == 0 ? part_elsewhere
                                                  : NULL;
    if (!steps) {
        fprintf(stderr, "usage: replay_schedule "
                        "nested-yield|straight-on|empty-start|moves|overlap|part-elsewhere\n");
        return 2;
    }
    ompt_start_tool_result_t *tool = ompt_start_tool(201811, "weft replay_schedule");
    ompt_data_t tool_data = {0};
    if (!tool || !tool->initialize(lookup, 0, &tool_data)) {
        fprintf(stderr, "replay_schedule: the tool did not start\n");
        return 1;
    }
    CALL(implicit_task, ompt_scope_begin, NULL, &initial_task, 1, 1, ompt_task_initial);
    CALL(parallel_begin, &initial_task, NULL, &parallel_data, THREADS,
         ompt_parallel_invoker_runtime | ompt_parallel_team, (const void *)(size_t)site);
    pthread_t other;
    pthread_create(&other, NULL, member, (void *)1);
    member((void *)0);
    pthread_join(other, NULL);
    CALL(parallel_end, &parallel_data, &initial_task, ompt_parallel_invoker_runtime, NULL);
    tool->finalize(&tool_data);
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
