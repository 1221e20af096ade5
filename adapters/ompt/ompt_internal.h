/* SPDX-License-Identifier: BSD-3-Clause */
/* The OMPT tool's internals (libweft-ompt), shared by its modules:
 * ompt_tool.c (start-up, callback registration, omp_control_tool),
 * ompt_regions.c (code address + construct -> weft region),
 * ompt_thread.c (per-thread state: teams, open regions, tasks, mutexes),
 * ompt_parallel.c (threads, parallel regions, work, barriers),
 * ompt_sync.c (locks, critical, ordered, atomic, flush, cancel),
 * ompt_tasks.c (explicit tasks).
 *
 * The event structure is the POMP2 adapter's (docs/OPENMP-POMP2.md), so a
 * trace of an unmodified program through OMPT reads like the trace of the
 * same program instrumented by OPARI2; docs/OPENMP-OMPT.md lists what each
 * callback records and where the two differ. */
#ifndef WEFT_ADAPTERS_OMPT_INTERNAL_H
#define WEFT_ADAPTERS_OMPT_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include <omp-tools.h>

#include "weft/definitions.h"

/* The constructs a region is keyed by, together with its code address. */
typedef enum ompt_construct {
    OC_PARALLEL,
    OC_IMPLICIT_BARRIER,
    OC_BARRIER,
    OC_LOOP,
    OC_SECTIONS,
    OC_SINGLE,
    OC_SINGLE_SBLOCK,
    OC_WORKSHARE,
    OC_DISTRIBUTE,
    OC_TASKLOOP,
    OC_SCOPE,
    OC_MASTER,
    OC_CRITICAL,
    OC_CRITICAL_SBLOCK,
    OC_ORDERED,
    OC_ORDERED_SBLOCK,
    OC_ATOMIC,
    OC_TASKWAIT,
    OC_TASKGROUP,
    OC_TASK_CREATE,
    OC_TASK,
    OC_TASK_UNTIED,
    OC_TASK_UNTIED_CREATE,
    OC_FLUSH,
    OC_CANCEL,
    OC_COUNT
} ompt_construct;

/* The tool's entry point, which the runtime looks up (OpenMP 5.0 §4.2.1). */
ompt_start_tool_result_t *ompt_start_tool(unsigned int omp_version, const char *runtime_version);

/* ---- ompt_regions.c ------------------------------------------------------ */

/* Where the runtime itself lives: any address inside its object (a code
 * address there is no construct of the program). */
void weft__ompt_set_runtime_address(const void *address_in_runtime);

/* The region of construct c at codeptr ("!$omp for @file.c:LINE"). A NULL
 * codeptr, or one inside the runtime, stands for `fallback` (the enclosing
 * parallel region's address; may be NULL too: then the region has no
 * location in its name). Cached per thread; a new (address, construct) is
 * symbolised once per process. WEFT_REGION_INVALID when registration
 * failed (reported once). */
weft_region weft__ompt_region(const void *codeptr, ompt_construct c, const void *fallback);

/* The program's call site of the runtime call that reports a construct,
 * found on the stack, for callbacks whose codeptr_ra the runtime lost
 * (ompt_callsite.c); NULL when there is none. _init once, at tool start,
 * with an address inside the runtime. */
void weft__ompt_callsite_init(const void *address_in_runtime);
const void *weft__ompt_callsite(void);

/* The OpenMP lock routines, named like the POMP2 adapter's wrapper regions
 * ("omp_set_lock", file "OMP"). */
typedef enum ompt_lock_routine {
    LR_INIT_LOCK,
    LR_DESTROY_LOCK,
    LR_SET_LOCK,
    LR_UNSET_LOCK,
    LR_TEST_LOCK,
    LR_INIT_NEST_LOCK,
    LR_DESTROY_NEST_LOCK,
    LR_SET_NEST_LOCK,
    LR_UNSET_NEST_LOCK,
    LR_TEST_NEST_LOCK,
    LR_COUNT
} ompt_lock_routine;
weft_region weft__ompt_lock_region(ompt_lock_routine routine);

