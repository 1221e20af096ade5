/* Test program for the ways a traced program ends badly (docs/FAULTS.md),
 * chosen by argv[1]:
 *
 *   block THREADS SEED     THREADS threads (the main one among them) each
 *                          enter "outer" and record a number of "work"
 *                          pairs drawn from SEED inside it, print the counts
 *                          ("counts N0 N1 ...") and "ready", and wait there
 *                          for a signal from outside.
 *   crash HOW THREADS SEED the same, then a worker thread (the last) ends
 *                          the program: HOW is abort, segv, fpe, ill, bus,
 *                          raise-term, kill-int or assert.
 *   churn ROUNDS THREADS SEED NOFILE
 *                          lowers its file limit to NOFILE, then ROUNDS
 *                          times starts THREADS threads that each record a
 *                          number of "work" pairs drawn from SEED inside
 *                          "outer" and end (their locations are reused;
 *                          every second thread ends inside "outer");
 *                          then THREADS more do the same but wait inside
 *                          "outer", as does the main thread after its own
 *                          pairs; prints the counts of every thread
 *                          ("counts N ...", the main thread's first) and
 *                          "ready", and waits for a signal from outside.
 *   loop THREADS           THREADS threads record pairs of "a" and "b"
 *                          (alternating) without end; "ready" once all
 *                          run. For a kill from outside at any moment.
 *   errno [missing]        errno set before the first event must be what
 *                          the program sees after every call (exit 5 when
 *                          not, naming the call).
 *   late                   an atexit handler registered before the first
 *                          event records "in_atexit", a destructor
 *                          "in_destructor"; main records 2 "work" pairs.
 *   exit-thread            the master forks a team of 2 (recorder API),
 *                          both enter "parallel"; the worker records a pair
 *                          and calls exit(0) while the master waits inside.
 *   fork-exit              5 pairs inside "outer", fork; the child records 7
 *                          pairs, leaves "outer" (entered by its parent)
 *                          and exits 0; the parent waits, records 5 pairs,
 *                          leaves "outer".
 *   fork-exec DIR          3 pairs, fork; the child execs this program as
 *                          "pairs 4" with the trace in DIR; the parent
 *                          waits and records 3 pairs.
 *   pairs N                N pairs, exit 0.
 *   pthread-exit N         N pairs; a thread that records N more after
 *                          50 ms; the main thread ends with pthread_exit.
 *   pthread-exit-quiet N   the same, but the main thread records nothing.
 *   chdir-late N DIR       N pairs, makes DIR and moves into it, N pairs.
 *   closed-stderr N        closes descriptor 2, N pairs, prints to stderr
 *                          ("fprintf=R" on stdout: -1 without a stderr),
 *                          N pairs.
 *   quick-exit N           N pairs, quick_exit(3). */
#define _GNU_SOURCE
#undef NDEBUG /* the "assert" crash needs assert(), whatever the build type */
#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "weft/recorder.h"

static weft_region outer, work, region_a, region_b;

static weft_region define(const char *name)
{
    weft_region r;
    weft_region_desc d = {.name = name,
                          .file = __FILE__,
                          .begin_line = 1,
                          .role = WEFT_REGION_ROLE_FUNCTION,
                          .paradigm = WEFT_PARADIGM_USER};
    weft_registry_region(weft_defs_global(), &d, &r);
    return r;
}

static void pairs(weft_region r, long count)
{
    for (long i = 0; i < count; i++) {
        weft_enter(r);
        weft_leave(r);
    }
}

/* ---- block and crash ------------------------------------------------------ */

#define MAX_THREADS 16
static int thread_count;
static long counts[MAX_THREADS];
static pthread_barrier_t recorded, printed;
static const char *crash_how;

