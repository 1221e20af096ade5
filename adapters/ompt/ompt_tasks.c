/* SPDX-License-Identifier: BSD-3-Clause */
/* Explicit tasks through OMPT: creation (Enter "create task", TaskCreate,
 * Leave) on the creating thread, then TaskSwitch into the task and its
 * region on the thread that runs it, TaskComplete and a switch back.
 *
 * A task is named, as by the POMP2 adapter, by the creating thread's number
 * in its team and a process-wide generation number. Both, the task's region
 * and whether it has started, live in the runtime's 64-bit task data, so no
 * memory is allocated per task:
 *
 *   bit 63 started | bits 40-62 region id | bit 39 parked | bits 24-38 thread |
 *   bits 0-23 generation
 *
 * Generation 0 is a thread's implicit task. Generations wrap after 2^24 - 1
 * tasks (a pair stays unique among the tasks alive at once); regions with
 * ids of 2^23 and above, and threads numbered 2^15 and above, share one
 * "task" region / number.
 *
 * Started: the task's region is open on the thread running it. Parked: the
 * task ran, then went back to the runtime's queue without completing (clang
 * runs an untied task in parts, and at each scheduling point in it queues the
 * rest and returns): its region was left on the thread it ran on, and is
 * entered again, after a switch to the task, wherever the task resumes, on
 * that thread or another. So each thread's regions nest and stay in their
 * task, which Scalasca's analyzer requires; a task that moved shows its
 * region once on each thread it ran on.
 *
 * Dependences: a task created with a depend clause gets its ThreadTaskCreate
 * when the dependences callback, which libomp calls right after task_create
 * within the same runtime call, brings the clauses; they become the event's
 * "OpenMP task dependences" attribute, a string like
 * "in 0x7ffd5e8c, inout 0x55d0c0a4c018" (type, then the variable's
 * address). Should that callback not come, the creation is recorded
 * without them at the thread's next OpenMP event. */
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "ompt_internal.h"
#include "weft/log.h"
#include "weft/openmp_control.h"
#include "weft/recorder.h"

#define STARTED (UINT64_C(1) << 63)
#define REGION_SHIFT 40
#define REGION_MASK ((UINT64_C(1) << 23) - 1)
#define THREAD_SHIFT 24
#define THREAD_MASK UINT64_C(0x7fff)
#define PARKED (UINT64_C(1) << 39)
#define STATE (STARTED | PARKED)
#define GENERATION_MASK ((UINT64_C(1) << 24) - 1)
/* Marks implicit task data as ours, so 0 stays "nothing recorded". */
#define IMPLICIT_MARK (UINT64_C(1) << 62)

/* Generations of explicit tasks, process-wide; each thread takes them in
 * blocks, one atomic add per block instead of one per task on a cache line
 * every thread writes. */
static atomic_uint_least32_t generations;
enum { GENERATION_BLOCK = 64 };

/* Resumptions of parked tasks (not straight back), process-wide: a thread
 * that parked a task takes the parking back at the task's return only if
 * no parked task resumed anywhere meanwhile, so the task did not run a part
 * on another thread in between. Rare (the task proxy has none). */
static atomic_uint_least64_t parked_resumes;

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

/* Task events: none when WEFT_OPENMP_EVENTS leaves tasks out. */
static bool tasks_recorded(void)
{
    return weft_openmp_group_recorded(WEFT_OMP_GROUP_TASKS);
}

static uint32_t next_generation(ompt_thread *t)
{
    for (;;) {
        if (t->generations_left == 0) {
            t->next_generation =
                atomic_fetch_add_explicit(&generations, GENERATION_BLOCK, memory_order_relaxed) +
                1;
            t->generations_left = GENERATION_BLOCK;
        }
        t->generations_left--;
        uint32_t g = t->next_generation++ & GENERATION_MASK;
        if (g != 0) /* the wrap skips 0, the implicit task's number */
            return g;
    }
}

