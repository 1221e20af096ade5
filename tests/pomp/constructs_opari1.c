/* Every construct OPARI 1.1 instruments, in the C it parses (C89 loops,
 * braced blocks): traced once through OPARI 1 and once through OPARI2 and
 * compared region by region (compare_pomp_dialects.c). Not here: tasks
 * (OPARI 1 predates them) and the ordered construct, at whose pragma
 * OPARI 1.1 stops with "unbalanced pragma/directive nesting". */
#include <omp.h>
#include <stdio.h>

#define REPEATS 3

static long work(int i)
{
    return (long)(i % 5);
}

int main(void)
{
    omp_lock_t lock;
    omp_nest_lock_t nest;
    long sum = 0, in_master = 0, in_named = 0, in_unnamed = 0, in_lock = 0, in_nest = 0;
    int serial = 0, r, i;
    omp_init_lock(&lock);
    omp_init_nest_lock(&nest);

    for (r = 0; r < REPEATS; r++) {
#pragma omp parallel if (serial == 0)                                                              \
    shared(sum, in_master, in_named, in_unnamed, in_lock, in_nest) private(i)
        {
#pragma omp for reduction(+ : sum)
            for (i = 0; i < 64; i++)
                sum += work(i);
#pragma omp single
            {
                sum += 1;
            }
#pragma omp master
            {
                in_master += 1;
            }
#pragma omp critical(named_one)
            {
                in_named += 1;
            }
#pragma omp critical
            {
                in_unnamed += 1;
            }
#pragma omp atomic
            sum += 1;
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
            }
            omp_set_lock(&lock);
            in_lock += 1;
            omp_unset_lock(&lock);
            omp_set_nest_lock(&nest);
            omp_set_nest_lock(&nest);
            in_nest += 1;
            omp_unset_nest_lock(&nest);
            omp_unset_nest_lock(&nest);
        }
#pragma omp parallel for reduction(+ : sum)
        for (i = 0; i < 16; i++)
            sum += work(i);
#pragma omp parallel sections reduction(+ : sum)
        {
#pragma omp section
            {
                sum += 100;
            }
#pragma omp section
            {
                sum += 100;
            }
        }
    }

    if (omp_test_lock(&lock))
        omp_unset_lock(&lock);
    if (omp_test_nest_lock(&nest))
        omp_unset_nest_lock(&nest);
#pragma pomp inst begin(serial_part)
    sum += work((int)(sum % 7));
#pragma pomp inst end(serial_part)

    omp_destroy_nest_lock(&nest);
    omp_destroy_lock(&lock);
    printf("%ld %ld %ld %ld %ld %ld\n", sum, in_master, in_named, in_unnamed, in_lock, in_nest);
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
