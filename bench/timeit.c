/* Runs a command and prints, on stderr, the wall-clock seconds it took and
 * the user and system CPU seconds of it and every descendant it waited for
 * (wait4's rusage), to the microsecond: what bench/run-apps compares between
 * a plain and a traced run. GNU time prints the CPU times to 10 ms only,
 * which is the size of the fixed cost being measured.
 *
 *   weft_bench_timeit COMMAND [ARGS...]
 *   -> stderr: "timeit <wall_s> <user_s> <sys_s> <exit status>"
 *
 * The command's own output and exit status pass through. */
#define _GNU_SOURCE
#include <stdio.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double seconds(struct timeval tv)
{
    return (double)tv.tv_sec + (double)tv.tv_usec * 1e-6;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s COMMAND [ARGS...]\n", argv[0]);
        return 2;
    }
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    pid_t pid = fork();
    if (pid < 0) {
        perror("fork");
        return 2;
    }
    if (pid == 0) {
        execvp(argv[1], argv + 1);
        perror(argv[1]);
        _exit(127);
    }
    int status;
    struct rusage usage;
    if (wait4(pid, &status, 0, &usage) < 0) {
        perror("wait4");
        return 2;
    }
    clock_gettime(CLOCK_MONOTONIC, &end);
    double wall = (double)(end.tv_sec - start.tv_sec) + (double)(end.tv_nsec - start.tv_nsec) * 1e-9;
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    fprintf(stderr, "timeit %.6f %.6f %.6f %d\n", wall, seconds(usage.ru_utime),
            seconds(usage.ru_stime), code);
    return code;
}
/* SPDX-License-Identifier: BSD-3-Clause */
