/* The same program traced through POMP2 (OPARI2 instrumentation) and through
 * OMPT (weft run) must show the same OpenMP regions with the same visit
 * counts wherever both interfaces report them.
 *
 *   compare_pomp_ompt SOURCE POMP2_ANCHOR OMPT_ANCHOR [--list]
 *
 * Regions are matched by role and first line (lock routines by name); each
 * region's visits are summed over all locations. Implicit barriers are
 * matched by the first line of their construct: OPARI2 names them by the
 * construct's closing line, OMPT by the runtime call at its opening line.
 * The differences the two interfaces legitimately have are listed in
 * `differences` below with the reason; any other difference is one line on
 * stdout and exit status 1. --list prints the whole comparison. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "otf2_trace.h"

typedef struct visits {
    OTF2_RegionRole role;
    uint32_t line;
    const char *name; /* the name in either trace */
    uint64_t pomp, ompt;
} visits;

/* What POMP2 and OMPT report differently, by region role. */
typedef enum difference {
    SAME,             /* counts must agree */
    POMP2_ONLY,       /* OMPT has no event for it */
    REDUCTION_BARRIER /* OMPT reports twice as many (see has_reduction) */
} difference;

static const struct {
    OTF2_RegionRole role;
    difference kind;
    const char *why;
} differences[] = {
    {OTF2_REGION_ROLE_ATOMIC, POMP2_ONLY,
     "atomics compile to instructions: libomp calls no mutex callback for them"},
    {OTF2_REGION_ROLE_SECTION, POMP2_ONLY,
     "OMPT's work callback covers the sections construct, not each section"},
    {OTF2_REGION_ROLE_FUNCTION, POMP2_ONLY, "user regions (#pragma pomp inst) are POMP2's"},
    {OTF2_REGION_ROLE_CODE, POMP2_ONLY, "user regions (#pragma pomp inst) are POMP2's"},
};

static difference difference_of(OTF2_RegionRole role, const char **why)
{
    for (size_t i = 0; i < sizeof differences / sizeof differences[0]; i++) {
        if (differences[i].role == role) {
            *why = differences[i].why;
            return differences[i].kind;
        }
    }
    *why = "";
    return SAME;
}

/* omp_test_lock and omp_test_nest_lock reach an OMPT tool from libomp 14 as
 * omp_set_lock and omp_set_nest_lock (docs/OPENMP-OMPT.md): compare the sums. */
static const char *lock_routine_key(const char *name)
{
    if (strcmp(name, "omp_test_lock") == 0)
        return "omp_set_lock";
    if (strcmp(name, "omp_test_nest_lock") == 0)
        return "omp_set_nest_lock";
    return name;
}

static char source_lines[512][256]; /* the program's source, line by line from 1 */

/* A construct with a reduction clause has two implicit barriers under OMPT
 * (the reduction's and the construct's), one under POMP2. */
static bool has_reduction(uint32_t line)
{
    return line < sizeof source_lines / sizeof source_lines[0] &&
           strstr(source_lines[line], "reduction(") != NULL;
}

static void read_source(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        perror(path);
        exit(2);
    }
    for (size_t n = 1; n < sizeof source_lines / sizeof source_lines[0]; n++)
        if (!fgets(source_lines[n], sizeof source_lines[n], f))
            break;
    fclose(f);
}

/* The first line of the construct a POMP2 implicit barrier ends: the region
 * whose last line is the barrier's line. */
static uint32_t pomp_barrier_construct_line(const trace_model *t, const trace_region *barrier)
{
    for (size_t i = 0; i < t->region_count; i++) {
        const trace_region *r = &t->regions[i];
        if (r->role != OTF2_REGION_ROLE_IMPLICIT_BARRIER && r->end_line == barrier->begin_line &&
            r->begin_line != 0)
            return r->begin_line;
    }
    return barrier->begin_line;
}

/* True when the parallel region starting at `line` ran on one location only
 * in t: its teams had one thread, and libomp ends such a team without the
 * parallel's implicit barrier. */
static bool parallel_ran_serialised(const trace_model *t, uint32_t line)
{
    for (size_t i = 0; i < t->region_count; i++) {
        const trace_region *r = &t->regions[i];
        if (r->role != OTF2_REGION_ROLE_PARALLEL || r->begin_line != line)
            continue;
        size_t members = 0;
        for (size_t l = 0; l < t->location_count; l++)
            members += trace_enter_count(&t->locations[l], r->id) > 0;
        return members == 1;
    }
    return false;
}

