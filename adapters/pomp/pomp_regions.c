/* SPDX-License-Identifier: BSD-3-Clause */
/* POMP2 region handles: from a CTC string to the weft regions of one
 * construct, named the way Score-P names them ("!$omp for @file.c:12") so
 * analysis tools classify them; see pomp_internal.h. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "weft/compiler.h"
#include "pomp_internal.h"
#include "weft/alloc.h"
#include "weft/log.h"
#include "weft/openmp.h"
#include "weft/openmp_control.h"
#include "weft/recorder.h"

/* Weak: defined in the region-initialisation unit `weft compile` links into
 * the application (OPARI2's pomp2_init_regions.c); absent otherwise. */
extern void POMP2_Init_regions(void) __attribute__((weak));
extern void POMP2_USER_Init_regions(void) __attribute__((weak));
/* Defined there too. Referenced here so that the linker exports it from a
 * program linked with libweft: the OMPT tool looks it up at run time to
 * see that the program reports its OpenMP constructs through POMP2. */
extern size_t POMP2_Get_num_regions(void) __attribute__((weak));

/* Serialises handle assignment; registering is rare (once per construct). */
static pthread_mutex_t assign_mutex = PTHREAD_MUTEX_INITIALIZER;

/* Which regions (weft/openmp.h) make up a construct; NONE where it has no
 * such part. */
#define NONE WEFT_OMP_REGION_COUNT
typedef struct construct_shape {
    weft_omp_region main; /* UNKNOWN for a user region or function: its own name */
    weft_omp_region work; /* combined constructs: their worksharing part */
    weft_omp_region block;
    weft_omp_region create; /* tasks */
    bool implicit_barrier;  /* OPARI2 may place an implicit barrier at its end */
    bool named;             /* a user region or function, named by the CTC string */
} construct_shape;

#define K(kind) WEFT_OMP_##kind
static const construct_shape shapes[WEFT_CTC_CONSTRUCT_COUNT] = {
    [WEFT_CTC_UNKNOWN] = {K(UNKNOWN), NONE, NONE, NONE, true, false},
    [WEFT_CTC_PARALLEL] = {K(PARALLEL), NONE, NONE, NONE, true, false},
    [WEFT_CTC_FOR] = {K(FOR), NONE, NONE, NONE, true, false},
    [WEFT_CTC_DO] = {K(DO), NONE, NONE, NONE, true, false},
    [WEFT_CTC_SECTIONS] = {K(SECTIONS), NONE, K(SECTION), NONE, true, false},
    [WEFT_CTC_SINGLE] = {K(SINGLE), NONE, K(SINGLE_SBLOCK), NONE, true, false},
    [WEFT_CTC_MASTER] = {K(MASTER), NONE, NONE, NONE, false, false},
    [WEFT_CTC_CRITICAL] = {K(CRITICAL), NONE, K(CRITICAL_SBLOCK), NONE, false, false},
    [WEFT_CTC_ATOMIC] = {K(ATOMIC), NONE, NONE, NONE, false, false},
    [WEFT_CTC_BARRIER] = {K(BARRIER), NONE, NONE, NONE, false, false},
    [WEFT_CTC_FLUSH] = {K(FLUSH), NONE, NONE, NONE, false, false},
    [WEFT_CTC_ORDERED] = {K(ORDERED), NONE, K(ORDERED_SBLOCK), NONE, false, false},
    [WEFT_CTC_TASK] = {K(TASK), NONE, K(TASK), K(TASK_CREATE), false, false},
    [WEFT_CTC_TASKUNTIED] = {K(TASK), NONE, K(TASK), K(TASK_CREATE), false, false},
    [WEFT_CTC_TASKWAIT] = {K(TASKWAIT), NONE, NONE, NONE, false, false},
    [WEFT_CTC_WORKSHARE] = {K(WORKSHARE), NONE, NONE, NONE, true, false},
    [WEFT_CTC_PARALLEL_FOR] = {K(PARALLEL), K(FOR), NONE, NONE, true, false},
    [WEFT_CTC_PARALLEL_DO] = {K(PARALLEL), K(DO), NONE, NONE, true, false},
    [WEFT_CTC_PARALLEL_SECTIONS] = {K(PARALLEL), K(SECTIONS), K(SECTION), NONE, true, false},
    [WEFT_CTC_PARALLEL_WORKSHARE] = {K(PARALLEL), K(WORKSHARE), NONE, NONE, true, false},
    [WEFT_CTC_USER_REGION] = {K(UNKNOWN), NONE, NONE, NONE, false, true},
    [WEFT_CTC_FUNCTION] = {K(UNKNOWN), NONE, NONE, NONE, false, true},
};
#undef K

