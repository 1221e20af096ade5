/* SPDX-License-Identifier: BSD-3-Clause */
/* The end of a process whose main thread called pthread_exit (main_exit.h). */
#include "main_exit.h"

#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "weft/compiler.h"

enum { WATCH_MS = 20 };

static atomic_int own_threads;
static atomic_bool watching;

void weft__main_exit_own_thread(void)
{
    atomic_fetch_add(&own_threads, 1);
}

void weft__main_exit_forget(void)
{
    atomic_store(&own_threads, 0);
    atomic_store(&watching, false);
}

/* The process's thread count (/proc/self/status), or -1. */
static int threads_now(void)
{
    FILE *f = fopen("/proc/self/status", "re");
    if (!f)
        return -1;
    char line[256];
    int n = -1;
    while (fgets(line, sizeof(line), f)) {
        if (strncmp(line, "Threads:", 8) == 0) {
            n = atoi(line + 8);
            break;
        }
    }
    fclose(f);
    return n;
}

static void *watch(void *arg)
{
    (void)arg;
    for (;;) {
        usleep(WATCH_MS * 1000);
        int n = threads_now();
        /* weft's threads, this one and the main thread, which Linux keeps
         * (a zombie) until the process ends: the program's are all gone */
        if (n > 0 && n <= atomic_load(&own_threads) + 2)
            exit(0);
    }
    return NULL;
}

bool weft__main_exit_start_detached(void *(*main)(void *))
{
    sigset_t all, before;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &before);
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    pthread_t thread;
    int err = pthread_create(&thread, &attr, main, NULL);
    pthread_attr_destroy(&attr);
    pthread_sigmask(SIG_SETMASK, &before, NULL);
    return err == 0;
}

void weft__main_exit_thread_ends(void)
{
    if (gettid() != getpid() || atomic_exchange(&watching, true))
        return;
    if (!weft__main_exit_start_detached(watch))
        atomic_store(&watching, false);
}

/* The program's own pthread_exit, passed on to the C library's: the main
 * thread's thread-exit handler is weft's only when it recorded an event,
 * and a main thread that only started the threads that record ends so
 * too. */
WEFT_EXPORT void pthread_exit(void *retval)
{
    static void (*real)(void *);
    if (!real)
        *(void **)&real = dlsym(RTLD_NEXT, "pthread_exit");
    weft__main_exit_thread_ends();
    if (real)
        real(retval);
    abort(); /* no C library's pthread_exit: cannot happen with glibc */
}
