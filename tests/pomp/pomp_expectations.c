/* Expected regions and counts of the POMP2 test programs. The numbers
 * follow from the programs' REPEATS, TASKS and ORDERED_ITERATIONS (3, 4, 8
 * in constructs.c). */
#include "pomp_expectations.h"

#include <string.h>

#define ROLE(r) OTF2_REGION_ROLE_##r

/* constructs.c: REPEATS = 3 parallel regions, then serial lock tests, a
 * user region and a nested parallel region (outer 2 x inner 2). */
static const pomp_expectation c_regions[] = {
    {"#pragma omp parallel if", 0, "parallel", ROLE(PARALLEL), NULL, 3, 0, 0, 0, 0},
    {"/* end: parallel */", 0, "implicit barrier", ROLE(IMPLICIT_BARRIER), NULL, 3, 0, 0, 0, 0},
    {"#pragma omp for schedule(static) reduction", 0, "for", ROLE(LOOP), NULL, 3, 0, 0, 0, 0},
    {"/* end: for */", 0, "implicit barrier", ROLE(IMPLICIT_BARRIER), NULL, 3, 0, 0, 0, 0},
    {"#pragma omp single", 1, "single", ROLE(SINGLE), NULL, 3, 0, 0, 0, 0},
    {"#pragma omp single", 1, "single sblock", ROLE(SINGLE_SBLOCK), NULL, -1, 0, 0, 0, 3},
    {"/* end: single */", 0, "implicit barrier", ROLE(IMPLICIT_BARRIER), NULL, 3, 0, 0, 0, 0},
    {"#pragma omp master", 0, "master", ROLE(MASTER), NULL, 0, 0, 0, 3, 0},
    {"#pragma omp critical(named_one)", 0, "critical (named_one)", ROLE(CRITICAL), NULL, 3, 0, 0, 0, 0},
    {"#pragma omp critical(named_one)", 0, "critical sblock", ROLE(CRITICAL_SBLOCK), NULL, 3, 0, 0, 0, 0},
    {"#pragma omp critical\n", 0, "critical", ROLE(CRITICAL), NULL, 3, 0, 0, 0, 0},
    {"#pragma omp critical\n", 0, "critical sblock", ROLE(CRITICAL_SBLOCK), NULL, 3, 0, 0, 0, 0},
    {"#pragma omp atomic", 1, "atomic", ROLE(ATOMIC), NULL, 3, 0, 0, 0, 0},
    {"#pragma omp barrier", 0, "barrier", ROLE(BARRIER), NULL, 3, 0, 0, 0, 0},
    {"#pragma omp flush", 0, "flush", ROLE(FLUSH), NULL, 3, 0, 0, 0, 0},
    {"#pragma omp sections", 0, "sections", ROLE(SECTIONS), NULL, 3, 0, 0, 0, 0},
    {"#pragma omp sections", 0, "section", ROLE(SECTION), NULL, -1, 0, 0, 0, 6},
    {"#pragma omp atomic", 2, "atomic", ROLE(ATOMIC), NULL, -1, 0, 0, 0, 3},
    {"#pragma omp atomic", 3, "atomic", ROLE(ATOMIC), NULL, -1, 0, 0, 0, 3},
    {"/* end: sections */", 0, "implicit barrier", ROLE(IMPLICIT_BARRIER), NULL, 3, 0, 0, 0, 0},
    {"omp_set_lock(&lock)", 0, "=omp_set_lock", ROLE(WRAPPER), "OMP", 3, 0, 0, 0, 0},
    {"omp_unset_lock(&lock)", 0, "=omp_unset_lock", ROLE(WRAPPER), "OMP", 3, 0, 0, 1, 0},
    {"omp_set_nest_lock(&nest)", 0, "=omp_set_nest_lock", ROLE(WRAPPER), "OMP", 6, 0, 0, 0, 0},
    {"omp_unset_nest_lock(&nest)", 0, "=omp_unset_nest_lock", ROLE(WRAPPER), "OMP", 6, 0, 0, 1, 0},
    {"omp_test_lock(&lock)", 0, "=omp_test_lock", ROLE(WRAPPER), "OMP", 0, 0, 0, 1, 0},
    {"omp_test_nest_lock(&nest)", 0, "=omp_test_nest_lock", ROLE(WRAPPER), "OMP", 0, 0, 0, 1, 0},
    {"omp_init_lock(&lock)", 0, "=omp_init_lock", ROLE(WRAPPER), "OMP", 0, 0, 0, 1, 0},
    {"omp_init_nest_lock(&nest)", 0, "=omp_init_nest_lock", ROLE(WRAPPER), "OMP", 0, 0, 0, 1, 0},
    {"omp_destroy_lock(&lock)", 0, "=omp_destroy_lock", ROLE(WRAPPER), "OMP", 0, 0, 0, 1, 0},
    {"omp_destroy_nest_lock(&nest)", 0, "=omp_destroy_nest_lock", ROLE(WRAPPER), "OMP", 0, 0, 0, 1, 0},
    {"#pragma omp single nowait", 0, "single", ROLE(SINGLE), NULL, 3, 0, 0, 0, 0},
    {"#pragma omp single nowait", 0, "single sblock", ROLE(SINGLE_SBLOCK), NULL, -1, 0, 0, 0, 3},
    {"#pragma omp task\n", 0, "create task", ROLE(TASK_CREATE), NULL, -1, 0, 0, 0, 12},
    {"#pragma omp task\n", 0, "task", ROLE(TASK), NULL, -1, 0, 0, 0, 12},
    {"#pragma omp atomic", 4, "atomic", ROLE(ATOMIC), NULL, -1, 0, 0, 0, 12},
    {"#pragma omp taskwait", 0, "taskwait", ROLE(TASK_WAIT), NULL, -1, 0, 0, 0, 3},
    {"#pragma omp for schedule(static, 1) ordered", 0, "for", ROLE(LOOP), NULL, 3, 0, 0, 0, 0},
    {"/* end: ordered for */", 0, "implicit barrier", ROLE(IMPLICIT_BARRIER), NULL, 3, 0, 0, 0, 0},
    {"#pragma omp ordered\n", 0, "ordered", ROLE(ORDERED), NULL, 0, 3, 8, 0, 0},
    {"#pragma omp ordered\n", 0, "ordered sblock", ROLE(ORDERED_SBLOCK), NULL, 0, 3, 8, 0, 0},
    {"#pragma omp atomic", 5, "atomic", ROLE(ATOMIC), NULL, 0, 3, 8, 0, 0},
    {"#pragma pomp inst begin(serial_part)", 0, "=serial_part", ROLE(CODE), NULL, 0, 0, 0, 1, 0},
    {"#pragma omp parallel num_threads(2)", 1, "parallel", ROLE(PARALLEL), NULL, -1, 0, 0, 0, 2},
    {"/* end: outer */", 0, "implicit barrier", ROLE(IMPLICIT_BARRIER), NULL, -1, 0, 0, 0, 2},
    {"#pragma omp parallel num_threads(2)", 2, "parallel", ROLE(PARALLEL), NULL, -1, 0, 0, 0, 4},
    {"/* end: inner */", 0, "implicit barrier", ROLE(IMPLICIT_BARRIER), NULL, -1, 0, 0, 0, 4},
    {"#pragma omp atomic", 6, "atomic", ROLE(ATOMIC), NULL, -1, 0, 0, 0, 4},
    {NULL, 0, NULL, ROLE(UNKNOWN), NULL, 0, 0, 0, 0, 0},
};