static uint64_t new_task(ompt_thread *t, weft_region region)
{
    uint32_t g = next_generation(t);
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
    /* An untied task's two regions say so, as the POMP2 adapter names them
     * from the source (weft/openmp.h). */
    bool untied = (flags & ompt_task_untied) != 0;
    weft_region body = weft__ompt_region(codeptr, untied ? OC_TASK_UNTIED : OC_TASK, fallback);
    weft_region create =
        weft__ompt_region(codeptr, untied ? OC_TASK_UNTIED_CREATE : OC_TASK_CREATE, fallback);
    /* Enter, ThreadTaskCreate and Leave follow each other within this
     * callback: one reading of the clock for all three. */
    uint64_t time = weft_now();
    if (create.id != WEFT_INVALID_ID)
        time = weft_openmp_enter_at(create, time);
    uint64_t task = new_task(t, body);
    new_task_data->value = task;
    if (has_dependences && weft__ompt_dependences_granted) {
        t->creating.task = task;
        t->creating.create = create;
        t->creating.team = weft__ompt_task_team(t);
        return; /* the rest comes with the dependences */
    }
    if (tasks_recorded())
        time = weft_task_create_at(weft__ompt_task_team(t), thread_of(task), generation_of(task),
                                   time);
    if (create.id != WEFT_INVALID_ID)
        weft_openmp_leave_at(create, time);
}

/* Ends a creation left waiting for its dependences: the ThreadTaskCreate
 * (with them, when `dependences` is valid) and the Leave of "create task". */
static void finish_create(ompt_thread *t, weft_string dependences)
{
    uint64_t task = t->creating.task;
    if (tasks_recorded() && dependences.id != WEFT_INVALID_ID)
        weft_task_create_with_dependences(t->creating.team, thread_of(task), generation_of(task),
                                          dependences);
    else if (tasks_recorded())
        weft_task_create(t->creating.team, thread_of(task), generation_of(task));
    if (t->creating.create.id != WEFT_INVALID_ID)
        weft_openmp_leave(t->creating.create);
    t->creating.task = 0;
}

void weft__ompt_settle_task_create(ompt_thread *t)
{
    finish_create(t, WEFT_STRING_INVALID);
}

static const char *dependence_type(ompt_dependence_type_t type)
{
    switch (type) {
    case ompt_dependence_type_in:
        return "in";
    case ompt_dependence_type_out:
        return "out";
    case ompt_dependence_type_inout:
        return "inout";
    case ompt_dependence_type_mutexinoutset:
        return "mutexinoutset";
    case ompt_dependence_type_source:
        return "source";
    case ompt_dependence_type_sink:
        return "sink";
    case ompt_dependence_type_inoutset:
        return "inoutset";
    default:
        return "unknown";
    }
}

/* The attribute text for count dependences: "TYPE 0xADDRESS" joined by
 * ", ", cut after DEPENDENCES_TEXT_MAX bytes with ", ... (N in all)". */
enum { DEPENDENCES_TEXT_MAX = 2048 };
static void describe(const ompt_dependence_t *deps, int count, char *text, size_t size)
{
    size_t used = 0;
    text[0] = '\0';
    for (int i = 0; i < count; i++) {
        char one[64];
        int n = snprintf(one, sizeof(one), "%s%s %p", i ? ", " : "",
                         dependence_type(deps[i].dependence_type), deps[i].variable.ptr);
        if (n < 0 || used + (size_t)n + 32 >= size) {
            snprintf(text + used, size - used, ", ... (%d in all)", count);
            return;
        }
        memcpy(text + used, one, (size_t)n + 1);
        used += (size_t)n;
    }
}

void weft__ompt_dependences(ompt_data_t *task, const ompt_dependence_t *deps, int count)
{
    ompt_thread *t = weft__ompt_self_unsettled();
    if (!t || t->creating.task == 0)
        return; /* doacross (ordered depend(source/sink)): not recorded */
    if (!task || task->value != t->creating.task || count <= 0 || !deps) {
        finish_create(t, WEFT_STRING_INVALID);
        return;
    }
    static atomic_bool attribute_used;
    weft_registry *reg = weft_defs_global();
    char text[DEPENDENCES_TEXT_MAX];
    describe(deps, count, text, sizeof(text));
    weft_string dependences = WEFT_STRING_INVALID;
    if (!atomic_load_explicit(&attribute_used, memory_order_acquire) &&
        weft_registry_attribute_use(reg, WEFT_ATTRIBUTE_OPENMP_TASK_DEPENDENCES) == WEFT_OK)
        atomic_store_explicit(&attribute_used, true, memory_order_release);
    if (atomic_load_explicit(&attribute_used, memory_order_acquire) &&
        weft_registry_string(reg, text, &dependences) != WEFT_OK)
        dependences = WEFT_STRING_INVALID;
    finish_create(t, dependences);
}

