/* SPDX-License-Identifier: BSD-3-Clause */
/* Per-thread POMP2 state: the thread teams a thread belongs to, the task it
 * runs, the nest locks it holds. See pomp_internal.h.
 *
 * Thread teams. A team is defined once per place in the team tree, not once
 * per parallel region instance: its identity is the chain, from the
 * outermost level in, of (number of the forking thread in the enclosing
 * team, team size). Every member computes it alone from the OpenMP runtime
 * (omp_get_level, omp_get_ancestor_thread_num, omp_get_team_size), so no
 * information has to travel from the forking thread to the workers, and a
 * one-entry cache per thread keeps the registry out of the way when the same
 * team forms again. */
#include <stdatomic.h>
#include <unistd.h>

#include "omp_runtime.h"
#include "pomp_internal.h"
#include "weft/log.h"
#include "weft/openmp_control.h"
#include "weft/recorder.h"

enum {
    MAX_TEAM_DEPTH = 16,   /* teams a thread is in at once (nesting) */
    MAX_CACHED_LEVELS = 8, /* deeper team chains are looked up each time */
    MAX_TASK_DEPTH = 64,   /* tasks suspended on one thread at once */
    MAX_NEST_LOCKS = 16,   /* nest locks held by one thread at once */
};

typedef struct nest_lock {
    uint32_t lock_id, depth;
} nest_lock;

typedef struct pomp_thread {
    pomp_task current_task;
    uint32_t team_depth; /* may exceed MAX_TEAM_DEPTH: then teams[] stops */
    weft_comm teams[MAX_TEAM_DEPTH];

    uint32_t task_depth; /* may exceed MAX_TASK_DEPTH: then suspended[] stops */
    pomp_task suspended[MAX_TASK_DEPTH];

    uint32_t cached_levels; /* 0: empty */
    uint64_t cached_chain[MAX_CACHED_LEVELS];
    weft_comm cached_team;

    uint32_t nest_count;
    nest_lock nest[MAX_NEST_LOCKS];

    uint32_t next_generation, generations_left; /* the thread's block */
} pomp_thread;

static __thread pomp_thread self __attribute__((tls_model("initial-exec")));

/* Generations of explicit tasks, process-wide, so a task's (creating thread,
 * generation) is unique whichever OS thread plays that team position. Each
 * thread takes them in blocks: one atomic add per block instead of one per
 * task on a cache line every thread writes. */
static atomic_uint_least32_t task_generations;
enum { GENERATION_BLOCK = 64 };

/* ---- teams ---------------------------------------------------------------- */

static uint64_t chain_link(int level)
{
    uint32_t forker = (uint32_t)weft__omp_ancestor_thread_num(level - 1);
    uint32_t size = (uint32_t)weft__omp_team_size(level);
    return (uint64_t)forker << 32 | size;
}

/* Registers (or finds) the teams from level 1 to `levels`. */
static weft_comm lookup_team(int levels)
{
    weft_comm team = WEFT_COMM_INVALID;
    for (int level = 1; level <= levels; level++) {
        weft_comm_desc desc = {
            .paradigm = WEFT_PARADIGM_OPENMP, .parent = team, .key = chain_link(level)};
        if (weft_registry_comm(weft_defs_global(), &desc, &team) != WEFT_OK) {
            weft_log_error("cannot define an OpenMP thread team; team events are not recorded");
            return WEFT_COMM_INVALID;
        }
    }
    return team;
}

/* The team the calling thread is in right now (inside a parallel region). */
static weft_comm current_team(void)
{
    int levels = weft__omp_level();
    if (levels < 1)
        levels = 1; /* no runtime: the one-thread team */
    if (levels > MAX_CACHED_LEVELS)
        return lookup_team(levels);
    uint64_t chain[MAX_CACHED_LEVELS];
    bool hit = self.cached_levels == (uint32_t)levels;
    for (int level = 1; level <= levels; level++) {
        chain[level - 1] = chain_link(level);
        hit = hit && chain[level - 1] == self.cached_chain[level - 1];
    }
    if (hit)
        return self.cached_team;
    weft_comm team = lookup_team(levels);
    if (team.id != WEFT_INVALID_ID) {
        for (int level = 0; level < levels; level++)
            self.cached_chain[level] = chain[level];
        self.cached_levels = (uint32_t)levels;
        self.cached_team = team;
    }
    return team;
}

/* The team tasks of the calling thread belong to. Outside any parallel
 * region that is the initial thread's own one-thread team. */
