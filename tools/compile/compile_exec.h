/* SPDX-License-Identifier: BSD-3-Clause */
/* Running the programs `weft compile` drives (opari2, opari2-config, nm, the
 * region-initialisation script, the compiler): an argument vector started with
 * posix_spawnp, never a shell, optionally with its standard input or output
 * redirected, two of them joined by a pipe, or its output captured. While a
 * child runs, SIGINT, SIGTERM, SIGHUP and SIGQUIT sent to weft are passed on
 * to it and remembered, so the caller can clean up and die of the same
 * signal. Private to tools/. */
#ifndef WEFT_TOOLS_COMPILE_EXEC_H
#define WEFT_TOOLS_COMPILE_EXEC_H

#include <stdbool.h>
#include <stdio.h>

/* How a child ended. At most one of the three is nonzero; all zero is success. */
typedef struct weft_compile_exit {
    int start_errno; /* it could not be started: errno (ENOENT: not on PATH) */
    int signal;      /* it was killed by this signal */
    int code;        /* its exit status */
} weft_compile_exit;

/* True when the child ran and exited with status 0. */
bool weft__compile_exit_ok(weft_compile_exit exit);

/* Installs the signal handlers described above (once; a signal weft was
 * started with ignored stays ignored). */
void weft__compile_signals_catch(void);

/* The first signal caught while a child ran, or 0. */
int weft__compile_signal_caught(void);

/* Restores the default action of the caught signal and raises it, so weft
 * dies of it as the child did; returns only when no signal was caught. */
void weft__compile_signal_reraise(void);

/* Runs ARGV (argv[0] looked up on PATH) and waits for it. STDIN_FD and
 * STDOUT_FD, when not -1, become the child's standard input and output;
 * standard error is always weft's own. */
weft_compile_exit weft__compile_run(char *const *argv, int stdin_fd, int stdout_fd);

/* Runs ARGV with its standard input, output and error on /dev/null: to ask
 * a compiler a question whose answer is only the exit status. */
weft_compile_exit weft__compile_run_quiet(char *const *argv);

/* The flag that lifts the free-form line limit of 132 columns for the
 * compile of an instrumented Fortran copy, or NULL when COMPILER does not
 * take gfortran's `-ffree-line-length-none` (asked once per process).
 * OPARI2 keeps a directive's columns when it blanks the clauses it moves
 * and adds ` &`, and the clauses weft compile shields from it are longer
 * (compile_shield.h): a directive line the compiler took grew past 132. */
const char *weft__compile_free_line_flag(const char *compiler);

/* Runs FIRST | SECOND, SECOND's standard output going to STDOUT_FD, and waits
 * for both; RESULTS[0] and RESULTS[1] tell how each ended. When FIRST cannot
 * be started, SECOND is not started either (results[1] is all zero). */
void weft__compile_run_pipe(char *const *first, char *const *second, int stdout_fd,
                            weft_compile_exit results[2]);

/* Runs ARGV and stores its standard output in *OUTPUT (malloc'ed,
 * NUL-terminated, owned by the caller; at most 64 KiB are kept). *OUTPUT is
 * NULL unless the child ran; a failed allocation or pipe is reported as
 * start_errno. */
weft_compile_exit weft__compile_capture(char *const *argv, char **output);

/* Prints ARGV joined with spaces on OUT, then TAIL (may be NULL), then a
 * newline: what --verbose shows for each command. */
void weft__compile_print_command(FILE *out, char *const *argv, const char *tail);

#endif /* WEFT_TOOLS_COMPILE_EXEC_H */
