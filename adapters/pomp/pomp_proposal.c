/* SPDX-License-Identifier: BSD-3-Clause */
/* The merged POMP proposal (pomplib.h): control, handles and the construct,
 * function and user-region events, on the POMP2 adapter core. The runtime
 * library events are in pomp_proposal_runtime.c. Parameters are named as in
 * the proposal's tables; thread_id is not needed (weft knows the thread).
 *
 * A handle is a pomp_region, as a POMP2 handle is; the proposal's CTC
 * dialect is parsed by weft_ctc_parse_proposal. Each event is recorded only
 * when its group's level (POMP_<group>, pomp_proposal_levels.c) includes it;
 * a first event still initialises its handle then, so the later events of
 * the construct find it. Values the events carry become OTF2 ParameterInt
 * events right after the event they belong to. */
#include <pthread.h>

#include "pomplib.h"
#include "omp_runtime.h"
#include "pomp_events.h"
#include "pomp_proposal.h"
#include "weft/recorder.h"

void weft__pomp_parameter(uint32_t parameter, int64_t value)
{
    static unsigned char used[WEFT_PARAMETER_COUNT];
    if (parameter >= WEFT_PARAMETER_COUNT)
        return;
    if (!__atomic_load_n(&used[parameter], __ATOMIC_ACQUIRE)) {
        weft_registry_parameter_use(weft_defs_global(), parameter);
        __atomic_store_n(&used[parameter], 1, __ATOMIC_RELEASE);
    }
    weft_parameter_int(parameter, value);
}

int32_t weft__pomp_first(void **handle, const char *ctc, const pomp_region **r)
{
    *r = NULL;
    if (!handle || (!__atomic_load_n(handle, __ATOMIC_ACQUIRE) && !ctc))
        return POMP_ERROR_NO_HANDLE;
    bool malformed;
    *r = weft__pomp_region_of_proposal(handle, ctc, &malformed);
    return malformed ? POMP_ERROR_BAD_CTC : POMP_SUCCESS;
}

int32_t weft__pomp_later(void *handle, const pomp_region **r)
{
    *r = handle;
    return handle ? POMP_SUCCESS : POMP_ERROR_NO_HANDLE;
}

static int32_t first(POMP_Handle_t *handle, const char ctc[], const pomp_region **r)
{
    return weft__pomp_first(handle, ctc, r);
}

static int32_t later(POMP_Handle_t handle, const pomp_region **r)
{
    return weft__pomp_later(handle, r);
}

static bool on(pomp_group group, pomp_level level)
{
    return weft__pomp_level_on(group, level);
}

/* A single event: a visit of no length. */
static void visit(const pomp_region *r, pomp_part part)
{
    weft__pomp_enter_part(r, part);
    weft__pomp_leave_part(r, part);
}

/* First and later events that are one region enter or leave. */
static int32_t enter_first(POMP_Handle_t *h, const char ctc[], pomp_group group, pomp_level level,
                           pomp_part part)
{
    const pomp_region *r;
    int32_t code = first(h, ctc, &r);
    if (r && on(group, level))
        weft__pomp_enter_part(r, part);
    return code;
}

static int32_t enter_later(POMP_Handle_t h, pomp_group group, pomp_level level, pomp_part part)
{
    const pomp_region *r;
    int32_t code = later(h, &r);
    if (r && on(group, level))
        weft__pomp_enter_part(r, part);
    return code;
}

static int32_t leave_later(POMP_Handle_t h, pomp_group group, pomp_level level, pomp_part part)
{
    const pomp_region *r;
    int32_t code = later(h, &r);
    if (r && on(group, level))
        weft__pomp_leave_part(r, part);
    return code;
}

static int32_t visit_first(POMP_Handle_t *h, const char ctc[], pomp_group group, pomp_level level)
{
    const pomp_region *r;
    int32_t code = first(h, ctc, &r);
    if (r && on(group, level))
        visit(r, POMP_MAIN);
    return code;
}

/* ---- control -------------------------------------------------------------- */

int32_t POMP_Init(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    weft_init();
    pthread_once(&once, weft__pomp_call_init_functions);
    return POMP_SUCCESS;
}

int32_t POMP_Finalize(void)
{
    weft_finalize();
    return POMP_SUCCESS;
}

int32_t POMP_On(void)
{
    weft_recording_set(true);
    return POMP_SUCCESS;
}

int32_t POMP_Off(void)
{
    weft_recording_set(false);
    return POMP_SUCCESS;
}

int32_t POMP_Get_handle(POMP_Handle_t *handle, const char ctc[])
{
    const pomp_region *r;
    return first(handle, ctc, &r);
}