static uint64_t switch_to(ompt_thread *t, uint64_t task, uint64_t time)
{
    t->current_task = task;
    if (!tasks_recorded())
        return time;
    return weft_task_switch_at(weft__ompt_task_team(t), thread_of(task), generation_of(task),
                               time);
}

/* A switch back to the task this thread just left, with nothing recorded
 * since: takes back the switch away instead of recording a second one, so
 * the trace shows the thread staying in the task. A task resumed on another
 * thread, or after anything else was recorded, keeps both switches. */
static bool switched_straight_back(ompt_thread *t, struct ompt_left left, bool completed,
                                   uint64_t task)
{
    if (left.task == 0 || completed || (task & ~STATE) != left.task || !tasks_recorded())
        return false;
    /* The switch recorded, to `left.to`: libomp may name a different prior
     * task in this callback (a team of one thread names the task itself). */
    if (!weft_task_switch_undo(left.at, weft__ompt_task_team(t), thread_of(left.to),
                               generation_of(left.to), WEFT_REGION_INVALID))
        return false;
    t->current_task = left.task;
    return true;
}

/* Whether this switch away from `done`, not completed, to `task` goes back to
 * the task the thread was in when `done` started or resumed here: the task's
 * part returned (see PARKED above). */
static bool returns_to_queue(const ompt_thread *t, uint64_t done, uint64_t task)
{
    const ompt_open_region *scope = weft__ompt_task_scope(t);
    return scope && scope->task == (done & ~STATE) && scope->from == (task & ~STATE);
}

/* A part returned: nothing is recorded yet (see ompt_parking), most parts
 * are taken straight back. */
static void park(ompt_thread *t, ompt_data_t *prior, uint64_t done, uint64_t task, uint64_t time)
{
    t->parking = (struct ompt_parking){
        .task = done & ~STATE,
        .to = task & ~STATE,
        .time = time,
        .resumes_then = atomic_load_explicit(&parked_resumes, memory_order_relaxed),
        .at = weft_event_position()};
    prior->value = (done & ~STATE) | PARKED;
    t->current_task = task & ~STATE;
}

/* The task parked by this thread's last callback taken straight back: the
 * switch into it with nothing recorded since, and no parked task resumed
 * anywhere in between (the task cannot have run a part elsewhere). */
static bool parking_taken_back(ompt_thread *t, bool completed, ompt_data_t *next)
{
    uint64_t task = next ? next->value : 0;
    if (completed || t->parking.left || (task & ~STATE) != t->parking.task ||
        atomic_load_explicit(&parked_resumes, memory_order_relaxed) != t->parking.resumes_then ||
        weft_event_position() != t->parking.at)
        return false;
    next->value = t->parking.task | STARTED;
    t->current_task = t->parking.task;
    t->parking.task = 0;
    return true;
}

/* Records the pending return: the parked task's Leaves and, unless the
 * thread goes straight on into another task, the switch to the task it
 * returned to. */
static void settle_parking(ompt_thread *t, bool switch_back)
{
    struct ompt_parking p = t->parking;
    t->parking.task = 0;
    /* At the time of the return unless something was recorded since
     * (another adapter's events): then now, to keep the time order. */
    uint64_t time = weft_event_position() == p.at ? p.time : weft_now();
    if (!p.left)
        time = weft__ompt_pop_task_at(t, p.task, time);
    if (switch_back && tasks_recorded())
        weft_task_switch_at(weft__ompt_task_team(t), thread_of(p.to), generation_of(p.to), time);
}

void weft__ompt_settle_parking(ompt_thread *t)
{
    settle_parking(t, true);
}

/* Whether this scheduling point takes the thread, back in the task its
 * parked task returned to, straight on into another task. The switch back
 * is then left out, and the parked task's Leaves are followed by the switch
 * into the next task: a switch back followed at once by a task's first
 * switch on this thread made Scalasca's analyzer look for the call path of
 * the switch back, walk back over the parked task's Leaves, skip its
 * Enters as another task's, and run off the start of the trace
 * (SIGSEGV; BOTS sparselu, one untied task waiting for waves of others). */