/* constructs.f90: like the C program without nesting and lock tests, with
 * workshare; the atomic in subroutine add runs for sections, tasks and the
 * ordered loop. */
static const pomp_expectation fortran_regions[] = {
    {"!$omp parallel shared", 0, "parallel", ROLE(PARALLEL), NULL, 3, 0, 0, 0, 0},
    {"!$omp end parallel", 0, "implicit barrier", ROLE(IMPLICIT_BARRIER), NULL, 3, 0, 0, 0, 0},
    {"!$omp do schedule(static)\n", 0, "do", ROLE(LOOP), NULL, 3, 0, 0, 0, 0},
    {"!$omp end do", 1, "implicit barrier", ROLE(IMPLICIT_BARRIER), NULL, 3, 0, 0, 0, 0},
    {"!$omp single", 1, "single", ROLE(SINGLE), NULL, 3, 0, 0, 0, 0},
    {"!$omp single", 1, "single sblock", ROLE(SINGLE_SBLOCK), NULL, -1, 0, 0, 0, 3},
    {"!$omp end single\n", 0, "implicit barrier", ROLE(IMPLICIT_BARRIER), NULL, 3, 0, 0, 0, 0},
    {"!$omp master", 0, "master", ROLE(MASTER), NULL, 0, 0, 0, 3, 0},
    {"!$omp critical (fnamed)", 0, "critical (fnamed)", ROLE(CRITICAL), NULL, 3, 0, 0, 0, 0},
    {"!$omp critical (fnamed)", 0, "critical sblock", ROLE(CRITICAL_SBLOCK), NULL, 3, 0, 0, 0, 0},
    {"!$omp atomic", 1, "atomic", ROLE(ATOMIC), NULL, 3, 0, 0, 0, 0},
    {"!$omp atomic", 2, "atomic", ROLE(ATOMIC), NULL, -1, 0, 0, 0, 6 + 12 + 24},
    {"!$omp barrier", 0, "barrier", ROLE(BARRIER), NULL, 3, 0, 0, 0, 0},
    {"!$omp flush", 0, "flush", ROLE(FLUSH), NULL, 3, 0, 0, 0, 0},
    {"!$omp sections", 0, "sections", ROLE(SECTIONS), NULL, 3, 0, 0, 0, 0},
    {"!$omp sections", 0, "section", ROLE(SECTION), NULL, -1, 0, 0, 0, 6},
    {"!$omp end sections", 0, "implicit barrier", ROLE(IMPLICIT_BARRIER), NULL, 3, 0, 0, 0, 0},
    {"!$omp workshare", 0, "workshare", ROLE(WORKSHARE), NULL, 3, 0, 0, 0, 0},
    {"!$omp end workshare", 0, "implicit barrier", ROLE(IMPLICIT_BARRIER), NULL, 3, 0, 0, 0, 0},
    {"call omp_set_lock(lock)", 0, "=omp_set_lock", ROLE(WRAPPER), "OMP", 3, 0, 0, 0, 0},
    {"call omp_unset_lock(lock)", 0, "=omp_unset_lock", ROLE(WRAPPER), "OMP", 3, 0, 0, 0, 0},
    {"call omp_init_lock(lock)", 0, "=omp_init_lock", ROLE(WRAPPER), "OMP", 0, 0, 0, 1, 0},
    {"call omp_destroy_lock(lock)", 0, "=omp_destroy_lock", ROLE(WRAPPER), "OMP", 0, 0, 0, 1, 0},
    {"!$omp single", 2, "single", ROLE(SINGLE), NULL, 3, 0, 0, 0, 0},
    {"!$omp single", 2, "single sblock", ROLE(SINGLE_SBLOCK), NULL, -1, 0, 0, 0, 3},
    {"!$omp task\n", 0, "create task", ROLE(TASK_CREATE), NULL, -1, 0, 0, 0, 12},
    {"!$omp task\n", 0, "task", ROLE(TASK), NULL, -1, 0, 0, 0, 12},
    {"!$omp taskwait", 0, "taskwait", ROLE(TASK_WAIT), NULL, -1, 0, 0, 0, 3},
    {"!$omp do schedule(static, 1) ordered", 0, "do", ROLE(LOOP), NULL, 3, 0, 0, 0, 0},
    {"!$omp end do", 2, "implicit barrier", ROLE(IMPLICIT_BARRIER), NULL, 3, 0, 0, 0, 0},
    {"!$omp ordered\n", 0, "ordered", ROLE(ORDERED), NULL, 0, 3, 8, 0, 0},
    {"!$omp ordered\n", 0, "ordered sblock", ROLE(ORDERED_SBLOCK), NULL, 0, 3, 8, 0, 0},
    {"!$pomp inst begin(fortran_serial)", 0, "=fortran_serial", ROLE(CODE), NULL, 0, 0, 0, 1, 0},
    {NULL, 0, NULL, ROLE(UNKNOWN), NULL, 0, 0, 0, 0, 0},
};

