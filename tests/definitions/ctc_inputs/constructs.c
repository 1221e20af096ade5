/* Every OpenMP construct OPARI2 instruments, for the CTC-string fixtures of
 * test_ctc (see README.md). Compiles and runs, but only its line numbers
 * matter: test_ctc asserts them, so keep edits below the last construct. */
#include <stdio.h>

static int counter;
#pragma omp threadprivate(counter)

static void work(int i)
{
    counter += i;
}

int main(void)
{
    int i = 0, j = 0, sum = 0, last = 0, priv = 0, first = 1, x = 0, seed = 1, total = 0;
    double a[16];

#pragma omp parallel if(sum == 0) num_threads(2) default(shared) private(priv) \
    firstprivate(first) shared(a) copyin(counter) reduction(+:sum)
    {
#pragma omp for schedule(dynamic, 2) collapse(2) nowait
        for (i = 0; i < 4; i++)
            for (j = 0; j < 4; j++)
                a[i * 4 + j] = i + j;
#pragma omp for ordered lastprivate(last) schedule(static)
        for (i = 0; i < 8; i++) {
#pragma omp ordered
            last = i;
        }
#pragma omp sections firstprivate(seed) lastprivate(last) reduction(+:total)
        {
#pragma omp section
            total += seed;
#pragma omp section
            last = seed;
#pragma omp section
            total += 3;
        }
#pragma omp single copyprivate(priv)
        priv = 5;
#pragma omp single nowait
        work(1);
#pragma omp master
        work(2);
#pragma omp critical
        x++;
#pragma omp critical(named_lock)
        x--;
#pragma omp atomic
        x++;
#pragma omp barrier
#pragma omp flush
#pragma omp flush(x)
#pragma omp task if(1) firstprivate(i) shared(x) default(shared)
        work(3);
#pragma omp task untied
        work(4);
#pragma omp taskwait
    }

#pragma omp parallel for schedule(guided) reduction(+:sum) if(1) num_threads(2)
    for (i = 0; i < 8; i++)
        sum += i;

#pragma omp parallel for schedule(runtime) default(none) shared(a) private(j) \
    firstprivate(first) lastprivate(last) copyin(counter) ordered collapse(1)
    for (i = 0; i < 8; i++) {
        j = i;
        last = j + first + (int)a[0];
    }

#pragma omp parallel sections num_threads(2) reduction(*:first)
    {
#pragma omp section
        first *= 1;
#pragma omp section
        first *= 2;
    }

#pragma omp parallel for schedule(auto)
    for (i = 0; i < 8; i++)
        work(i);

#pragma pomp inst begin(user_phase)
    work(7);
#pragma pomp inst end(user_phase)

    printf("%d %d %d %d %d\n", sum, last, priv, x, total);
    return 0;
}