static void crash(const char *how)
{
    if (strcmp(how, "abort") == 0)
        abort();
    if (strcmp(how, "segv") == 0) {
        volatile int *volatile nowhere = NULL;
        *nowhere = 1;
    }
    if (strcmp(how, "fpe") == 0) {
        volatile int zero = 0, seven = 7; /* 1 / x is compiled without a division */
        volatile int x = seven / zero;
        (void)x;
    }
    if (strcmp(how, "ill") == 0)
        __builtin_trap();
    if (strcmp(how, "bus") == 0) {
        /* A page of a file that is shorter than the mapping. */
        FILE *f = tmpfile();
        char *p = f ? mmap(NULL, 8192, PROT_READ, MAP_PRIVATE, fileno(f), 0) : MAP_FAILED;
        if (p != MAP_FAILED)
            printf("%d\n", p[4096]);
    }
    if (strcmp(how, "raise-term") == 0)
        raise(SIGTERM);
    if (strcmp(how, "kill-int") == 0) {
        kill(getpid(), SIGINT); /* any thread may take it: wait for it here */
        for (int i = 0; i < 1000; i++)
            usleep(10000);
    }
    if (strcmp(how, "assert") == 0)
        assert(how == NULL);
    fprintf(stderr, "still alive after '%s'\n", how);
    exit(9);
}

static void *blocked_thread(void *arg)
{
    long t = (long)arg;
    weft_enter(outer);
    pairs(work, counts[t]);
    pthread_barrier_wait(&recorded);
    pthread_barrier_wait(&printed);
    if (crash_how && t == thread_count - 1)
        crash(crash_how);
    for (;;)
        pause();
    return NULL;
}

static _Noreturn void block(int threads, unsigned seed, const char *how)
{
    thread_count = threads < 1 ? 1 : threads > MAX_THREADS ? MAX_THREADS : threads;
    srand(seed);
    for (int t = 0; t < thread_count; t++)
        counts[t] = 1 + rand() % 5000;
    crash_how = how;
    pthread_barrier_init(&recorded, NULL, (unsigned)thread_count);
    pthread_barrier_init(&printed, NULL, (unsigned)thread_count);
    for (long t = 1; t < thread_count; t++) {
        pthread_t tid;
        pthread_create(&tid, NULL, blocked_thread, (void *)t);
    }
    weft_enter(outer);
    pairs(work, counts[0]);
    pthread_barrier_wait(&recorded);
    printf("counts");
    for (int t = 0; t < thread_count; t++)
        printf(" %ld", counts[t]);
    printf("\nready\n");
    fflush(stdout);
    pthread_barrier_wait(&printed);
    for (;;)
        pause();
}

/* ---- churn ---------------------------------------------------------------- */

#define MAX_CHURN 256
static long churn_counts[MAX_CHURN];
static pthread_barrier_t churn_recorded;

static void *churn_thread(void *arg)
{
    long t = (long)arg;
    weft_enter(outer);
    pairs(work, churn_counts[t]);
    if (t % 2 == 0)
        weft_leave(outer); /* the others end inside it: closed at their last event */
    return NULL;
}

static void *last_round_thread(void *arg)
{
    weft_enter(outer);
    pairs(work, churn_counts[(long)arg]);
    pthread_barrier_wait(&churn_recorded);
    for (;;)
        pause();
    return NULL;
}

static _Noreturn void churn(int rounds, int threads, unsigned seed, long nofile)
{
    struct rlimit limit;
    getrlimit(RLIMIT_NOFILE, &limit);
    limit.rlim_cur = (rlim_t)nofile;
    setrlimit(RLIMIT_NOFILE, &limit);
    int total = 1 + (rounds + 1) * threads;
    if (total > MAX_CHURN)
        exit(2);
    srand(seed);
    for (int t = 0; t < total; t++)
        churn_counts[t] = 20000 + rand() % 60000;
    weft_enter(outer);
    pairs(work, churn_counts[0]);
    pthread_t tid[MAX_CHURN];
    long next = 1;
    for (int r = 0; r < rounds; r++) {
        for (int i = 0; i < threads; i++, next++)
            pthread_create(&tid[i], NULL, churn_thread, (void *)next);
        for (int i = 0; i < threads; i++)
            pthread_join(tid[i], NULL);
    }
    pthread_barrier_init(&churn_recorded, NULL, (unsigned)threads + 1);
    for (int i = 0; i < threads; i++, next++)
        pthread_create(&tid[i], NULL, last_round_thread, (void *)next);
    pthread_barrier_wait(&churn_recorded);
    printf("counts");
    for (int t = 0; t < total; t++)
        printf(" %ld", churn_counts[t]);
    printf("\nready\n");
    fflush(stdout);
    for (;;)
        pause();
}

