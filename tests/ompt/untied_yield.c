/* Untied tasks that move between threads: each records a critical section,
 * then yields, YIELDS times. clang runs an untied task in parts and, at the
 * taskyield, queues the rest and returns; libomp's other thread, idle in the
 * single's barrier, usually takes the rest (here nearly every task moves
 * once). So a task's region is entered on one thread and its task goes on
 * on another: the OMPT adapter leaves the region when the part returns and
 * enters it again where the task resumes, so that each thread's regions
 * nest in their own task (Scalasca's analyzer crashed on the trace before,
 * and weft check found a region left in another task). */
#include <stdio.h>

enum { REPEATS = 200, YIELDS = 4 };

static long work(long x)
{
    for (int i = 0; i < 50; i++)
        x = x * 7 % 1009;
    return x;
}

int main(void)
{
    long sum = 0;
#pragma omp parallel
    for (int r = 0; r < REPEATS; r++) {
#pragma omp single
        {
#pragma omp task untied firstprivate(r) shared(sum)
            {
                long x = r;
                for (int y = 0; y < YIELDS; y++) {
                    x = work(x);
#pragma omp critical
                    sum += 1;
#pragma omp taskyield
                }
#pragma omp atomic
                sum += x;
            }
#pragma omp taskwait
        }
    }
    printf("%ld\n", sum);
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