/* ---- ompt_thread.c ------------------------------------------------------- */

enum {
    OMPT_MAX_NESTING = 16,  /* parallel regions a thread is in, or forked, at once */
    OMPT_OPEN_INLINE = 256, /* open regions held in the thread's state; more grow it */
    OMPT_MAX_MUTEX = 32,    /* mutexes a thread waits for or holds at once */
};

/* A parallel region as its forking thread describes it to the team, through
 * the runtime's parallel_data. */
typedef struct ompt_fork {
    weft_region parallel;
    const void *codeptr;
    weft_comm parent_team; /* the forking thread's team, or the initial one */
    uint32_t forker;       /* the forking thread's number in that team */
} ompt_fork;

/* A team this thread is a member of. */
typedef struct ompt_member {
    weft_comm team;
    weft_region parallel;
    const void *codeptr;
    uint32_t thread_num;
} ompt_member;

/* A mutex construct or lock routine in progress on this thread. */
typedef struct ompt_mutex_scope {
    ompt_wait_id_t wait_id;
    ompt_mutex_t kind;
    weft_region outer, block; /* block: INVALID before acquisition */
    weft_region block_pending;
    uint32_t lock_id;
} ompt_mutex_scope;

/* What opened a region on a thread's stack; an end callback closes the
 * innermost region of its own kind (see weft__ompt_pop). */
typedef enum ompt_scope_kind {
    SCOPE_PARALLEL,
    SCOPE_WORK,
    SCOPE_SYNC,
    SCOPE_MASKED,
    SCOPE_TASK
} ompt_scope_kind;

typedef struct ompt_open_region {
    weft_region region;
    uint8_t kind; /* ompt_scope_kind */
    /* SCOPE_TASK: the task (packed, without its state bits, see ompt_tasks.c)
     * and the task this thread was in when it started or resumed it here. */
    uint64_t task, from;
} ompt_open_region;

typedef struct ompt_thread {
    /* The number of the team of a host `teams` league whose initial task
     * the thread runs (0 outside one): the key of the teams it forks, so
     * each league team's are its own (ompt_parallel.c). */
    uint32_t league_team;
    /* The key of the teams the thread forks outside any team and league
     * (weft__ompt_root_key); 0 until its first such fork. */
    uint32_t root_key;
    uint32_t fork_depth;
    ompt_fork forks[OMPT_MAX_NESTING];
    uint32_t member_depth;
    ompt_member members[OMPT_MAX_NESTING];
    /* The thread's open regions, innermost last: `open` is `open_inline`
     * until a deeper nesting (a recursive task search hundreds of levels
     * deep) grows it on the heap. Overflow counts regions not recorded
     * because that memory could not be had. */
    uint32_t open_depth, open_capacity, open_overflow;
    ompt_open_region *open;
    ompt_open_region open_inline[OMPT_OPEN_INLINE];
    uint32_t mutex_depth;
    ompt_mutex_scope mutex[OMPT_MAX_MUTEX];
    bool lock_waiting; /* a lock routine's acquire without acquired yet */
    uint32_t held_count;
    struct {
        uint32_t lock_id, order;
    } held[OMPT_MAX_MUTEX]; /* locks held, with their acquisition orders */
    uint64_t current_task; /* packed, see ompt_tasks.c */
    /* The task this thread last switched away from without its completing,
     * the task it switched to, and where that switch was recorded
     * (weft_event_position): a switch straight back takes it back
     * (ompt_tasks.c). Task 0: none. */
    struct ompt_left {
        uint64_t task, to;
        const void *at;
    } left;
    /* A task whose part returned to the runtime's queue (ompt_tasks.c),
     * not recorded yet: its scopes are still on the stack. The thread's next
     * callback records it (the Leaves and the switch to `to`, at `time`)
     * unless that callback takes the task straight back. Task 0: none.
     * `left`: its Leaves are recorded already, only the switch back is
     * pending (a start straight on from it was taken back). */
    struct ompt_parking {
        uint64_t task, to, time, resumes_then;
        const void *at; /* the thread's event position then */
        bool left;
    } parking;
    /* The task this thread last started (its switch and Enter recorded at
     * `at`), the task it was in before, its scope depth then and the parked
     * task whose switch back was left out for this start (0: none): a
     * switch back to `from` with nothing recorded since takes the start back
     * (ompt_tasks.c). Task 0: none. */
    struct ompt_started {
        uint64_t task, from;
        const void *at;
        uint32_t depth;
        uint64_t parked;
    } started;
    /* A task created with dependences whose ThreadTaskCreate waits for the
     * dependences callback that follows (ompt_tasks.c); task 0: none. */
    struct {
        uint64_t task;
        weft_region create;
        weft_comm team;
    } creating;
    /* One-entry cache of the last team this thread joined. */
    weft_comm cached_parent;
    uint64_t cached_key;
    weft_comm cached_team;
    /* The thread's block of task generations (ompt_tasks.c). */
    uint32_t next_generation, generations_left;
} ompt_thread;

