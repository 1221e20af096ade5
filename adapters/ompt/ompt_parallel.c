/* SPDX-License-Identifier: BSD-3-Clause */
/* Parallel regions, worksharing, masked and barriers through OMPT, in the
 * POMP2 adapter's event order (docs/dev/OTF2-CONVENTIONS.md): ThreadFork on
 * the forking thread; on every member ThreadTeamBegin, Enter parallel, ...,
 * the implicit barrier, Leave parallel, ThreadTeamEnd; ThreadJoin. */
#include "ompt_internal.h"
#include "weft/recorder.h"

/* The runtime's team query: libweft-ompt links no OpenMP runtime, it runs
 * inside the one that loaded it (weak: resolved against that runtime). */
extern int omp_get_num_threads(void) __attribute__((weak));

/* The parallel data of a host `teams` league points here, so that the
 * initial tasks of its teams are told from the program's. */
static const char league_mark;

void weft__ompt_parallel_begin(ompt_data_t *encountering_task, const ompt_frame_t *frame,
                               ompt_data_t *parallel, unsigned int requested, int flags,
                               const void *codeptr)
{
    (void)encountering_task, (void)frame;
    ompt_thread *t = weft__ompt_self();
    parallel->ptr = NULL;
    if (t && (flags & ompt_parallel_league))
        parallel->ptr = (void *)&league_mark;
    if (!t || (flags & ompt_parallel_league))
        return; /* a teams construct: no thread team of this program's host */
    const ompt_member *m = weft__ompt_member(t);
    if (t->fork_depth < OMPT_MAX_NESTING) {
        ompt_fork *f = &t->forks[t->fork_depth];
        f->codeptr = codeptr ? codeptr : weft__ompt_fallback(t);
        f->parallel = weft__ompt_region(codeptr, OC_PARALLEL, weft__ompt_fallback(t));
        f->parent_team = m ? m->team : WEFT_COMM_INVALID;
        /* Outside any team, the league team the thread runs, or the root
         * thread's own key: two league teams, or two threads of the
         * program, forking at once must not share their teams' ids. */
        f->forker = m ? m->thread_num : weft__ompt_root_key(t);
        parallel->ptr = f;
    }
    t->fork_depth++;
    weft_thread_fork(WEFT_PARADIGM_OPENMP, requested ? requested : 1);
}

void weft__ompt_parallel_end(ompt_data_t *parallel, ompt_data_t *encountering_task, int flags,
                             const void *codeptr)
{
    (void)parallel, (void)encountering_task, (void)codeptr;
    ompt_thread *t = weft__ompt_self();
    if (!t || (flags & ompt_parallel_league) || t->fork_depth == 0)
        return;
    t->fork_depth--;
    weft_thread_join(WEFT_PARADIGM_OPENMP);
}

static void team_begin(ompt_thread *t, const ompt_fork *fork, ompt_data_t *task,
                       unsigned int actual_parallelism, unsigned int index)
{
    /* actual_parallelism is not reliable in LLVM's libomp 14 (it passes the
     * same number whatever the team size): ask the runtime, which already
     * answers for the new team here. */
    uint32_t size = omp_get_num_threads ? (uint32_t)omp_get_num_threads() : actual_parallelism;
    weft_comm team = weft__ompt_team(t, fork, size ? size : 1);
    if (t->member_depth < OMPT_MAX_NESTING)
        t->members[t->member_depth] = (ompt_member){.team = team,
                                                    .parallel = fork->parallel,
                                                    .codeptr = fork->codeptr,
                                                    .thread_num = index};
    t->member_depth++;
    task->value = weft__ompt_implicit_task_id(index);
    t->current_task = task->value;
    /* ThreadTeamBegin and the Enter of the parallel region share a time. */
    uint64_t time = weft_now();
    if (team.id != WEFT_INVALID_ID)
        time = weft_thread_team_begin_at(team, index, time);
    weft__ompt_push_at(t, fork->parallel, SCOPE_PARALLEL, time);
}

static void team_end(ompt_thread *t)
{
    if (t->member_depth == 0)
        return;
    const ompt_member *m = weft__ompt_member(t);
    weft_comm team = m ? m->team : WEFT_COMM_INVALID;
    /* The Leave(s) and ThreadTeamEnd share a time. */
    uint64_t time = weft__ompt_pop_at(t, SCOPE_PARALLEL, weft_now());
    t->member_depth--;
    if (team.id != WEFT_INVALID_ID)
        weft_thread_team_end_at(team, time);
    m = weft__ompt_member(t);
    t->current_task = weft__ompt_implicit_task_id(m ? m->thread_num : 0);
}

