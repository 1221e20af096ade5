/* Explicit tasks through OMPT: creation (Enter "create task", TaskCreate,
 * Leave) on the creating thread, then TaskSwitch into the task and its
 * region on the thread that runs it, TaskComplete and a switch back.
 *
 * A task is named, as by the POMP2 adapter, by the creating thread's number
 * in its team and a process-wide generation number. Both, the task's region
 * and whether it has started, live in the runtime's 64-bit task data, so no
 * memory is allocated per task:
 *
 *   bit 63 started | bits 40-62 region id | bits 24-39 thread | bits 0-23 generation
 *
 * Generation 0 is a thread's implicit task. Generations wrap after 2^24 - 1
 * tasks (a pair stays unique among the tasks alive at once); regions with
 * ids of 2^23 and above, and threads numbered 2^16 and above, share one
 * "task" region / number. */
#include <stdatomic.h>

#include "ompt_internal.h"
#include "weft/log.h"
#include "weft/recorder.h"

#define STARTED (UINT64_C(1) << 63)
#define REGION_SHIFT 40
#define REGION_MASK ((UINT64_C(1) << 23) - 1)
#define THREAD_SHIFT 24
#define THREAD_MASK UINT64_C(0xffff)
#define GENERATION_MASK ((UINT64_C(1) << 24) - 1)
/* Marks implicit task data as ours, so 0 stays "nothing recorded". */
#define IMPLICIT_MARK (UINT64_C(1) << 62)

static atomic_uint_least32_t generations;

static uint32_t thread_of(uint64_t task)
{
    return (uint32_t)((task >> THREAD_SHIFT) & THREAD_MASK);
}

static uint32_t generation_of(uint64_t task)
{
    return (uint32_t)(task & GENERATION_MASK);
}

static weft_region region_of(uint64_t task)
{
    uint64_t id = (task >> REGION_SHIFT) & REGION_MASK;
    return (weft_region){id == REGION_MASK ? WEFT_INVALID_ID : (uint32_t)id};
}

static bool is_explicit(uint64_t task)
{
    return task != 0 && !(task & IMPLICIT_MARK) && generation_of(task) != 0;
}

uint64_t weft__ompt_implicit_task_id(uint32_t thread_num)
{
    uint64_t thread = thread_num < THREAD_MASK ? thread_num : THREAD_MASK;
    return IMPLICIT_MARK | REGION_MASK << REGION_SHIFT | thread << THREAD_SHIFT;
}

static uint64_t new_task(const ompt_thread *t, weft_region region)
{
    uint32_t g = (atomic_fetch_add_explicit(&generations, 1, memory_order_relaxed) + 1) &
                 GENERATION_MASK;
    if (g == 0) /* the wrap skips 0, the implicit task's number */
        g = (atomic_fetch_add_explicit(&generations, 1, memory_order_relaxed) + 1) &
            GENERATION_MASK;
    const ompt_member *m = weft__ompt_member(t);
    uint64_t thread = m && m->thread_num < THREAD_MASK ? m->thread_num : (m ? THREAD_MASK : 0);
    uint64_t id = region.id < REGION_MASK ? region.id : REGION_MASK;
    return id << REGION_SHIFT | thread << THREAD_SHIFT | (g ? g : 1);
}

void weft__ompt_task_create(ompt_data_t *encountering_task, const ompt_frame_t *frame,
                            ompt_data_t *new_task_data, int flags, int has_dependences,
                            const void *codeptr)
{
    (void)encountering_task, (void)frame, (void)has_dependences;
    ompt_thread *t = weft__ompt_self();
    new_task_data->value = 0;
    if (!t || !(flags & ompt_task_explicit))
        return; /* initial and target tasks: nothing of the host's teams */
    const void *fallback = weft__ompt_fallback(t);
    weft_region body =
        weft__ompt_region(codeptr, (flags & ompt_task_untied) ? OC_TASK_UNTIED : OC_TASK, fallback);
    weft_region create = weft__ompt_region(codeptr, OC_TASK_CREATE, fallback);
    if (create.id != WEFT_INVALID_ID)
        weft_enter(create);
    uint64_t task = new_task(t, body);
    weft_task_create(weft__ompt_task_team(t), thread_of(task), generation_of(task));
    if (create.id != WEFT_INVALID_ID)
        weft_leave(create);
    new_task_data->value = task;
}

static void switch_to(ompt_thread *t, uint64_t task)
{
    t->current_task = task;
    weft_task_switch(weft__ompt_task_team(t), thread_of(task), generation_of(task));
}

void weft__ompt_task_schedule(ompt_data_t *prior, ompt_task_status_t status, ompt_data_t *next)
{
    ompt_thread *t = weft__ompt_self();
    if (!t)
        return;
    uint64_t done = prior ? prior->value : 0;
    bool completed = status == ompt_task_complete || status == ompt_task_cancel ||
                     status == ompt_task_late_fulfill;
    if (is_explicit(done) && completed && (done & STARTED)) {
        weft__ompt_pop(t, SCOPE_TASK); /* the task's region */
        weft_task_complete(weft__ompt_task_team(t), thread_of(done), generation_of(done));
    }
    uint64_t task = next ? next->value : 0;
    if (task == 0)
        return; /* a task this tool did not see created */
    switch_to(t, task & ~STARTED);
    if (is_explicit(task) && !(task & STARTED)) {
        next->value = task | STARTED;
        weft__ompt_push(t, region_of(task), SCOPE_TASK);
    }
}