/* constructs.cpp: the critical in a member function runs once per thread
 * and region, and once more in each region's single. */
static const pomp_expectation cxx_regions[] = {
    {"#pragma omp parallel shared", 0, "parallel", ROLE(PARALLEL), NULL, 3, 0, 0, 0, 0},
    {"// end: parallel", 0, "implicit barrier", ROLE(IMPLICIT_BARRIER), NULL, 3, 0, 0, 0, 0},
    {"#pragma omp for schedule(static)", 0, "for", ROLE(LOOP), NULL, 3, 0, 0, 0, 0},
    {"// end: for", 0, "implicit barrier", ROLE(IMPLICIT_BARRIER), NULL, 3, 0, 0, 0, 0},
    {"#pragma omp single", 0, "single", ROLE(SINGLE), NULL, 3, 0, 0, 0, 0},
    {"#pragma omp single", 0, "single sblock", ROLE(SINGLE_SBLOCK), NULL, -1, 0, 0, 0, 3},
    {"// end: single", 0, "implicit barrier", ROLE(IMPLICIT_BARRIER), NULL, 3, 0, 0, 0, 0},
    {"#pragma omp critical(accumulate)", 0, "critical (accumulate)", ROLE(CRITICAL), NULL, -1, 0,
     0, 0, 3, 3},
    {"#pragma omp critical(accumulate)", 0, "critical sblock", ROLE(CRITICAL_SBLOCK), NULL, -1, 0,
     0, 0, 3, 3},
    {NULL, 0, NULL, ROLE(UNKNOWN), NULL, 0, 0, 0, 0, 0},
};

