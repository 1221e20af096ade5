/* SPDX-License-Identifier: BSD-3-Clause */
/* POMP as OPARI 1.1 emits it (pomp_lib.h of 2001, _POMP 200110): the
 * lower-case pomp_* entry points, each taking the construct's static
 * descriptor (struct ompregdescr). They map onto the same adapter core as
 * POMP2, so a construct traces the same whichever OPARI instrumented it.
 *
 * A descriptor describes its construct completely (name, critical or user
 * region name, file, lines), so it is turned into the weft_ctc_region the
 * POMP2 path parses from a CTC string, and its `data` field ("space for
 * performance data") holds the pomp_region, as a POMP2 handle does. The
 * table OPARI 1 writes for the link (pomp_rd_table, POMP_MAX_ID) is used,
 * when present, to define every region at pomp_init.
 *
 * What OPARI 1 does not pass is not recorded: no thread id, no if or
 * num_threads clause (a fork requests the default team size,
 * omp_get_max_threads()), no tasks, no ordered construct. Only C and C++:
 * OPARI 1's Fortran calls pass table indices (see docs/OPENMP-POMP2.md). */
#include <stdbool.h>
#include <string.h>

#include "weft/compiler.h"
#include "pomp_events.h"
#include "weft/recorder.h"

struct ompregdescr {
    char *name;       /* construct: "parallel", "for", ... "region" (user) */
    char *sub_name;   /* critical name, user region name */
    int num_sections; /* sections only */
    char *file_name;
    int begin_first_line;
    int begin_last_line;
    int end_first_line;
    int end_last_line;
    void *data; /* weft: the construct's pomp_region */
    struct ompregdescr *next;
};


/* Events that are one region enter and leave: (enter, exit, part). */
/* clang-format off */
#define POMP1_PAIRS(X)                                                                             \
    X(pomp_for_enter, pomp_for_exit, POMP_WORK)                                                    \
    X(pomp_sections_enter, pomp_sections_exit, POMP_WORK)                                          \
    X(pomp_section_begin, pomp_section_end, POMP_BLOCK)                                            \
    X(pomp_workshare_enter, pomp_workshare_exit, POMP_WORK)                                        \
    X(pomp_single_enter, pomp_single_exit, POMP_MAIN)                                              \
    X(pomp_single_begin, pomp_single_end, POMP_BLOCK)                                              \
    X(pomp_master_begin, pomp_master_end, POMP_MAIN)                                               \
    X(pomp_critical_enter, pomp_critical_exit, POMP_MAIN)                                          \
    X(pomp_atomic_enter, pomp_atomic_exit, POMP_MAIN)                                              \
    X(pomp_flush_enter, pomp_flush_exit, POMP_MAIN)                                                \
    X(pomp_begin, pomp_end, POMP_MAIN)

/* Declarations: external names, exported from libweft. */
#define DECLARE_PAIR(enter_name, exit_name, part)                                                  \
    WEFT_EXPORT void enter_name(struct ompregdescr *d);                                             \
    WEFT_EXPORT void exit_name(struct ompregdescr *d);
POMP1_PAIRS(DECLARE_PAIR)
#undef DECLARE_PAIR
WEFT_EXPORT void pomp_init(void);
WEFT_EXPORT void pomp_finalize(void);
WEFT_EXPORT void pomp_on(void);
WEFT_EXPORT void pomp_off(void);
WEFT_EXPORT void pomp_parallel_fork(struct ompregdescr *d);
WEFT_EXPORT void pomp_parallel_join(struct ompregdescr *d);
WEFT_EXPORT void pomp_parallel_begin(struct ompregdescr *d);
WEFT_EXPORT void pomp_parallel_end(struct ompregdescr *d);
WEFT_EXPORT void pomp_critical_begin(struct ompregdescr *d);
WEFT_EXPORT void pomp_critical_end(struct ompregdescr *d);
WEFT_EXPORT void pomp_barrier_enter(struct ompregdescr *d);
WEFT_EXPORT void pomp_barrier_exit(struct ompregdescr *d);
WEFT_EXPORT void pomp_init_lock(void *lock);
WEFT_EXPORT void pomp_destroy_lock(void *lock);
WEFT_EXPORT void pomp_set_lock(void *lock);
WEFT_EXPORT void pomp_unset_lock(void *lock);
WEFT_EXPORT int pomp_test_lock(void *lock);
WEFT_EXPORT void pomp_init_nest_lock(void *lock);
WEFT_EXPORT void pomp_destroy_nest_lock(void *lock);
WEFT_EXPORT void pomp_set_nest_lock(void *lock);
WEFT_EXPORT void pomp_unset_nest_lock(void *lock);
WEFT_EXPORT int pomp_test_nest_lock(void *lock);
/* clang-format on */

/* OPARI 1's table, linked into the program by `weft compile --opari1`. */
extern struct ompregdescr *pomp_rd_table[] __attribute__((weak));
extern int POMP_MAX_ID __attribute__((weak));

/* Set while weft records (pomp_lib.h's variable; OPARI 1 code may test it). */
WEFT_EXPORT extern int pomp_tracing;
int pomp_tracing = 1;

static weft_ctc_span span_of(const char *text)
{
    return (weft_ctc_span){text ? text : "", text ? (uint32_t)strnlen(text, 4096) : 0};
}

static uint32_t line_of(int line)
{
    return line > 0 ? (uint32_t)line : 0;
}

