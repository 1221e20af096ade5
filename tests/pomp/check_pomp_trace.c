/* Checks the trace of an OPARI2-instrumented test program (constructs.c,
 * constructs.cpp, constructs.f90) against what the program must produce
 * with N threads: exact enter counts per region and location, region names,
 * roles and lines taken from the source, fork/join only on forking threads,
 * team begin/end on every member, thread team definitions, lock acquisition
 * orders, balanced tasks, and a sound trace (nesting, time).
 *
 *   check_pomp_trace ANCHOR SOURCE THREADS c|cxx|fortran|twofile|ompt_c|ompt_gcc [SECOND_SOURCE]
 *
 * Prints one line per failed check and exits 1 if any failed. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "otf2_trace.h"
#include "pomp_expectations.h"

static int failures;

static void fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("check_pomp_trace: ", stdout);
    vprintf(fmt, ap);
    fputc('\n', stdout);
    va_end(ap);
    failures++;
}

#define CHECK_EQ(actual, expected, ...)                                                       \
    do {                                                                                      \
        unsigned long long a_ = (actual), e_ = (expected);                                    \
        if (a_ != e_) {                                                                       \
            char what_[512];                                                                  \
            snprintf(what_, sizeof(what_), __VA_ARGS__);                                      \
            fail("%s: got %llu, expected %llu", what_, a_, e_);                               \
        }                                                                                     \
    } while (0)

/* ---- the source: line of each construct ------------------------------------ */

static char *sources[2];
static const char *source_paths[2];
static char *source_text; /* the one line_of searches */

static char *read_source(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fail("cannot read %s", path);
        exit(1);
    }
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = calloc(1, (size_t)len + 1);
    if (fread(text, 1, (size_t)len, f) != (size_t)len)
        fail("short read of %s", path);
    fclose(f);
    return text;
}

/* The 1-based line on which `text` occurs (occurrence 1, 2, ...), 0 if not. */
static unsigned line_of(const char *text, int occurrence)
{
    const char *at = source_text;
    for (int i = 0; i < occurrence; i++) {
        at = strstr(i ? at + 1 : at, text);
        if (!at)
            return 0;
    }
    unsigned line = 1;
    for (const char *p = source_text; p < at; p++)
        line += *p == '\n';
    return line;
}

static const char *basename_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* ---- regions ------------------------------------------------------------------ */

static const trace_region *region_named(const trace_model *t, const char *kind, const char *file,
                                        unsigned line)
{
    char name[512];
    if (kind[0] == '=')
        snprintf(name, sizeof(name), "%s", kind + 1); /* a user region's own name */
    else
        snprintf(name, sizeof(name), "!$omp %s @%s:%u", kind, basename_of(file), line);
    const trace_region *r = trace_region_by_name(t, name);
    if (!r)
        fail("no region named \"%s\"", name);
    return r;
}

static uint64_t total_enters(const trace_model *t, const trace_region *r)
{
    uint64_t sum = 0;
    for (size_t i = 0; i < t->location_count; i++)
        sum += trace_enter_count(&t->locations[i], r->id);
    return sum;
}

/* The main team: the locations that entered the first parallel region. */
typedef struct team {
    const trace_location_stats *member[64];
    size_t size;
    const trace_location_stats *master;
} team;

static team main_team(const trace_model *t, const trace_region *parallel)
{
    team m = {.size = 0};
    for (size_t i = 0; i < t->location_count; i++) {
        const trace_location_stats *loc = &t->locations[i];
        if (trace_enter_count(loc, parallel->id) && m.size < 64)
            m.member[m.size++] = loc;
        if ((loc->id >> 32) == 0)
            m.master = loc;
    }
    return m;
}

