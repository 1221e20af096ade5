/* Programs that end badly keep their trace (docs/FAULTS.md): terminating
 * signals from outside and from the program itself, kill -9 and `weft
 * recover`, exit() from a thread inside a parallel region, regions of exit
 * handlers and destructors, fork() without exec, errno. The program is
 * faults.c; argv[1] selects one test (cmocka's filter), so each runs as its
 * own CTest. Random choices (counts, signals, delays) come from a seed
 * printed with every failure. */
#define _GNU_SOURCE
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "named_test.h"

#include "otf2_trace.h"
#include "recorder_fixture.h"
#include "run_program.h"

static unsigned seed;

static unsigned random_below(unsigned n)
{
    return (unsigned)rand_r(&seed) % n;
}

static void pick_seed(void)
{
    const char *given = getenv("WEFT_TEST_SEED");
    seed = given ? (unsigned)strtoul(given, NULL, 10) : (unsigned)time(NULL) ^ (unsigned)getpid();
    print_message("seed %u (WEFT_TEST_SEED=%u repeats this test)\n", seed, seed);
}

static const char *dir_var(void)
{
    static char var[4400];
    snprintf(var, sizeof(var), "WEFT_EXPERIMENT_DIRECTORY=%s", trace_dir);
    return var;
}

/* The counts line faults.c prints: how many pairs each thread recorded. */
static int read_counts(long *counts, int max)
{
    char line[4096];
    int n = 0;
    if (!stdout_line(scratch, "counts", line, sizeof(line)))
        return 0;
    char *p = line + 6;
    char *end;
    while (n < max && (counts[n] = strtol(p, &end, 10), end != p)) {
        n++;
        p = end;
    }
    return n;
}

static uint64_t enters(const trace_model *t, const trace_location_stats *loc, const char *name)
{
    const trace_region *r = trace_region_by_name(t, name);
    return r ? trace_enter_count(loc, r->id) : 0;
}

static uint64_t leaves(const trace_model *t, const trace_location_stats *loc, const char *name)
{
    const trace_region *r = trace_region_by_name(t, name);
    return r ? trace_leave_count(loc, r->id) : 0;
}

static int compare_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

/* The trace of a `block` or `crash` run ended by SIGNO: every location has
 * exactly its pairs inside "outer", which was closed at the signal; the
 * master's ProgramEnd says 128 + SIGNO; every location says which signal. */
static void check_blocked_trace(int signo, int threads)
{
    long counts[16];
    int n = read_counts(counts, 16);
    assert_int_equal(n, threads);
    trace_model *t = load_trace(trace_dir, true);
    check_sound(t);
    assert_int_equal(t->location_count, (size_t)threads);
    /* Workers are numbered in the order of their first events: their
     * counts are compared as sorted lists. */
    long expected[16], found[16];
    for (int i = 0; i < threads; i++) {
        expected[i] = counts[i];
        found[i] = (long)enters(t, trace_location_by_id(t, (uint64_t)i << 32), "work");
    }
    qsort(expected + 1, (size_t)threads - 1, sizeof(long), compare_long);
    qsort(found + 1, (size_t)threads - 1, sizeof(long), compare_long);
    assert_memory_equal(expected, found, (size_t)threads * sizeof(long));
    for (int i = 0; i < threads; i++) {
        const trace_location_stats *loc = trace_location_by_id(t, (uint64_t)i << 32);
        assert_non_null(loc);
        long pairs_here = (long)enters(t, loc, "work");
        assert_int_equal(leaves(t, loc, "work"), pairs_here);
        assert_int_equal(enters(t, loc, "outer"), 1);
        assert_int_equal(leaves(t, loc, "outer"), 1);
        uint64_t program = i == 0 ? 2 : 0;
        assert_int_equal(loc->event_count, 2 * (uint64_t)pairs_here + 2 + program);
        assert_int_equal(property(t, loc->id, "weft::ended_by_signal"), (uint64_t)signo);
        if (i == 0) {
            const trace_event *last = &loc->events[loc->event_list_len - 1];
            assert_int_equal(last->kind, TRACE_EVENT_PROGRAM_END);
            assert_int_equal(last->exit_status, 128 + signo);
        }
    }
    trace_free(t);
}

/* One line from weft saying which signal ended the program and where the
 * trace is. */
static void check_signal_line(const program_run *run, int signo)
{
    char expected[64];
    snprintf(expected, sizeof(expected), "weft: the program was ended by signal %d (", signo);
    if (!strstr(run->stderr_text, expected))
        fail_msg("no line '%s...' on stderr: %s", expected, run->stderr_text);
}

