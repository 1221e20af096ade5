/* Test program: many threads, for the bounds on weft's memory and file
 * descriptors.
 *
 *   churn THREADS ROUNDS   ROUNDS times: create THREADS threads, then join
 *                          them. Each enters "thread", records one "work"
 *                          pair, and leaves "thread", except every second
 *                          one (by creation order), which ends inside it.
 *   files THREADS PAIRS NOFILE
 *                          lowers its own file limit (RLIMIT_NOFILE) to
 *                          NOFILE, then THREADS threads each record PAIRS
 *                          "work" pairs while the main thread keeps opening
 *                          and closing 8 files, until the threads are done
 *                          and one more second (the writer may still be
 *                          writing their events); exits 1 when one of its
 *                          own open() calls failed.
 *
 * At the very end, after weft's exit handler wrote the trace, prints
 * "peak_rss_kb N" (VmHWM of /proc/self/status), and for files mode the
 * descriptors open before the first event ("base_fds N"), the most it saw
 * open at once while the threads ran ("max_fds N") and its failed opens
 * ("failed_opens N") to stdout. */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <weft/user.h>

static long pairs_per_thread;
static atomic_int finished;
static long failed_opens;
static int base_fds, max_fds;

static void *churn_thread(void *arg)
{
    long index = (long)arg;
    WEFT_USER_REGION_BEGIN("thread");
    WEFT_USER_REGION_BEGIN("work");
    WEFT_USER_REGION_END("work");
    if (index % 2 == 0)
        WEFT_USER_REGION_END("thread");
    return NULL;
}

static void *files_thread(void *arg)
{
    (void)arg;
    for (long i = 0; i < pairs_per_thread; i++) {
        WEFT_USER_REGION_BEGIN("work");
        WEFT_USER_REGION_END("work");
    }
    atomic_fetch_add(&finished, 1);
    return NULL;
}

static int open_fds(void)
{
    DIR *d = opendir("/proc/self/fd");
    if (!d)
        return -1;
    int count = -1; /* the directory's own descriptor */
    while (readdir(d))
        count++;
    closedir(d);
    return count - 2; /* "." and ".." */
}

static void report(void)
{
    char line[256];
    long hwm = -1;
    FILE *f = fopen("/proc/self/status", "r");
    while (f && fgets(line, sizeof(line), f))
        if (strncmp(line, "VmHWM:", 6) == 0)
            hwm = atol(line + 6);
    if (f)
        fclose(f);
    printf("peak_rss_kb %ld\nbase_fds %d\nmax_fds %d\nfailed_opens %ld\n", hwm, base_fds,
           max_fds, failed_opens);
    fflush(stdout);
}

static pthread_t start(void *(*fn)(void *), long arg)
{
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 256 * 1024);
    pthread_t t;
    if (pthread_create(&t, &attr, fn, (void *)arg) != 0) {
        perror("pthread_create");
        exit(2);
    }
    pthread_attr_destroy(&attr);
    return t;
}

static int churn(int threads, int rounds)
{
    pthread_t *t = calloc((size_t)threads, sizeof(*t));
    for (int r = 0; r < rounds; r++) {
        for (int i = 0; i < threads; i++)
            t[i] = start(churn_thread, i);
        for (int i = 0; i < threads; i++)
            pthread_join(t[i], NULL);
    }
    free(t);
    return 0;
}

static int files(int threads, long pairs, long nofile)
{
    struct rlimit limit;
    getrlimit(RLIMIT_NOFILE, &limit);
    limit.rlim_cur = (rlim_t)nofile;
    if (setrlimit(RLIMIT_NOFILE, &limit) != 0) {
        perror("setrlimit");
        return 2;
    }
    pairs_per_thread = pairs;
    base_fds = open_fds();
    pthread_t *t = calloc((size_t)threads, sizeof(*t));
    for (int i = 0; i < threads; i++)
        t[i] = start(files_thread, i);
    struct timespec done = {0, 0}, now;
    for (;;) {
        clock_gettime(CLOCK_MONOTONIC, &now);
        if (done.tv_sec == 0 && atomic_load(&finished) == threads)
            done = now;
        if (done.tv_sec != 0 && now.tv_sec - done.tv_sec >= 1 && now.tv_nsec >= done.tv_nsec)
            break;
        int fd[8];
        for (int k = 0; k < 8; k++)
            if ((fd[k] = open("/dev/null", O_RDONLY)) < 0)
                failed_opens++;
        int fds = open_fds();
        max_fds = fds > max_fds ? fds : max_fds;
        for (int k = 0; k < 8; k++)
            if (fd[k] >= 0)
                close(fd[k]);
        nanosleep(&(struct timespec){0, 200000}, NULL);
    }
    for (int i = 0; i < threads; i++)
        pthread_join(t[i], NULL);
    free(t);
    return failed_opens ? 1 : 0;
}

int main(int argc, char **argv)
{
    /* Registered before weft's own handler (its first event comes later),
     * so it runs after the trace is written. */
    atexit(report);
    if (argc == 4 && strcmp(argv[1], "churn") == 0)
        return churn(atoi(argv[2]), atoi(argv[3]));
    if (argc == 5 && strcmp(argv[1], "files") == 0)
        return files(atoi(argv[2]), atol(argv[3]), atol(argv[4]));
    fprintf(stderr, "usage: %s churn THREADS ROUNDS | files THREADS PAIRS NOFILE\n", argv[0]);
    return 2;
}
/* SPDX-License-Identifier: BSD-3-Clause */