static void check_expectation(const trace_model *t, const pomp_expectation *x, const team *m,
                              unsigned threads)
{
    if (x->min_threads && threads < (unsigned)x->min_threads)
        return;
    const char *source = source_paths[x->source_index];
    source_text = sources[x->source_index];
    if (!source_text) {
        fail("no second source given for \"%s\"", x->pragma);
        return;
    }
    unsigned line = line_of(x->pragma, x->occurrence ? x->occurrence : 1);
    if (!line) {
        fail("the source has no \"%s\"", x->pragma);
        return;
    }
    const trace_region *r = region_named(t, x->kind, source, line);
    if (!r)
        return;
    CHECK_EQ(r->role, x->role, "role of \"%s\"", r->name);
    const char *file = x->file ? x->file : basename_of(source);
    if (!r->source_file || strcmp(basename_of(r->source_file), file) != 0)
        fail("region \"%s\" has file \"%s\", expected \"%s\"", r->name,
             r->source_file ? r->source_file : "(none)", file);
    if (x->kind[0] != '=')
        CHECK_EQ(r->begin_line, line, "begin line of \"%s\"", r->name);
    uint64_t total = (uint64_t)x->master_extra + (uint64_t)x->extra +
                     (uint64_t)x->total_per_thread * threads;
    if (x->per_member >= 0) {
        uint64_t each = (uint64_t)x->per_member + (uint64_t)x->per_share * (x->share_of / threads);
        total += each * threads;
        for (size_t i = 0; i < m->size; i++) {
            uint64_t expected = each + (m->member[i] == m->master ? (uint64_t)x->master_extra : 0);
            CHECK_EQ(trace_enter_count(m->member[i], r->id), expected, "enters of \"%s\" on %s",
                     r->name, m->member[i]->name);
        }
    }
    CHECK_EQ(total_enters(t, r), total, "enters of \"%s\" on all locations", r->name);
    for (size_t i = 0; i < t->location_count; i++) {
        const trace_location_stats *loc = &t->locations[i];
        CHECK_EQ(trace_leave_count(loc, r->id), trace_enter_count(loc, r->id),
                 "leaves vs enters of \"%s\" on %s", r->name, loc->name);
    }
}

/* ---- events ------------------------------------------------------------------ */

static void check_sound(const trace_model *t)
{
    for (size_t i = 0; i < t->location_count; i++) {
        const trace_location_stats *loc = &t->locations[i];
        if (loc->nesting_errors)
            fail("%s", loc->first_nesting_error);
        if (loc->time_decreases)
            fail("%s", loc->first_time_error);
        CHECK_EQ(loc->unhandled_event_count, 0, "unhandled events on %s", loc->name);
        CHECK_EQ(loc->kind_counts[TRACE_EVENT_THREAD_TEAM_BEGIN],
                 loc->kind_counts[TRACE_EVENT_THREAD_TEAM_END], "team begins vs ends on %s",
                 loc->name);
        CHECK_EQ(loc->kind_counts[TRACE_EVENT_THREAD_FORK],
                 loc->kind_counts[TRACE_EVENT_THREAD_JOIN], "forks vs joins on %s", loc->name);
    }
}

/* Every parallel region entered once per team begin; forks as expected. */
static void check_threads(const trace_model *t, const pomp_program *p, const team *m,
                          unsigned threads)
{
    CHECK_EQ(m->size, threads, "locations in the main team");
    uint64_t forks = 0, team_begins = 0, parallel_enters = 0;
    for (size_t i = 0; i < t->location_count; i++) {
        const trace_location_stats *loc = &t->locations[i];
        forks += loc->kind_counts[TRACE_EVENT_THREAD_FORK];
        team_begins += loc->kind_counts[TRACE_EVENT_THREAD_TEAM_BEGIN];
        for (size_t j = 0; j < t->region_count; j++) {
            if (t->regions[j].role == OTF2_REGION_ROLE_PARALLEL)
                parallel_enters += trace_enter_count(loc, t->regions[j].id);
        }
        /* Fork and team events name OpenMP and a defined team. */
        for (size_t e = 0; e < loc->event_list_len; e++) {
            const trace_event *ev = &loc->events[e];
            if (ev->kind == TRACE_EVENT_THREAD_FORK || ev->kind == TRACE_EVENT_THREAD_JOIN)
                CHECK_EQ(ev->paradigm, OTF2_PARADIGM_OPENMP, "paradigm of a fork/join");
            if (ev->kind == TRACE_EVENT_THREAD_TEAM_BEGIN && ev->comm >= t->comm_count)
                fail("team begin on %s names undefined team %u", loc->name, ev->comm);
        }
    }
    CHECK_EQ(team_begins, parallel_enters, "team begins vs parallel region enters");
    CHECK_EQ(m->master->kind_counts[TRACE_EVENT_THREAD_FORK], p->master_forks,
             "forks on the master thread");
    CHECK_EQ(forks, p->total_forks, "forks on all locations");
    /* The first forks on the master ask for the main team's size. */
    unsigned seen = 0;
    for (size_t e = 0; e < m->master->event_list_len && seen < p->main_regions; e++) {
        const trace_event *ev = &m->master->events[e];
        if (ev->kind != TRACE_EVENT_THREAD_FORK)
            continue;
        CHECK_EQ(ev->team_size, threads, "threads requested by fork %u", seen + 1);
        seen++;
    }
}