static bool goes_straight_on(const ompt_thread *t, bool completed, uint64_t done, uint64_t task)
{
    /* Only into a task that starts here (new, or parked elsewhere): its
     * switch is recorded now (should the next callback take the start back,
     * it records the switch back then); a switch this callback may take
     * back (to a task just left) would leave the thread in no task. */
    return !completed && is_explicit(task) && !(task & STARTED) &&
           (done & ~STATE) == t->parking.to && (task & ~STATE) != t->parking.to;
}

/* A switch from the task this thread just started back to the task it was
 * in before, with nothing recorded since: takes the start back (the switch
 * into the task, the Enter of its region, the scope) and marks the task not
 * started, so that it starts where it next runs, on this thread or another.
 * clang runs an untied task's first part only to queue the task again;
 * recorded, that part made the task start on one thread and, taken from the
 * queue by another, end there: two locations' regions no longer nested,
 * which Scalasca's analyzer cannot read. A switch into a third task is no
 * such return: the task yields and the other runs nested in it, on its
 * stack (libomp then reports that task's return to it), so its start stays.
 * When the start went straight on from a parked task (goes_straight_on),
 * the switch back left out then is pending again, for the thread's next
 * callback to record or to leave out once more. Returns whether it took
 * the start back: the thread is where it was before it. */
static bool empty_start_taken_back(ompt_thread *t, ompt_data_t *prior, bool completed,
                                   uint64_t task)
{
    struct ompt_started s = t->started;
    t->started.task = 0;
    if (s.task == 0 || completed || !prior || (prior->value & ~STATE) != (s.task & ~STATE) ||
        (task & ~STATE) != s.from || !tasks_recorded() || t->open_depth != s.depth + 1 ||
        t->open[s.depth].kind != SCOPE_TASK)
        return false;
    if (!weft_task_switch_undo(s.at, weft__ompt_task_team(t), thread_of(s.task),
                               generation_of(s.task), t->open[s.depth].region))
        return false;
    t->open_depth = s.depth;
    prior->value = s.task;
    t->current_task = s.from;
    if (s.parked != 0)
        t->parking = (struct ompt_parking){.task = s.parked,
                                           .to = s.from,
                                           .time = weft_now(),
                                           .at = weft_event_position(),
                                           .left = true};
    return true;
}

/* A task whose part this thread resumed, reported by the runtime as over
 * without a callback here: this callback's prior task is another one (the
 * thread's implicit task, or another explicit one) while the adapter has
 * the thread in the explicit task, whose scope is the innermost. libomp queues
 * an untied task's next part before the current part finishes, so two parts
 * can overlap on two threads, and the thread whose part finishes last
 * reports the completion (or the switch) for the task, not the other.
 * Leaves the task's scopes here at `time`. Not when the callback goes back
 * to the task the thread is in: the prior task's part ran nested in it on
 * this thread (its start taken back as empty), and its other part, on
 * another thread, finished first (BOTS health, untied, 4 threads). */
static uint64_t part_ended_elsewhere(ompt_thread *t, uint64_t done, uint64_t task, uint64_t time)
{
    if (done == 0 || !is_explicit(t->current_task) || (done & ~STATE) == t->current_task ||
        (task & ~STATE) == t->current_task)
        return time;
    const ompt_open_region *scope = weft__ompt_task_scope(t);
    if (!scope || scope->task != t->current_task)
        return time;
    time = weft__ompt_pop_task_at(t, t->current_task, time);
    t->current_task = done & ~STATE;
    return time;
}

/* The same seen from a callback that is no scheduling point: a thread whose
 * part of an untied task overlapped another thread's, which reported the
 * completion, gets no task callback at all before its next construct (BOTS
 * style untied tasks in a taskwait, 2 threads under load: the next single
 * and barrier were recorded inside the task). The callback names the task
 * the runtime has the thread in; when the adapter has the thread in another,
 * explicit one, that one's regions are left here, and a switch to the named
 * task follows. */
