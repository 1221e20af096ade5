/* Test program for lifecycle cases, chosen by argv[1]:
 *   early-exit  4 threads record 1000 pairs each and end long before the
 *               program; then the main thread records 10 pairs.
 *   nothing     links weft, records nothing.
 *   exit-code   records 100 pairs, then exits with status 3.
 *   fork        records 5 pairs, forks a child that records 7 pairs and
 *               exits; the parent waits, records 5 more, exits 0.
 *   on-off      3 pairs, weft_user_off, 4 pairs, weft_user_on, 2 pairs,
 *               inside one enclosing region entered before the pause.
 *   exit-inside enters "outer" and "inner", records 2 pairs inside them and
 *               exits without leaving either: the recorder closes both.
 *   filtered    3 pairs of "alpha", 4 of "beta", 5 of "gamma" (the last in
 *               lifecycle_helper.c), for WEFT_FILTERING_FILE.
 *   metrics     the main thread and one more each run 50 times "outer"
 *               around two "inner", doing some work and touching new memory
 *               in each (for WEFT_METRIC_*).
 *   task-undo   a one-thread team and a task through the recorder API,
 *               trying weft_task_switch_undo every way (lifecycle_tasks.c).
 *   pause-nested  two threads, in step through barriers, are two regions
 *               deep when the main thread calls weft_user_off; during the
 *               pause each leaves its inner region and enters another (the
 *               main thread also runs 2 "work" pairs); after weft_user_on
 *               each runs one more pair inside it and leaves everything:
 *               main  a{ b{ |off| }b c{ work work |on| work }c }a
 *               other x{ y{ |off| }y z{ |on| w{}w }z }x */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <weft/user.h>

static void pairs(int count)
{
    for (int i = 0; i < count; i++) {
        WEFT_USER_REGION_BEGIN("work");
        WEFT_USER_REGION_END("work");
    }
}

void lifecycle_gamma(int count);
void lifecycle_task_undo(void);
void lifecycle_late_release(void);

static void *short_lived(void *arg)
{
    (void)arg;
    pairs(1000);
    return NULL;
}

/* Some arithmetic and a fresh page or two, so that the CPU time and the
 * page faults of the thread grow. */
static volatile double sink_value;
static void busy(void)
{
    double x = 1.0;
    for (int i = 0; i < 200000; i++)
        x = x * 1.000001 + 0.5 / (i + 1);
    char *page = malloc(8192);
    if (page) {
        memset(page, (int)x, 8192);
        sink_value += page[100];
        free(page);
    }
    sink_value += x;
}

static void *nested_regions(void *arg)
{
    (void)arg;
    for (int i = 0; i < 50; i++) {
        WEFT_USER_REGION_BEGIN("outer");
        for (int j = 0; j < 2; j++) {
            WEFT_USER_REGION_BEGIN("inner");
            busy();
            WEFT_USER_REGION_END("inner");
        }
        WEFT_USER_REGION_END("outer");
    }
    return NULL;
}

static pthread_barrier_t step;

static void *paused_other(void *arg)
{
    (void)arg;
    WEFT_USER_REGION_BEGIN("x");
    WEFT_USER_REGION_BEGIN("y");
    pthread_barrier_wait(&step); /* 1: both are two deep */
    pthread_barrier_wait(&step); /* 2: recording is off */
    WEFT_USER_REGION_END("y");
    WEFT_USER_REGION_BEGIN("z");
    pthread_barrier_wait(&step); /* 3: before weft_user_on */
    pthread_barrier_wait(&step); /* 4: recording is on */
    WEFT_USER_REGION_BEGIN("w");
    WEFT_USER_REGION_END("w");
    WEFT_USER_REGION_END("z");
    WEFT_USER_REGION_END("x");
    return NULL;
}

static void pause_nested(void)
{
    pthread_barrier_init(&step, NULL, 2);
    pthread_t other;
    pthread_create(&other, NULL, paused_other, NULL);
    WEFT_USER_REGION_BEGIN("a");
    WEFT_USER_REGION_BEGIN("b");
    pthread_barrier_wait(&step); /* 1 */
    weft_user_off();
    pthread_barrier_wait(&step); /* 2 */
    WEFT_USER_REGION_END("b");
    WEFT_USER_REGION_BEGIN("c");
    pairs(2);
    pthread_barrier_wait(&step); /* 3 */
    weft_user_on();
    pthread_barrier_wait(&step); /* 4 */
    pairs(1);
    WEFT_USER_REGION_END("c");
    WEFT_USER_REGION_END("a");
    pthread_join(other, NULL);
    pthread_barrier_destroy(&step);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    if (strcmp(mode, "early-exit") == 0) {
        pthread_t t[4];
        for (int i = 0; i < 4; i++)
            pthread_create(&t[i], NULL, short_lived, NULL);
        for (int i = 0; i < 4; i++)
            pthread_join(t[i], NULL);
        nanosleep(&(struct timespec){0, 20000000}, NULL);
        pairs(10);
        return 0;
    }
    if (strcmp(mode, "nothing") == 0) {
        printf("no events\n");
        return 0;
    }
    if (strcmp(mode, "exit-code") == 0) {
        pairs(100);
        printf("done\n");
        return 3;
    }
    if (strcmp(mode, "fork") == 0) {
        pairs(5);
        pid_t child = fork();
        if (child == 0) {
            pairs(7);
            exit(0);
        }
        int status = 0;
        waitpid(child, &status, 0);
        pairs(5);
        return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
    }
    if (strcmp(mode, "on-off") == 0) {
        WEFT_USER_REGION_BEGIN("outer");
        pairs(3);
        weft_user_off();
        pairs(4);
        weft_user_on();
        pairs(2);
        WEFT_USER_REGION_END("outer");
        return 0;
    }
    if (strcmp(mode, "filtered") == 0) {
        for (int i = 0; i < 3; i++) {
            WEFT_USER_REGION_BEGIN("alpha");
            WEFT_USER_REGION_END("alpha");
        }
        for (int i = 0; i < 4; i++) {
            WEFT_USER_REGION_BEGIN("beta");
            WEFT_USER_REGION_END("beta");
        }
        lifecycle_gamma(5);
        return 0;
    }
    if (strcmp(mode, "metrics") == 0) {
        pthread_t other;
        pthread_create(&other, NULL, nested_regions, NULL);
        nested_regions(NULL);
        pthread_join(other, NULL);
        return 0;
    }
    if (strcmp(mode, "pause-nested") == 0) {
        pause_nested();
        return 0;
    }
    if (strcmp(mode, "task-undo") == 0) {
        lifecycle_task_undo();
        return 0;
    }
    if (strcmp(mode, "late-release") == 0) {
        lifecycle_late_release();
        return 0;
    }
    if (strcmp(mode, "exit-inside") == 0) {
        WEFT_USER_REGION_BEGIN("outer");
        WEFT_USER_REGION_BEGIN("inner");
        pairs(2);
        return 0;
    }
    fprintf(stderr, "unknown mode '%s'\n", mode);
    return 2;
}
/* SPDX-License-Identifier: BSD-3-Clause */
