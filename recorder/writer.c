/* SPDX-License-Identifier: BSD-3-Clause */
/* The writer thread and its queue; see writer.h. */
#include "writer.h"

#include <pthread.h>
#include <sched.h>
#include <unistd.h>
#include <signal.h>

#include "main_exit.h"
#include "weft/log.h"
#include "sink.h"

/* The queue: a FIFO of chunks linked through chunk->next. Everything below
 * is guarded by queue_mutex; `work` is signalled on a new chunk or stop. */
static pthread_mutex_t queue_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t work = PTHREAD_COND_INITIALIZER;
static weft_chunk *queue_head, *queue_tail;
static bool running;  /* the thread exists and accepts chunks */
static bool stopping; /* the thread should exit once the queue is empty */
static bool held;     /* chunks wait in the queue: there is no archive yet */
static pthread_t thread;

static weft_chunk *pop_or_wait(void)
{
    pthread_mutex_lock(&queue_mutex);
    while ((!queue_head || held) && !stopping)
        pthread_cond_wait(&work, &queue_mutex);
    weft_chunk *chunk = queue_head;
    if (chunk) {
        queue_head = chunk->next;
        if (!queue_head)
            queue_tail = NULL;
        chunk->next = NULL;
    }
    pthread_mutex_unlock(&queue_mutex);
    return chunk;
}

/* The writer must not inherit the starting thread's CPU binding: an OpenMP
 * runtime with OMP_PROC_BIND set has usually pinned that thread to one core
 * by now, and a writer sharing it halves the program's speed while other
 * cores idle. It may run on every online CPU; the kernel still keeps it
 * inside the process's cpuset. */
static void unbind_self(void)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    if (cpus <= 0)
        return;
    cpu_set_t *set = CPU_ALLOC((size_t)cpus);
    if (!set)
        return;
    size_t size = CPU_ALLOC_SIZE((size_t)cpus);
    CPU_ZERO_S(size, set);
    for (long cpu = 0; cpu < cpus; cpu++)
        CPU_SET_S((size_t)cpu, size, set);
    if (pthread_setaffinity_np(pthread_self(), size, set) != 0)
        weft_log_verbose("the writer thread keeps the CPU binding of the thread that started it");
    CPU_FREE(set);
}

static void *writer_main(void *arg)
{
    (void)arg;
    unbind_self();
    weft_chunk *chunk;
    while ((chunk = pop_or_wait()) != NULL) {
        weft__sink_write_chunk(chunk);
        weft__loc_return_chunk(chunk);
    }
    return NULL;
}

void weft__writer_start(void)
{
    sigset_t all, previous;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &previous);
    int err = pthread_create(&thread, NULL, writer_main, NULL);
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
    if (err == 0)
        weft__main_exit_own_thread();
    pthread_mutex_lock(&queue_mutex);
    running = err == 0;
    pthread_mutex_unlock(&queue_mutex);
    if (err != 0)
        weft_log_verbose("could not start the writer thread; threads write their own buffers");
}

bool weft__writer_submit(weft_chunk *chunk)
{
    pthread_mutex_lock(&queue_mutex);
    bool queued = running && !stopping;
    if (queued) {
        chunk->next = NULL;
        if (queue_tail)
            queue_tail->next = chunk;
        else
            queue_head = chunk;
        queue_tail = chunk;
        pthread_cond_signal(&work);
    }
    pthread_mutex_unlock(&queue_mutex);
    if (!queued)
        weft__sink_write_chunk(chunk);
    return queued;
}

void weft__writer_hold(bool hold)
{
    pthread_mutex_lock(&queue_mutex);
    held = hold;
    pthread_cond_signal(&work);
    pthread_mutex_unlock(&queue_mutex);
}

bool weft__writer_held(void)
{
    pthread_mutex_lock(&queue_mutex);
    bool result = held && running && !stopping;
    pthread_mutex_unlock(&queue_mutex);
    return result;
}

void weft__writer_stop(void)
{
    pthread_mutex_lock(&queue_mutex);
    bool was_running = running;
    stopping = true;
    held = false; /* whatever is queued is written now, or counted as lost */
    pthread_cond_signal(&work);
    pthread_mutex_unlock(&queue_mutex);
    if (was_running)
        pthread_join(thread, NULL);
    pthread_mutex_lock(&queue_mutex);
    running = false;
    pthread_mutex_unlock(&queue_mutex);
}

void weft__writer_forget(void)
{
    pthread_mutex_init(&queue_mutex, NULL);
    pthread_cond_init(&work, NULL);
    queue_head = queue_tail = NULL;
    running = stopping = held = false;
}
