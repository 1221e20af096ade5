/* SPDX-License-Identifier: BSD-3-Clause */
/* libweft-ompt's entry: the OpenMP runtime finds ompt_start_tool (in the
 * global symbol scope when libweft-ompt is preloaded, as `weft run` does, or
 * in a library named by OMP_TOOL_LIBRARIES), and this tool registers its
 * callbacks, checking what the runtime grants for each. */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "weft/compiler.h"
#include "ompt_internal.h"
#include "weft/log.h"
#include "weft/recorder.h"

bool weft__ompt_dependences_granted;

/* omp_control_tool commands and results (omp.h, OpenMP 5.0 §3.8). */
enum { CONTROL_START = 1, CONTROL_PAUSE = 2, CONTROL_FLUSH = 3, CONTROL_END = 4 };
enum { CONTROL_SUCCESS = 0, CONTROL_IGNORED = 1 };

/* omp_control_tool: start/pause switch recording on and off, end switches
 * it off for good, flush hands the calling thread's buffered events to the
 * writer thread now (the other threads' buffers belong to them). */
static int control_tool(uint64_t command, uint64_t modifier, void *arg, const void *codeptr)
{
    (void)modifier, (void)arg, (void)codeptr;
    static bool ended;
    switch (command) {
    case CONTROL_START:
        if (ended)
            return CONTROL_IGNORED;
        weft_recording_set(true);
        return CONTROL_SUCCESS;
    case CONTROL_PAUSE:
        weft_recording_set(false);
        return CONTROL_SUCCESS;
    case CONTROL_FLUSH:
        weft_flush_thread();
        return CONTROL_SUCCESS;
    case CONTROL_END:
        ended = true;
        weft_recording_set(false);
        return CONTROL_SUCCESS;
    default: /* commands of later versions */
        return CONTROL_IGNORED;
    }
}

/* What the runtime answered for each callback; not "always" is reported
 * under WEFT_VERBOSE (the trace may then miss those events). */
static const char *grant_text(ompt_set_result_t result)
{
    switch (result) {
    case ompt_set_never:
        return "never";
    case ompt_set_impossible:
        return "impossible";
    case ompt_set_sometimes:
        return "sometimes";
    case ompt_set_sometimes_paired:
        return "sometimes (paired)";
    case ompt_set_always:
        return "always";
    default:
        return "an error";
    }
}

/* X(event, the callback's type, weft's handler): every callback the tool
 * registers, once. */
#define WEFT_OMPT_CALLBACK_LIST(X)                                                                 \
    X(parallel_begin, ompt_callback_parallel_begin_t, weft__ompt_parallel_begin)                   \
    X(parallel_end, ompt_callback_parallel_end_t, weft__ompt_parallel_end)                         \
    X(implicit_task, ompt_callback_implicit_task_t, weft__ompt_implicit_task)                      \
    X(work, ompt_callback_work_t, weft__ompt_work)                                                 \
    X(sync_region, ompt_callback_sync_region_t, weft__ompt_sync_region)                            \
    X(masked, ompt_callback_masked_t, weft__ompt_masked)                                           \
    X(mutex_acquire, ompt_callback_mutex_acquire_t, weft__ompt_mutex_acquire)                      \
    X(mutex_acquired, ompt_callback_mutex_t, weft__ompt_mutex_acquired)                            \
    X(mutex_released, ompt_callback_mutex_t, weft__ompt_mutex_released)                            \
    X(nest_lock, ompt_callback_nest_lock_t, weft__ompt_nest_lock)                                  \
    X(lock_init, ompt_callback_mutex_acquire_t, weft__ompt_lock_init)                              \
    X(lock_destroy, ompt_callback_mutex_t, weft__ompt_lock_destroy)                                \
    X(flush, ompt_callback_flush_t, weft__ompt_flush)                                              \
    X(cancel, ompt_callback_cancel_t, weft__ompt_cancel)                                           \
    X(task_create, ompt_callback_task_create_t, weft__ompt_task_create)                            \
    X(task_schedule, ompt_callback_task_schedule_t, weft__ompt_task_schedule)                      \
    X(dependences, ompt_callback_dependences_t, weft__ompt_dependences)                            \
    X(control_tool, ompt_callback_control_tool_t, control_tool)

