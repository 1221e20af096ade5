/* proposal_program.c's "every" mode (proposal_every.c: every routine of the
 * merged POMP proposal as its tables write it) with 1 and 2 threads at the
 * default levels, checked location by location: every event kind counted
 * exactly, the visits of every region, the runtime calls' regions named
 * and placed as their CTC strings say, the parameter values in order with
 * the event they follow, and each lock known by one id whose acquisitions
 * are numbered 1, 2, 3 ... and released by their holder. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "proposal_test.h"

typedef struct visit {
    const char *name;
    uint32_t line; /* the region's first line; 0: none (functions) */
    uint64_t count;
} visit;

enum { MAX_EXPECTED = 64 };

static uint64_t sections_of(int t, int n)
{
    uint64_t count = 0;
    for (int s = t; s < 2; s += n)
        count++;
    return count;
}

/* The visits thread t of n makes, by region (proposal_every.c). */
static size_t expected_visits(int t, int n, visit *out)
{
    size_t k = 0;
    uint64_t m = t == 0; /* the master's parts */
#define ADD(name, line, count) (out[k++] = (visit){name, line, (uint64_t)(count)})
    ADD("!$omp parallel @every.c:10", 10, 1);
    ADD("!$omp implicit barrier @every.c:19", 19, 1);
    ADD("!$omp for @every.c:20", 20, 1);
    ADD("!$omp implicit barrier @every.c:21", 21, 1);
    ADD("!$omp workshare @every.c:30", 30, 1);
    ADD("!$omp workshare sblock @every.c:30", 30, 1);
    ADD("!$omp implicit barrier @every.c:31", 31, 1);
    ADD("!$omp sections @every.c:40", 40, 1);
    ADD("!$omp section @every.c:40", 40, sections_of(t, n));
    ADD("!$omp implicit barrier @every.c:41", 41, 1);
    ADD("!$omp single @every.c:50", 50, 1);
    ADD("!$omp single sblock @every.c:50", 50, m);
    ADD("!$omp implicit barrier @every.c:51", 51, 1);
    ADD("!$omp critical (one) @every.c:60", 60, 1);
    ADD("!$omp critical sblock @every.c:60", 60, 1);
    ADD("!$omp ordered @every.c:70", 70, 1);
    ADD("!$omp ordered sblock @every.c:70", 70, 1);
    ADD("!$omp master @every.c:80", 80, m);
    ADD("!$omp barrier @every.c:90", 90, 1);
    ADD("!$omp atomic @every.c:100", 100, 1);
    ADD("!$omp flush @every.c:110", 110, 1);
    ADD("compute", 0, m);
    ADD("solve", 0, m);
    ADD("phase", 120, m);
    /* Runtime calls; Set_lock_enter/exit (201, 211) are level EnterExit. */
    ADD("omp_init_lock", 200, m);
    ADD("omp_unset_lock", 202, 1);
    ADD("omp_set_lock", 203, m);
    ADD("omp_unset_lock", 204, m);
    ADD("omp_test_lock", 205, m);
    ADD("omp_unset_lock", 206, m);
    ADD("omp_test_lock", 207, n > 1 && t == n - 1);
    ADD("omp_destroy_lock", 208, m);
    ADD("omp_init_nest_lock", 210, m);
    ADD("omp_set_nest_lock", 212, 2 * m);
    ADD("omp_test_nest_lock", 213, m);
    ADD("omp_unset_nest_lock", 214, 4 * m);
    ADD("omp_destroy_nest_lock", 215, m);
    ADD("omp_set_num_threads", 220, m);
    ADD("omp_get_num_threads", 221, 1);
    ADD("omp_get_max_threads", 222, m);
    ADD("omp_get_thread_num", 223, 1);
    ADD("omp_get_num_procs", 224, m);
    ADD("omp_in_parallel", 225, 1);
    ADD("omp_set_dynamic", 226, m);
    ADD("omp_get_dynamic", 227, m);
    ADD("omp_set_nested", 228, m);
    ADD("omp_get_nested", 229, m);
    ADD("omp_init_lock", 230, m);
    ADD("omp_set_lock", 231, 1);
    ADD("omp_unset_lock", 232, 1);
    ADD("omp_destroy_lock", 233, m);
#undef ADD
    return k;
}

/* A parameter's value and the event it follows: the enter of region
 * `context` at `line`, or the fork when context is "fork". */