/* twofile_main.c + twofile_work.c (orphaned for and critical). */
static const pomp_expectation twofile_regions[] = {
    {"#pragma omp parallel reduction", 0, "parallel", ROLE(PARALLEL), NULL, 3, 0, 0, 0, 0},
    {"/* end: parallel */", 0, "implicit barrier", ROLE(IMPLICIT_BARRIER), NULL, 3, 0, 0, 0, 0},
    {"#pragma omp for schedule(static)", 0, "for", ROLE(LOOP), NULL, 3, 0, 0, 0, 0, 0, 1},
    {"/* end: for */", 0, "implicit barrier", ROLE(IMPLICIT_BARRIER), NULL, 3, 0, 0, 0, 0, 0, 1},
    {"#pragma omp critical", 0, "critical", ROLE(CRITICAL), NULL, 3, 0, 0, 0, 0, 0, 1},
    {"#pragma omp critical", 0, "critical sblock", ROLE(CRITICAL_SBLOCK), NULL, 3, 0, 0, 0, 0, 0,
     1},
    {NULL, 0, NULL, ROLE(UNKNOWN), NULL, 0, 0, 0, 0, 0},
};


/* constructs.c compiled by clang -fopenmp -g -O1, not instrumented, traced
 * through OMPT with LLVM's libomp 14 (libweft-ompt). Each region is named
 * by the line of the runtime call the compiler emitted for it: the
 * construct's pragma line, also for implicit barriers (the loop with a
 * reduction has two: the reduction's and the loop's). What OMPT does not
 * report: atomics compiled to instructions, the sections of a sections
 * construct, critical names, user regions; omp_test_lock and
 * omp_test_nest_lock reach the tool as omp_set_lock / omp_set_nest_lock
 * (docs/OPENMP-OMPT.md, runtime quirks). */
