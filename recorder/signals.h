/* SPDX-License-Identifier: BSD-3-Clause */
/* Terminating signals: the trace is written before the signal takes its
 * default effect (docs/FAULTS.md).
 *
 * For each signal of WEFT_SIGNALS whose action is the default one when
 * recording starts, weft installs a handler. A handler may do almost
 * nothing (only async-signal-safe calls), and the writing of a trace takes
 * locks and memory that the interrupted thread may hold; so the handler
 * only notes the signal and its time, wakes a rescue thread that was
 * started with the recorder (and sleeps in read(2) until then), and waits
 * for it in poll(2) while the rescue thread writes the trace the way the
 * end of the program would, cut at the signal's time. The handler then
 * restores the default action and lets the signal take it: the process
 * ends as it would have without weft (same signal, core dump, exit status).
 * If the rescue makes no progress for a while (a lock held by the
 * interrupted thread), the handler gives up waiting; what reached the disk
 * stays recoverable (weft recover).
 *
 * A signal whose action was a handler of the program's when recording
 * started is passed to that handler and handled no further (the program
 * decides: a handler that returns has handled it); one that was ignored is
 * left alone. A handler the program installs later replaces weft's. */
#ifndef WEFT_RECORDER_SIGNALS_H
#define WEFT_RECORDER_SIGNALS_H

#include <signal.h>
#include <stdbool.h>

/* Installs the handlers for the signals SPEC names (WEFT_SIGNALS: NULL or
 * "default" for the usual list, "none", or names such as TERM,INT or
 * SIGTERM, numbers too) and starts the rescue thread. Bad names: one line
 * each. Called once when recording starts (and in a fork()ed child that
 * records). */
void weft__signals_install(const char *spec);

/* The calling thread records events: give it an alternate signal stack (if
 * it has none), so that a stack overflow still reaches the handler; and
 * take it back when the thread ends. */
void weft__signals_thread_start(void);
void weft__signals_thread_end(void);

/* While a recording thread holds one of weft's locks (its location's, the
 * writer queue's, the list of locations), weft's handler must not run on
 * it: the rescue thread would wait for that lock until the handler gave up.
 * Such parts of a recording thread's work run between these two: every
 * signal is blocked, and one that comes meanwhile is delivered when they
 * are done. */
typedef struct weft_signals_held {
    bool blocked;    /* false when weft handles no signal: nothing to hold */
    sigset_t before; /* the thread's mask to go back to */
} weft_signals_held;
void weft__signals_hold(weft_signals_held *held);
void weft__signals_release(const weft_signals_held *held);

/* FD moved to a descriptor number of weft's own, high up (from FD_FLOOR, or
 * near the file limit when that is lower, and never 0-2), closing FD; FD
 * itself when that fails. A program that closed its standard error got the
 * rescue's socket as descriptor 2 and wrote its messages into it; one that
 * closes or reuses the low numbers in the middle of its run (a daemon) no
 * longer meets weft's there. */
enum { FD_FLOOR = 900 };
int weft__fd_out_of_the_way(int fd);

/* In a fork()ed child: the rescue thread and its sockets are the parent's. */
void weft__signals_forget(void);

#endif /* WEFT_RECORDER_SIGNALS_H */