typedef struct param {
    const char *context;
    uint32_t line;
    int64_t value;
} param;

static size_t expected_parameters(int t, int n, int64_t procs, param *out)
{
    size_t k = 0;
#define ADD(context, line, value) (out[k++] = (param){context, line, value})
    if (t == 0) {
        ADD("omp_get_max_threads", 222, n);
        ADD("omp_set_num_threads", 220, n);
        ADD("omp_set_dynamic", 226, 0);
        ADD("omp_get_dynamic", 227, 0);
        ADD("omp_set_nested", 228, 0);
        ADD("omp_get_nested", 229, 0);
        ADD("omp_get_num_procs", 224, procs);
        ADD("fork", 0, n); /* num_threads */
        ADD("fork", 0, 1); /* if */
    }
    ADD("omp_get_num_threads", 221, n);
    ADD("omp_get_thread_num", 223, t);
    ADD("omp_in_parallel", 225, n > 1); /* a team of one is not active */
    if (n > 1 && t == n - 1)
        ADD("omp_test_lock", 207, 0);    /* thread 0 holds it */
    ADD("!$omp for @every.c:20", 20, 2); /* chunk size, first, last, increment */
    ADD("!$omp for @every.c:20", 20, 0);
    ADD("!$omp for @every.c:20", 20, 7);
    ADD("!$omp for @every.c:20", 20, 1);
    for (int s = t; s < 2; s += n)
        ADD("!$omp section @every.c:40", 40, s + 1); /* before the thread: not t */
    if (t == 0) {
        ADD("omp_test_lock", 205, 1);
        ADD("omp_test_nest_lock", 213, 3); /* the depth */
    }
#undef ADD
    return k;
}

/* The runtime calls' regions: named after the routine, at the CTC string's
 * file and line, wrappers of paradigm OpenMP. */
static void check_runtime_regions(const trace_model *t, int n)
{
    visit all[MAX_EXPECTED];
    size_t count = expected_visits(0, n, all);
    for (size_t i = 0; i < count; i++) {
        if (strncmp(all[i].name, "omp_", 4) != 0 || (all[i].line == 207 && n == 1))
            continue;
        const trace_region *r = region_at(t, all[i].name, all[i].line);
        if (!r)
            fail_msg("no region %s at line %u", all[i].name, (unsigned)all[i].line);
        assert_string_equal(r->source_file, "every.c");
        assert_int_equal(r->end_line, all[i].line);
        assert_int_equal(r->role, OTF2_REGION_ROLE_WRAPPER);
        assert_int_equal(r->paradigm, OTF2_PARADIGM_OPENMP);
    }
    const trace_region *block = region_at(t, "!$omp workshare sblock @every.c:30", 30);
    assert_non_null(block);
    assert_int_equal(block->role, OTF2_REGION_ROLE_WORKSHARE);
    const trace_region *barrier = region_at(t, "!$omp implicit barrier @every.c:21", 21);
    assert_non_null(barrier);
    assert_int_equal(barrier->role, OTF2_REGION_ROLE_IMPLICIT_BARRIER);
}