static weft_comm task_team(void)
{
    if (self.team_depth > 0 && self.team_depth <= MAX_TEAM_DEPTH)
        return self.teams[self.team_depth - 1];
    return current_team();
}

static pomp_task make_task(uint32_t thread, uint32_t generation)
{
    return (pomp_task)((uint64_t)thread << 32 | generation);
}

static uint32_t task_thread(pomp_task task)
{
    return (uint32_t)((uint64_t)task >> 32);
}

static uint32_t task_generation(pomp_task task)
{
    return (uint32_t)task;
}

/* A fork outside any team on a thread other than the first to fork so:
 * threads the program made, each the root of its own teams. POMP2 tells a
 * team's members nothing of the thread that forked it, so their teams
 * share definitions (the OMPT adapter keeps them apart): one line says so. */
static void root_fork(void)
{
    static atomic_int first_root; /* its thread id; 0: none yet */
    static atomic_bool said;
    static __thread int own_id;
    if (own_id == 0)
        own_id = gettid();
    int none = 0;
    if (atomic_compare_exchange_strong(&first_root, &none, own_id) || none == own_id)
        return;
    if (!atomic_exchange_explicit(&said, true, memory_order_relaxed))
        weft_log_error("OpenMP teams are forked by more than one thread outside any team "
                       "(threads the program made): POMP2 cannot tell their teams apart, so "
                       "they share team definitions and the trace may not be sound (weft check "
                       "says): trace such a program through OMPT (weft run)");
}

void weft__pomp_fork(int if_clause, int num_threads, pomp_task *old_task)
{
    if (old_task)
        *old_task = self.current_task;
    if (self.team_depth == 0)
        root_fork();
    weft_thread_fork(WEFT_PARADIGM_OPENMP,
                     if_clause && num_threads > 0 ? (uint32_t)num_threads : 1);
}

void weft__pomp_join(pomp_task old_task)
{
    weft_thread_join(WEFT_PARADIGM_OPENMP);
    self.current_task = old_task;
}

/* Dialects without a task handle at the join (OPARI 1, the merged
 * proposal): the task to go back to, per fork, on the forking thread. */
enum { MAX_FORK_DEPTH = 16 };
static __thread pomp_task fork_tasks[MAX_FORK_DEPTH];
static __thread unsigned fork_depth;

void weft__pomp_fork_keeping_task(int if_clause, int num_threads)
{
    pomp_task old_task = 0;
    weft__pomp_fork(if_clause, num_threads, &old_task);
    if (fork_depth < MAX_FORK_DEPTH)
        fork_tasks[fork_depth] = old_task;
    fork_depth++;
}

void weft__pomp_join_kept_task(void)
{
    pomp_task old_task = self.current_task;
    if (fork_depth > 0 && --fork_depth < MAX_FORK_DEPTH)
        old_task = fork_tasks[fork_depth];
    weft__pomp_join(old_task);
}

void weft__pomp_team_begin(const pomp_region *r)
{
    weft_comm team = current_team();
    if (self.team_depth < MAX_TEAM_DEPTH)
        self.teams[self.team_depth] = team;
    self.team_depth++;
    uint32_t thread = (uint32_t)weft__omp_thread_num();
    self.current_task = make_task(thread, 0);
    /* ThreadTeamBegin and the Enter of the parallel region share a time. */
    uint64_t time = weft_now();
    if (team.id != WEFT_INVALID_ID)
        time = weft_thread_team_begin_at(team, thread, time);
    weft__pomp_enter_part_at(r, POMP_MAIN, time);
}

void weft__pomp_team_end(const pomp_region *r)
{
    /* The Leave of the parallel region and ThreadTeamEnd share a time. */
    uint64_t time = weft__pomp_leave_part_at(r, POMP_MAIN, weft_now());
    if (self.team_depth == 0)
        return; /* an end without a begin: nothing to close */
    self.team_depth--;
    if (self.team_depth < MAX_TEAM_DEPTH && self.teams[self.team_depth].id != WEFT_INVALID_ID)
        weft_thread_team_end_at(self.teams[self.team_depth], time);
}

/* ---- tasks ---------------------------------------------------------------- */

pomp_task weft__pomp_current_task(void)
{
    return self.current_task;
}

/* The task events: none when WEFT_OPENMP_EVENTS leaves tasks out (the task
 * state is kept all the same). */
static bool tasks_recorded(void)
{
    return weft_openmp_group_recorded(WEFT_OMP_GROUP_TASKS);
}