/* The calling thread's state, created on first use; NULL only when out of
 * memory (then the callbacks record nothing for this thread). Every
 * callback but the lock ones starts with it: it also settles a lock routine
 * that never got its acquisition (a failed omp_test_lock, see ompt_sync.c)
 * and a task creation whose dependences never came (ompt_tasks.c). */
ompt_thread *weft__ompt_self(void);
/* The same for a callback that names the task the runtime has the thread
 * in (work, sync region, masked): when that is not the explicit task the
 * adapter has the thread in, that task's part ended elsewhere and its
 * regions are left first (ompt_tasks.c, weft__ompt_task_in). */
ompt_thread *weft__ompt_self_in(const ompt_data_t *task);
void weft__ompt_task_in(ompt_thread *t, const ompt_data_t *task);
/* The same settling only the task creation, for the lock callbacks. */
ompt_thread *weft__ompt_self_raw(void);
/* The same settling nothing, for the dependences callback. */
ompt_thread *weft__ompt_self_unsettled(void);
/* Ends the region of a lock routine whose acquisition never came. */
void weft__ompt_settle_lock(ompt_thread *t);
/* Records the pending task creation without dependences. */
void weft__ompt_settle_task_create(ompt_thread *t);
/* Records the pending return of a task's part to the queue. */
void weft__ompt_settle_parking(ompt_thread *t);

/* Set at registration when the runtime grants the dependences callback:
 * only then does a task created with dependences wait for it. */
extern bool weft__ompt_dependences_granted;

/* Region stack: enter and push; pop and leave the innermost region of that
 * kind (whatever the end callback says: end callbacks may carry another or
 * no address), and every region above it, whose end never came (LLVM's
 * libgomp compatibility reports no end of a single construct, for one). */
void weft__ompt_push(ompt_thread *t, weft_region region, ompt_scope_kind kind);
void weft__ompt_pop(ompt_thread *t, ompt_scope_kind kind);
/* The same at a time taken earlier (weft_now), returning the time recorded
 * (see weft_enter_at), for events that follow each other in one callback. */
uint64_t weft__ompt_push_at(ompt_thread *t, weft_region region, ompt_scope_kind kind,
                            uint64_t time);
uint64_t weft__ompt_pop_at(ompt_thread *t, ompt_scope_kind kind, uint64_t time);
/* A task's region: pushed with the task and the task the thread was in; popped
 * (with everything above it) only when the innermost task scope is that
 * task's, returning the time recorded. The pops above stop at the innermost
 * task scope: a construct's end closes only its own task's scopes. */
uint64_t weft__ompt_push_task_at(ompt_thread *t, weft_region region, uint64_t task, uint64_t from,
                                 uint64_t time);