/* ---- loop ----------------------------------------------------------------- */

static pthread_barrier_t started;

static void *looping_thread(void *arg)
{
    (void)arg;
    pthread_barrier_wait(&started);
    for (;;) {
        pairs(region_a, 1);
        pairs(region_b, 1);
    }
    return NULL;
}

static int loop(int threads)
{
    threads = threads < 1 ? 1 : threads > MAX_THREADS ? MAX_THREADS : threads;
    pthread_barrier_init(&started, NULL, (unsigned)threads);
    for (int t = 1; t < threads; t++) {
        pthread_t tid;
        pthread_create(&tid, NULL, looping_thread, NULL);
    }
    printf("ready\n");
    fflush(stdout);
    looping_thread(NULL);
    return 0;
}

/* ---- errno ---------------------------------------------------------------- */

static int check_errno(const char *after)
{
    if (errno == EDOM)
        return 0;
    printf("errno is %d (%s) after %s\n", errno, strerror(errno), after);
    return 5;
}

static int keeps_errno(void)
{
    errno = EDOM;
    weft_region r = define("errno_region");
    int bad = check_errno("weft_registry_region");
    weft_enter(r); /* the first event: recording starts */
    bad = bad ? bad : check_errno("the first weft_enter");
    weft_leave(r);
    bad = bad ? bad : check_errno("weft_leave");
    weft_recording_set(false);
    bad = bad ? bad : check_errno("weft_recording_set(false)");
    weft_recording_set(true);
    bad = bad ? bad : check_errno("weft_recording_set(true)");
    weft_flush_thread();
    bad = bad ? bad : check_errno("weft_flush_thread");
    (void)weft_region_filtered("x", "y.c");
    bad = bad ? bad : check_errno("weft_region_filtered");
    pairs(r, 3);
    bad = bad ? bad : check_errno("three more pairs");
    return bad;
}

/* ---- atexit and destructors ------------------------------------------------- */

static void in_atexit(void)
{
    weft_region r = define("in_atexit");
    weft_enter(r);
    weft_leave(r);
}

static bool late_mode;

__attribute__((destructor)) static void in_destructor(void)
{
    if (!late_mode)
        return;
    weft_region r = define("in_destructor");
    weft_enter(r);
    weft_leave(r);
}

/* ---- exit() from a thread inside a parallel region -------------------------- */

static weft_comm team;
static weft_region parallel;
static pthread_barrier_t inside;

static void *team_worker(void *arg)
{
    (void)arg;
    weft_thread_team_begin(team, 1);
    weft_enter(parallel);
    pairs(work, 1);
    pthread_barrier_wait(&inside);
    exit(0);
}

/* Defines the two-thread team (KEY), enters outer, forks and starts WORKER. */
static void fork_team(uint64_t key, void *(*worker)(void *))
{
    weft_comm_desc desc = {
        .paradigm = WEFT_PARADIGM_OPENMP, .parent = WEFT_COMM_INVALID, .key = key};
    weft_registry_comm(weft_defs_global(), &desc, &team);
    weft_enter(outer);
    weft_thread_fork(WEFT_PARADIGM_OPENMP, 2);
    pthread_t tid;
    pthread_create(&tid, NULL, worker, NULL);
}

static _Noreturn void exit_from_thread(void)
{
    parallel = define("parallel");
    pthread_barrier_init(&inside, NULL, 2);
    fork_team(1, team_worker);
    weft_thread_team_begin(team, 0);
    weft_enter(parallel);
    pthread_barrier_wait(&inside);
    for (;;)
        pause();
}

/* ---- exit() between the master's and a worker's begin of a team's run ----- */

/* The master begins the team's second run and calls exit() before the
 * worker, done with the first, begins it: the sink gives the worker that
 * run at the end, with the one barrier the master is in, so that both
 * threads have two runs and the same barriers (Scalasca's analyzer meets
 * its threads at each). */
static weft_region barrier;