/* A signal from outside, while every thread waits inside "outer". */
static void signal_from_outside(int signo)
{
    pick_seed();
    int threads = 1 + (int)random_below(4);
    char threads_arg[16], seed_arg[16];
    snprintf(threads_arg, sizeof(threads_arg), "%d", threads);
    snprintf(seed_arg, sizeof(seed_arg), "%u", seed);
    const char *argv[] = {FAULTS_PROGRAM, "block", threads_arg, seed_arg, NULL};
    const char *env[] = {dir_var(), NULL};
    int pid = start_program(argv, env, scratch);
    assert_true(wait_for_output(pid, scratch, "ready"));
    kill(pid, signo);
    program_run run = wait_program(pid, scratch);
    assert_int_equal(run.term_signal, signo); /* the status is the one without weft */
    check_signal_line(&run, signo);
    assert_int_equal(run.stderr_lines, 1);
    check_blocked_trace(signo, threads);
}

static void test_sigterm(void **state)
{
    (void)state;
    signal_from_outside(SIGTERM);
}

static void test_sigint(void **state)
{
    (void)state;
    signal_from_outside(SIGINT);
}

static void test_sighup(void **state)
{
    (void)state;
    signal_from_outside(SIGHUP);
}

static void test_sigquit(void **state)
{
    (void)state;
    signal_from_outside(SIGQUIT);
}

/* The rest of the default list (docs/FAULTS.md), from outside. */
static void test_other_default_signals(void **state)
{
    (void)state;
    static const int others[] = {SIGTRAP, SIGUSR1, SIGUSR2, SIGPIPE, SIGALRM,
                                 SIGXCPU, SIGXFSZ, SIGSYS};
    for (size_t i = 0; i < sizeof(others) / sizeof(others[0]); i++) {
        signal_from_outside(others[i]);
        scratch_dir_remove(trace_dir);
    }
}

/* The program ends itself on a worker thread. */
static void crash(const char *how, int signo)
{
    pick_seed();
    int threads = 2 + (int)random_below(3);
    char threads_arg[16], seed_arg[16];
    snprintf(threads_arg, sizeof(threads_arg), "%d", threads);
    snprintf(seed_arg, sizeof(seed_arg), "%u", seed);
    const char *argv[] = {FAULTS_PROGRAM, "crash", how, threads_arg, seed_arg, NULL};
    const char *env[] = {dir_var(), NULL};
    program_run run = run_in_scratch(argv, env);
    assert_int_equal(run.term_signal, signo);
    check_signal_line(&run, signo);
    check_blocked_trace(signo, threads);
}

static void test_abort(void **state)
{
    (void)state;
    crash("abort", SIGABRT);
}

static void test_failed_assert(void **state)
{
    (void)state;
    crash("assert", SIGABRT);
}

static void test_sigsegv(void **state)
{
    (void)state;
    crash("segv", SIGSEGV);
}

static void test_sigfpe(void **state)
{
    (void)state;
    crash("fpe", SIGFPE);
}

static void test_sigill(void **state)
{
    (void)state;
    crash("ill", SIGILL);
}

static void test_sigbus(void **state)
{
    (void)state;
    crash("bus", SIGBUS);
}

static void test_raise_and_kill(void **state)
{
    (void)state;
    crash("raise-term", SIGTERM);
    scratch_dir_remove(trace_dir);
    crash("kill-int", SIGINT);
}

/* WEFT_SIGNALS=none: the signal ends the program as before, no trace. */
static void test_signals_none(void **state)
{
    (void)state;
    const char *argv[] = {FAULTS_PROGRAM, "crash", "abort", "2", "1", NULL};
    const char *env[] = {dir_var(), "WEFT_SIGNALS=none", NULL};
    program_run run = run_in_scratch(argv, env);
    assert_int_equal(run.term_signal, SIGABRT);
    assert_int_equal(run.stderr_lines, 0);
    struct stat st;
    char anchor[4400];
    snprintf(anchor, sizeof(anchor), "%s/traces.otf2", trace_dir);
    assert_int_not_equal(stat(anchor, &st), 0);
}

/* Each location of a `loop` run alternates pairs of "a" and "b": whatever
 * part of it a trace holds must be such a beginning, cut after a pair or
 * inside one (the open region closed at the end). Returns the events. */
static uint64_t check_loop_location(const trace_model *t, const trace_location_stats *loc)
{
    uint64_t a = enters(t, loc, "a"), b = enters(t, loc, "b");
    if (a != b && a != b + 1)
        fail_msg("location %s: %llu a and %llu b do not alternate", loc->name,
                 (unsigned long long)a, (unsigned long long)b);
    assert_int_equal(leaves(t, loc, "a"), a);
    assert_int_equal(leaves(t, loc, "b"), b);
    uint64_t program = loc->id == 0 && loc->event_count ? 2 : 0;
    /* Besides the pairs only the waits for the writer. */
    uint64_t waits = loc->kind_counts[TRACE_EVENT_BUFFER_FLUSH];
    assert_int_equal(loc->event_count, 2 * (a + b) + program + waits);
    return loc->event_count;
}

