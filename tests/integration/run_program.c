/* See run_program.h. fork + exec, so the test's own environment is left
 * alone; stderr goes to a file that is read back afterwards. */
#define _GNU_SOURCE
#include "run_program.h"

#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

void scratch_dir_create(char *path, size_t len)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(path, len, "%s/weft-test-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(path)) {
        perror("mkdtemp");
        abort();
    }
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

void scratch_dir_remove(const char *path)
{
    nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

int start_program(const char *const *argv, const char *const *env, const char *cwd)
{
    char err_path[4200], out_path[4200];
    snprintf(err_path, sizeof(err_path), "%s/.stderr", cwd);
    snprintf(out_path, sizeof(out_path), "%s/.stdout", cwd);
    /* A previous run's output must not be taken for this one's before the
     * child has truncated it (wait_for_output). */
    remove(out_path);
    pid_t pid = fork();
    if (pid == 0) {
        for (const char *const *e = env; e && *e; e++)
            putenv((char *)*e);
        /* Programs that crash on purpose leave no core files behind. */
        struct rlimit no_core = {0, 0};
        setrlimit(RLIMIT_CORE, &no_core);
        int err = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        int out = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (err < 0 || out < 0 || chdir(cwd) != 0)
            _exit(127);
        dup2(err, STDERR_FILENO);
        dup2(out, STDOUT_FILENO);
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    return pid;
}

int wait_for_output(int pid, const char *cwd, const char *word)
{
    char out_path[4200], line[4096];
    snprintf(out_path, sizeof(out_path), "%s/.stdout", cwd);
    for (int tries = 0; tries < 6000; tries++) {
        FILE *f = fopen(out_path, "r");
        while (f && fgets(line, sizeof(line), f)) {
            if (strncmp(line, word, strlen(word)) == 0) {
                fclose(f);
                return 1;
            }
        }
        if (f)
            fclose(f);
        if (waitpid(pid, NULL, WNOHANG) != 0)
            return 0;
        usleep(10000);
    }
    return 0;
}

program_run run_program(const char *const *argv, const char *const *env, const char *cwd)
{
    return wait_program(start_program(argv, env, cwd), cwd);
}

program_run wait_program(int pid, const char *cwd)
{
    program_run run = {.exit_code = -1};
    char err_path[4200];
    snprintf(err_path, sizeof(err_path), "%s/.stderr", cwd);
    int status = 0;
    waitpid(pid, &status, 0);
    if (WIFEXITED(status))
        run.exit_code = WEXITSTATUS(status);
    if (WIFSIGNALED(status))
        run.term_signal = WTERMSIG(status);
    FILE *f = fopen(err_path, "r");
    if (f) {
        size_t n = fread(run.stderr_text, 1, sizeof(run.stderr_text) - 1, f);
        run.stderr_text[n] = '\0';
        fclose(f);
        remove(err_path);
    }
    for (const char *p = run.stderr_text; *p; p++)
        run.stderr_lines += *p == '\n';
    return run;
}

bool stdout_line(const char *cwd, const char *word, char *line, size_t size)
{
    char path[4200];
    snprintf(path, sizeof(path), "%s/.stdout", cwd);
    FILE *f = fopen(path, "r");
    bool found = false;
    size_t len = strlen(word);
    while (f && !found && fgets(line, (int)size, f))
        found = strncmp(line, word, len) == 0;
    if (f)
        fclose(f);
    return found;
}

int count_entries(const char *dir, const char *prefix)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    int count = 0;
    struct dirent *entry;
    while ((entry = readdir(d)) != NULL)
        count += strncmp(entry->d_name, prefix, strlen(prefix)) == 0;
    closedir(d);
    return count;
}
/* SPDX-License-Identifier: BSD-3-Clause */