/* Location l's events kind by kind and its visits region by region. */
static void check_location_counts(const trace_model *t, const trace_location_stats *loc, int th,
                                  int n)
{
    const uint64_t *kinds = loc->kind_counts;
    uint64_t m = th == 0;
    uint64_t acquisitions = 1 + m + m + 1 + 2 * m + (proposal_libomp ? 1 : 0);
    param params[MAX_EXPECTED];
    assert_int_equal(kinds[TRACE_EVENT_PROGRAM_BEGIN], m);
    assert_int_equal(kinds[TRACE_EVENT_PROGRAM_END], m);
    assert_int_equal(kinds[TRACE_EVENT_THREAD_FORK], m);
    assert_int_equal(kinds[TRACE_EVENT_THREAD_JOIN], m);
    assert_int_equal(kinds[TRACE_EVENT_THREAD_TEAM_BEGIN], 1);
    assert_int_equal(kinds[TRACE_EVENT_THREAD_TEAM_END], 1);
    assert_int_equal(kinds[TRACE_EVENT_THREAD_ACQUIRE_LOCK], acquisitions);
    assert_int_equal(kinds[TRACE_EVENT_THREAD_RELEASE_LOCK], acquisitions);
    assert_int_equal(kinds[TRACE_EVENT_PARAMETER_INT], expected_parameters(th, n, 0, params));

    visit want[MAX_EXPECTED];
    size_t count = expected_visits(th, n, want);
    uint64_t enters = 0; /* ProgramBegin/End count as kinds of their own */
    for (size_t i = 0; i < count; i++) {
        const trace_region *r = region_at(t, want[i].name, want[i].line);
        uint64_t got = r ? trace_enter_count(loc, r->id) : 0;
        if (got != want[i].count)
            fail_msg("%s: %s (line %u) %llu visits, expected %llu", loc->name, want[i].name,
                     (unsigned)want[i].line, (unsigned long long)got,
                     (unsigned long long)want[i].count);
        enters += want[i].count;
    }
    /* Nothing else was entered, and there are no other events. */
    assert_int_equal(kinds[TRACE_EVENT_ENTER], enters);
    assert_int_equal(kinds[TRACE_EVENT_LEAVE], enters);
    uint64_t listed = 0;
    for (int k = TRACE_EVENT_ENTER; k <= TRACE_EVENT_PROGRAM_END; k++) {
        if (k <= TRACE_EVENT_THREAD_RELEASE_LOCK || k == TRACE_EVENT_PARAMETER_INT ||
            k >= TRACE_EVENT_PROGRAM_BEGIN)
            listed += kinds[k];
    }
    assert_int_equal(loc->event_count, listed);
}

/* The parameters in order, each after the event expected. */
static void check_parameters(const trace_model *t, const trace_location_stats *loc, int th, int n,
                             int64_t procs)
{
    param want[MAX_EXPECTED];
    size_t count = expected_parameters(th, n, procs, want), next = 0;
    const trace_region *context = NULL;
    bool after_fork = false;
    for (size_t i = 0; i < loc->event_list_len; i++) {
        const trace_event *e = &loc->events[i];
        if (e->kind != TRACE_EVENT_PARAMETER_INT) {
            context = e->kind == TRACE_EVENT_ENTER ? trace_region_by_id(t, e->region) : NULL;
            after_fork = e->kind == TRACE_EVENT_THREAD_FORK;
            continue;
        }
        assert_true(next < count);
        const param *p = &want[next++];
        bool fork = strcmp(p->context, "fork") == 0;
        const char *follows = after_fork ? "the fork" : "no enter";
        if (context)
            follows = context->name;
        if (fork ? !after_fork
                 : !context || strcmp(context->name, p->context) != 0 ||
                       context->begin_line != p->line)
            fail_msg("%s: parameter %zu follows %s, expected %s (line %u)", loc->name, next,
                     follows, p->context, (unsigned)p->line);
        if (e->parameter_value != p->value)
            fail_msg("%s: parameter %zu after %s is %lld, expected %lld", loc->name, next,
                     p->context, (long long)e->parameter_value, (long long)p->value);
    }
    assert_int_equal(next, count);
}

/* ---- locks ------------------------------------------------------------------ */

typedef struct acquisition {
    uint32_t lock, order;
    const trace_region *inside; /* the innermost open region */
    bool released;
} acquisition;

enum { MAX_ACQUISITIONS = 64, MAX_DEPTH = 32 };

/* Every acquisition and release of the trace; releases must match an
 * acquisition of the same lock and order on their location. */
static size_t collect_locks(const trace_model *t, acquisition *all)
{
    size_t count = 0;
    for (size_t l = 0; l < t->location_count; l++) {
        const trace_location_stats *loc = &t->locations[l];
        const trace_region *stack[MAX_DEPTH];
        size_t depth = 0, first = count;
        for (size_t i = 0; i < loc->event_list_len; i++) {
            const trace_event *e = &loc->events[i];
            if (e->kind == TRACE_EVENT_ENTER) {
                assert_true(depth < MAX_DEPTH);
                stack[depth++] = trace_region_by_id(t, e->region);
            } else if (e->kind == TRACE_EVENT_LEAVE && depth > 0) {
                depth--;
            } else if (e->kind == TRACE_EVENT_THREAD_ACQUIRE_LOCK) {
                assert_true(count < MAX_ACQUISITIONS);
                all[count++] = (acquisition){e->lock_id, e->acquisition_order,
                                             depth ? stack[depth - 1] : NULL, false};
            } else if (e->kind == TRACE_EVENT_THREAD_RELEASE_LOCK) {
                size_t a = first;
                while (a < count && (all[a].released || all[a].lock != e->lock_id ||
                                     all[a].order != e->acquisition_order))
                    a++;
                if (a == count)
                    fail_msg("%s: lock %u order %u released, not held", loc->name,
                             (unsigned)e->lock_id, (unsigned)e->acquisition_order);
                all[a].released = true;
            }
        }
    }
    for (size_t a = 0; a < count; a++)
        assert_true(all[a].released);
    return count;
}