/* ---- parallel regions ------------------------------------------------------ */

int32_t POMP_Parallel_enter(POMP_Handle_t *h, int32_t thread_id, int32_t num_threads,
                            int32_t if_expr_result, char ctc[])
{
    (void)thread_id;
    const pomp_region *r;
    int32_t code = first(h, ctc, &r);
    if (!r || !on(POMP_GROUP_PARALLEL, POMP_LEVEL_ENTER_EXIT))
        return code;
    weft__pomp_fork_keeping_task(if_expr_result != 0,
                                 num_threads > 0 ? num_threads : weft__omp_max_threads());
    if (num_threads != -1)
        weft__pomp_parameter(WEFT_PARAMETER_OPENMP_NUM_THREADS, num_threads);
    if (if_expr_result != -1)
        weft__pomp_parameter(WEFT_PARAMETER_OPENMP_IF, if_expr_result);
    return code;
}

int32_t POMP_Parallel_begin(POMP_Handle_t h, int32_t thread_id)
{
    (void)thread_id;
    const pomp_region *r;
    int32_t code = later(h, &r);
    if (r && on(POMP_GROUP_PARALLEL, POMP_LEVEL_BEGIN_END))
        weft__pomp_team_begin(r);
    return code;
}

int32_t POMP_Parallel_end(POMP_Handle_t h, int32_t thread_id)
{
    (void)thread_id;
    const pomp_region *r;
    int32_t code = later(h, &r);
    if (r && on(POMP_GROUP_PARALLEL, POMP_LEVEL_BEGIN_END))
        weft__pomp_team_end(r);
    return code;
}

int32_t POMP_Parallel_exit(POMP_Handle_t h, int32_t thread_id)
{
    (void)thread_id;
    const pomp_region *r;
    int32_t code = later(h, &r);
    if (r && on(POMP_GROUP_PARALLEL, POMP_LEVEL_ENTER_EXIT))
        weft__pomp_join_kept_task();
    return code;
}

/* ---- loops ----------------------------------------------------------------- */

int32_t POMP_Loop_enter(POMP_Handle_t *h, int32_t thread_id, int64_t chunk_size, int64_t init_iter,
                        int64_t final_iter, int64_t incr, char ctc[])
{
    (void)thread_id;
    const pomp_region *r;
    int32_t code = first(h, ctc, &r);
    if (!r || !on(POMP_GROUP_LOOP, POMP_LEVEL_ENTER_EXIT))
        return code;
    weft__pomp_enter_part(r, POMP_WORK);
    weft__pomp_parameter(WEFT_PARAMETER_OPENMP_LOOP_CHUNK_SIZE, chunk_size);
    weft__pomp_parameter(WEFT_PARAMETER_OPENMP_LOOP_FIRST, init_iter);
    weft__pomp_parameter(WEFT_PARAMETER_OPENMP_LOOP_LAST, final_iter);
    weft__pomp_parameter(WEFT_PARAMETER_OPENMP_LOOP_INCREMENT, incr);
    return code;
}

int32_t POMP_Loop_exit(POMP_Handle_t h, int32_t thread_id)
{
    (void)thread_id;
    return leave_later(h, POMP_GROUP_LOOP, POMP_LEVEL_ENTER_EXIT, POMP_WORK);
}

/* Enters (or visits) one of the construct's subregions: a loop's chunk or
 * iteration, a workshare's block. */
static void sub_part(const pomp_region *r, pomp_sub which, bool enter, bool leave)
{
    weft_region region = weft__pomp_subregion(r, which);
    if (region.id == WEFT_INVALID_ID)
        return;
    if (enter)
        weft_enter(region);
    if (leave)
        weft_leave(region);
}

static int32_t sub_later(POMP_Handle_t h, pomp_group group, pomp_level level, pomp_sub which,
                         bool enter)
{
    const pomp_region *r;
    int32_t code = later(h, &r);
    if (r && on(group, level))
        sub_part(r, which, enter, !enter);
    return code;
}

int32_t POMP_Loop_chunk_begin(POMP_Handle_t h, int32_t thread_id, int64_t init_iter,
                              int64_t final_iter)
{
    (void)thread_id;
    const pomp_region *r;
    int32_t code = later(h, &r);
    if (r && on(POMP_GROUP_LOOP, POMP_LEVEL_CHUNKS)) {
        sub_part(r, POMP_SUB_CHUNK, true, false);
        weft__pomp_parameter(WEFT_PARAMETER_OPENMP_LOOP_FIRST, init_iter);
        weft__pomp_parameter(WEFT_PARAMETER_OPENMP_LOOP_LAST, final_iter);
    }
    return code;
}

