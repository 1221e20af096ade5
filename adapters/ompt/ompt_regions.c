/* SPDX-License-Identifier: BSD-3-Clause */
/* Regions of the OMPT tool: (code address, construct) -> weft region.
 *
 * The runtime names a construct only by codeptr_ra, the return address of
 * the runtime call the compiler emitted for it. The first time a thread
 * meets an (address, construct) pair it looks in a process-wide table; the
 * first time the process meets it, the address is symbolised (weft/symbols.h)
 * and the region registered as "!$omp <construct> @file.c:LINE", like the
 * POMP2 adapter's regions, or "!$omp <construct> @function+0xOFF" without
 * debug information. After that a per-thread cache answers with two loads
 * and a compare. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "ompt_internal.h"
#include <stdlib.h>
#include "weft/ctc.h"
#include "weft/log.h"
#include "weft/openmp.h"
#include "weft/openmp_control.h"
#include "weft/symbols.h"

/* The region (weft/openmp.h) of each construct the runtime reports. */
#define K(kind) WEFT_OMP_##kind
static const weft_omp_region kinds[OC_COUNT] = {
    [OC_PARALLEL] = K(PARALLEL),
    [OC_IMPLICIT_BARRIER] = K(IMPLICIT_BARRIER),
    [OC_BARRIER] = K(BARRIER),
    [OC_LOOP] = K(FOR),
    [OC_SECTIONS] = K(SECTIONS),
    [OC_SINGLE] = K(SINGLE),
    [OC_SINGLE_SBLOCK] = K(SINGLE_SBLOCK),
    [OC_WORKSHARE] = K(WORKSHARE),
    [OC_DISTRIBUTE] = K(DISTRIBUTE),
    [OC_TASKLOOP] = K(TASKLOOP),
    [OC_SCOPE] = K(SCOPE),
    [OC_MASTER] = K(MASTER),
    [OC_CRITICAL] = K(CRITICAL),
    [OC_CRITICAL_SBLOCK] = K(CRITICAL_SBLOCK),
    [OC_ORDERED] = K(ORDERED),
    [OC_ORDERED_SBLOCK] = K(ORDERED_SBLOCK),
    [OC_ATOMIC] = K(ATOMIC),
    [OC_TASKWAIT] = K(TASKWAIT),
    [OC_TASKGROUP] = K(TASKGROUP),
    [OC_TASK_CREATE] = K(TASK_CREATE),
    [OC_TASK] = K(TASK),
    [OC_TASK_UNTIED] = K(UNTIED_TASK),
    [OC_TASK_UNTIED_CREATE] = K(UNTIED_TASK_CREATE),
    [OC_FLUSH] = K(FLUSH),
    [OC_CANCEL] = K(CANCEL),
};
#undef K

static const void *runtime_address;

void weft__ompt_set_runtime_address(const void *address_in_runtime)
{
    runtime_address = address_in_runtime;
}

/* ---- naming ---------------------------------------------------------------- */

/* Fortran sources call the loop construct "do", as OPARI2 does. */
static bool is_fortran(const char *file)
{
    const char *dot = file ? strrchr(file, '.') : NULL;
    if (!dot)
        return false;
    static const char *const suffixes[] = {".f",   ".F",   ".f90", ".F90", ".f95", ".F95",
                                           ".f03", ".F03", ".f08", ".F08", ".for", ".FOR"};
    for (size_t i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++) {
        if (strcmp(dot, suffixes[i]) == 0)
            return true;
    }
    return false;
}

static weft_region define(const void *codeptr, ompt_construct c)
{
    weft_symbol sym = {0};
    bool known = codeptr && weft_symbols_lookup(codeptr, &sym) == WEFT_OK;
    weft_omp_region kind = c == OC_LOOP && is_fortran(sym.file) ? WEFT_OMP_DO : kinds[c];
    const char *text = weft_omp_region_text(kind);
    char name[512];
    weft_region_desc desc = {
        .name = name, .role = weft_omp_region_role(kind), .paradigm = WEFT_PARADIGM_OPENMP};
    if (known && sym.file && sym.line) {
        weft_ctc_span file = {.text = sym.file, .len = (uint32_t)strlen(sym.file)};
        weft_omp_region_name(name, sizeof(name), text, file, sym.line);
        desc.file = sym.file;
        desc.begin_line = desc.end_line = sym.line;
    } else if (codeptr) {
        char where[256];
        weft_symbols_format_fallback(known ? &sym : NULL, codeptr, where, sizeof(where));
        snprintf(name, sizeof(name), "!$omp %s @%s", text, where);
        desc.file = sym.object;
    } else {
        snprintf(name, sizeof(name), "!$omp %s", text);
    }
    /* WEFT_REGION_INVALID when WEFT_OPENMP_EVENTS or the filter leave it out */
    return weft_openmp_region(&desc, kind);
}

/* ---- the process-wide table ------------------------------------------------- */

/* Open addressing on (address, construct); grows at half load. The marker
 * region RUNTIME means "the address is inside the runtime: use the
 * fallback". */
#define RUNTIME_MARKER UINT32_MAX - 1
typedef struct entry {
    const void *codeptr;
    uint32_t construct; /* OC_COUNT: empty slot */
    uint32_t region;
} entry;

