/* SPDX-License-Identifier: BSD-3-Clause */
/* A main thread that ends with pthread_exit(): glibc ends the process,
 * with exit(0), when its last thread ends, and weft's own threads (the
 * writer, the rescue of signals) never end on their own: the program hung
 * once its threads were done, and no signal could end it (weft's threads
 * block them all). When the main thread ends that way, a watcher thread
 * waits until no thread but weft's is left and then calls exit(0), as
 * glibc would have: exit handlers run and the trace is written. libweft
 * defines pthread_exit (passing it on to the C library's) so that this
 * also holds when the main thread recorded nothing. */
#ifndef WEFT_RECORDER_MAIN_EXIT_H
#define WEFT_RECORDER_MAIN_EXIT_H

#include <stdbool.h>

/* A thread of weft's own started (the writer, the rescue thread). */
void weft__main_exit_own_thread(void);

/* Starts MAIN as a detached thread of weft's own, every signal blocked in
 * it (so none is delivered to it); false when it could not be started. */
bool weft__main_exit_start_detached(void *(*main)(void *));

/* In a fork()ed child: none of weft's threads, no watcher. */
void weft__main_exit_forget(void);

/* The calling thread ends (its thread-exit handler): when it is the main
 * thread, starts the watcher, once. */
void weft__main_exit_thread_ends(void);

#endif /* WEFT_RECORDER_MAIN_EXIT_H */