/* The parallel region and its implicit barrier, as the adapters name them. */
static void define_team_regions(void)
{
    parallel = define("!$omp parallel @faults.c:1");
    weft_region_desc d = {.name = "!$omp implicit barrier @faults.c:2",
                          .file = __FILE__,
                          .begin_line = 2,
                          .role = WEFT_REGION_ROLE_IMPLICIT_BARRIER,
                          .paradigm = WEFT_PARADIGM_OPENMP};
    weft_registry_region(weft_defs_global(), &d, &barrier);
}

static void one_run_part(int thread)
{
    weft_thread_team_begin(team, (uint32_t)thread);
    weft_enter(parallel);
    pairs(work, 1);
    weft_enter(barrier);
    weft_leave(barrier);
    weft_leave(parallel);
    weft_thread_team_end(team);
}

/* The master's begin of a team run, up to entering the run's barrier. */
static void enter_run_barrier(int thread)
{
    weft_thread_team_begin(team, (uint32_t)thread);
    weft_enter(parallel);
    weft_enter(barrier);
}

/* The three scenarios below: the team (KEY) with WORKER runs once on the
 * master, which then waits at run_sync for the worker, joins and forks the
 * second run. */
static pthread_barrier_t run_sync;

static void fork_second_run(uint64_t key, void *(*worker)(void *))
{
    define_team_regions();
    pthread_barrier_init(&run_sync, NULL, 2);
    fork_team(key, worker);
    one_run_part(0);
    pthread_barrier_wait(&run_sync);
    weft_thread_join(WEFT_PARADIGM_OPENMP);
    weft_thread_fork(WEFT_PARADIGM_OPENMP, 2);
}

static void *slow_worker(void *arg)
{
    (void)arg;
    one_run_part(1);
    pthread_barrier_wait(&run_sync);
    while (pause() != 0) /* never begins the second run */
        ;
    return NULL;
}

static _Noreturn void exit_between_team_begins(void)
{
    fork_second_run(2, slow_worker);
    enter_run_barrier(0);
    exit(0);
}

/* ---- exit() while a worker is still in the run before ---------------------- */

/* The worker has entered the first run's barrier and not left it (libomp
 * reports a worker's end of a run only when it wakes for the next) when the
 * master, past it, begins the second run, enters its barrier and calls
 * exit(): at the end the worker's first run is closed with its barrier, and
 * then the worker gets the second run with the master's one barrier. */
static void *lagging_worker(void *arg)
{
    (void)arg;
    weft_thread_team_begin(team, 1);
    weft_enter(parallel);
    pairs(work, 1);
    weft_enter(barrier);
    pthread_barrier_wait(&run_sync);
    while (pause() != 0) /* never leaves the first run */
        ;
    return NULL;
}

static _Noreturn void exit_in_next_run(void)
{
    fork_second_run(3, lagging_worker);
    enter_run_barrier(0);
    exit(0);
}

/* ---- exit() after a worker, not yet the master, began the next run ------- */

/* The master forks the team's second run; the worker begins it and enters
 * its barrier before the master has recorded its own begin, and the master
 * calls exit(): at the end the master gets that run inside its fork, with
 * the worker's barrier. */
static void *eager_worker(void *arg)
{
    (void)arg;
    one_run_part(1);
    pthread_barrier_wait(&run_sync); /* the first run is over on both */
    pthread_barrier_wait(&run_sync); /* the master forked the second */
    enter_run_barrier(1);
    pthread_barrier_wait(&run_sync);
    while (pause() != 0)
        ;
    return NULL;
}

static _Noreturn void exit_before_master_begins(void)
{
    fork_second_run(4, eager_worker);
    pthread_barrier_wait(&run_sync);
    pthread_barrier_wait(&run_sync);
    exit(0);
}

/* ---- fork ----------------------------------------------------------------- */