/* The thread team definitions: the main team with `threads` members, and
 * for nested programs two inner teams of 2 under the outer team of 2. */
static void check_teams(const trace_model *t, const pomp_program *p, unsigned threads)
{
    const trace_group *all = NULL;
    for (size_t i = 0; i < t->group_count; i++) {
        if (t->groups[i].type == OTF2_GROUP_TYPE_COMM_LOCATIONS &&
            t->groups[i].paradigm == OTF2_PARADIGM_OPENMP)
            all = &t->groups[i];
    }
    if (!all) {
        fail("no OpenMP COMM_LOCATIONS group");
        return;
    }
    CHECK_EQ(all->member_count, t->location_count, "members of the OpenMP locations group");
    unsigned top_with_main_size = 0, nested = 0;
    for (size_t i = 0; i < t->comm_count; i++) {
        const trace_comm *c = &t->comms[i];
        const trace_group *g = NULL;
        for (size_t j = 0; j < t->group_count; j++) {
            if (t->groups[j].id == c->group)
                g = &t->groups[j];
        }
        if (!g || g->type != OTF2_GROUP_TYPE_COMM_GROUP) {
            fail("team %s has no COMM_GROUP", c->name);
            continue;
        }
        for (uint32_t k = 0; k < g->member_count; k++) {
            if (g->members[k] >= all->member_count)
                fail("team %s: member %u out of range", c->name, (unsigned)g->members[k]);
        }
        if (c->parent == OTF2_UNDEFINED_COMM && g->member_count == threads)
            top_with_main_size++;
        if (c->parent != OTF2_UNDEFINED_COMM) {
            nested++;
            CHECK_EQ(g->member_count, 2, "members of nested team %s", c->name);
        }
    }
    CHECK_EQ(top_with_main_size, 1, "outermost teams with %u members", threads);
    CHECK_EQ(nested, p->nested_teams, "nested team definitions");
}

/* Per lock: acquisition orders 1..n, each once; each release matches the
 * acquire before it on its location. */
static void check_locks(const trace_model *t, const pomp_program *p, unsigned threads)
{
    enum { MAX_LOCKS = 16, MAX_ORDER = 4096 };
    static unsigned char seen[MAX_LOCKS][MAX_ORDER];
    uint32_t highest[MAX_LOCKS] = {0};
    uint64_t acquires = 0;
    for (size_t i = 0; i < t->location_count; i++) {
        const trace_location_stats *loc = &t->locations[i];
        uint32_t held_lock = UINT32_MAX, held_order = 0;
        for (size_t e = 0; e < loc->event_list_len; e++) {
            const trace_event *ev = &loc->events[e];
            if (ev->kind == TRACE_EVENT_THREAD_ACQUIRE_LOCK) {
                acquires++;
                if (ev->lock_id >= MAX_LOCKS || ev->acquisition_order == 0 ||
                    ev->acquisition_order >= MAX_ORDER) {
                    fail("%s: lock %u order %u out of range", loc->name, ev->lock_id,
                         ev->acquisition_order);
                    continue;
                }
                if (seen[ev->lock_id][ev->acquisition_order]++)
                    fail("lock %u acquired twice with order %u", ev->lock_id,
                         ev->acquisition_order);
                if (ev->acquisition_order > highest[ev->lock_id])
                    highest[ev->lock_id] = ev->acquisition_order;
                held_lock = ev->lock_id;
                held_order = ev->acquisition_order;
            } else if (ev->kind == TRACE_EVENT_THREAD_RELEASE_LOCK) {
                if (ev->lock_id != held_lock || ev->acquisition_order != held_order)
                    fail("%s: release of lock %u order %u does not match the acquire before it",
                         loc->name, ev->lock_id, ev->acquisition_order);
            }
        }
    }
    for (uint32_t l = 0; l < MAX_LOCKS; l++) {
        for (uint32_t o = 1; o <= highest[l]; o++) {
            if (!seen[l][o])
                fail("lock %u: order %u missing (orders must count 1, 2, ...)", l, o);
        }
    }
    CHECK_EQ(acquires, p->lock_acquires_per_thread * threads + p->lock_acquires_fixed,
             "lock acquisitions");
}