/* The id of the lock acquired inside region `name` at `line`. */
static uint32_t lock_taken_in(const acquisition *all, size_t count, const char *name, uint32_t line)
{
    for (size_t a = 0; a < count; a++) {
        if (all[a].inside && strcmp(all[a].inside->name, name) == 0 &&
            all[a].inside->begin_line == line)
            return all[a].lock;
    }
    fail_msg("no lock acquired inside %s (line %u)", name, (unsigned)line);
    return UINT32_MAX;
}

/* lock n + 2 times, nest twice, the critical section n times, vlock n
 * times where its value tells it: each under one id of its own (found by
 * an acquisition only it makes), orders 1 to the count, nothing else. */
static void check_locks(const trace_model *t, int n)
{
    acquisition all[MAX_ACQUISITIONS];
    size_t count = collect_locks(t, all);
    struct {
        uint32_t id;
        uint32_t acquisitions;
    } locks[4] = {
        {lock_taken_in(all, count, "omp_set_lock", 203), n + 2},
        {lock_taken_in(all, count, "omp_set_nest_lock", 212), 2},
        {lock_taken_in(all, count, "!$omp critical (one) @every.c:60", 60), n},
        {proposal_libomp ? lock_taken_in(all, count, "omp_set_lock", 231) : UINT32_MAX, n},
    };
    size_t kinds = proposal_libomp ? 4 : 3, matched = 0;
    for (size_t k = 0; k < kinds; k++) {
        for (size_t j = 0; j < k; j++)
            assert_int_not_equal(locks[j].id, locks[k].id);
        bool seen[MAX_ACQUISITIONS + 1] = {false};
        uint32_t taken = 0;
        for (size_t a = 0; a < count; a++) {
            if (all[a].lock != locks[k].id)
                continue;
            if (all[a].order < 1 || all[a].order > locks[k].acquisitions || seen[all[a].order])
                fail_msg("lock %u: acquisition order %u", (unsigned)locks[k].id,
                         (unsigned)all[a].order);
            seen[all[a].order] = true;
            taken++;
        }
        assert_int_equal(taken, locks[k].acquisitions);
        matched += taken;
    }
    assert_int_equal(matched, count);
}

/* ---- the tests -------------------------------------------------------------------- */

static void check_every_routine(int n)
{
    char threads[32];
    snprintf(threads, sizeof(threads), "OMP_NUM_THREADS=%d", n);
    const char *env[] = {threads, NULL};
    program_run run = run_mode("every", env);
    assert_int_equal(run.exit_code, 0);
    expect_every_stderr(&run, true);
    char path[4500];
    snprintf(path, sizeof(path), "%s/.stdout", scratch);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    int procs = 0;
    assert_int_equal(fscanf(f, "num_procs %d", &procs), 1);
    fclose(f);

    trace_model *t = load_trace(trace_dir, true);
    check_sound(t);
    assert_int_equal(t->location_count, n);
    check_runtime_regions(t, n);
    for (int th = 0; th < n; th++) {
        char name[32];
        snprintf(name, sizeof(name), th ? "Thread %d" : "Master thread", th);
        const trace_location_stats *loc = NULL;
        for (size_t l = 0; l < t->location_count; l++) {
            if (strcmp(t->locations[l].name, name) == 0)
                loc = &t->locations[l];
        }
        assert_non_null(loc);
        check_location_counts(t, loc, th, n);
        check_parameters(t, loc, th, n, procs);
    }
    check_locks(t, n);
    trace_free(t);
}

void test_every_routine_1_thread(void **state)
{
    (void)state;
    check_every_routine(1);
}

void test_every_routine_2_threads(void **state)
{
    (void)state;
    check_every_routine(2);
}
/* SPDX-License-Identifier: BSD-3-Clause */