static program_run run_loop_and_signal(int signo, int threads, const char *buffer)
{
    char threads_arg[16], buffer_var[64];
    snprintf(threads_arg, sizeof(threads_arg), "%d", threads);
    snprintf(buffer_var, sizeof(buffer_var), "WEFT_BUFFER_SIZE=%s", buffer);
    const char *argv[] = {FAULTS_PROGRAM, "loop", threads_arg, NULL};
    const char *env[] = {dir_var(), buffer_var, NULL};
    int pid = start_program(argv, env, scratch);
    assert_true(wait_for_output(pid, scratch, "ready"));
    usleep(100000 + 1000 * random_below(600));
    kill(pid, signo);
    return wait_program(pid, scratch);
}

/* A signal at a random moment of threads that never stop recording. */
static void test_signal_at_random_point(void **state)
{
    (void)state;
    pick_seed();
    static const int signals[] = {SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGUSR1, SIGALRM};
    int signo = signals[random_below(sizeof(signals) / sizeof(signals[0]))];
    int threads = 1 + (int)random_below(4);
    print_message("signal %d, %d threads\n", signo, threads);
    program_run run = run_loop_and_signal(signo, threads, "1M");
    assert_int_equal(run.term_signal, signo);
    check_signal_line(&run, signo);
    trace_model *t = load(trace_dir);
    check_sound(t);
    uint64_t events = 0;
    for (size_t i = 0; i < t->location_count; i++)
        events += check_loop_location(t, &t->locations[i]);
    assert_true(events > 1000);
    trace_free(t);
}

/* A signal after threads came and went under a low file limit: ended
 * threads' locations were reused (a location holds several threads, some
 * idle when the signal comes) and most locations' events waited in the
 * spill file (the limit lets 4 event files open). The rescue writes them
 * all: every pair every thread recorded is in the trace, each location's
 * events balance and stay in time order (a thread that ended inside
 * "outer" has it closed at its own last event, not at the signal, which
 * closes what the last threads left open). */
static void test_signal_after_churn_and_spill(void **state)
{
    (void)state;
    pick_seed();
    enum { ROUNDS = 3, THREADS = 8, TOTAL = 1 + (ROUNDS + 1) * THREADS };
    char seed_arg[16];
    snprintf(seed_arg, sizeof(seed_arg), "%u", seed);
    const char *argv[] = {FAULTS_PROGRAM, "churn", "3", "8", seed_arg, "24", NULL};
    const char *env[] = {dir_var(), "WEFT_BUFFER_SIZE=1M", "WEFT_VERBOSE=1", NULL};
    int pid = start_program(argv, env, scratch);
    assert_true(wait_for_output(pid, scratch, "ready"));
    kill(pid, SIGTERM);
    program_run run = wait_program(pid, scratch);
    assert_int_equal(run.term_signal, SIGTERM);
    check_signal_line(&run, SIGTERM);
    if (!strstr(run.stderr_text, "the others' events wait in a spill file"))
        fail_msg("the spill file was not used: %s", run.stderr_text);

    long counts[TOTAL];
    assert_int_equal(read_counts(counts, TOTAL), TOTAL);
    uint64_t expected_pairs = 0;
    for (int i = 0; i < TOTAL; i++)
        expected_pairs += (uint64_t)counts[i];
    trace_model *t = load_trace(trace_dir, true);
    check_sound(t);
    uint64_t pairs_found = 0, outers = 0, threads = 0;
    bool reused = false;
    for (size_t i = 0; i < t->location_count; i++) {
        const trace_location_stats *loc = &t->locations[i];
        uint64_t work_pairs = enters(t, loc, "work"), outer = enters(t, loc, "outer");
        assert_int_equal(leaves(t, loc, "work"), work_pairs);
        assert_int_equal(leaves(t, loc, "outer"), outer);
        uint64_t program = loc->id == 0 ? 2 : 0;
        uint64_t waits = loc->kind_counts[TRACE_EVENT_BUFFER_FLUSH];
        assert_int_equal(loc->event_count, 2 * (work_pairs + outer) + program + waits);
        assert_int_equal(property(t, loc->id, "weft::ended_by_signal"), SIGTERM);
        uint64_t n = property(t, loc->id, "weft::threads");
        reused = reused || n > 1;
        threads += n;
        pairs_found += work_pairs;
        outers += outer;
        if (loc->id == 0) {
            const trace_event *last = &loc->events[loc->event_list_len - 1];
            assert_int_equal(last->kind, TRACE_EVENT_PROGRAM_END);
            assert_int_equal(last->exit_status, 128 + SIGTERM);
        }
    }
    assert_true(reused);
    assert_true(t->location_count > 4); /* more than the event files open at once */
    assert_int_equal(threads, TOTAL);
    assert_int_equal(outers, TOTAL);
    assert_int_equal(pairs_found, expected_pairs);
    trace_free(t);
}

