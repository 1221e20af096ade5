/* Benchmark program for OpenMP construct events through POMP2; bench/run-omp
 * builds it twice (plain, and instrumented by OPARI2 and linked with
 * libweft) and drives it.
 *
 *   omp_constructs REPETITIONS
 *
 * One parallel region (OMP_NUM_THREADS threads, default 2) runs a body of
 * OpenMP constructs REPETITIONS times: a worksharing loop, single, critical,
 * atomic, barrier, master, and an OpenMP lock. Before the timed loop every
 * thread runs the body WARM_UP times, so the first events (which start
 * recording and register the regions) stay out of the timing. The master
 * thread times the repetition loop between two barriers with
 * CLOCK_MONOTONIC and prints one line:
 *
 *   <seconds> <repetitions> <threads>
 *
 * The timing uses omp_get_thread_num() rather than a master construct, so
 * nothing outside the body is instrumented inside the timed window. */
#define _POSIX_C_SOURCE 200809L
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { WARM_UP = 100, LOOP_ITERATIONS = 4 };

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Shared state the body updates, read at the end so nothing is optimised
 * away. It fills whole cache lines of its own: the region handles OPARI2
 * adds to the instrumented file are static variables too, and must not
 * share a line with data the threads write (each handle load would miss,
 * an artefact of this program's layout). Every counter, the lock and each
 * loop iteration's element have a line of their own (_Alignas applies to
 * each declarator), so the body measures the constructs, not false
 * sharing between unrelated data. */
enum { LINE_LONGS = 64 / sizeof(long) };
static struct {
    _Alignas(64) long loop_slots[LOOP_ITERATIONS][LINE_LONGS];
    _Alignas(64) long single_count, critical_count, atomic_count, master_count, lock_count;
    _Alignas(64) omp_lock_t lock;
} shared;

/* One repetition, executed by every thread of the team. Kept in one place
 * so the warm-up and the timed loop run the same constructs; OPARI2
 * instruments each pragma once, and the handles are shared. */
static void body(long r)
{
#pragma omp for
    for (int i = 0; i < LOOP_ITERATIONS; i++)
        shared.loop_slots[i][0] += r; /* each iteration its own element: no race */
#pragma omp single
    {
        shared.single_count++;
    }
#pragma omp critical
    {
        shared.critical_count++;
    }
#pragma omp atomic
    shared.atomic_count++;
#pragma omp barrier
#pragma omp master
    {
        shared.master_count++;
    }
    omp_set_lock(&shared.lock);
    shared.lock_count++;
    omp_unset_lock(&shared.lock);
}

int main(int argc, char **argv)
{
    if (argc != 2 || atol(argv[1]) <= 0) {
        fprintf(stderr, "usage: %s REPETITIONS\n", argv[0]);
        return 2;
    }
    long repetitions = atol(argv[1]);
    /* The team size comes from OMP_NUM_THREADS; without it, 2 (the
     * development machine's cores), not the runtime's default. */
    int threads = getenv("OMP_NUM_THREADS") ? omp_get_max_threads() : 2;
    double start = 0, elapsed = 0;
    int team = 0;

    omp_init_lock(&shared.lock);
#pragma omp parallel num_threads(threads)
    {
        for (long r = 0; r < WARM_UP; r++)
            body(r);
#pragma omp barrier
        if (omp_get_thread_num() == 0) {
            team = omp_get_num_threads();
            start = now_s();
        }
        for (long r = 0; r < repetitions; r++)
            body(r);
#pragma omp barrier
        if (omp_get_thread_num() == 0)
            elapsed = now_s() - start;
    }
    omp_destroy_lock(&shared.lock);

    long expected = repetitions + WARM_UP;
    long loop_total = 0;
    for (int i = 0; i < LOOP_ITERATIONS; i++)
        loop_total += shared.loop_slots[i][0];
    long repetition_sum = (WARM_UP - 1) * WARM_UP / 2 + (repetitions - 1) * repetitions / 2;
    if (shared.single_count != expected || shared.master_count != expected ||
        shared.critical_count != expected * team || shared.atomic_count != expected * team ||
        shared.lock_count != expected * team || loop_total != LOOP_ITERATIONS * repetition_sum) {
        fprintf(stderr,
                "%s: wrong counts (single %ld master %ld critical %ld atomic %ld lock %ld)\n",
                argv[0], shared.single_count, shared.master_count, shared.critical_count,
                shared.atomic_count, shared.lock_count);
        return 1;
    }
    printf("%.9f %ld %d\n", elapsed, repetitions, team);
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