static uint64_t switch_to_at(pomp_task task, uint64_t time)
{
    self.current_task = task;
    if (!tasks_recorded())
        return time;
    return weft_task_switch_at(task_team(), task_thread(task), task_generation(task), time);
}

/* Whether this thread suspended `task` (a task it ran, interrupted by a
 * task it began); true when the stack is too deep to tell: at
 * MAX_TASK_DEPTH too, the depth a task deeper than kept returns to. */
static bool suspended_here(pomp_task task)
{
    if (self.task_depth >= MAX_TASK_DEPTH)
        return true;
    for (uint32_t i = 0; i < self.task_depth; i++) {
        if (self.suspended[i] == task)
            return true;
    }
    return false;
}

/* A task resumes after a scheduling point on a thread that neither runs nor
 * suspended it, or ends on a thread that did not begin it: an untied task
 * (weft compile --keep-untied) that LLVM's libomp moved to another thread.
 * POMP2 reports nothing of the move, so its regions cannot nest on either
 * thread (weft check reports them); one line says so, and what traces such
 * a program soundly. */
static void moved_task_seen(void)
{
    static atomic_bool said;
    if (!atomic_exchange_explicit(&said, true, memory_order_relaxed))
        weft_log_error("an untied task went on on another thread than the one it began on; "
                       "POMP2 cannot follow such a task, so its regions in the trace do not "
                       "nest (weft compile --keep-untied on LLVM's libomp?): trace the program "
                       "through OMPT (weft run) or let OPARI2 make its tasks tied (the default)");
}

void weft__pomp_resume(pomp_task old_task)
{
    if (old_task == self.current_task)
        return;
    if (!suspended_here(old_task))
        moved_task_seen();
    switch_to_at(old_task, weft_now());
}

static uint32_t next_generation(void)
{
    for (;;) {
        if (self.generations_left == 0) {
            self.next_generation = atomic_fetch_add_explicit(&task_generations, GENERATION_BLOCK,
                                                             memory_order_relaxed) +
                                   1;
            self.generations_left = GENERATION_BLOCK;
        }
        self.generations_left--;
        uint32_t generation = self.next_generation++;
        if (generation != 0) /* the implicit task's number, after a wrap */
            return generation;
    }
}

pomp_task weft__pomp_new_task_handle(void)
{
    return make_task((uint32_t)weft__omp_thread_num(), next_generation());
}

uint64_t weft__pomp_new_task_at(pomp_task *task, uint64_t time)
{
    *task = weft__pomp_new_task_handle();
    if (!tasks_recorded())
        return time;
    return weft_task_create_at(task_team(), task_thread(*task), task_generation(*task), time);
}

uint64_t weft__pomp_switch_into_at(pomp_task task, uint64_t time)
{
    if (self.task_depth < MAX_TASK_DEPTH)
        self.suspended[self.task_depth] = self.current_task;
    self.task_depth++;
    return switch_to_at(task, time);
}

/* Completes the running task and switches back to the one it suspended, so
 * every completion is followed by an explicit switch (readers need not guess
 * which task runs next). */
uint64_t weft__pomp_complete_task_at(uint64_t time)
{
    if (self.task_depth == 0)
        moved_task_seen(); /* a task ends here that this thread did not begin */
    pomp_task done = self.current_task;
    if (tasks_recorded())
        time = weft_task_complete_at(task_team(), task_thread(done), task_generation(done), time);
    if (self.task_depth == 0)
        return time;
    self.task_depth--;
    if (self.task_depth < MAX_TASK_DEPTH)
        time = switch_to_at(self.suspended[self.task_depth], time);
    return time;
}

/* ---- locks ---------------------------------------------------------------- */

uint32_t weft__pomp_nest_enter(uint32_t lock_id)
{
    for (uint32_t i = 0; i < self.nest_count; i++) {
        if (self.nest[i].lock_id == lock_id)
            return ++self.nest[i].depth;
    }
    if (self.nest_count < MAX_NEST_LOCKS)
        self.nest[self.nest_count++] = (nest_lock){lock_id, 1};
    return 1;
}

uint32_t weft__pomp_nest_leave(uint32_t lock_id)
{
    for (uint32_t i = 0; i < self.nest_count; i++) {
        if (self.nest[i].lock_id != lock_id)
            continue;
        uint32_t depth = --self.nest[i].depth;
        if (depth == 0)
            self.nest[i] = self.nest[--self.nest_count];
        return depth;
    }
    return 0; /* not tracked (table full): treat as the outermost level */
}