/* kill -9 at a random moment: no handler runs. What reached the disk is
 * recoverable: `weft recover` makes a trace of it and says what was lost;
 * weft check finds it consistent but calls it "recovered with losses" (the
 * events the process held when it was killed are lost), not sound. */
static void test_kill9_then_recover(void **state)
{
    (void)state;
    pick_seed();
    int threads = 1 + (int)random_below(4);
    program_run run = run_loop_and_signal(SIGKILL, threads, "256K");
    assert_int_equal(run.term_signal, SIGKILL);
    char anchor[4400], journal[4400];
    snprintf(anchor, sizeof(anchor), "%s/traces.otf2", trace_dir);
    snprintf(journal, sizeof(journal), "%s/journal/0.journal", trace_dir);
    struct stat st;
    assert_int_not_equal(stat(anchor, &st), 0);
    assert_int_equal(stat(journal, &st), 0);

    char command[9000];
    snprintf(command, sizeof(command), "'%s' recover '%s' >'%s/recover.out' 2>&1", WEFT_CLI,
             trace_dir, scratch);
    int rc = system(command);
    char out[8192] = "";
    snprintf(command, sizeof(command), "%s/recover.out", scratch);
    FILE *f = fopen(command, "r");
    if (f) {
        out[fread(out, 1, sizeof(out) - 1, f)] = '\0';
        fclose(f);
    }
    if (rc != 0)
        fail_msg("weft recover failed: %s", out);
    assert_non_null(strstr(out, "weft recover: "));
    assert_non_null(strstr(out, "still recording when it ended"));
    assert_non_null(strstr(out, "recovered with losses"));

    trace_model *t = load_recovered_trace(trace_dir, false);
    uint64_t events = 0;
    for (size_t i = 0; i < t->location_count; i++) {
        events += check_loop_location(t, &t->locations[i]);
        /* The trace says it was recovered from a killed process. */
        assert_int_equal(property(t, t->locations[i].id, "weft::recovered"), 1);
    }
    assert_true(events > 0);
    trace_free(t);
    assert_int_not_equal(stat(journal, &st), 0); /* the leftovers are gone */

    /* A second run finds nothing to do. */
    snprintf(command, sizeof(command), "'%s' recover '%s' >/dev/null 2>&1", WEFT_CLI, trace_dir);
    assert_int_equal(system(command), 0);
}

/* ---- errno ---------------------------------------------------------------- */

static void test_errno_kept(void **state)
{
    (void)state;
    const char *argv[] = {FAULTS_PROGRAM, "errno", NULL};
    const char *env[] = {dir_var(), NULL};
    program_run run = run_in_scratch(argv, env);
    if (run.exit_code != 0) {
        char path[4200], line[512] = "";
        snprintf(path, sizeof(path), "%s/.stdout", scratch);
        FILE *f = fopen(path, "r");
        if (f && fgets(line, sizeof(line), f))
            fclose(f);
        fail_msg("%s", line);
    }
    trace_model *t = load(trace_dir);
    check_sound(t);
    trace_free(t);
}

static void test_errno_kept_missing_filter(void **state)
{
    (void)state;
    const char *argv[] = {FAULTS_PROGRAM, "errno", NULL};
    const char *env[] = {dir_var(), "WEFT_FILTERING_FILE=/nonexistent/filter", NULL};
    program_run run = run_in_scratch(argv, env);
    assert_int_equal(run.exit_code, 0);
    assert_int_equal(run.stderr_lines, 1); /* the missing file, once */
}

/* ---- the end of a program ------------------------------------------------- */

static void test_regions_of_exit_handlers_and_destructors(void **state)
{
    (void)state;
    const char *argv[] = {FAULTS_PROGRAM, "late", NULL};
    const char *env[] = {dir_var(), NULL};
    program_run run = run_in_scratch(argv, env);
    assert_int_equal(run.exit_code, 0);
    assert_int_equal(run.stderr_lines, 0);
    trace_model *t = load(trace_dir);
    check_sound(t);
    const trace_location_stats *master = trace_location_by_id(t, 0);
    assert_int_equal(enters(t, master, "work"), 2);
    assert_int_equal(enters(t, master, "in_atexit"), 1);
    assert_int_equal(enters(t, master, "in_destructor"), 1);
    assert_int_equal(master->event_count, 8 + 2);
    trace_free(t);
}

