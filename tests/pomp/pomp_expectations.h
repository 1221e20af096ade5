/* What the POMP2 test programs must record, construct by construct; the
 * tables are in pomp_expectations.c, the checks in check_pomp_trace.c. */
#ifndef WEFT_TESTS_POMP_EXPECTATIONS_H
#define WEFT_TESTS_POMP_EXPECTATIONS_H

#include <stdbool.h>

#include <otf2/otf2.h>

/* One region. Enter counts: every main-team location enters it per_member
 * times, plus per_share * (share_of / threads) times (work split over the
 * team), the master master_extra times more; all locations together enter
 * it (per-member count) * threads + master_extra + extra times. Lines are
 * searched in the program's main source, or its second one. */
typedef struct pomp_expectation {
    const char *pragma;     /* text on the line that names the region */
    int occurrence;         /* which occurrence of that text (0 = first) */
    const char *kind;       /* "!$omp KIND @file:line"; "=name": exactly name */
    OTF2_RegionRole role;
    const char *file;       /* NULL: the program's source file */
    int per_member;         /* -1: differs between members, check the total only */
    int per_share, share_of;
    int master_extra;
    int extra;
    int total_per_thread; /* with per_member -1: total += this * threads */
    int source_index;     /* 0: the main source, 1: the second source */
    int min_threads;      /* checked only with this many threads or more (0: always) */
} pomp_expectation;

typedef struct pomp_program {
    const char *name;
    const pomp_expectation *expect; /* ends with pragma NULL; [0] is the main
                                       parallel region */
    unsigned main_regions;          /* parallel regions of the main team */
    unsigned master_forks, total_forks;
    unsigned nested_teams;
    unsigned lock_acquires_per_thread, lock_acquires_fixed;
    unsigned tasks;
} pomp_program;

/* The program called name ("c", "cxx", "fortran", "twofile"), or NULL. */
const pomp_program *pomp_program_named(const char *name);

#endif
/* SPDX-License-Identifier: BSD-3-Clause */
