/* An OMPT tool that registers the callbacks libweft-ompt registers
 * (adapters/ompt/ompt_tool.c) with empty bodies: preloaded into a program
 * (LD_PRELOAD, or OMP_TOOL_LIBRARIES), it measures what the OpenMP runtime
 * itself spends on a tool (building the callbacks' arguments, keeping task
 * and parallel data, calling through its table), which is part of every
 * OMPT tool's cost and none of weft's. bench/run-apps runs it beside the
 * plain and the traced programs.
 *
 * Like weft's, the task_create callback writes the new task's data and the
 * implicit_task callback the implicit task's, so the runtime keeps them. */
#include <omp-tools.h>
#include <stddef.h>
#include <stdint.h>

static void parallel_begin(ompt_data_t *encountering_task, const ompt_frame_t *frame,
                           ompt_data_t *parallel, unsigned int requested, int flags,
                           const void *codeptr)
{
    (void)encountering_task, (void)frame, (void)requested, (void)flags, (void)codeptr;
    parallel->value = 1;
}
static void parallel_end(ompt_data_t *parallel, ompt_data_t *encountering_task, int flags,
                         const void *codeptr)
{
    (void)parallel, (void)encountering_task, (void)flags, (void)codeptr;
}
static void implicit_task(ompt_scope_endpoint_t endpoint, ompt_data_t *parallel, ompt_data_t *task,
                          unsigned int actual_parallelism, unsigned int index, int flags)
{
    (void)endpoint, (void)parallel, (void)actual_parallelism, (void)flags;
    task->value = index + 1;
}
static void work(ompt_work_t kind, ompt_scope_endpoint_t endpoint, ompt_data_t *parallel,
                 ompt_data_t *task, uint64_t count, const void *codeptr)
{
    (void)kind, (void)endpoint, (void)parallel, (void)task, (void)count, (void)codeptr;
}
static void sync_region(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint,
                        ompt_data_t *parallel, ompt_data_t *task, const void *codeptr)
{
    (void)kind, (void)endpoint, (void)parallel, (void)task, (void)codeptr;
}
static void masked(ompt_scope_endpoint_t endpoint, ompt_data_t *parallel, ompt_data_t *task,
                   const void *codeptr)
{
    (void)endpoint, (void)parallel, (void)task, (void)codeptr;
}
static void mutex_acquire(ompt_mutex_t kind, unsigned int hint, unsigned int impl,
                          ompt_wait_id_t wait_id, const void *codeptr)
{
    (void)kind, (void)hint, (void)impl, (void)wait_id, (void)codeptr;
}
static void mutex_event(ompt_mutex_t kind, ompt_wait_id_t wait_id, const void *codeptr)
{
    (void)kind, (void)wait_id, (void)codeptr;
}
static void nest_lock(ompt_scope_endpoint_t endpoint, ompt_wait_id_t wait_id, const void *codeptr)
{
    (void)endpoint, (void)wait_id, (void)codeptr;
}
static void flush(ompt_data_t *thread, const void *codeptr)
{
    (void)thread, (void)codeptr;
}
static void cancel(ompt_data_t *task, int flags, const void *codeptr)
{
    (void)task, (void)flags, (void)codeptr;
}
static void task_create(ompt_data_t *encountering_task, const ompt_frame_t *frame,
                        ompt_data_t *new_task, int flags, int has_dependences, const void *codeptr)
{
    (void)encountering_task, (void)frame, (void)flags, (void)has_dependences, (void)codeptr;
    new_task->value = 1;
}
static void task_schedule(ompt_data_t *prior, ompt_task_status_t status, ompt_data_t *next)
{
    (void)prior, (void)status, (void)next;
}
static void dependences(ompt_data_t *task, const ompt_dependence_t *deps, int count)
{
    (void)task, (void)deps, (void)count;
}
static int control_tool(uint64_t command, uint64_t modifier, void *arg, const void *codeptr)
{
    (void)command, (void)modifier, (void)arg, (void)codeptr;
    return 0;
}

static int initialize(ompt_function_lookup_t lookup, int initial_device_num, ompt_data_t *tool_data)
{
    (void)initial_device_num, (void)tool_data;
    ompt_set_callback_t set_callback = (ompt_set_callback_t)lookup("ompt_set_callback");
    if (!set_callback)
        return 0;
#define SET(event, fn) set_callback(ompt_callback_##event, (ompt_callback_t)(fn))
    SET(parallel_begin, parallel_begin);
    SET(parallel_end, parallel_end);
    SET(implicit_task, implicit_task);
    SET(work, work);
    SET(sync_region, sync_region);
    SET(masked, masked);
    SET(mutex_acquire, mutex_acquire);
    SET(mutex_acquired, mutex_event);
    SET(mutex_released, mutex_event);
    SET(nest_lock, nest_lock);
    SET(lock_init, mutex_acquire);
    SET(lock_destroy, mutex_event);
    SET(flush, flush);
    SET(cancel, cancel);
    SET(task_create, task_create);
    SET(task_schedule, task_schedule);
    SET(dependences, dependences);
    SET(control_tool, control_tool);
#undef SET
    return 1;
}

static void finalize(ompt_data_t *tool_data)
{
    (void)tool_data;
}

__attribute__((visibility("default"))) ompt_start_tool_result_t *
ompt_start_tool(unsigned int omp_version, const char *runtime_version);

__attribute__((visibility("default"))) ompt_start_tool_result_t *
ompt_start_tool(unsigned int omp_version, const char *runtime_version)
{
    (void)omp_version, (void)runtime_version;
    static ompt_start_tool_result_t result = {initialize, finalize, {0}};
    return &result;
}
/* SPDX-License-Identifier: BSD-3-Clause */