/* Registers "!$omp <text> @file:line" of kind KIND (or, with text NULL, a
 * user region's own name). The region spans the construct's lines, or only
 * `line` for the implicit barrier at its end. An OpenMP region its kind or
 * the filter leaves out (weft/openmp_control.h) is WEFT_REGION_INVALID. */
static weft_region define_named(const weft_ctc_region *ctc, const char *file, const char *text,
                                weft_omp_region kind, uint32_t line)
{
    weft_region_role role = weft_omp_region_role(kind);
    char name[512];
    weft_region_desc desc = {.name = name,
                             .file = file[0] ? file : NULL,
                             .begin_line = ctc->begin_line,
                             .end_line = ctc->end_line2,
                             .role = role,
                             .paradigm = WEFT_PARADIGM_OPENMP};
    if (text) {
        weft_omp_region_name(name, sizeof(name), text, ctc->file, line);
    } else { /* user region: its name, paradigm USER */
        const weft_ctc_span *n = &ctc->user_region_name;
        if (n->len)
            snprintf(name, sizeof(name), "%.*s", (int)n->len, n->text);
        else
            snprintf(name, sizeof(name), "POMP2 user region");
        desc.paradigm = WEFT_PARADIGM_USER;
        desc.role =
            ctc->construct == WEFT_CTC_FUNCTION ? WEFT_REGION_ROLE_FUNCTION : WEFT_REGION_ROLE_CODE;
        if (weft_region_filtered(name, desc.file))
            return WEFT_REGION_INVALID; /* enter and leave then record nothing */
    }
    if (role == WEFT_REGION_ROLE_IMPLICIT_BARRIER)
        desc.begin_line = desc.end_line = line;
    if (text)
        return weft_openmp_region(&desc, kind);
    weft_region region;
    if (weft_registry_region(weft_defs_global(), &desc, &region) != WEFT_OK)
        weft_log_error("cannot register region '%s'; its events are not recorded", name);
    return region;
}

/* Registers the region of kind KIND (weft/openmp.h) of the construct. */
static weft_region define(const weft_ctc_region *ctc, const char *file, weft_omp_region kind,
                          uint32_t line)
{
    return define_named(ctc, file, weft_omp_region_text(kind), kind, line);
}

/* The lock a critical construct takes: one per critical name (all unnamed
 * ones share one), keyed by a stable address. */
static uint32_t critical_lock(const weft_ctc_region *ctc)
{
    static const char unnamed_critical = 0;
    if (ctc->critical_name.len == 0)
        return weft_lock_id(&unnamed_critical);
    char key[300];
    snprintf(key, sizeof(key), "critical %.*s", (int)ctc->critical_name.len,
             ctc->critical_name.text);
    weft_string str;
    if (weft_registry_string(weft_defs_global(), key, &str) != WEFT_OK)
        return weft_lock_id(&unnamed_critical);
    /* The registry keeps each text at one address for its lifetime. */
    return weft_lock_id(weft_registry_string_text(weft_defs_global(), str));
}

static void report_malformed(const char *dialect, const weft_ctc_region *ctc, const char *text,
                             size_t len)
{
    enum { MAX_REPORTS = 10 };
    static unsigned reports;
    if (reports++ >= MAX_REPORTS) /* under assign_mutex */
        return;
    weft_log_error("malformed %s CTC string \"%.*s\": %s at byte %u%s", dialect,
                   (int)(len > 200 ? 200 : len), text ? text : "", ctc->problem,
                   ctc->problem_offset,
                   reports == MAX_REPORTS ? " (further malformed strings are not reported)" : "");
}

