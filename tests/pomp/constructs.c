/* Every OpenMP construct OPARI2 instruments in C, with event counts the
 * trace checker (check_pomp_trace.c) can predict exactly for any thread
 * count that divides ORDERED_ITERATIONS. The checker finds each construct's
 * line by the text of its pragma, so keep every pragma below unique.
 * Prints one number that must not change with tracing. */
#include <omp.h>
#include <stdio.h>

#define REPEATS 3            /* parallel regions of the main part */
#define TASKS 4              /* tasks created per region */
#define ORDERED_ITERATIONS 8 /* divisible by 1, 2 and 4 */

static long work(long x)
{
    return x * 3 + 1;
}

int main(void)
{
    omp_lock_t lock;
    omp_nest_lock_t nest;
    long sum = 0;
    /* One counter per synchronisation construct: constructs with different
     * locks must not update the same variable. */
    long in_master = 0, in_named = 0, in_unnamed = 0, in_atomic = 0, in_lock = 0, in_nest = 0;
    int serial = 0;
    omp_init_lock(&lock);
    omp_init_nest_lock(&nest);

    for (int r = 0; r < REPEATS; r++) {
#pragma omp parallel if (serial == 0) shared(sum, in_master, in_named, in_unnamed, in_atomic, in_lock, in_nest)
        {
#pragma omp for schedule(static) reduction(+ : sum)
            for (int i = 0; i < 64; i++)
                sum += work(i); /* end: for */
#pragma omp single
            sum += 1; /* end: single */
#pragma omp master
            in_master += 1;
#pragma omp critical(named_one)
            in_named += 1;
#pragma omp critical
            in_unnamed += 1;
#pragma omp atomic
            in_atomic += 1;
#pragma omp barrier
#pragma omp flush
#pragma omp sections
            {
#pragma omp section
                {
#pragma omp atomic
                    sum += 10;
                }
#pragma omp section
                {
#pragma omp atomic
                    sum += 10;
                }
            } /* end: sections */
            omp_set_lock(&lock);
            in_lock += 1;
            omp_unset_lock(&lock);
            omp_set_nest_lock(&nest);
            omp_set_nest_lock(&nest);
            in_nest += 1;
            omp_unset_nest_lock(&nest);
            omp_unset_nest_lock(&nest);
#pragma omp single nowait
            {
                for (int t = 0; t < TASKS; t++) {
#pragma omp task
                    {
#pragma omp atomic
                        sum += 100;
                    }
                }
#pragma omp taskwait
            }
#pragma omp for schedule(static, 1) ordered
            for (int i = 0; i < ORDERED_ITERATIONS; i++) {
#pragma omp ordered
                {
#pragma omp atomic
                    sum += i;
                }
            } /* end: ordered for */
        } /* end: parallel */
    }

    /* Serial: test routines whose results are certain, and a user region. */
    if (omp_test_lock(&lock))
        omp_unset_lock(&lock);
    if (omp_test_nest_lock(&nest))
        omp_unset_nest_lock(&nest);
#pragma pomp inst begin(serial_part)
    sum += work(sum % 7);
#pragma pomp inst end(serial_part)

    /* Nested parallelism: an outer team of 2, each forking a team of 2. */
    omp_set_max_active_levels(2);
#pragma omp parallel num_threads(2) shared(sum)
    {
#pragma omp parallel num_threads(2) shared(sum)
        {
#pragma omp atomic
            sum += 1000;
        } /* end: inner */
    } /* end: outer */

    omp_destroy_nest_lock(&nest);
    omp_destroy_lock(&lock);
    printf("%ld %ld %ld %ld %ld %ld %ld\n", sum, in_master, in_named, in_unnamed, in_atomic,
           in_lock, in_nest);
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
