/* Running a traced test program in a scratch directory with extra
 * environment variables, capturing its exit code and stderr. */
#ifndef WEFT_TESTS_RUN_PROGRAM_H
#define WEFT_TESTS_RUN_PROGRAM_H

#include <stdbool.h>
#include <stddef.h>

typedef struct program_run {
    int exit_code;      /* -1 when it did not exit normally */
    int term_signal;    /* the signal that ended it, 0 when it exited */
    char stderr_text[8192];
    int stderr_lines;
} program_run;

/* A new empty directory under $TMPDIR or /tmp; path has room for 4096. */
void scratch_dir_create(char *path, size_t len);
/* Removes a directory tree made by the tests. */
void scratch_dir_remove(const char *path);

/* Runs argv (NULL-terminated) in cwd with the variables in env (NULL-
 * terminated "NAME=value" strings) added to the environment. */
/* Runs ARGV in CWD with ENV added; its stdout goes to CWD/.stdout, its
 * stderr to CWD/.stderr and into the result. */
program_run run_program(const char *const *argv, const char *const *env, const char *cwd);

/* The same in two steps: start_program starts it (without core dumps) and
 * returns its pid; wait_program waits for it to end. In between the test
 * may read CWD/.stdout and send it signals. */
int start_program(const char *const *argv, const char *const *env, const char *cwd);
program_run wait_program(int pid, const char *cwd);

/* Waits (up to 60 s) until CWD/.stdout holds a line starting with WORD;
 * false when the program ended or the time ran out first. */
int wait_for_output(int pid, const char *cwd, const char *word);

/* The first line of CWD/.stdout that starts with WORD, into line (size
 * bytes, newline kept); false when there is none. */
bool stdout_line(const char *cwd, const char *word, char *line, size_t size);

/* Counts the entries of dir whose name starts with prefix. */
int count_entries(const char *dir, const char *prefix);

#endif /* WEFT_TESTS_RUN_PROGRAM_H */
/* SPDX-License-Identifier: BSD-3-Clause */
