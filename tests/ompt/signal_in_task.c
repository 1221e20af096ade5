/* Ends itself by a signal while both of its threads run a task:
 *
 *   program SIGNAL WARMUP
 *
 * SIGNAL is TERM or KILL. First WARMUP small tasks (each some work), so
 * that a small WEFT_BUFFER_SIZE hands chunks to the writer and the trace
 * files hold events before the end; then two tasks that each wait until
 * the other has started, the second raising the signal, the first spinning
 * until the program ends. Either way what is open at the end is closed in
 * the task that opened it: by weft's signal rescue (TERM) or by weft
 * recover (KILL); see run_signal_in_task.sh. */
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

static atomic_int running;
static volatile long sink;

int main(int argc, char **argv)
{
    int sig = argc > 1 && strcmp(argv[1], "KILL") == 0 ? SIGKILL : SIGTERM;
    int warmup = argc > 2 ? atoi(argv[2]) : 0;
#pragma omp parallel num_threads(2)
#pragma omp single
    {
        for (int k = 0; k < warmup; k++) {
#pragma omp task
            for (int i = 0; i < 2000; i++)
                sink++;
        }
        /* With the queue empty, neither task below runs at its creation
         * (a full queue makes libomp run a new task at once: the first
         * would then wait for a second never created). */
#pragma omp taskwait
        for (int k = 0; k < 2; k++) {
#pragma omp task firstprivate(k)
            {
                atomic_fetch_add(&running, 1);
                /* Bounded, so that a machine too busy to run both at once
                 * still ends (the raising thread is in its task anyway). */
                for (long spin = 0; atomic_load(&running) < 2 && spin < 2000000000L; spin++)
                    sink++;
                if (k == 1)
                    raise(sig);
                for (;;)
                    sink++;
            }
        }
    }
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