static int initialize(ompt_function_lookup_t lookup, int initial_device_num, ompt_data_t *tool_data)
{
    (void)initial_device_num, (void)tool_data;
    weft_init(); /* reads WEFT_* (WEFT_VERBOSE for the lines below) */
    ompt_set_callback_t set_callback = (ompt_set_callback_t)lookup("ompt_set_callback");
    if (!set_callback) {
        weft_log_error("the OpenMP runtime offers no ompt_set_callback; OpenMP events are not "
                       "recorded");
        return 0;
    }
    /* lookup is a function of the runtime: code addresses inside its object
     * are the runtime's, not the program's constructs. */
    weft__ompt_set_runtime_address((const void *)(uintptr_t)lookup);
    weft__ompt_callsite_init((const void *)(uintptr_t)lookup);

    /* Each handler is converted to its callback's own type without a cast
     * (a compound literal), so a handler whose signature differs from the
     * OMPT header's does not compile (-Werror=incompatible-pointer-types);
     * compound literals are not constants, so the table is not static. */
    const struct {
        ompt_callbacks_t event;
        const char *name;
        ompt_callback_t fn;
    } callbacks[] = {
#define CB(event, type, fn) {ompt_callback_##event, #event, (ompt_callback_t)(type){fn}},
        WEFT_OMPT_CALLBACK_LIST(CB)
#undef CB
    };
    unsigned registered = 0;
    for (size_t i = 0; i < sizeof(callbacks) / sizeof(callbacks[0]); i++) {
        ompt_set_result_t result = set_callback(callbacks[i].event, callbacks[i].fn);
        if (callbacks[i].event == ompt_callback_dependences)
            weft__ompt_dependences_granted = result > ompt_set_impossible;
        if (result == ompt_set_always) {
            registered++;
            continue;
        }
        if (result == ompt_set_never || result == ompt_set_error || result == ompt_set_impossible)
            weft_log_verbose("OMPT: the runtime gives no %s callback (%s); those events are not "
                             "recorded",
                             callbacks[i].name, grant_text(result));
        else
            weft_log_verbose("OMPT: the runtime calls %s %s; some of those events may be missing",
                             callbacks[i].name, grant_text(result));
        if (result > ompt_set_impossible)
            registered++;
    }
    weft_log_verbose("OMPT tool active: %u of %zu callbacks registered", registered,
                     sizeof(callbacks) / sizeof(callbacks[0]));
    return 1; /* keep the tool */
}

static void finalize(ompt_data_t *tool_data)
{
    (void)tool_data;
    /* The trace is written by libweft's exit handler (or MPI_Finalize);
     * whatever the runtime reports after that is ignored. */
}

/* The OpenMP constructs a program built by `weft compile` reports through
 * POMP2: the count of OPARI2's region-initialisation unit, which libweft
 * makes the linker export; 0 for any other program. */
static size_t pomp2_constructs(void)
{
    size_t (*count)(void) = NULL;
    void *symbol = dlsym(RTLD_DEFAULT, "POMP2_Get_num_regions");
    memcpy(&count, &symbol, sizeof(count)); /* POSIX: a function's address */
    return count ? count() : 0;
}

WEFT_EXPORT ompt_start_tool_result_t *
ompt_start_tool(unsigned int omp_version, const char *runtime_version)
{
    static ompt_start_tool_result_t result = {initialize, finalize, {0}};
    weft_log_verbose("OMPT: runtime '%s' (OpenMP version %u) found libweft-ompt",
                     runtime_version ? runtime_version : "?", omp_version);
    /* Both would record every construct twice into one trace; POMP2 knows
     * more (end lines, critical names, user regions). */
    size_t constructs = pomp2_constructs();
    if (constructs > 0) {
        weft_log_error("this program was built by weft compile: its %zu OpenMP constructs are "
                       "recorded through POMP2, the OMPT tool stays off (each construct once)",
                       constructs);
        return NULL;
    }
    return &result;
}