static const pomp_expectation ompt_c_regions[] = {
    {"#pragma omp parallel if", 0, "parallel", ROLE(PARALLEL), NULL, 3, 0, 0, 0, 0},
    /* A team of one (serialised) ends without the parallel's barrier. */
    {"#pragma omp parallel if", 0, "implicit barrier", ROLE(IMPLICIT_BARRIER), NULL, 3, 0, 0, 0, 0,
     0, 0, 2},
    {"#pragma omp for schedule(static) reduction", 0, "for", ROLE(LOOP), NULL, 3, 0, 0, 0, 0},
    {"#pragma omp for schedule(static) reduction", 0, "implicit barrier", ROLE(IMPLICIT_BARRIER),
     NULL, 6, 0, 0, 0, 0},
    {"#pragma omp single", 1, "single", ROLE(SINGLE), NULL, 3, 0, 0, 0, 0},
    {"#pragma omp single", 1, "single sblock", ROLE(SINGLE_SBLOCK), NULL, -1, 0, 0, 0, 3},
    {"#pragma omp single", 1, "implicit barrier", ROLE(IMPLICIT_BARRIER), NULL, 3, 0, 0, 0, 0},
    {"#pragma omp master", 0, "master", ROLE(MASTER), NULL, 0, 0, 0, 3, 0},
    {"#pragma omp critical(named_one)", 0, "critical", ROLE(CRITICAL), NULL, 3, 0, 0, 0, 0},
    {"#pragma omp critical(named_one)", 0, "critical sblock", ROLE(CRITICAL_SBLOCK), NULL, 3, 0, 0, 0, 0},
    {"#pragma omp critical\n", 0, "critical", ROLE(CRITICAL), NULL, 3, 0, 0, 0, 0},
    {"#pragma omp critical\n", 0, "critical sblock", ROLE(CRITICAL_SBLOCK), NULL, 3, 0, 0, 0, 0},
    {"#pragma omp barrier", 0, "barrier", ROLE(BARRIER), NULL, 3, 0, 0, 0, 0},
    {"#pragma omp flush", 0, "flush", ROLE(FLUSH), NULL, 3, 0, 0, 0, 0},
    {"#pragma omp sections", 0, "sections", ROLE(SECTIONS), NULL, 3, 0, 0, 0, 0},
    {"#pragma omp sections", 0, "implicit barrier", ROLE(IMPLICIT_BARRIER), NULL, 3, 0, 0, 0, 0},
    {"omp_set_lock(&lock)", 0, "=omp_set_lock", ROLE(WRAPPER), "OMP", 3, 0, 0, 1, 0},
    {"omp_unset_lock(&lock)", 0, "=omp_unset_lock", ROLE(WRAPPER), "OMP", 3, 0, 0, 1, 0},
    {"omp_set_nest_lock(&nest)", 0, "=omp_set_nest_lock", ROLE(WRAPPER), "OMP", 6, 0, 0, 1, 0},
    {"omp_unset_nest_lock(&nest)", 0, "=omp_unset_nest_lock", ROLE(WRAPPER), "OMP", 6, 0, 0, 1, 0},
    {"omp_init_lock(&lock)", 0, "=omp_init_lock", ROLE(WRAPPER), "OMP", 0, 0, 0, 1, 0},
    {"omp_init_nest_lock(&nest)", 0, "=omp_init_nest_lock", ROLE(WRAPPER), "OMP", 0, 0, 0, 1, 0},
    {"omp_destroy_lock(&lock)", 0, "=omp_destroy_lock", ROLE(WRAPPER), "OMP", 0, 0, 0, 1, 0},
    {"omp_destroy_nest_lock(&nest)", 0, "=omp_destroy_nest_lock", ROLE(WRAPPER), "OMP", 0, 0, 0, 1, 0},
    {"#pragma omp single nowait", 0, "single", ROLE(SINGLE), NULL, 3, 0, 0, 0, 0},
    {"#pragma omp single nowait", 0, "single sblock", ROLE(SINGLE_SBLOCK), NULL, -1, 0, 0, 0, 3},
    {"#pragma omp task\n", 0, "create task", ROLE(TASK_CREATE), NULL, -1, 0, 0, 0, 12},
    {"#pragma omp task\n", 0, "task", ROLE(TASK), NULL, -1, 0, 0, 0, 12},
    {"#pragma omp taskwait", 0, "taskwait", ROLE(TASK_WAIT), NULL, -1, 0, 0, 0, 3},
    {"#pragma omp for schedule(static, 1) ordered", 0, "for", ROLE(LOOP), NULL, 3, 0, 0, 0, 0},
    {"#pragma omp for schedule(static, 1) ordered", 0, "implicit barrier", ROLE(IMPLICIT_BARRIER),
     NULL, 3, 0, 0, 0, 0},
    {"#pragma omp ordered\n", 0, "ordered", ROLE(ORDERED), NULL, 0, 3, 8, 0, 0},
    {"#pragma omp ordered\n", 0, "ordered sblock", ROLE(ORDERED_SBLOCK), NULL, 0, 3, 8, 0, 0},
    {"#pragma omp parallel num_threads(2)", 1, "parallel", ROLE(PARALLEL), NULL, -1, 0, 0, 0, 2},
    {"#pragma omp parallel num_threads(2)", 1, "implicit barrier", ROLE(IMPLICIT_BARRIER), NULL, -1,
     0, 0, 0, 2},
    {"#pragma omp parallel num_threads(2)", 2, "parallel", ROLE(PARALLEL), NULL, -1, 0, 0, 0, 4},
    {"#pragma omp parallel num_threads(2)", 2, "implicit barrier", ROLE(IMPLICIT_BARRIER), NULL, -1,
     0, 0, 0, 4},
    {NULL, 0, NULL, ROLE(UNKNOWN), NULL, 0, 0, 0, 0, 0},
};