/* The construct OPARI 1 names with `name`. */
static weft_ctc_construct construct_named(const char *name)
{
    if (!name)
        return WEFT_CTC_UNKNOWN;
    if (strcmp(name, "region") == 0)
        return WEFT_CTC_USER_REGION;
    for (weft_ctc_construct c = 1; c < WEFT_CTC_CONSTRUCT_COUNT; c++) {
        if (strcmp(name, weft_ctc_construct_text(c)) == 0)
            return c;
    }
    return WEFT_CTC_UNKNOWN;
}

/* The construct's regions, defined from the descriptor on first use. */
static const pomp_region *region_of(struct ompregdescr *d)
{
    if (!d)
        return weft__pomp_region_of(NULL, NULL, 0);
    weft_ctc_region ctc = {.construct = construct_named(d->name),
                           .region_type = span_of(d->name),
                           .file = span_of(d->file_name),
                           .begin_line = line_of(d->begin_first_line),
                           .begin_line2 = line_of(d->begin_last_line),
                           .end_line = line_of(d->end_first_line),
                           .end_line2 = line_of(d->end_last_line),
                           .num_sections = d->num_sections > 0 ? (uint32_t)d->num_sections : 0};
    if (ctc.construct == WEFT_CTC_CRITICAL)
        ctc.critical_name = span_of(d->sub_name);
    else if (ctc.construct == WEFT_CTC_USER_REGION)
        ctc.user_region_name = span_of(d->sub_name);
    return weft__pomp_region_described(&d->data, &ctc);
}

static void enter(struct ompregdescr *d, pomp_part part)
{
    weft__pomp_enter_part(region_of(d), part);
}

static void leave(struct ompregdescr *d, pomp_part part)
{
    weft__pomp_leave_part(region_of(d), part);
}

/* ---- control ------------------------------------------------------------- */

void pomp_init(void)
{
    weft_init();
    if (!pomp_rd_table || !&POMP_MAX_ID)
        return;
    for (int id = 1; id < POMP_MAX_ID; id++)
        region_of(pomp_rd_table[id]);
}

void pomp_finalize(void)
{
    weft_finalize();
}

void pomp_on(void)
{
    weft_recording_set(true);
    pomp_tracing = 1;
}

void pomp_off(void)
{
    weft_recording_set(false);
    pomp_tracing = 0;
}

/* ---- parallel regions ------------------------------------------------------ */

void pomp_parallel_fork(struct ompregdescr *d)
{
    region_of(d); /* defined before the team starts */
    weft__pomp_fork_keeping_task(1, weft__omp_max_threads());
}

void pomp_parallel_join(struct ompregdescr *d)
{
    (void)d;
    weft__pomp_join_kept_task();
}

void pomp_parallel_begin(struct ompregdescr *d)
{
    weft__pomp_team_begin(region_of(d));
}

void pomp_parallel_end(struct ompregdescr *d)
{
    weft__pomp_team_end(region_of(d));
}

/* ---- worksharing, synchronisation, user regions ---------------------------- */

/* clang-format off */
#define DEFINE_PAIR(enter_name, exit_name, part)                                                   \
    void enter_name(struct ompregdescr *d) { enter(d, part); }                                    \
    void exit_name(struct ompregdescr *d) { leave(d, part); }
POMP1_PAIRS(DEFINE_PAIR)
#undef DEFINE_PAIR
/* clang-format on */

void pomp_critical_begin(struct ompregdescr *d)
{
    weft__pomp_critical_acquired(region_of(d));
}

void pomp_critical_end(struct ompregdescr *d)
{
    weft__pomp_critical_releasing(region_of(d));
}

/* OPARI 1 reports an explicit barrier with the barrier's descriptor and the
 * implicit barrier at the end of a construct with that construct's. */
static pomp_part barrier_part(const pomp_region *r)
{
    return r->construct == WEFT_CTC_BARRIER ? POMP_MAIN : POMP_BARRIER;
}

void pomp_barrier_enter(struct ompregdescr *d)
{
    const pomp_region *r = region_of(d);
    weft__pomp_enter_part(r, barrier_part(r));
}

void pomp_barrier_exit(struct ompregdescr *d)
{
    const pomp_region *r = region_of(d);
    weft__pomp_leave_part(r, barrier_part(r));
}

/* ---- OpenMP lock routines --------------------------------------------------- */

void pomp_init_lock(void *lock)
{
    weft__pomp_lock(OMP_INIT_LOCK, lock, false);
}
void pomp_destroy_lock(void *lock)
{
    weft__pomp_lock(OMP_DESTROY_LOCK, lock, false);
}
void pomp_set_lock(void *lock)
{
    weft__pomp_lock(OMP_SET_LOCK, lock, false);
}
void pomp_unset_lock(void *lock)
{
    weft__pomp_lock(OMP_UNSET_LOCK, lock, false);
}
int pomp_test_lock(void *lock)
{
    return weft__pomp_lock(OMP_TEST_LOCK, lock, false);
}
void pomp_init_nest_lock(void *lock)
{
    weft__pomp_lock(OMP_INIT_NEST_LOCK, lock, false);
}
void pomp_destroy_nest_lock(void *lock)
{
    weft__pomp_lock(OMP_DESTROY_NEST_LOCK, lock, false);
}
void pomp_set_nest_lock(void *lock)
{
    weft__pomp_lock(OMP_SET_NEST_LOCK, lock, false);
}
void pomp_unset_nest_lock(void *lock)
{
    weft__pomp_lock(OMP_UNSET_NEST_LOCK, lock, false);
}
int pomp_test_nest_lock(void *lock)
{
    return weft__pomp_lock(OMP_TEST_NEST_LOCK, lock, false);
}
