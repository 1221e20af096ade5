/* SPDX-License-Identifier: BSD-3-Clause */
/* Starting and waiting for the children of `weft compile` (compile_exec.h).
 * posix_spawnp reports a program that cannot be started (glibc returns the
 * exec errno) without a shell or a fork of our own. Signal handlers only store
 * the signal and pass it on with kill(), both async-signal-safe. */
#include "compile_exec.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#define CAPTURE_LIMIT (64 * 1024)

static const int caught_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

/* Written by the signal handler, read by the main thread after a wait. */
static volatile sig_atomic_t caught;
/* The children running now (0: none); written by the main thread, read by
 * the handler, which passes a caught signal on to them. */
static volatile sig_atomic_t running[2];

static void on_signal(int sig)
{
    if (!caught)
        caught = sig;
    for (size_t i = 0; i < 2; i++) {
        if (running[i] > 0)
            kill((pid_t)running[i], sig);
    }
}

void weft__compile_signals_catch(void)
{
    for (size_t i = 0; i < sizeof(caught_signals) / sizeof(caught_signals[0]); i++) {
        struct sigaction old;
        if (sigaction(caught_signals[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
            continue;
        struct sigaction sa;
        memset(&sa, 0, sizeof(sa));
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        sigaction(caught_signals[i], &sa, NULL);
    }
}

int weft__compile_signal_caught(void)
{
    return caught;
}

void weft__compile_signal_reraise(void)
{
    int sig = caught;
    if (!sig)
        return;
    signal(sig, SIG_DFL);
    raise(sig);
}

bool weft__compile_exit_ok(weft_compile_exit exit)
{
    return exit.start_errno == 0 && exit.signal == 0 && exit.code == 0;
}

/* Starts ARGV with the given descriptors as its fd 0, 1 and 2 (-1:
 * inherit). Returns 0 and the pid, or an errno value. */
static int spawn3(char *const *argv, int stdin_fd, int stdout_fd, int stderr_fd, pid_t *pid)
{
    posix_spawn_file_actions_t actions;
    int err = posix_spawn_file_actions_init(&actions);
    if (err)
        return err;
    if (stdin_fd >= 0 && stdin_fd != STDIN_FILENO)
        err = posix_spawn_file_actions_adddup2(&actions, stdin_fd, STDIN_FILENO);
    if (!err && stdout_fd >= 0 && stdout_fd != STDOUT_FILENO)
        err = posix_spawn_file_actions_adddup2(&actions, stdout_fd, STDOUT_FILENO);
    if (!err && stderr_fd >= 0 && stderr_fd != STDERR_FILENO)
        err = posix_spawn_file_actions_adddup2(&actions, stderr_fd, STDERR_FILENO);
    if (!err)
        err = posix_spawnp(pid, argv[0], &actions, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    return err;
}

static int spawn(char *const *argv, int stdin_fd, int stdout_fd, pid_t *pid)
{
    return spawn3(argv, stdin_fd, stdout_fd, -1, pid);
}

static weft_compile_exit wait_for(pid_t pid)
{
    weft_compile_exit result = {0, 0, 0};
    int status = 0;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            result.start_errno = errno;
            return result;
        }
    }
    if (WIFSIGNALED(status))
        result.signal = WTERMSIG(status);
    else if (WIFEXITED(status))
        result.code = WEXITSTATUS(status);
    return result;
}

/* Runs ARGV with the given descriptors (-1: inherited) and waits for it. */
static weft_compile_exit run_with(char *const *argv, int stdin_fd, int stdout_fd, int stderr_fd)
{
    weft_compile_exit result = {0, 0, 0};
    pid_t pid;
    result.start_errno = spawn3(argv, stdin_fd, stdout_fd, stderr_fd, &pid);
    if (result.start_errno)
        return result;
    running[0] = pid;
    result = wait_for(pid);
    running[0] = 0;
    return result;
}

weft_compile_exit weft__compile_run(char *const *argv, int stdin_fd, int stdout_fd)
{
    return run_with(argv, stdin_fd, stdout_fd, -1);
}

weft_compile_exit weft__compile_run_quiet(char *const *argv)
{
    int null = open("/dev/null", O_RDWR | O_CLOEXEC);
    if (null < 0)
        return (weft_compile_exit){.start_errno = errno};
    weft_compile_exit result = run_with(argv, null, null, null);
    close(null);
    return result;
}

const char *weft__compile_free_line_flag(const char *compiler)
{
    static int answer = -1;
    static const char flag[] = "-ffree-line-length-none";
    if (answer < 0) {
        char *const argv[] = {(char *)compiler, (char *)flag, "-E",        "-x", "f95-cpp-input",
                              "/dev/null",      "-o",         "/dev/null", NULL};
        answer = weft__compile_exit_ok(weft__compile_run_quiet(argv));
    }
    return answer == 1 ? flag : NULL;
}

/* A pipe whose two ends are closed on exec (the children get dup2'ed copies). */
static int cloexec_pipe(int fds[2])
{
    if (pipe(fds) != 0)
        return errno;
    fcntl(fds[0], F_SETFD, FD_CLOEXEC);
    fcntl(fds[1], F_SETFD, FD_CLOEXEC);
    return 0;
}

void weft__compile_run_pipe(char *const *first, char *const *second, int stdout_fd,
                            weft_compile_exit results[2])
{
    memset(results, 0, 2 * sizeof(*results));
    int fds[2];
    results[0].start_errno = cloexec_pipe(fds);
    if (results[0].start_errno)
        return;
    pid_t pids[2];
    results[0].start_errno = spawn(first, -1, fds[1], &pids[0]);
    if (results[0].start_errno) {
        close(fds[0]);
        close(fds[1]);
        return;
    }
    running[0] = pids[0];
    close(fds[1]);
    results[1].start_errno = spawn(second, fds[0], stdout_fd, &pids[1]);
    close(fds[0]); /* FIRST now gets SIGPIPE if SECOND is gone */
    if (!results[1].start_errno)
        running[1] = pids[1];
    results[0] = wait_for(pids[0]);
    running[0] = 0;
    if (!results[1].start_errno)
        results[1] = wait_for(pids[1]);
    running[1] = 0;
}

/* Reads FD to its end into a malloc'ed string of at most CAPTURE_LIMIT bytes
 * (the rest is read and dropped). Returns NULL when out of memory. */
static char *read_all(int fd)
{
    char *text = malloc(CAPTURE_LIMIT + 1);
    size_t len = 0;
    char scratch[4096];
    for (;;) {
        char *into = text && len < CAPTURE_LIMIT ? text + len : scratch;
        size_t room = text && len < CAPTURE_LIMIT ? CAPTURE_LIMIT - len : sizeof(scratch);
        ssize_t got = read(fd, into, room);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            break;
        if (into != scratch)
            len += (size_t)got;
    }
    if (text)
        text[len] = '\0';
    return text;
}

weft_compile_exit weft__compile_capture(char *const *argv, char **output)
{
    *output = NULL;
    weft_compile_exit result = {0, 0, 0};
    int fds[2];
    result.start_errno = cloexec_pipe(fds);
    if (result.start_errno)
        return result;
    pid_t pid;
    result.start_errno = spawn(argv, -1, fds[1], &pid);
    close(fds[1]);
    if (result.start_errno) {
        close(fds[0]);
        return result;
    }
    running[0] = pid;
    char *text = read_all(fds[0]);
    close(fds[0]);
    result = wait_for(pid);
    running[0] = 0;
    if (!text && !result.start_errno)
        result.start_errno = ENOMEM;
    if (result.start_errno) {
        free(text);
        return result;
    }
    *output = text;
    return result;
}

void weft__compile_print_command(FILE *out, char *const *argv, const char *tail)
{
    for (size_t i = 0; argv[i]; i++)
        fprintf(out, "%s%s", i ? " " : "", argv[i]);
    fprintf(out, "%s\n", tail ? tail : "");
    fflush(out);
}
