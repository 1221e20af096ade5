/* if clauses with a directive-name modifier (OpenMP 4.5): OPARI2 2.0.7
 * copies `parallel: argc > 0` into a C expression; weft compile leaves the
 * modifier out where it names the directive's own construct. */
#include <stdio.h>

int main(int argc, char **argv)
{
    int n = 0;
    (void)argv;
#pragma omp parallel if (parallel : argc > 0) num_threads(2)
    {
#pragma omp atomic
        n++;
    }
#pragma omp parallel for if(parallel: argc > 0) reduction(+ : n) num_threads(2)
    for (int i = 0; i < 10; i++)
        n += 1;
#pragma omp parallel num_threads(2)
#pragma omp single
    {
#pragma omp task if(task: argc > 0) shared(n)
        n++;
    }
    printf("%d\n", n);
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