/* The merged proposal's call of an OpenMP runtime routine: one region,
 * named after the routine as the POMP2 lock wrappers name theirs (so tools
 * that know "omp_set_lock" still do), at the call's file and lines. */
static weft_region define_call(const weft_ctc_region *ctc, const char *file)
{
    char name[64];
    snprintf(name, sizeof(name), "%.*s", (int)ctc->region_type.len, ctc->region_type.text);
    weft_region_desc desc = {.name = name,
                             .file = file[0] ? file : NULL,
                             .begin_line = ctc->begin_line,
                             .end_line = ctc->end_line2,
                             .role = WEFT_REGION_ROLE_WRAPPER,
                             .paradigm = WEFT_PARADIGM_OPENMP};
    weft_region region;
    if (weft_registry_region(weft_defs_global(), &desc, &region) != WEFT_OK)
        weft_log_error("cannot register region '%s'; its events are not recorded", name);
    return region;
}

/* Builds the pomp_region a construct description asks for; NULL when out
 * of memory. */
static pomp_region *create_described(const weft_ctc_region *described)
{
    pomp_region *r = weft_calloc(1, sizeof(*r));
    if (!r)
        return NULL;
    const weft_ctc_region ctc = *described;
    char file[4096];
    snprintf(file, sizeof(file), "%.*s", (int)ctc.file.len, ctc.file.len ? ctc.file.text : "");
    weft_ctc_construct construct =
        ctc.construct < WEFT_CTC_CONSTRUCT_COUNT ? ctc.construct : WEFT_CTC_UNKNOWN;
    construct_shape shaped = shapes[construct];
    const construct_shape *shape = &shaped;
    /* A task written `untied` ("task" with hasUntied=1) is named so whether
     * OPARI2 made it tied (the default: POMP2_Task_* run) or kept it untied
     * (--keep-untied: POMP2_Untied_task_*), as the OMPT adapter names it:
     * the name says what the source says, one name in both adapters. */
    if ((construct == WEFT_CTC_TASK && (ctc.clauses & WEFT_CTC_HAS_UNTIED)) ||
        construct == WEFT_CTC_TASKUNTIED) {
        shaped.main = shaped.block = WEFT_OMP_UNTIED_TASK;
        shaped.create = WEFT_OMP_UNTIED_TASK_CREATE;
    }
    r->construct = construct;
    r->lock_id = UINT32_MAX;
    for (int sub = 0; sub < POMP_SUB_COUNT; sub++)
        r->sub[sub] = WEFT_INVALID_ID;
    if (construct == WEFT_CTC_RUNTIME_CALL) { /* every part is the call's region */
        weft_region call = define_call(&ctc, file);
        for (int part = 0; part < POMP_PART_COUNT; part++)
            r->part[part] = call;
        return r;
    }
    weft_region main;
    if (shape->named) {
        main = define_named(&ctc, file, NULL, WEFT_OMP_UNKNOWN, ctc.begin_line);
    } else if (construct == WEFT_CTC_CRITICAL && ctc.critical_name.len) {
        char critical_text[300];
        snprintf(critical_text, sizeof(critical_text), "critical (%.*s)",
                 (int)ctc.critical_name.len, ctc.critical_name.text);
        main = define_named(&ctc, file, critical_text, WEFT_OMP_CRITICAL, ctc.begin_line);
    } else {
        main = define(&ctc, file, shape->main, ctc.begin_line);
    }
    r->part[POMP_MAIN] = main;
    r->part[POMP_WORK] =
        shape->work != NONE ? define(&ctc, file, shape->work, ctc.begin_line) : main;
    r->part[POMP_BLOCK] =
        shape->block != NONE ? define(&ctc, file, shape->block, ctc.begin_line) : main;
    r->part[POMP_CREATE] =
        shape->create != NONE ? define(&ctc, file, shape->create, ctc.begin_line) : main;
    r->part[POMP_BARRIER] = shape->implicit_barrier
                                ? define(&ctc, file, WEFT_OMP_IMPLICIT_BARRIER, ctc.end_line)
                                : main;
    r->part[POMP_UNTIED_BLOCK] = r->part[POMP_BLOCK];
    r->part[POMP_UNTIED_CREATE] = r->part[POMP_CREATE];
    if (ctc.construct == WEFT_CTC_CRITICAL && weft_openmp_group_recorded(WEFT_OMP_GROUP_CRITICAL))
        r->lock_id = critical_lock(&ctc);
    return r;
}