/* Runs faults.c in MODE, which exits with 0 inside a two-thread team;
 * returns its sound trace and its master's and worker's locations. */
/* weft check agrees: the trace in trace_dir is sound (runs and barriers per
 * team, among the rest). */
static void assert_check_sound(void)
{
    char check[4400];
    snprintf(check, sizeof(check), "%s check %s > /dev/null", WEFT_CLI, trace_dir);
    assert_int_equal(system(check), 0);
}

static trace_model *run_team_exit(const char *mode, const trace_location_stats **master,
                                  const trace_location_stats **worker)
{
    const char *argv[] = {FAULTS_PROGRAM, mode, NULL};
    const char *env[] = {dir_var(), NULL};
    program_run run = run_in_scratch(argv, env);
    assert_int_equal(run.exit_code, 0);
    trace_model *t = load_trace(trace_dir, true);
    check_sound(t);
    *master = trace_location_by_id(t, 0);
    *worker = trace_location_by_id(t, 1ull << 32);
    assert_non_null(*master);
    assert_non_null(*worker);
    return t;
}

static void test_exit_from_thread_in_parallel_region(void **state)
{
    (void)state;
    const trace_location_stats *master, *worker;
    trace_model *t = run_team_exit("exit-thread", &master, &worker);
    assert_int_equal(master->kind_counts[TRACE_EVENT_THREAD_FORK], 1);
    assert_int_equal(master->kind_counts[TRACE_EVENT_THREAD_JOIN], 1);
    assert_int_equal(master->kind_counts[TRACE_EVENT_THREAD_TEAM_END], 1);
    assert_int_equal(worker->kind_counts[TRACE_EVENT_THREAD_TEAM_END], 1);
    assert_int_equal(leaves(t, master, "parallel"), 1);
    assert_int_equal(leaves(t, master, "outer"), 1);
    assert_int_equal(leaves(t, worker, "parallel"), 1);
    trace_free(t);
}

/* Both threads of the faults program's team began it twice and entered its
 * barrier twice (Scalasca's analyzer meets its threads at each). */
static void assert_two_runs_each(const trace_model *t, const trace_location_stats *master,
                                 const trace_location_stats *worker)
{
    assert_int_equal(master->kind_counts[TRACE_EVENT_THREAD_TEAM_BEGIN], 2);
    assert_int_equal(worker->kind_counts[TRACE_EVENT_THREAD_TEAM_BEGIN], 2);
    assert_int_equal(enters(t, master, "!$omp implicit barrier @faults.c:2"), 2);
    assert_int_equal(enters(t, worker, "!$omp implicit barrier @faults.c:2"), 2);
}

static void test_exit_between_team_begins(void **state)
{
    (void)state;
    const trace_location_stats *master, *worker;
    trace_model *t = run_team_exit("exit-between-team-begins", &master, &worker);
    /* Two runs of the team on both, the worker's second added at the end
     * with the barrier the master was in. */
    assert_two_runs_each(t, master, worker);
    assert_int_equal(worker->kind_counts[TRACE_EVENT_THREAD_TEAM_END], 2);
    assert_int_equal(enters(t, worker, "!$omp parallel @faults.c:1"), 2);
    assert_int_equal(master->kind_counts[TRACE_EVENT_THREAD_JOIN], 2);
    trace_free(t);
    assert_check_sound();
}

static void test_exit_in_next_run(void **state)
{
    (void)state;
    const trace_location_stats *master, *worker;
    trace_model *t = run_team_exit("exit-in-next-run", &master, &worker);
    /* The worker's first run closed with its barrier, then the second run
     * added with the barrier the master was in: two runs and two barriers
     * on both, none added to the master. */
    assert_two_runs_each(t, master, worker);
    assert_int_equal(worker->kind_counts[TRACE_EVENT_THREAD_TEAM_END], 2);
    assert_int_equal(enters(t, worker, "!$omp parallel @faults.c:1"), 2);
    trace_free(t);
    assert_check_sound();
}

