/* POMP2 region handles: from a CTC string to the weft regions of one
 * construct, named the way Score-P names them ("!$omp for @file.c:12") so
 * analysis tools classify them; see pomp_internal.h. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "pomp_internal.h"
#include "weft/alloc.h"
#include "weft/log.h"
#include "weft/recorder.h"

/* Weak: defined in the region-initialisation unit `weft compile` links into
 * the application (OPARI2's pomp2_init_regions.c); absent otherwise. */
extern void POMP2_Init_regions(void) __attribute__((weak));
extern void POMP2_USER_Init_regions(void) __attribute__((weak));

/* Serialises handle assignment; registering is rare (once per construct). */
static pthread_mutex_t assign_mutex = PTHREAD_MUTEX_INITIALIZER;

/* What a construct's regions are called and which roles they have. */
typedef struct construct_shape {
    const char *main_text; /* "parallel", "for", ... NULL: the user region's name */
    weft_region_role main_role;
    const char *work_text; /* combined constructs: their worksharing part */
    weft_region_role work_role;
    const char *block_text; /* "single sblock", "section", "task" ... */
    weft_region_role block_role;
    const char *create_text; /* tasks: "create task" */
    bool implicit_barrier;   /* OPARI2 may place an implicit barrier at its end */
} construct_shape;

#define R(role) WEFT_REGION_ROLE_##role
static const construct_shape shapes[WEFT_CTC_CONSTRUCT_COUNT] = {
    [WEFT_CTC_UNKNOWN] = {"unknown", R(UNKNOWN), NULL, 0, NULL, 0, NULL, true},
    [WEFT_CTC_PARALLEL] = {"parallel", R(PARALLEL), NULL, 0, NULL, 0, NULL, true},
    [WEFT_CTC_FOR] = {"for", R(LOOP), NULL, 0, NULL, 0, NULL, true},
    [WEFT_CTC_DO] = {"do", R(LOOP), NULL, 0, NULL, 0, NULL, true},
    [WEFT_CTC_SECTIONS] = {"sections", R(SECTIONS), NULL, 0, "section", R(SECTION), NULL, true},
    [WEFT_CTC_SINGLE] = {"single", R(SINGLE), NULL, 0, "single sblock", R(SINGLE_SBLOCK), NULL,
                         true},
    [WEFT_CTC_MASTER] = {"master", R(MASTER), NULL, 0, NULL, 0, NULL, false},
    [WEFT_CTC_CRITICAL] = {"critical", R(CRITICAL), NULL, 0, "critical sblock", R(CRITICAL_SBLOCK),
                           NULL, false},
    [WEFT_CTC_ATOMIC] = {"atomic", R(ATOMIC), NULL, 0, NULL, 0, NULL, false},
    [WEFT_CTC_BARRIER] = {"barrier", R(BARRIER), NULL, 0, NULL, 0, NULL, false},
    [WEFT_CTC_FLUSH] = {"flush", R(FLUSH), NULL, 0, NULL, 0, NULL, false},
    [WEFT_CTC_ORDERED] = {"ordered", R(ORDERED), NULL, 0, "ordered sblock", R(ORDERED_SBLOCK), NULL,
                          false},
    [WEFT_CTC_TASK] = {"task", R(TASK), NULL, 0, "task", R(TASK), "create task", false},
    [WEFT_CTC_TASKUNTIED] = {"task", R(TASK), NULL, 0, "task", R(TASK), "create task", false},
    [WEFT_CTC_TASKWAIT] = {"taskwait", R(TASK_WAIT), NULL, 0, NULL, 0, NULL, false},
    [WEFT_CTC_WORKSHARE] = {"workshare", R(WORKSHARE), NULL, 0, NULL, 0, NULL, true},
    [WEFT_CTC_PARALLEL_FOR] = {"parallel", R(PARALLEL), "for", R(LOOP), NULL, 0, NULL, true},
    [WEFT_CTC_PARALLEL_DO] = {"parallel", R(PARALLEL), "do", R(LOOP), NULL, 0, NULL, true},
    [WEFT_CTC_PARALLEL_SECTIONS] = {"parallel", R(PARALLEL), "sections", R(SECTIONS), "section",
                                    R(SECTION), NULL, true},
    [WEFT_CTC_PARALLEL_WORKSHARE] = {"parallel", R(PARALLEL), "workshare", R(WORKSHARE), NULL, 0,
                                     NULL, true},
    [WEFT_CTC_USER_REGION] = {NULL, R(CODE), NULL, 0, NULL, 0, NULL, false},
    [WEFT_CTC_FUNCTION] = {NULL, R(FUNCTION), NULL, 0, NULL, 0, NULL, false},
};
#undef R

