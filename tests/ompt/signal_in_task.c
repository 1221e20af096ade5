/* Ends itself with SIGTERM while both of its threads run a task: each task
 * waits until the other has started, then the second raises the signal
 * and the first spins until the program ends. weft's signal rescue closes
 * what is open on each thread: the task's region in the task, then the
 * implicit task's regions after a switch back to it (run_signal_in_task.sh). */
#include <signal.h>
#include <stdatomic.h>

static atomic_int running;
static volatile long sink;

int main(void)
{
#pragma omp parallel num_threads(2)
#pragma omp single
    for (int k = 0; k < 2; k++) {
#pragma omp task firstprivate(k)
        {
            atomic_fetch_add(&running, 1);
            while (atomic_load(&running) < 2)
                sink++;
            if (k == 1)
                raise(SIGTERM);
            for (;;)
                sink++;
        }
    }
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