void weft__ompt_implicit_task(ompt_scope_endpoint_t endpoint, ompt_data_t *parallel,
                              ompt_data_t *task, unsigned int actual_parallelism,
                              unsigned int index, int flags)
{
    ompt_thread *t = weft__ompt_self();
    if (!t)
        return;
    if (!(flags & ompt_task_implicit)) { /* the initial task: no team of its own */
        if (endpoint == ompt_scope_begin && task)
            task->value = weft__ompt_implicit_task_id(0);
        /* A league team's initial task: libomp names the team by `index`
         * at its begin (its end names no parallel region). */
        if (endpoint == ompt_scope_begin && parallel && parallel->ptr == &league_mark)
            t->league_team = index;
        else if (endpoint == ompt_scope_end && t->fork_depth == 0)
            t->league_team = 0;
        return;
    }
    if (endpoint == ompt_scope_begin) {
        const ompt_fork *fork = parallel ? parallel->ptr : NULL;
        task->value = 0; /* 0: no team begun (see team_begin) */
        if (fork)
            team_begin(t, fork, task, actual_parallelism, index);
    } else if (task && task->value != 0) {
        team_end(t);
    }
}

void weft__ompt_work(ompt_work_t kind, ompt_scope_endpoint_t endpoint, ompt_data_t *parallel,
                     ompt_data_t *task, uint64_t count, const void *codeptr)
{
    (void)parallel, (void)count;
    ompt_thread *t = weft__ompt_self_in(task);
    if (!t)
        return;
    static const ompt_construct constructs[] = {[ompt_work_loop] = OC_LOOP,
                                                [ompt_work_sections] = OC_SECTIONS,
                                                [ompt_work_single_executor] = OC_SINGLE,
                                                [ompt_work_single_other] = OC_SINGLE,
                                                [ompt_work_workshare] = OC_WORKSHARE,
                                                [ompt_work_distribute] = OC_DISTRIBUTE,
                                                [ompt_work_taskloop] = OC_TASKLOOP,
                                                [ompt_work_scope] = OC_SCOPE};
    ompt_construct c = kind > 0 && kind <= ompt_work_scope ? constructs[kind] : OC_SCOPE;
    bool executor = kind == ompt_work_single_executor;
    if (endpoint == ompt_scope_begin) {
        const void *fallback = weft__ompt_fallback(t);
        weft__ompt_push(t, weft__ompt_region(codeptr, c, fallback), SCOPE_WORK);
        if (executor)
            weft__ompt_push(t, weft__ompt_region(codeptr, OC_SINGLE_SBLOCK, fallback), SCOPE_WORK);
    } else {
        if (executor)
            weft__ompt_pop(t, SCOPE_WORK);
        weft__ompt_pop(t, SCOPE_WORK);
    }
}

void weft__ompt_sync_region(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint,
                            ompt_data_t *parallel, ompt_data_t *task, const void *codeptr)
{
    (void)parallel;
    ompt_thread *t = weft__ompt_self_in(task);
    if (!t || kind == ompt_sync_region_reduction)
        return; /* reductions: no region of their own (their barrier has one) */
    if (endpoint != ompt_scope_begin) {
        weft__ompt_pop(t, SCOPE_SYNC);
        return;
    }
    ompt_construct c;
    switch (kind) {
    case ompt_sync_region_barrier_explicit:
        c = OC_BARRIER;
        break;
    case ompt_sync_region_taskwait:
        c = OC_TASKWAIT;
        break;
    case ompt_sync_region_taskgroup:
        c = OC_TASKGROUP;
        break;
    default: /* implicit, implementation (e.g. of a reduction), teams */
        c = OC_IMPLICIT_BARRIER;
        break;
    }
    weft__ompt_push(t, weft__ompt_region(codeptr, c, weft__ompt_fallback(t)), SCOPE_SYNC);
}

void weft__ompt_masked(ompt_scope_endpoint_t endpoint, ompt_data_t *parallel, ompt_data_t *task,
                       const void *codeptr)
{
    (void)parallel;
    ompt_thread *t = weft__ompt_self_in(task);
    if (!t)
        return;
    if (endpoint == ompt_scope_begin)
        weft__ompt_push(t, weft__ompt_region(codeptr, OC_MASTER, weft__ompt_fallback(t)),
                        SCOPE_MASKED);
    else
        weft__ompt_pop(t, SCOPE_MASKED);
}