uint64_t weft__ompt_pop_task_at(ompt_thread *t, uint64_t task, uint64_t time);
/* The innermost task scope on t's stack, or NULL. */
const ompt_open_region *weft__ompt_task_scope(const ompt_thread *t);

/* The innermost team this thread is in, or NULL outside parallel regions. */
const ompt_member *weft__ompt_member(const ompt_thread *t);

/* The team tasks are created in: the innermost one, or outside any parallel
 * region the initial thread's one-thread team. */
weft_comm weft__ompt_task_team(ompt_thread *t);

/* The code address to stand in for a missing one: the innermost parallel
 * region's. */
const void *weft__ompt_fallback(const ompt_thread *t);

/* Registers (or finds) the team forked by `fork` with `size` threads. */
weft_comm weft__ompt_team(ompt_thread *t, const ompt_fork *fork, uint32_t size);

/* What stands in for the forking thread's number when T forks outside any
 * team: the number of the host league team it runs; 0 on the program's
 * main thread; on any other thread (a thread the program made, each the
 * root of teams of its own) a number of its own from 2^31 on, so that its
 * teams are not the main thread's. */
uint32_t weft__ompt_root_key(ompt_thread *t);

/* ---- callbacks (registered by ompt_tool.c) -------------------------------- */

void weft__ompt_parallel_begin(ompt_data_t *encountering_task, const ompt_frame_t *frame,
                               ompt_data_t *parallel, unsigned int requested, int flags,
                               const void *codeptr);
void weft__ompt_parallel_end(ompt_data_t *parallel, ompt_data_t *encountering_task, int flags,
                             const void *codeptr);
void weft__ompt_implicit_task(ompt_scope_endpoint_t endpoint, ompt_data_t *parallel,
                              ompt_data_t *task, unsigned int actual_parallelism,
                              unsigned int index, int flags);
void weft__ompt_work(ompt_work_t kind, ompt_scope_endpoint_t endpoint, ompt_data_t *parallel,
                     ompt_data_t *task, uint64_t count, const void *codeptr);
void weft__ompt_sync_region(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint,
                            ompt_data_t *parallel, ompt_data_t *task, const void *codeptr);
void weft__ompt_masked(ompt_scope_endpoint_t endpoint, ompt_data_t *parallel, ompt_data_t *task,
                       const void *codeptr);

void weft__ompt_mutex_acquire(ompt_mutex_t kind, unsigned int hint, unsigned int impl,
                              ompt_wait_id_t wait_id, const void *codeptr);
void weft__ompt_mutex_acquired(ompt_mutex_t kind, ompt_wait_id_t wait_id, const void *codeptr);
void weft__ompt_mutex_released(ompt_mutex_t kind, ompt_wait_id_t wait_id, const void *codeptr);
void weft__ompt_nest_lock(ompt_scope_endpoint_t endpoint, ompt_wait_id_t wait_id,
                          const void *codeptr);
void weft__ompt_lock_init(ompt_mutex_t kind, unsigned int hint, unsigned int impl,
                          ompt_wait_id_t wait_id, const void *codeptr);
void weft__ompt_lock_destroy(ompt_mutex_t kind, ompt_wait_id_t wait_id, const void *codeptr);
void weft__ompt_flush(ompt_data_t *thread, const void *codeptr);
void weft__ompt_cancel(ompt_data_t *task, int flags, const void *codeptr);

void weft__ompt_task_create(ompt_data_t *encountering_task, const ompt_frame_t *frame,
                            ompt_data_t *new_task, int flags, int has_dependences,
                            const void *codeptr);
void weft__ompt_task_schedule(ompt_data_t *prior, ompt_task_status_t status, ompt_data_t *next);
void weft__ompt_dependences(ompt_data_t *task, const ompt_dependence_t *deps, int count);

/* The implicit task of team member `thread_num` (task data value). */
uint64_t weft__ompt_implicit_task_id(uint32_t thread_num);

#endif /* WEFT_ADAPTERS_OMPT_INTERNAL_H */