static int fork_exit(void)
{
    weft_enter(outer);
    pairs(work, 5);
    pid_t child = fork();
    if (child == 0) {
        pairs(work, 7);
        weft_leave(outer);
        exit(0);
    }
    int status = 0;
    waitpid(child, &status, 0);
    pairs(work, 5);
    weft_leave(outer);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

static int fork_exec(const char *self, const char *dir)
{
    pairs(work, 3);
    pid_t child = fork();
    if (child == 0) {
        char var[4200];
        snprintf(var, sizeof(var), "WEFT_EXPERIMENT_DIRECTORY=%s", dir);
        putenv(var);
        execl(self, self, "pairs", "4", (char *)NULL);
        _exit(127);
    }
    int status = 0;
    waitpid(child, &status, 0);
    pairs(work, 3);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

static void *late_pairs(void *arg)
{
    usleep(50 * 1000);
    pairs(work, (long)arg);
    return NULL;
}

static void pthread_exit_main(long n, bool quiet)
{
    if (!quiet)
        pairs(work, n);
    pthread_t thread;
    if (pthread_create(&thread, NULL, late_pairs, (void *)n) != 0)
        exit(3);
    pthread_exit(NULL);
}

static int chdir_late(long n, const char *dir)
{
    pairs(work, n);
    if (mkdir(dir, 0755) != 0 || chdir(dir) != 0)
        return 4;
    pairs(work, n);
    return 0;
}

static int closed_stderr(long n)
{
    close(2);
    pairs(work, n);
    int written = fprintf(stderr, "a message to a closed stderr\n");
    fflush(stderr);
    pairs(work, n);
    printf("fprintf=%d\n", written);
    return 0;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    if (strcmp(mode, "errno") == 0)
        return keeps_errno(); /* before anything else touches weft */
    if (strcmp(mode, "late") == 0) {
        late_mode = true;
        atexit(in_atexit); /* before the first event: it runs after weft's own at-exit work */
    }
    outer = define("outer");
    work = define("work");
    region_a = define("a");
    region_b = define("b");
    if (strcmp(mode, "block") == 0 && argc == 4)
        block(atoi(argv[2]), (unsigned)strtoul(argv[3], NULL, 10), NULL);
    if (strcmp(mode, "crash") == 0 && argc == 5)
        block(atoi(argv[3]), (unsigned)strtoul(argv[4], NULL, 10), argv[2]);
    if (strcmp(mode, "loop") == 0 && argc == 3)
        return loop(atoi(argv[2]));
    if (strcmp(mode, "churn") == 0 && argc == 6)
        churn(atoi(argv[2]), atoi(argv[3]), (unsigned)strtoul(argv[4], NULL, 10),
              atol(argv[5]));
    if (strcmp(mode, "late") == 0) {
        pairs(work, 2);
        return 0;
    }
    if (strcmp(mode, "exit-thread") == 0)
        exit_from_thread();
    if (strcmp(mode, "exit-between-team-begins") == 0)
        exit_between_team_begins();
    if (strcmp(mode, "exit-in-next-run") == 0)
        exit_in_next_run();
    if (strcmp(mode, "exit-before-master-begins") == 0)
        exit_before_master_begins();
    if (strcmp(mode, "fork-exit") == 0)
        return fork_exit();
    if (strcmp(mode, "fork-exec") == 0 && argc == 3)
        return fork_exec(argv[0], argv[2]);
    if (strcmp(mode, "pairs") == 0 && argc == 3) {
        pairs(work, atol(argv[2]));
        return 0;
    }
    if (strcmp(mode, "pthread-exit") == 0 && argc == 3)
        pthread_exit_main(atol(argv[2]), false);
    if (strcmp(mode, "pthread-exit-quiet") == 0 && argc == 3)
        pthread_exit_main(atol(argv[2]), true);
    if (strcmp(mode, "chdir-late") == 0 && argc == 4)
        return chdir_late(atol(argv[2]), argv[3]);
    if (strcmp(mode, "closed-stderr") == 0 && argc == 3)
        return closed_stderr(atol(argv[2]));
    if (strcmp(mode, "quick-exit") == 0 && argc == 3) {
        pairs(work, atol(argv[2]));
        quick_exit(3);
    }
    fprintf(stderr, "usage: %s MODE ... (see the top of faults.c)\n", argv[0]);
    return 2;
}
/* SPDX-License-Identifier: BSD-3-Clause */