int32_t POMP_Loop_chunk_end(POMP_Handle_t h, int32_t thread_id)
{
    (void)thread_id;
    return sub_later(h, POMP_GROUP_LOOP, POMP_LEVEL_CHUNKS, POMP_SUB_CHUNK, false);
}

int32_t POMP_Loop_iter_begin(POMP_Handle_t h, int32_t thread_id, int64_t iter)
{
    (void)thread_id;
    const pomp_region *r;
    int32_t code = later(h, &r);
    if (r && on(POMP_GROUP_LOOP, POMP_LEVEL_ITER_BEGIN_END)) {
        sub_part(r, POMP_SUB_ITERATION, true, false);
        weft__pomp_parameter(WEFT_PARAMETER_OPENMP_LOOP_ITERATION, iter);
    }
    return code;
}

int32_t POMP_Loop_iter_end(POMP_Handle_t h, int32_t thread_id)
{
    (void)thread_id;
    return sub_later(h, POMP_GROUP_LOOP, POMP_LEVEL_ITER_BEGIN_END, POMP_SUB_ITERATION, false);
}

int32_t POMP_Loop_iter_event(POMP_Handle_t h, int32_t thread_id, int64_t iter)
{
    (void)thread_id;
    const pomp_region *r;
    int32_t code = later(h, &r);
    if (r && on(POMP_GROUP_LOOP, POMP_LEVEL_ITER_EVENT)) {
        sub_part(r, POMP_SUB_ITERATION, true, false);
        weft__pomp_parameter(WEFT_PARAMETER_OPENMP_LOOP_ITERATION, iter);
        sub_part(r, POMP_SUB_ITERATION, false, true);
    }
    return code;
}

/* ---- worksharing ------------------------------------------------------------ */

#define W POMP_GROUP_WORKSHARE
#define S POMP_GROUP_SYNC
#define EE POMP_LEVEL_ENTER_EXIT
#define BE POMP_LEVEL_BEGIN_END

/* clang-format off */
int32_t POMP_Workshare_enter(POMP_Handle_t *h, int32_t t, char ctc[]) { (void)t; return enter_first(h, ctc, W, EE, POMP_WORK); }
int32_t POMP_Workshare_exit(POMP_Handle_t h, int32_t t) { (void)t; return leave_later(h, W, EE, POMP_WORK); }
int32_t POMP_Workshare_begin(POMP_Handle_t h, int32_t t) { (void)t; return sub_later(h, W, BE, POMP_SUB_WORKSHARE_BLOCK, true); }
int32_t POMP_Workshare_end(POMP_Handle_t h, int32_t t) { (void)t; return sub_later(h, W, BE, POMP_SUB_WORKSHARE_BLOCK, false); }
int32_t POMP_Sections_enter(POMP_Handle_t *h, int32_t t, char ctc[]) { (void)t; return enter_first(h, ctc, W, EE, POMP_WORK); }
int32_t POMP_Sections_exit(POMP_Handle_t h, int32_t t) { (void)t; return leave_later(h, W, EE, POMP_WORK); }
int32_t POMP_Section_end(POMP_Handle_t h, int32_t t) { (void)t; return leave_later(h, W, BE, POMP_BLOCK); }
int32_t POMP_Single_enter(POMP_Handle_t *h, int32_t t, char ctc[]) { (void)t; return enter_first(h, ctc, W, EE, POMP_MAIN); }
int32_t POMP_Single_begin(POMP_Handle_t h, int32_t t) { (void)t; return enter_later(h, W, BE, POMP_BLOCK); }
int32_t POMP_Single_end(POMP_Handle_t h, int32_t t) { (void)t; return leave_later(h, W, BE, POMP_BLOCK); }
int32_t POMP_Single_exit(POMP_Handle_t h, int32_t t) { (void)t; return leave_later(h, W, EE, POMP_MAIN); }

/* ---- synchronisation -------------------------------------------------------- */

