/* Test program for `weft summary` (check_summary.py, scenario "omp"), built
 * with `weft compile -- gcc -fopenmp` and run with two threads and
 * OMP_WAIT_POLICY=passive. Thread 0 is made to wait for thread 1 in an
 * explicit barrier, in omp_set_lock, in a critical construct and in the
 * implicit barrier that ends the parallel region, at least WAIT_MS each.
 *
 * How the wait is guaranteed without trusting the scheduler: right before
 * thread 0 enters the region it will block in, it bumps `announced`.
 * Thread 1 waits for that, then until the kernel shows thread 0 asleep
 * (state S in /proc/self/task/TID/stat: with the passive wait policy
 * libgomp blocks in a futex at once); by then thread 0 has recorded its
 * enter. Only then does thread 1 sleep WAIT_MS and release thread 0, whose
 * wait therefore spans the whole sleep.
 *
 * The scenario runs twice: once untimed, so that every region, lock and
 * thread is set up before the timed run, then timed. Per run and thread:
 * 3 explicit barriers, 1 implicit barrier, 1 omp_set_lock + 1 critical
 * (2 lock acquisitions). Keep check_summary.py's OMP_* constants in step. */
#define _GNU_SOURCE
#include <omp.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define WAIT_MS 50
#define GIVE_UP_S 30 /* a guard against a hang, not a timing */

static atomic_long tid0;     /* kernel thread id of OpenMP thread 0 */
static atomic_int announced; /* bumped by thread 0 right before it blocks */
static atomic_int inside;    /* run number whose critical thread 1 has entered */
static omp_lock_t lock;

static void sleep_ms(long ms)
{
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&t, &t) != 0)
        continue;
}

static void give_up(const char *what)
{
    fprintf(stderr, "summary_omp: %s\n", what);
    exit(1);
}

/* True when thread TID of this process is asleep in the kernel (state S). */
static bool asleep(long tid)
{
    char path[64], stat[512];
    snprintf(path, sizeof(path), "/proc/self/task/%ld/stat", tid);
    FILE *f = fopen(path, "r");
    if (!f)
        give_up("cannot read /proc/self/task/TID/stat");
    size_t n = fread(stat, 1, sizeof(stat) - 1, f);
    fclose(f);
    stat[n] = '\0';
    const char *end_of_name = strrchr(stat, ')'); /* the name may hold ')' */
    return end_of_name && end_of_name[1] == ' ' && end_of_name[2] == 'S';
}

/* Thread 1: waits for thread 0's announcement number N and for thread 0 to
 * block, then sleeps WAIT_MS. */
static void hold_up(int n)
{
    time_t start = time(NULL);
    while (atomic_load(&announced) < n || !asleep(atomic_load(&tid0))) {
        if (time(NULL) - start > GIVE_UP_S)
            give_up("thread 0 never blocked (is OMP_WAIT_POLICY=passive set?)");
        sched_yield();
    }
    sleep_ms(WAIT_MS);
}

static void scenario(int run, bool timed)
{
#pragma omp parallel num_threads(2)
    {
        int me = omp_get_thread_num();
        int seen = 0; /* thread 1: announcements waited for */
        if (omp_get_num_threads() != 2)
            give_up("the parallel region did not get 2 threads");
        if (me == 0)
            atomic_store(&tid0, (long)syscall(SYS_gettid));
#pragma omp barrier

        /* An explicit barrier that thread 0 reaches first. */
        if (me == 0 && timed)
            atomic_fetch_add(&announced, 1);
        else if (me == 1 && timed)
            hold_up(++seen);
#pragma omp barrier

        /* omp_set_lock while thread 1 holds the lock. */
        if (me == 1)
            omp_set_lock(&lock);
#pragma omp barrier
        if (me == 0) {
            if (timed)
                atomic_fetch_add(&announced, 1);
            omp_set_lock(&lock);
            omp_unset_lock(&lock);
        } else {
            if (timed)
                hold_up(++seen);
            omp_unset_lock(&lock);
        }

        /* A critical construct while thread 1 is inside it. */
        if (me == 1) {
#pragma omp critical
            {
                atomic_store(&inside, run);
                if (timed)
                    hold_up(++seen);
            }
        } else {
            while (atomic_load(&inside) != run)
                sched_yield();
            if (timed)
                atomic_fetch_add(&announced, 1);
#pragma omp critical
            {
                atomic_fetch_add(&inside, 0);
            }
        }

        /* The implicit barrier at the end, which thread 0 reaches first. */
        if (me == 0 && timed)
            atomic_fetch_add(&announced, 1);
        else if (me == 1 && timed)
            hold_up(++seen);
    }
}

int main(void)
{
    omp_init_lock(&lock);
    scenario(1, false);
    scenario(2, true);
    omp_destroy_lock(&lock);
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