/* Builds the pomp_region of a CTC string; NULL when out of memory. */
static pomp_region *create(const char *text, size_t len)
{
    weft_ctc_region ctc;
    if (weft_ctc_parse(text, len, &ctc) != WEFT_OK && len > 0)
        report_malformed("OPARI2", &ctc, text, len);
    return create_described(&ctc);
}

/* The construct used when a handle cannot be resolved. */
static const pomp_region *unknown_region(void)
{
    static pomp_region *unknown;
    if (!unknown)
        unknown = create("", 0);
    static const pomp_region none = {.part = {{WEFT_INVALID_ID},
                                              {WEFT_INVALID_ID},
                                              {WEFT_INVALID_ID},
                                              {WEFT_INVALID_ID},
                                              {WEFT_INVALID_ID},
                                              {WEFT_INVALID_ID},
                                              {WEFT_INVALID_ID}},
                                     .lock_id = UINT32_MAX,
                                     .sub = {WEFT_INVALID_ID, WEFT_INVALID_ID, WEFT_INVALID_ID}};
    return unknown ? unknown : &none;
}

/* Under assign_mutex: sets *handle unless another thread did, from the
 * description (when not NULL) or the CTC string. */
static const pomp_region *assign_locked(void **handle, const char *ctc, size_t ctc_len,
                                        const weft_ctc_region *described)
{
    pomp_region *r = __atomic_load_n(handle, __ATOMIC_ACQUIRE);
    if (r)
        return r;
    r = described ? create_described(described) : ctc ? create(ctc, ctc_len) : NULL;
    if (!r)
        return unknown_region();
    /* Release: the region's fields are visible before the handle is; pairs
     * with the acquire loads in weft__pomp_region_of/known. */
    __atomic_store_n(handle, r, __ATOMIC_RELEASE);
    return r;
}

void weft__pomp_assign(void **handle, const char *ctc, size_t ctc_len)
{
    if (!handle)
        return;
    pthread_mutex_lock(&assign_mutex);
    assign_locked(handle, ctc, ctc_len, NULL);
    pthread_mutex_unlock(&assign_mutex);
}

static void run_init_regions(void)
{
    if (POMP2_Get_num_regions)
        weft_log_verbose("POMP2: %zu instrumented OpenMP constructs", POMP2_Get_num_regions());
    if (POMP2_Init_regions)
        POMP2_Init_regions();
    if (POMP2_USER_Init_regions)
        POMP2_USER_Init_regions();
}

void weft__pomp_init_regions(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, run_init_regions);
}

const pomp_region *weft__pomp_region_of(void **handle, const char *ctc, size_t ctc_len)
{
    if (!handle) {
        pthread_mutex_lock(&assign_mutex);
        const pomp_region *r = unknown_region();
        pthread_mutex_unlock(&assign_mutex);
        return r;
    }
    const pomp_region *r = __atomic_load_n(handle, __ATOMIC_ACQUIRE);
    if (WEFT_LIKELY(r != NULL))
        return r;
    weft__pomp_init_regions();
    pthread_mutex_lock(&assign_mutex);
    r = assign_locked(handle, ctc, ctc_len, NULL);
    pthread_mutex_unlock(&assign_mutex);
    return r;
}

const pomp_region *weft__pomp_region_described(void **handle, const weft_ctc_region *described)
{
    const pomp_region *r = __atomic_load_n(handle, __ATOMIC_ACQUIRE);
    if (WEFT_LIKELY(r != NULL))
        return r;
    pthread_mutex_lock(&assign_mutex);
    r = assign_locked(handle, NULL, 0, described);
    pthread_mutex_unlock(&assign_mutex);
    return r;
}