int32_t POMP_Critical_enter(POMP_Handle_t *h, int32_t t, char ctc[]) { (void)t; return enter_first(h, ctc, S, EE, POMP_MAIN); }
int32_t POMP_Critical_exit(POMP_Handle_t h, int32_t t) { (void)t; return leave_later(h, S, EE, POMP_MAIN); }
int32_t POMP_Ordered_enter(POMP_Handle_t *h, int32_t t, char ctc[]) { (void)t; return enter_first(h, ctc, S, EE, POMP_MAIN); }
int32_t POMP_Ordered_begin(POMP_Handle_t h, int32_t t) { (void)t; return enter_later(h, S, BE, POMP_BLOCK); }
int32_t POMP_Ordered_end(POMP_Handle_t h, int32_t t) { (void)t; return leave_later(h, S, BE, POMP_BLOCK); }
int32_t POMP_Ordered_exit(POMP_Handle_t h, int32_t t) { (void)t; return leave_later(h, S, EE, POMP_MAIN); }
int32_t POMP_Master_begin(POMP_Handle_t *h, int32_t t, char ctc[]) { (void)t; return enter_first(h, ctc, S, BE, POMP_MAIN); }
int32_t POMP_Master_end(POMP_Handle_t h, int32_t t) { (void)t; return leave_later(h, S, BE, POMP_MAIN); }
int32_t POMP_Barrier_enter(POMP_Handle_t *h, int32_t t, char ctc[]) { (void)t; return enter_first(h, ctc, S, EE, POMP_MAIN); }
int32_t POMP_Barrier_exit(POMP_Handle_t h, int32_t t) { (void)t; return leave_later(h, S, EE, POMP_MAIN); }
/* The implicit barrier's own handle: its CTC string describes the construct
 * the barrier ends, and the barrier is that construct's implicit barrier
 * region ("!$omp implicit barrier @f.c:<its end line>"). */
int32_t POMP_Implicit_barrier_enter(POMP_Handle_t *h, int32_t t, char ctc[]) { (void)t; return enter_first(h, ctc, S, EE, POMP_BARRIER); }
int32_t POMP_Implicit_barrier_exit(POMP_Handle_t h, int32_t t) { (void)t; return leave_later(h, S, EE, POMP_BARRIER); }
int32_t POMP_Atomic_event(POMP_Handle_t *h, int32_t t, char ctc[]) { (void)t; return visit_first(h, ctc, S, POMP_LEVEL_EVENT); }
int32_t POMP_Flush_event(POMP_Handle_t *h, int32_t t, char ctc[]) { (void)t; return visit_first(h, ctc, S, POMP_LEVEL_EVENT); }

/* ---- functions and user regions: one region each, entered by enter/begin ---- */

int32_t POMP_Function_enter(POMP_Handle_t *h, int32_t t, char ctc[]) { (void)t; return enter_first(h, ctc, POMP_GROUP_USER, BE, POMP_MAIN); }
int32_t POMP_Function_exit(POMP_Handle_t h, int32_t t) { (void)t; return leave_later(h, POMP_GROUP_USER, BE, POMP_MAIN); }
int32_t POMP_Function_begin(POMP_Handle_t *h, int32_t t, char ctc[]) { (void)t; return enter_first(h, ctc, POMP_GROUP_USER, BE, POMP_MAIN); }
int32_t POMP_Function_end(POMP_Handle_t h, int32_t t) { (void)t; return leave_later(h, POMP_GROUP_USER, BE, POMP_MAIN); }
int32_t POMP_Function_event(POMP_Handle_t *h, int32_t t, char ctc[]) { (void)t; return visit_first(h, ctc, POMP_GROUP_USER, POMP_LEVEL_EVENT); }
int32_t POMP_User_region_begin(POMP_Handle_t *h, int32_t t, char ctc[]) { (void)t; return enter_first(h, ctc, POMP_GROUP_USER, BE, POMP_MAIN); }
int32_t POMP_User_region_end(POMP_Handle_t h, int32_t t) { (void)t; return leave_later(h, POMP_GROUP_USER, BE, POMP_MAIN); }
int32_t POMP_User_event(POMP_Handle_t *h, int32_t t, char ctc[]) { (void)t; return visit_first(h, ctc, POMP_GROUP_USER, POMP_LEVEL_EVENT); }
/* clang-format on */

int32_t POMP_Section_begin(POMP_Handle_t h, int32_t section_num, int32_t thread_id)
{
    (void)thread_id;
    const pomp_region *r;
    int32_t code = later(h, &r);
    if (r && on(W, BE)) {
        weft__pomp_enter_part(r, POMP_BLOCK);
        weft__pomp_parameter(WEFT_PARAMETER_OPENMP_SECTION_NUMBER, section_num);
    }
    return code;
}

/* Inside the critical section: its lock is acquired (see pomp_events.c). */
int32_t POMP_Critical_begin(POMP_Handle_t h, int32_t thread_id)
{
    (void)thread_id;
    const pomp_region *r;
    int32_t code = later(h, &r);
    if (r && on(S, BE))
        weft__pomp_critical_acquired(r);
    return code;
}

int32_t POMP_Critical_end(POMP_Handle_t h, int32_t thread_id)
{
    (void)thread_id;
    const pomp_region *r;
    int32_t code = later(h, &r);
    if (r && on(S, BE))
        weft__pomp_critical_releasing(r);
    return code;
}