static pthread_mutex_t table_mutex = PTHREAD_MUTEX_INITIALIZER;
static entry *table;
static size_t table_size, table_used;

static size_t hash(const void *codeptr, ompt_construct c)
{
    uint64_t x = (uint64_t)(uintptr_t)codeptr * 31 + (uint64_t)c;
    x ^= x >> 33;
    x *= UINT64_C(0xff51afd7ed558ccd);
    x ^= x >> 33;
    return (size_t)x;
}

static entry *slot_of(entry *t, size_t size, const void *codeptr, ompt_construct c)
{
    size_t i = hash(codeptr, c) & (size - 1);
    while (t[i].construct != OC_COUNT && (t[i].codeptr != codeptr || t[i].construct != c))
        i = (i + 1) & (size - 1);
    return &t[i];
}

static bool grow(void)
{
    size_t size = table_size ? table_size * 2 : 256;
    entry *t = malloc(size * sizeof(*t));
    if (!t)
        return false;
    for (size_t i = 0; i < size; i++)
        t[i].construct = OC_COUNT;
    for (size_t i = 0; i < table_size; i++) {
        if (table[i].construct != OC_COUNT)
            *slot_of(t, size, table[i].codeptr, (ompt_construct)table[i].construct) = table[i];
    }
    free(table);
    table = t;
    table_size = size;
    return true;
}

static uint32_t lookup_global(const void *codeptr, ompt_construct c)
{
    pthread_mutex_lock(&table_mutex);
    uint32_t region = WEFT_INVALID_ID;
    if ((table_used + 1) * 2 <= table_size || grow()) {
        entry *e = slot_of(table, table_size, codeptr, c);
        if (e->construct == OC_COUNT) {
            bool in_runtime =
                codeptr && runtime_address && weft_symbols_same_object(codeptr, runtime_address);
            e->codeptr = codeptr;
            e->construct = c;
            e->region = in_runtime ? RUNTIME_MARKER : define(codeptr, c).id;
            table_used++;
        }
        region = e->region;
    }
    pthread_mutex_unlock(&table_mutex);
    return region;
}

/* ---- the per-thread cache ----------------------------------------------------- */

enum { CACHE_SIZE = 256 };
typedef struct cache {
    entry slot[CACHE_SIZE];
} cache;

static __thread cache *thread_cache __attribute__((tls_model("initial-exec")));

static uint32_t lookup(const void *codeptr, ompt_construct c)
{
    cache *k = thread_cache;
    if (!k) {
        k = thread_cache = calloc(1, sizeof(*k));
        if (!k)
            return lookup_global(codeptr, c);
        for (size_t i = 0; i < CACHE_SIZE; i++)
            k->slot[i].construct = OC_COUNT;
    }
    entry *e = &k->slot[hash(codeptr, c) & (CACHE_SIZE - 1)];
    if (e->codeptr == codeptr && e->construct == (uint32_t)c)
        return e->region;
    uint32_t region = lookup_global(codeptr, c);
    *e = (entry){.codeptr = codeptr, .construct = c, .region = region};
    return region;
}

/* Constructs reported from the program's own call into the runtime, whose
 * codeptr_ra is never NULL unless the runtime lost it (ompt_callsite.c).
 * Not: implicit barriers (the workers' come without an address, from the
 * runtime's own code) and task execution (from any scheduling point). */
static bool called_by_program(ompt_construct c)
{
    return c != OC_IMPLICIT_BARRIER && c != OC_TASK && c != OC_TASK_UNTIED;
}

weft_region weft__ompt_region(const void *codeptr, ompt_construct c, const void *fallback)
{
    if (!codeptr && called_by_program(c))
        codeptr = weft__ompt_callsite();
    uint32_t region = codeptr ? lookup(codeptr, c) : RUNTIME_MARKER;
    if (region == RUNTIME_MARKER)
        region = fallback && fallback != codeptr ? lookup(fallback, c) : lookup(NULL, c);
    if (region == RUNTIME_MARKER) /* the fallback is in the runtime as well */
        region = lookup(NULL, c);
    return (weft_region){region};
}

/* ---- lock routines -------------------------------------------------------------- */

static const char *const lock_routine_names[LR_COUNT] = {
    "omp_init_lock",       "omp_destroy_lock",   "omp_set_lock",          "omp_unset_lock",
    "omp_test_lock",       "omp_init_nest_lock", "omp_destroy_nest_lock", "omp_set_nest_lock",
    "omp_unset_nest_lock", "omp_test_nest_lock"};
static weft_region lock_regions[LR_COUNT];

static void define_lock_regions(void)
{
    for (int r = 0; r < LR_COUNT; r++) {
        weft_region_desc desc = {.name = lock_routine_names[r],
                                 .file = "OMP",
                                 .role = WEFT_REGION_ROLE_WRAPPER,
                                 .paradigm = WEFT_PARADIGM_OPENMP};
        lock_regions[r] = weft_openmp_region(&desc, WEFT_OMP_LOCK_ROUTINE);
    }
}

weft_region weft__ompt_lock_region(ompt_lock_routine routine)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, define_lock_regions);
    return lock_regions[routine];
}