const pomp_region *weft__pomp_region_of_proposal(void **handle, const char *ctc, bool *malformed)
{
    *malformed = false;
    const pomp_region *r = __atomic_load_n(handle, __ATOMIC_ACQUIRE);
    if (WEFT_LIKELY(r != NULL))
        return r;
    pthread_mutex_lock(&assign_mutex);
    r = __atomic_load_n(handle, __ATOMIC_ACQUIRE);
    if (!r) {
        weft_ctc_region parsed;
        *malformed = weft_ctc_parse_proposal(ctc, SIZE_MAX, &parsed) != WEFT_OK;
        if (*malformed)
            report_malformed("POMP", &parsed, ctc, ctc ? strlen(ctc) : 0);
        r = assign_locked(handle, NULL, 0, &parsed);
    }
    pthread_mutex_unlock(&assign_mutex);
    return r;
}

/* A construct's region for events POMP2 does not have ("!$omp for chunk
 * @file:line"), defined on first use from its worksharing part's
 * definition. A workshare's block is each thread's share of the work, as a
 * chunk is of a loop's; OTF2 has no role of its own for it. */
weft_region weft__pomp_subregion(const pomp_region *r, pomp_sub which)
{
    static const weft_omp_region kinds[POMP_SUB_COUNT] = {
        [POMP_SUB_CHUNK] = WEFT_OMP_LOOP_CHUNK,
        [POMP_SUB_ITERATION] = WEFT_OMP_LOOP_ITERATION,
        [POMP_SUB_WORKSHARE_BLOCK] = WEFT_OMP_WORKSHARE_SBLOCK,
    };
    pomp_region *construct = (pomp_region *)r;
    uint32_t *slot = &construct->sub[which];
    uint32_t id = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
    if (id != WEFT_INVALID_ID || r->part[POMP_WORK].id == WEFT_INVALID_ID)
        return (weft_region){id};
    weft_region_def def;
    weft_registry *reg = weft_defs_global();
    if (weft_registry_region_get(reg, r->part[POMP_WORK], &def) != WEFT_OK)
        return WEFT_REGION_INVALID;
    const char *file = weft_registry_string_text(reg, def.file);
    weft_ctc_span span = {file ? file : "", file ? (uint32_t)strlen(file) : 0};
    char name[512];
    weft_omp_region kind = kinds[which];
    weft_omp_region_name(name, sizeof(name), weft_omp_region_text(kind), span, def.begin_line);
    weft_region_desc desc = {.name = name,
                             .file = file,
                             .begin_line = def.begin_line,
                             .end_line = def.end_line,
                             .role = weft_omp_region_role(kind),
                             .paradigm = WEFT_PARADIGM_OPENMP};
    weft_region region = weft_openmp_region(&desc, kind); /* equal ones share an id */
    if (region.id != WEFT_INVALID_ID)
        __atomic_store_n(slot, region.id, __ATOMIC_RELEASE);
    return region;
}

const pomp_region *weft__pomp_region_known(void **handle)
{
    return weft__pomp_region_of(handle, NULL, 0);
}

void weft__pomp_enter_part(const pomp_region *r, pomp_part part)
{
    if (r->part[part].id != WEFT_INVALID_ID)
        weft_openmp_enter(r->part[part]);
}

void weft__pomp_leave_part(const pomp_region *r, pomp_part part)
{
    if (r->part[part].id != WEFT_INVALID_ID)
        weft_openmp_leave(r->part[part]);
}

uint64_t weft__pomp_enter_part_at(const pomp_region *r, pomp_part part, uint64_t time)
{
    return r->part[part].id != WEFT_INVALID_ID ? weft_openmp_enter_at(r->part[part], time) : time;
}

uint64_t weft__pomp_leave_part_at(const pomp_region *r, pomp_part part, uint64_t time)
{
    return r->part[part].id != WEFT_INVALID_ID ? weft_openmp_leave_at(r->part[part], time) : time;
}

void weft__pomp_enter(void **handle, const char *ctc, size_t ctc_len, pomp_part part)
{
    weft__pomp_enter_part(weft__pomp_region_of(handle, ctc, ctc_len), part);
}

void weft__pomp_leave(void **handle, pomp_part part)
{
    weft__pomp_leave_part(weft__pomp_region_known(handle), part);
}

void weft__pomp_init(void)
{
    weft_init();
    weft__pomp_init_regions();
}