static void test_exit_before_master_begins(void **state)
{
    (void)state;
    const trace_location_stats *master, *worker;
    trace_model *t = run_team_exit("exit-before-master-begins", &master, &worker);
    /* The master's second run added inside its fork, with the barrier the
     * worker was in: two runs and two barriers on both. */
    assert_two_runs_each(t, master, worker);
    assert_int_equal(master->kind_counts[TRACE_EVENT_THREAD_TEAM_END], 2);
    assert_int_equal(enters(t, master, "!$omp parallel @faults.c:1"), 2);
    assert_int_equal(master->kind_counts[TRACE_EVENT_THREAD_JOIN], 2);
    /* ... and inside the fork: its team end comes before the join. */
    size_t last_end = 0, last_join = 0;
    for (size_t i = 0; i < master->event_list_len; i++) {
        if (master->events[i].kind == TRACE_EVENT_THREAD_TEAM_END)
            last_end = i;
        if (master->events[i].kind == TRACE_EVENT_THREAD_JOIN)
            last_join = i;
    }
    assert_true(last_end < last_join);
    trace_free(t);
    assert_check_sound();
}

/* ---- fork ----------------------------------------------------------------- */

static void test_fork_child_gets_its_own_trace(void **state)
{
    (void)state;
    const char *argv[] = {FAULTS_PROGRAM, "fork-exit", NULL};
    const char *env[] = {dir_var(), NULL};
    program_run run = run_in_scratch(argv, env);
    assert_int_equal(run.exit_code, 0);
    assert_int_equal(run.stderr_lines, 1);
    const char *says = strstr(run.stderr_text, "records its own trace in '");
    assert_non_null(says);
    char child_dir[4400];
    snprintf(child_dir, sizeof(child_dir), "%s", says + strlen("records its own trace in '"));
    *strchr(child_dir, '\'') = '\0';
    char prefix[4400];
    snprintf(prefix, sizeof(prefix), "%s.fork-", trace_dir);
    assert_memory_equal(child_dir, prefix, strlen(prefix));

    trace_model *t = load(trace_dir);
    check_sound(t);
    assert_int_equal(t->location_count, 1);
    const trace_location_stats *parent = trace_location_by_id(t, 0);
    assert_int_equal(enters(t, parent, "work"), 10);
    assert_int_equal(enters(t, parent, "outer"), 1);
    assert_int_equal(parent->event_count, 22 + 2);
    trace_free(t);

    t = load(child_dir);
    check_sound(t);
    assert_int_equal(t->location_count, 1);
    const trace_location_stats *child = trace_location_by_id(t, 0);
    assert_int_equal(enters(t, child, "work"), 7);
    assert_int_equal(leaves(t, child, "outer"), 0); /* its parent's region */
    assert_int_equal(child->event_count, 14 + 2);
    trace_free(t);
}

static void test_fork_then_exec(void **state)
{
    (void)state;
    char exec_dir[4400];
    snprintf(exec_dir, sizeof(exec_dir), "%s/exec-trace", scratch);
    const char *argv[] = {FAULTS_PROGRAM, "fork-exec", exec_dir, NULL};
    const char *env[] = {dir_var(), NULL};
    program_run run = run_in_scratch(argv, env);
    assert_int_equal(run.exit_code, 0);
    assert_int_equal(run.stderr_lines, 0);
    assert_int_equal(count_entries(scratch, "trace.fork-"), 0);
    trace_model *t = load(trace_dir);
    check_sound(t);
    assert_int_equal(trace_total_events(t), 12 + 2);
    trace_free(t);
    t = load(exec_dir);
    check_sound(t);
    assert_int_equal(trace_total_events(t), 8 + 2);
    trace_free(t);
}

/* ---- configuration that cannot work: one line, the default, the program runs ---- */

/* Runs `faults pairs 5` with ENV_VAR; expects exactly one line on stderr
 * holding SAYS and the trace of 5 pairs in DIR (NULL: the one default
 * directory weft-... in the scratch directory). */
static void one_line_and_default(const char *env_var, const char *says, const char *dir)
{
    const char *argv[] = {FAULTS_PROGRAM, "pairs", "5", NULL};
    const char *env[] = {env_var, dir ? dir_var() : NULL, NULL};
    program_run run = run_in_scratch(argv, env);
    assert_int_equal(run.exit_code, 0);
    if (run.stderr_lines != 1 || !strstr(run.stderr_text, says))
        fail_msg("expected one line with \"%s\", got: %s", says, run.stderr_text);
    char found[4400];
    if (dir) {
        snprintf(found, sizeof(found), "%s", dir);
    } else {
        assert_int_equal(count_entries(scratch, "weft-"), 1);
        char command[8400];
        snprintf(command, sizeof(command), "ls -d %s/weft-* > %s/.found", scratch, scratch);
        assert_int_equal(system(command), 0);
        snprintf(command, sizeof(command), "%s/.found", scratch);
        FILE *f = fopen(command, "r");
        assert_non_null(f);
        assert_non_null(fgets(found, sizeof(found), f));
        fclose(f);
        found[strcspn(found, "\n")] = '\0';
    }
    trace_model *t = load(found);
    check_sound(t);
    assert_int_equal(trace_total_events(t), 10 + 2);
    trace_free(t);
    if (!dir) {
        scratch_dir_remove(found);
        strcat(found, ".check"); /* weft check's output (recorder_fixture.c) */
        remove(found);
    }
}