/* constructs.c compiled by gcc -fopenmp -g -O1 and run on LLVM's libomp
 * (weft run --openmp-runtime=llvm): libomp's libgomp interface reports
 * fewer constructs, and GCC's line information for the outlined region
 * bodies names other lines, so only what does not depend on them is
 * checked here: the parallel regions, the lock routines, and (in
 * check_pomp_trace) forks, teams, locks, tasks and a sound trace. */
static const pomp_expectation ompt_gcc_regions[] = {
    {"#pragma omp parallel if", 0, "parallel", ROLE(PARALLEL), NULL, 3, 0, 0, 0, 0},
    {"omp_set_lock(&lock)", 0, "=omp_set_lock", ROLE(WRAPPER), "OMP", 3, 0, 0, 1, 0},
    {"omp_unset_lock(&lock)", 0, "=omp_unset_lock", ROLE(WRAPPER), "OMP", 3, 0, 0, 1, 0},
    {"omp_set_nest_lock(&nest)", 0, "=omp_set_nest_lock", ROLE(WRAPPER), "OMP", 6, 0, 0, 1, 0},
    {"omp_unset_nest_lock(&nest)", 0, "=omp_unset_nest_lock", ROLE(WRAPPER), "OMP", 6, 0, 0, 1, 0},
    {"omp_init_lock(&lock)", 0, "=omp_init_lock", ROLE(WRAPPER), "OMP", 0, 0, 0, 1, 0},
    {"omp_destroy_lock(&lock)", 0, "=omp_destroy_lock", ROLE(WRAPPER), "OMP", 0, 0, 0, 1, 0},
    {NULL, 0, NULL, ROLE(UNKNOWN), NULL, 0, 0, 0, 0, 0},
};

static const pomp_program programs[] = {
    {.name = "c",
     .expect = c_regions,
     .main_regions = 3,
     .master_forks = 3 + 1 + 1, /* main regions, nested outer, the master's inner */
     .total_forks = 3 + 1 + 2,  /* ... and the other outer thread's inner */
     .nested_teams = 2,
     .lock_acquires_per_thread = 3 * 4, /* two criticals, the lock, the nest lock */
     .lock_acquires_fixed = 2,          /* omp_test_lock, omp_test_nest_lock */
     .tasks = 3 * 4},
    {.name = "ompt_c",
     .expect = ompt_c_regions,
     .main_regions = 3,
     .master_forks = 3 + 1 + 1,
     .total_forks = 3 + 1 + 2,
     .nested_teams = 2,
     .lock_acquires_per_thread = 3 * 4,
     .lock_acquires_fixed = 2,
     .tasks = 3 * 4},
    {.name = "ompt_gcc",
     .expect = ompt_gcc_regions,
     .main_regions = 3,
     .master_forks = 3 + 1 + 1,
     .total_forks = 3 + 1 + 2,
     .nested_teams = 2,
     .lock_acquires_per_thread = 3 * 4,
     .lock_acquires_fixed = 2,
     .tasks = 3 * 4},
    {.name = "fortran",
     .expect = fortran_regions,
     .main_regions = 3,
     .master_forks = 3,
     .total_forks = 3,
     .lock_acquires_per_thread = 3 * 2, /* the critical, the lock */
     .tasks = 3 * 4},
    {.name = "cxx",
     .expect = cxx_regions,
     .main_regions = 3,
     .master_forks = 3,
     .total_forks = 3,
     .lock_acquires_per_thread = 3,
     .lock_acquires_fixed = 3},
    {.name = "twofile",
     .expect = twofile_regions,
     .main_regions = 3,
     .master_forks = 3,
     .total_forks = 3,
     .lock_acquires_per_thread = 3},
};

const pomp_program *pomp_program_named(const char *name)
{
    for (size_t i = 0; i < sizeof(programs) / sizeof(programs[0]); i++) {
        if (strcmp(programs[i].name, name) == 0)
            return &programs[i];
    }
    return NULL;
}
/* SPDX-License-Identifier: BSD-3-Clause */