void weft__ompt_task_in(ompt_thread *t, const ompt_data_t *task)
{
    if (WEFT_LIKELY(!task || !is_explicit(t->current_task)))
        return;
    uint64_t now = task->value & ~STATE, left = t->current_task;
    if (now == 0 || now == left)
        return;
    uint64_t time = part_ended_elsewhere(t, now, now, weft_now());
    if (t->current_task != left) /* left: the thread is in `now` */
        switch_to(t, now, time);
}

/* The events of one scheduling point (the ended task's Leave and
 * ThreadTaskComplete, the ThreadTaskSwitch, the new task's Enter) share one
 * reading of the clock. */
void weft__ompt_task_schedule(ompt_data_t *prior, ompt_task_status_t status, ompt_data_t *next)
{
    /* A detached task's fulfilment, reported by the thread that fulfils
     * its event, which may be running another task: nothing to record.
     * Fulfilled early, the task completes when its body ends, as any task;
     * late, its body's end (ompt_task_detach) was recorded as its
     * completion, on the thread that ran it, where Scalasca's analyzer
     * looks for a task's completion. */
    if (status == ompt_task_early_fulfill || status == ompt_task_late_fulfill)
        return;
    /* Settled by hand: a parked task taken straight back is not recorded. */
    ompt_thread *t = weft__ompt_self_unsettled();
    if (!t)
        return;
    bool completed =
        status == ompt_task_complete || status == ompt_task_cancel || status == ompt_task_detach;
    if (WEFT_UNLIKELY(t->creating.task != 0))
        weft__ompt_settle_task_create(t);
    uint64_t done = prior ? prior->value : 0;
    uint64_t task = next ? next->value : 0;
    uint64_t parked = 0; /* a parked task the switch back from is left out for */
    if (t->parking.task != 0) {
        if (parking_taken_back(t, completed, next))
            return;
        if (goes_straight_on(t, completed, done, task))
            parked = t->parking.task;
        settle_parking(t, parked == 0);
    }
    if (WEFT_UNLIKELY(t->lock_waiting))
        weft__ompt_settle_lock(t);
    struct ompt_left left = t->left;
    t->left.task = 0;
    if (empty_start_taken_back(t, prior, completed, task) ||
        switched_straight_back(t, left, completed, task))
        return;
    uint64_t time = part_ended_elsewhere(t, done, task, weft_now());
    if (is_explicit(done) && completed && (done & STATE)) {
        /* A parked task completes where it resumed; its region is open only
         * when it has resumed here. */
        const ompt_open_region *scope = weft__ompt_task_scope(t);
        if ((done & STARTED) && scope && scope->task == (done & ~STATE)) {
            /* The thread is back in the task it ran this one from: the
             * next task starts from there (and a part of it that returns
             * goes back there, see returns_to_queue). */
            t->current_task = scope->from;
            time = weft__ompt_pop_task_at(t, done & ~STATE, time);
        }
        if (tasks_recorded())
            time = weft_task_complete_at(weft__ompt_task_team(t), thread_of(done),
                                         generation_of(done), time);
    }
    if (task == 0)
        return; /* a task this tool did not see created */
    if (!completed && prior && is_explicit(done) && (done & STARTED) &&
        returns_to_queue(t, done, task) && tasks_recorded()) {
        park(t, prior, done, task, time);
        return;
    }
    bool starting = is_explicit(task) && !(task & STARTED);
    /* A switch away the next one may take back: not one that starts a task,
     * whose first appearance on this thread would then be lost. */
    bool leaving = !completed && !starting && is_explicit(done) && (done & STARTED) &&
                   (task & ~STATE) != (done & ~STATE);
    const void *at = leaving || starting ? weft_event_position() : NULL;
    uint64_t from = t->current_task;
    time = switch_to(t, task & ~STATE, time);
    if (leaving)
        t->left = (struct ompt_left){done & ~STATE, task & ~STATE, at};
    if (starting) {
        if (task & PARKED)
            atomic_fetch_add_explicit(&parked_resumes, 1, memory_order_relaxed);
        t->started = (struct ompt_started){task, from, at, t->open_depth, parked};
        next->value = (task & ~PARKED) | STARTED;
        weft__ompt_push_task_at(t, region_of(task), task & ~STATE, from, time);
    }
}