static void test_buffer_size_beyond_memory(void **state)
{
    (void)state;
    one_line_and_default("WEFT_BUFFER_SIZE=1T",
                         "WEFT_BUFFER_SIZE='1T' is more than this machine "
                         "can give a thread",
                         trace_dir);
    scratch_dir_remove(trace_dir);
    one_line_and_default("WEFT_BUFFER_SIZE=18446744073709551615",
                         "is more than this machine can give a thread", trace_dir);
}

static void test_filter_file_not_regular(void **state)
{
    (void)state;
    const char *says = "WEFT_FILTERING_FILE '";
    one_line_and_default("WEFT_FILTERING_FILE=/dev/zero", "not a regular file", trace_dir);
    scratch_dir_remove(trace_dir);
    char fifo[4400], var[4500];
    snprintf(fifo, sizeof(fifo), "%s/fifo", scratch);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    snprintf(var, sizeof(var), "WEFT_FILTERING_FILE=%s", fifo); /* open(2) would block */
    one_line_and_default(var, "not a regular file", trace_dir);
    scratch_dir_remove(trace_dir);
    snprintf(var, sizeof(var), "WEFT_FILTERING_FILE=%s", scratch);
    one_line_and_default(var, "not a regular file", trace_dir);
    scratch_dir_remove(trace_dir);
    char big[4400];
    snprintf(big, sizeof(big), "%s/big.txt", scratch);
    FILE *f = fopen(big, "w");
    assert_non_null(f);
    for (int i = 0; i < 100000; i++)
        fputs("# a comment line of a filter file\n", f);
    fclose(f);
    snprintf(var, sizeof(var), "WEFT_FILTERING_FILE=%s", big);
    one_line_and_default(var, says, trace_dir);
}

static void test_experiment_directory_rejected(void **state)
{
    (void)state;
    one_line_and_default("WEFT_EXPERIMENT_DIRECTORY=/", "it is the root directory", NULL);
    one_line_and_default("WEFT_EXPERIMENT_DIRECTORY=.", "names an existing directory ('.'", NULL);
    one_line_and_default("WEFT_EXPERIMENT_DIRECTORY=sub/..", "('.' or '..')", NULL);
    one_line_and_default("WEFT_EXPERIMENT_DIRECTORY=/dev/null", "names an existing file", NULL);
    static char var[6200];
    int at = snprintf(var, sizeof(var), "WEFT_EXPERIMENT_DIRECTORY=");
    while (at < 6050)
        at += snprintf(var + at, sizeof(var) - (size_t)at, "a/");
    one_line_and_default(var, "it is too long", NULL);
    snprintf(var, sizeof(var), "WEFT_EXPERIMENT_DIRECTORY=%0250d", 7);
    one_line_and_default(var, "a part of it is too long", NULL);
    assert_int_equal(count_entries(scratch, "a"), 0); /* no parents of a cut path made */
}

/* The trace at DIR holds one location per thread and PAIRS "work" pairs in
 * all. */
static void check_pairs(const char *dir, size_t locations, uint64_t pairs)
{
    trace_model *t = load(dir);
    check_sound(t);
    assert_int_equal(t->location_count, locations);
    uint64_t found = 0;
    for (size_t i = 0; i < t->location_count; i++)
        found += enters(t, &t->locations[i], "work");
    assert_int_equal(found, pairs);
    trace_free(t);
}

/* pthread_exit() from main: the process ends when its last thread does, as
 * without weft (it hung: weft's threads never end), and the trace has both
 * threads' pairs. */
static void test_pthread_exit_from_main(void **state)
{
    (void)state;
    const char *argv[] = {FAULTS_PROGRAM, "pthread-exit", "300", NULL};
    const char *env[] = {dir_var(), NULL};
    program_run run = run_in_scratch(argv, env);
    assert_int_equal(run.exit_code, 0);
    assert_int_equal(run.stderr_lines, 0);
    check_pairs(trace_dir, 2, 600);
}

/* The same when the main thread recorded nothing (weft's handler of its
 * end is then libweft's pthread_exit). */
static void test_pthread_exit_from_quiet_main(void **state)
{
    (void)state;
    const char *argv[] = {FAULTS_PROGRAM, "pthread-exit-quiet", "300", NULL};
    const char *env[] = {dir_var(), NULL};
    program_run run = run_in_scratch(argv, env);
    assert_int_equal(run.exit_code, 0);
    assert_int_equal(run.stderr_lines, 0);
    check_pairs(trace_dir, 1, 300);
}

