/* Untied tasks that compute, yield, take a critical section and yield
 * again, on more threads than cores: a task's taskyield often runs another
 * task nested in it on the same thread, and libomp reports that task's
 * returned part as a switch back to the yielding task, and the yielding
 * task's own return to its queue as a switch to the task it resumed in.
 * The OMPT adapter once took such a start back as an "empty" first part
 * (nothing recorded before the yield), and then lost the switch back from
 * a parked task it had left out: weft check found regions left in the
 * wrong task in nearly every 4-thread run, and Scalasca's analyzer
 * stops at those. */
#include <stdio.h>

enum { TASKS = 300 };

static double work(int n)
{
    volatile double x = 0;
    for (int i = 0; i < n; i++)
        x += i * 0.5;
    return x;
}

int main(void)
{
    long count = 0, sum = 0;
#pragma omp parallel
#pragma omp single
    for (int i = 0; i < TASKS; i++) {
#pragma omp task untied firstprivate(i) shared(count, sum)
        {
            work(2000);
#pragma omp taskyield
#pragma omp critical
            {
                count++;
                work(500);
            }
#pragma omp taskyield
#pragma omp atomic
            sum += i;
        }
    }
    printf("count %ld sum %ld\n", count, sum);
    return count == TASKS && sum == (long)TASKS * (TASKS - 1) / 2 ? 0 : 1;
}
/* SPDX-License-Identifier: BSD-3-Clause */