static visits table[512];
static size_t table_size;

static visits *entry(const trace_region *r, uint32_t line)
{
    bool by_name = r->role == OTF2_REGION_ROLE_WRAPPER;
    const char *key = by_name ? lock_routine_key(r->name) : NULL;
    for (size_t i = 0; i < table_size; i++) {
        visits *v = &table[i];
        if (by_name ? v->role == r->role && strcmp(v->name, key) == 0
                    : v->role == r->role && v->line == line)
            return v;
    }
    if (table_size == sizeof table / sizeof table[0]) {
        fprintf(stderr, "compare_pomp_ompt: more regions than expected\n");
        exit(2);
    }
    table[table_size] = (visits){.role = r->role, .line = line, .name = by_name ? key : r->name};
    return &table[table_size++];
}

static trace_model *load(const char *anchor)
{
    trace_model *t = NULL;
    char err[512];
    if (trace_load(anchor, NULL, &t, err, sizeof err) != 0) {
        fprintf(stderr, "compare_pomp_ompt: %s: %s\n", anchor, err);
        exit(2);
    }
    return t;
}

/* Adds every OpenMP region's visits in t to the table, as POMP2's or OMPT's. */
static void add_visits(const trace_model *t, bool is_pomp)
{
    for (size_t i = 0; i < t->region_count; i++) {
        const trace_region *r = &t->regions[i];
        if (r->paradigm != OTF2_PARADIGM_OPENMP && r->paradigm != OTF2_PARADIGM_USER)
            continue;
        uint64_t total = 0;
        for (size_t l = 0; l < t->location_count; l++)
            total += trace_enter_count(&t->locations[l], r->id);
        uint32_t line = r->begin_line;
        if (is_pomp && r->role == OTF2_REGION_ROLE_IMPLICIT_BARRIER)
            line = pomp_barrier_construct_line(t, r);
        visits *v = entry(r, line);
        *(is_pomp ? &v->pomp : &v->ompt) += total;
    }
}

int main(int argc, char **argv)
{
    bool list = argc == 5 && strcmp(argv[4], "--list") == 0;
    if (argc != 4 && !list) {
        fprintf(stderr, "usage: compare_pomp_ompt SOURCE POMP2_ANCHOR OMPT_ANCHOR [--list]\n");
        return 2;
    }
    read_source(argv[1]);
    trace_model *pomp = load(argv[2]), *ompt = load(argv[3]);
    add_visits(pomp, true);
    add_visits(ompt, false);

    int failures = 0, compared = 0;
    for (size_t i = 0; i < table_size; i++) {
        const visits *v = &table[i];
        const char *why;
        difference d = difference_of(v->role, &why);
        if (v->role == OTF2_REGION_ROLE_IMPLICIT_BARRIER && has_reduction(v->line)) {
            d = REDUCTION_BARRIER;
            why = "the reduction's barrier and the construct's: two under OMPT";
        }
        if (v->role == OTF2_REGION_ROLE_IMPLICIT_BARRIER &&
            parallel_ran_serialised(pomp, v->line)) {
            d = POMP2_ONLY;
            why = "a team of one thread ends without the parallel's barrier under libomp";
        }
        bool ok = v->pomp == v->ompt || (d == POMP2_ONLY && v->ompt == 0) ||
                  (d == REDUCTION_BARRIER && v->ompt == 2 * v->pomp);
        if (list)
            printf("%-55s line %4u  POMP2 %5llu  OMPT %5llu  %s\n", v->name, v->line,
                   (unsigned long long)v->pomp, (unsigned long long)v->ompt,
                   v->pomp == v->ompt ? ""
                   : ok               ? why
                                      : "DIFFERS");
        if (!ok) {
            if (!list)
                printf("compare_pomp_ompt: %s (line %u): POMP2 %llu visits, OMPT %llu\n", v->name,
                       v->line, (unsigned long long)v->pomp, (unsigned long long)v->ompt);
            failures++;
        } else if (v->pomp == v->ompt) {
            compared++;
        }
    }
    if (compared == 0) {
        printf("compare_pomp_ompt: no region in common\n");
        failures++;
    }
    trace_free(pomp);
    trace_free(ompt);
    return failures ? 1 : 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
