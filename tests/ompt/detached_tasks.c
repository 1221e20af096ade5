/* Detached tasks (OpenMP 5.0 `detach`): each task's body ends before its
 * event is fulfilled, so the runtime reports the body's end (libomp:
 * ompt_task_detach) and, later, the fulfilment from whichever thread calls
 * omp_fulfill_event (ompt_task_late_fulfill). Half the events are fulfilled
 * from inside another task, which then enters a critical section, the rest
 * from the single construct's implicit task; one more task fulfils its own
 * event before its body ends (ompt_task_early_fulfill). Every task must
 * complete once in the trace, and the fulfilling task's critical section
 * must stay inside that task's region. */
#include <omp.h>
#include <stdio.h>

enum { DETACHED = 8 };

static omp_event_handle_t events[DETACHED];
static int bodies_done; /* detached bodies that have run */

/* Until every detached body has run, so that each fulfilment comes late;
 * taskyield lets this thread run them itself when it is the only one. */
static void wait_for_bodies(void)
{
    for (;;) {
        int done;
#pragma omp atomic read
        done = bodies_done;
        if (done == DETACHED)
            return;
#pragma omp taskyield
    }
}

int main(void)
{
    int sum = 0, fulfilled_in_task = 0;
#pragma omp parallel
#pragma omp single
    {
        for (int i = 0; i < DETACHED; i++) {
            omp_event_handle_t event;
#pragma omp task detach(event) shared(sum, bodies_done)
            {
#pragma omp atomic
                sum += i;
#pragma omp atomic
                bodies_done++;
            }
            events[i] = event;
        }
#pragma omp task shared(fulfilled_in_task)
        {
            wait_for_bodies();
            for (int i = 0; i < DETACHED / 2; i++)
                omp_fulfill_event(events[i]);
#pragma omp critical
            fulfilled_in_task = DETACHED / 2;
        }
        omp_event_handle_t own;
#pragma omp task detach(own) shared(sum)
        {
            omp_fulfill_event(own);
#pragma omp atomic
            sum += 100;
        }
        wait_for_bodies();
        for (int i = DETACHED / 2; i < DETACHED; i++)
            omp_fulfill_event(events[i]);
#pragma omp taskwait
    }
    printf("sum %d, fulfilled in a task %d\n", sum, fulfilled_in_task);
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
