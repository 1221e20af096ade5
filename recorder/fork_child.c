/* SPDX-License-Identifier: BSD-3-Clause */
/* The child of fork() (without exec) records a trace of its own, in a
 * directory named after its parent's: DIR.fork-<pid>.
 *
 * Only the forking thread exists in the child, with a copy of everything
 * the parent's recorder held: other threads' buffers and locations, the
 * writer's queue, the open archive, mutexes that a vanished thread may have
 * held. None of that is the child's. At fork (the child handler of
 * pthread_atfork) the child forgets it all, cheaply and without taking a
 * lock; the definition registry, whose handles the adapters keep, stays
 * (its mutex is held across fork() by the forking thread, so its copy is
 * whole). A child that records nothing (fork then exec, system(), popen)
 * costs nothing more and leaves nothing behind. At the child's first
 * event it starts recording: a new writer thread, a new rescue thread for
 * signals, its own program begin, and one line saying where its trace goes.
 *
 * The forking thread may be inside regions when it forks; their leaves
 * come in the child without their enters, so the child's master location
 * drops closings that close nothing it recorded (sink.c). A child of an
 * MPI rank cannot join its job's trace: it says so in one line and records
 * nothing. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "archive.h"
#include "disk_reserve.h"
#include "job_internal.h"
#include "journal.h"
#include "lifecycle.h"
#include "main_exit.h"
#include "location.h"
#include "program.h"
#include "signals.h"
#include "sink.h"
#include "weft/log.h"
#include "writer.h"

/* The child's directory is named after the parent's directory once it
 * exists, else after the one it will have (weft__archive_base_name). */
static char child_directory[4200];
static bool child_of_job;
static uint32_t parent_rank;
static pid_t parent_pid;
static pthread_mutex_t child_start_mutex = PTHREAD_MUTEX_INITIALIZER;

void weft__fork_before(void)
{
    weft_registry_fork_lock(weft_defs_global());
}

void weft__fork_after_in_parent(void)
{
    weft_registry_fork_unlock(weft_defs_global());
}

void weft__fork_after_in_child(void)
{
    weft_registry_fork_unlock(weft_defs_global());
    int was = atomic_load(&weft__lifecycle_state);
    if (was != WEFT_STATE_RUNNING && was != WEFT_STATE_FORKED_CHILD)
        return; /* nothing recorded (disabled), or the parent's trace is written */
    atomic_store(&weft__recording, false);
    atomic_store(&weft__lifecycle_state, WEFT_STATE_FORKED_CHILD);

    const char *dir = weft__archive_directory();
    snprintf(child_directory, sizeof(child_directory), "%s.fork-%ld",
             dir ? dir : weft__archive_base_name(), (long)getpid());
    parent_pid = weft__traced_pid;
    child_of_job = weft__job_attached() || child_of_job;
    parent_rank = weft_job_rank();
    pthread_mutex_init(&child_start_mutex, NULL);

    weft__job_forget();
    weft__loc_forget_all();
    weft__writer_forget();
    weft__sink_forget();
    weft__archive_forget_all();
    weft__journal_forget();
    weft__disk_reserve_forget();
    weft__signals_forget();
    weft__main_exit_forget(); /* the parent's threads are not here */
    weft_registry_forget_locations(weft_defs_global());
}

void weft__fork_child_start(void)
{
    pthread_mutex_lock(&child_start_mutex);
    if (atomic_load(&weft__lifecycle_state) != WEFT_STATE_FORKED_CHILD) {
        pthread_mutex_unlock(&child_start_mutex);
        return;
    }
    if (child_of_job) {
        weft_log_error("process %ld, a fork() of MPI rank %u, is not traced: only the job's "
                       "ranks write its trace",
                       (long)getpid(), parent_rank);
        atomic_store(&weft__lifecycle_state, WEFT_STATE_DISABLED);
        pthread_mutex_unlock(&child_start_mutex);
        return;
    }
    weft__traced_pid = getpid();
    weft__lifecycle_config.experiment_directory = child_directory;
    weft__archive_prepare_name(&weft__lifecycle_config);
    weft__sink_configure(&weft__lifecycle_config);
    weft__program_start();
    weft__writer_start();
    weft__signals_install(weft__lifecycle_config.signals);
    weft_log_error("process %ld, a fork() of %ld, records its own trace in '%s'", (long)getpid(),
                   (long)parent_pid, child_directory);
    atomic_store(&weft__lifecycle_state, WEFT_STATE_RUNNING);
    atomic_store_explicit(&weft__recording, true, memory_order_release);
    pthread_mutex_unlock(&child_start_mutex);
}