/* A relative experiment directory is taken where the program was when
 * recording started, though it moves elsewhere before the trace is made. */
static void test_chdir_after_start(void **state)
{
    (void)state;
    char moved[4400], expected[4400];
    snprintf(moved, sizeof(moved), "%s/elsewhere", scratch);
    snprintf(expected, sizeof(expected), "%s/relative-trace", scratch);
    const char *argv[] = {FAULTS_PROGRAM, "chdir-late", "200", moved, NULL};
    const char *env[] = {"WEFT_EXPERIMENT_DIRECTORY=relative-trace", NULL};
    program_run run = run_in_scratch(argv, env);
    assert_int_equal(run.exit_code, 0);
    assert_int_equal(run.stderr_lines, 0);
    check_pairs(expected, 1, 400);
}

/* A program that closed its stderr: weft's descriptors stay off 0-2, so the
 * program's message fails as without weft (it went into weft's rescue
 * socket and stopped the recording), and every pair is in the trace. */
static void test_closed_stderr(void **state)
{
    (void)state;
    const char *argv[] = {FAULTS_PROGRAM, "closed-stderr", "500", NULL};
    const char *env[] = {dir_var(), NULL};
    program_run run = run_in_scratch(argv, env);
    assert_int_equal(run.exit_code, 0);
    char line[256];
    assert_true(stdout_line(scratch, "fprintf=", line, sizeof(line)));
    assert_int_equal(strncmp(line, "fprintf=-1\n", 12), 0);
    check_pairs(trace_dir, 1, 1000);
}

/* quick_exit(): its own handlers write the trace. */
static void test_quick_exit(void **state)
{
    (void)state;
    const char *argv[] = {FAULTS_PROGRAM, "quick-exit", "250", NULL};
    const char *env[] = {dir_var(), NULL};
    program_run run = run_in_scratch(argv, env);
    assert_int_equal(run.exit_code, 3);
    check_pairs(trace_dir, 1, 250);
}

/* A second SIGTERM a few milliseconds after the first (`timeout` signals
 * the child, then its group) waits for the rescue of the first: the trace
 * is whole (the process was ended in the middle of writing it). */
static void test_second_signal_during_rescue(void **state)
{
    (void)state;
    pick_seed();
    int threads = 3;
    char seed_arg[16];
    snprintf(seed_arg, sizeof(seed_arg), "%u", seed);
    const char *argv[] = {FAULTS_PROGRAM, "block", "3", seed_arg, NULL};
    const char *env[] = {dir_var(), NULL};
    int pid = start_program(argv, env, scratch);
    assert_true(wait_for_output(pid, scratch, "ready"));
    kill(pid, SIGTERM);
    usleep(500 + random_below(1000));
    kill(pid, SIGTERM);
    usleep(2000);
    kill(pid, SIGTERM);
    program_run run = wait_program(pid, scratch);
    assert_int_equal(run.term_signal, SIGTERM);
    check_signal_line(&run, SIGTERM);
    check_blocked_trace(SIGTERM, threads);
}

#define TEST(name) cmocka_unit_test_setup_teardown(name, setup, teardown)

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        TEST(test_sigterm),
        TEST(test_sigint),
        TEST(test_sighup),
        TEST(test_sigquit),
        TEST(test_other_default_signals),
        TEST(test_abort),
        TEST(test_failed_assert),
        TEST(test_sigsegv),
        TEST(test_sigfpe),
        TEST(test_sigill),
        TEST(test_sigbus),
        TEST(test_raise_and_kill),
        TEST(test_signals_none),
        TEST(test_signal_at_random_point),
        TEST(test_signal_after_churn_and_spill),
        TEST(test_kill9_then_recover),
        TEST(test_errno_kept),
        TEST(test_errno_kept_missing_filter),
        TEST(test_regions_of_exit_handlers_and_destructors),
        TEST(test_exit_from_thread_in_parallel_region),
        TEST(test_exit_between_team_begins),
        TEST(test_exit_in_next_run),
        TEST(test_exit_before_master_begins),
        TEST(test_fork_child_gets_its_own_trace),
        TEST(test_fork_then_exec),
        TEST(test_buffer_size_beyond_memory),
        TEST(test_filter_file_not_regular),
        TEST(test_experiment_directory_rejected),
        TEST(test_pthread_exit_from_main),
        TEST(test_pthread_exit_from_quiet_main),
        TEST(test_chdir_after_start),
        TEST(test_closed_stderr),
        TEST(test_quick_exit),
        TEST(test_second_signal_during_rescue),
    };
    return run_named_test(tests, argc > 1 ? argv[1] : NULL);
}
/* SPDX-License-Identifier: BSD-3-Clause */