/* Registers "!$omp <text> @file:line" (or a user region's own name). The
 * region spans the construct's lines, or only `line` for the implicit
 * barrier at its end. */
static weft_region define(const weft_ctc_region *ctc, const char *file, const char *text,
                          weft_region_role role, uint32_t line)
{
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
        if (weft_region_filtered(name, desc.file))
            return WEFT_REGION_INVALID; /* enter and leave then record nothing */
    }
    if (role == WEFT_REGION_ROLE_IMPLICIT_BARRIER)
        desc.begin_line = desc.end_line = line;
    weft_region region;
    if (weft_registry_region(weft_defs_global(), &desc, &region) != WEFT_OK)
        weft_log_error("cannot register OpenMP region '%s'; its events are not recorded", name);
    return region;
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
    const construct_shape *shape = &shapes[construct];
    char critical_text[300];
    const char *main_text = shape->main_text;
    if (ctc.construct == WEFT_CTC_CRITICAL && ctc.critical_name.len) {
        snprintf(critical_text, sizeof(critical_text), "critical (%.*s)",
                 (int)ctc.critical_name.len, ctc.critical_name.text);
        main_text = critical_text;
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
    weft_region main = define(&ctc, file, main_text, shape->main_role, ctc.begin_line);
    r->part[POMP_MAIN] = main;
    r->part[POMP_WORK] =
        shape->work_text ? define(&ctc, file, shape->work_text, shape->work_role, ctc.begin_line)
                         : main;
    r->part[POMP_BLOCK] =
        shape->block_text ? define(&ctc, file, shape->block_text, shape->block_role, ctc.begin_line)
                          : main;
    r->part[POMP_CREATE] = shape->create_text ? define(&ctc, file, shape->create_text,
                                                       WEFT_REGION_ROLE_TASK_CREATE, ctc.begin_line)
                                              : main;
    r->part[POMP_BARRIER] = shape->implicit_barrier
                                ? define(&ctc, file, "implicit barrier",
                                         WEFT_REGION_ROLE_IMPLICIT_BARRIER, ctc.end_line)
                                : main;
    /* An untied task ("task" with hasUntied=1) stays tied unless OPARI2 was
     * told to keep it: which POMP2 functions run decides, so define both. */
    bool untied = (construct == WEFT_CTC_TASK && (ctc.clauses & WEFT_CTC_HAS_UNTIED)) ||
                  construct == WEFT_CTC_TASKUNTIED;
    r->part[POMP_UNTIED_BLOCK] =
        untied ? define(&ctc, file, "untied task", WEFT_REGION_ROLE_TASK_UNTIED, ctc.begin_line)
               : r->part[POMP_BLOCK];
    r->part[POMP_UNTIED_CREATE] = untied ? define(&ctc, file, "create untied task",
                                                  WEFT_REGION_ROLE_TASK_CREATE, ctc.begin_line)
                                         : r->part[POMP_CREATE];
    if (ctc.construct == WEFT_CTC_CRITICAL)
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
    if (__builtin_expect(r != NULL, 1))
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
    if (__builtin_expect(r != NULL, 1))
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
    if (__builtin_expect(r != NULL, 1))
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
    static const struct {
        const char *text;
        weft_region_role role;
    } subs[POMP_SUB_COUNT] = {
        [POMP_SUB_CHUNK] = {"for chunk", WEFT_REGION_ROLE_LOOP},
        [POMP_SUB_ITERATION] = {"for iteration", WEFT_REGION_ROLE_LOOP},
        [POMP_SUB_WORKSHARE_BLOCK] = {"workshare sblock", WEFT_REGION_ROLE_WORKSHARE},
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
    weft_omp_region_name(name, sizeof(name), subs[which].text, span, def.begin_line);
    weft_region_desc desc = {.name = name,
                             .file = file,
                             .begin_line = def.begin_line,
                             .end_line = def.end_line,
                             .role = subs[which].role,
                             .paradigm = WEFT_PARADIGM_OPENMP};
    weft_region region = WEFT_REGION_INVALID;
    if (weft_registry_region(reg, &desc, &region) == WEFT_OK) /* equal ones share an id */
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
        weft_enter(r->part[part]);
}

void weft__pomp_leave_part(const pomp_region *r, pomp_part part)
{
    if (r->part[part].id != WEFT_INVALID_ID)
        weft_leave(r->part[part]);
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
