/* SPDX-License-Identifier: BSD-3-Clause */
/* Switching recording off and on for the whole process (weft_user_off and
 * _on, POMP2_Off and _On, omp_control_tool pause and start), and the
 * parallel regions such a switch waits for.
 *
 * A switch while an OpenMP parallel region runs takes effect when the last
 * parallel region running ends (at its join, on the thread that joins).
 * At the switch itself each thread of the team is somewhere else: one
 * waits in a barrier that another has not reached, so cut there, the
 * team's threads would have recorded different numbers of its barriers,
 * which Scalasca's analyzer cannot read (it meets its own threads at every
 * barrier of a team). Forks and joins are counted whether or not recording
 * is paused; a program that never joins (exit inside a parallel region)
 * keeps its switch waiting, and the end of the run closes what is open. */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>

#include "lifecycle.h"
#include "location.h"
#include "weft/log.h"
#include "weft/recorder.h"

static pthread_mutex_t switch_mutex = PTHREAD_MUTEX_INITIALIZER;
static atomic_uint forks_running;      /* OpenMP forks not joined yet */
static atomic_int switch_waiting = -1; /* -1: none; 0 or 1: off or on, asked in a region */

/* Under switch_mutex. The switch is itself an event, so it is written
 * while recording is on: after switching on, before switching off. Every
 * location then re-checks on its slow path (see pause.h for what it does
 * there). */
static void switch_now(bool on)
{
    if (atomic_load(&weft__paused) == !on)
        return;
    if (on)
        atomic_store(&weft__paused, false);
    weft__measurement_on_off(on);
    if (!on)
        atomic_store(&weft__paused, true);
    weft__loc_clear_fast_all();
}

/* Under switch_mutex: the waiting switch, once no parallel region runs. The
 * sequentially consistent loads and stores on forks_running and
 * switch_waiting make sure that the last join or the asking thread, or
 * both, see the other's. */
static void switch_waiting_now(void)
{
    int waiting = atomic_load(&switch_waiting);
    if (waiting < 0 || atomic_load(&forks_running) != 0)
        return;
    atomic_store(&switch_waiting, -1);
    switch_now(waiting == 1);
}

void weft_recording_set(bool on)
{
    int saved_errno = errno;
    bool paused;
    weft__gate_slow(&paused); /* initialises on first use */
    if (atomic_load_explicit(&weft__lifecycle_state, memory_order_relaxed) != WEFT_STATE_RUNNING) {
        errno = saved_errno;
        return;
    }
    pthread_mutex_lock(&switch_mutex);
    if (atomic_load(&forks_running) == 0) {
        atomic_store(&switch_waiting, -1); /* the latest switch is the one that counts */
        switch_now(on);
    } else {
        static bool told;
        if (!told)
            weft_log_error("recording switched %s inside a parallel region: the switch takes "
                           "effect when the parallel region ends, so that every thread of its "
                           "team records the same barriers",
                           on ? "on" : "off");
        told = true;
        atomic_store(&switch_waiting, on ? 1 : 0);
        switch_waiting_now(); /* the region may have ended meanwhile */
    }
    pthread_mutex_unlock(&switch_mutex);
    errno = saved_errno;
}

void weft__recording_fork_counted(void)
{
    atomic_fetch_add(&forks_running, 1);
}

void weft__recording_join_counted(void)
{
    unsigned before = atomic_load(&forks_running);
    while (before > 0 && !atomic_compare_exchange_weak(&forks_running, &before, before - 1))
        ;
    if (before == 1 && atomic_load(&switch_waiting) >= 0) {
        pthread_mutex_lock(&switch_mutex);
        switch_waiting_now();
        pthread_mutex_unlock(&switch_mutex);
    }
}