/* Every created task completes once, and is switched to at least once. */
static void check_tasks(const trace_model *t, const pomp_program *p)
{
    enum { MAX_TASKS = 1024 };
    struct task_count {
        uint32_t creator, generation, creates, switches, completes;
    } task[MAX_TASKS];
    size_t count = 0;
    for (size_t i = 0; i < t->location_count; i++) {
        const trace_location_stats *loc = &t->locations[i];
        for (size_t e = 0; e < loc->event_list_len; e++) {
            const trace_event *ev = &loc->events[e];
            if (ev->kind != TRACE_EVENT_THREAD_TASK_CREATE &&
                ev->kind != TRACE_EVENT_THREAD_TASK_SWITCH &&
                ev->kind != TRACE_EVENT_THREAD_TASK_COMPLETE)
                continue;
            if (ev->generation == 0)
                continue; /* a thread's implicit task (switching back to it) */
            size_t k = 0;
            while (k < count &&
                   (task[k].creator != ev->creating_thread || task[k].generation != ev->generation))
                k++;
            if (k == count) {
                if (count == MAX_TASKS)
                    continue;
                task[count++] = (struct task_count){ev->creating_thread, ev->generation, 0, 0, 0};
            }
            task[k].creates += ev->kind == TRACE_EVENT_THREAD_TASK_CREATE;
            task[k].switches += ev->kind == TRACE_EVENT_THREAD_TASK_SWITCH;
            task[k].completes += ev->kind == TRACE_EVENT_THREAD_TASK_COMPLETE;
        }
    }
    CHECK_EQ(count, p->tasks, "distinct tasks");
    for (size_t k = 0; k < count; k++) {
        CHECK_EQ(task[k].creates, 1, "creates of task (%u, %u)", task[k].creator,
                 task[k].generation);
        CHECK_EQ(task[k].completes, 1, "completions of task (%u, %u)", task[k].creator,
                 task[k].generation);
        if (task[k].switches < 1)
            fail("task (%u, %u) never switched to", task[k].creator, task[k].generation);
    }
}

int main(int argc, char **argv)
{
    if (argc != 5 && argc != 6) {
        fprintf(stderr, "usage: check_pomp_trace ANCHOR SOURCE THREADS "
                        "c|cxx|fortran|twofile|ompt_c|ompt_gcc [SECOND_SOURCE]\n");
        return 2;
    }
    unsigned threads = (unsigned)atoi(argv[3]);
    const pomp_program *p = pomp_program_named(argv[4]);
    if (!p || threads == 0) {
        fprintf(stderr, "check_pomp_trace: bad program kind or thread count\n");
        return 2;
    }
    source_paths[0] = argv[2];
    sources[0] = read_source(argv[2]);
    if (argc == 6) {
        source_paths[1] = argv[5];
        sources[1] = read_source(argv[5]);
    }
    source_text = sources[0];
    trace_options opt = {.keep_events = true};
    trace_model *t = NULL;
    char err[512] = "";
    if (trace_load(argv[1], &opt, &t, err, sizeof(err)) != 0) {
        fail("cannot read the trace %s: %s", argv[1], err);
        return 1;
    }
    const trace_region *parallel =
        region_named(t, "parallel", argv[2], line_of(p->expect[0].pragma, 1));
    if (parallel) {
        team m = main_team(t, parallel);
        if (!m.master)
            fail("no master location");
        else {
            for (const pomp_expectation *x = p->expect; x->pragma; x++)
                check_expectation(t, x, &m, threads);
            check_threads(t, p, &m, threads);
        }
    }
    check_sound(t);
    check_teams(t, p, threads);
    check_locks(t, p, threads);
    check_tasks(t, p);
    trace_free(t);
    free(sources[0]);
    free(sources[1]);
    if (failures)
        printf("check_pomp_trace: %d check(s) failed\n", failures);
    return failures ? 1 : 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
