/* SPDX-License-Identifier: BSD-3-Clause */
/* `weft check TRACE [--max-errors N]`: reads an OTF2 trace and reports, one
 * line each, what makes it unsound (see print_help); exits 0 when nothing
 * is wrong, 1 when something is (or the trace cannot be read), 2 for a bad
 * command line. */
#include "check_internal.h"
#include "cli.h"
#include "escape.h"
#include "progress.h"
#include "grow.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_MAX_ERRORS 50

static void print_help(void)
{
    printf("usage: weft check TRACE [--max-errors N] [--progress[=auto|always|never]]\n"
           "\n"
           "Checks that an OTF2 trace is sound and prints one line per problem:\n"
           "  weft check: LOCATION (rank R), event N, t=SECONDS s: WHAT\n"
           "(event N: the event's position among its location's events; t: seconds since\n"
           "the trace's first event, with the clock offsets applied). It reports:\n"
           "  - a leave without its enter, of another region than the innermost open\n"
           "    one, in another task than the one that entered the region, or of an\n"
           "    undefined region; regions still open at the end\n"
           "  - timestamps that go back on a location\n"
           "  - a receive without its send, a send without its receive (per sender,\n"
           "    receiver, communicator and tag, in order), a message whose sizes differ,\n"
           "    a receive that ends before its send began\n"
           "  - collectives that do not line up across the members of their\n"
           "    communicator (operation, root, count), a collective begin without end\n"
           "  - fork without join and join without fork, thread team begin/end that do\n"
           "    not pair up\n"
           "  - a lock acquired while another thread holds it, released by a thread\n"
           "    that does not hold it, acquisition orders of a lock with a gap\n"
           "  - threads of an OpenMP team (outermost) that began it different numbers\n"
           "    of times, or left different numbers of barriers in one of its runs\n"
           "    (Scalasca's analyzer crashes on both)\n"
           "  - a region entered or left, or a buffer flush, between a task's completion\n"
           "    and the task switch after it (Scalasca's analyzer misreads the tasks);\n"
           "    a task switch right after a switch to the implicit task from a task that\n"
           "    did not complete (it crashes); an implicit task named by another creating\n"
           "    thread than the location's thread index (its OTF2 id's upper half)\n"
           "  - a process's thread locations defined out of thread-index order; a task\n"
           "    created by a thread that is not a member of its team\n"
           "  - events naming an undefined region or communicator, or a rank outside\n"
           "    their communicator; definitions naming undefined strings, location\n"
           "    groups or groups\n"
           "  - one-sided communication: a window used outside its create/destroy, an\n"
           "    RMA operation outside an access epoch (fence, group epoch, lock on its\n"
           "    target) or to a rank outside the window's communicator, operations never\n"
           "    completed or completed twice, locks released while not held or held at\n"
           "    the end, ranks of a window with different numbers of fences\n"
           "  - I/O: operations completed without their begin or never completed, I/O\n"
           "    on a handle after it was destroyed\n"
           "  - a location holding fewer (or more) events than its definition promises\n"
           "    (bytes of its event file lost), and events the recorder lost\n"
           "    (weft::events_lost)\n"
           "and ends with one line: 'weft check: sound: ...' or 'weft check: N problems'.\n"
           "A trace with nested OpenMP parallel regions, a process whose teams have\n"
           "different sizes, or MPI messages or collectives on threads other than a\n"
           "process's first gets a line 'weft check: note: ...' before it: Scalasca\n"
           "2.6's analyzer refuses such traces; it is not a problem.\n"
           "A trace weft recover made of a recording that could not finish, which lost\n"
           "events (weft::recovered: a process's last events; weft::events_left_out:\n"
           "messages or collectives whose partner was lost), is consistent but not\n"
           "complete: without problems it ends 'weft check: recovered with losses: ...'\n"
           "and is not sound either.\n"
           "Names are printed with control characters escaped (\\x1b, \\u009b). Files\n"
           "that are not regular files, and definition files whose records or arrays\n"
           "do not fit (checked before OTF2 reads them), are one line on stderr.\n"
           "\n"
           "TRACE is the experiment directory (holding traces.otf2) or the .otf2 anchor\n"
           "file. Options:\n"
           "  --max-errors N  print at most N problem lines (default %d; 0: all);\n"
           "                  all are counted\n"
           "  --progress[=auto|always|never]\n"
           "                  progress on stderr: auto (the default) when reading takes\n"
           "                  more than a couple of seconds and stderr is a terminal\n"
           "  -h, --help      show this help\n"
           "\n"
           "Exit status: 0 sound, 1 problems found, recovered with losses, or the trace\n"
           "cannot be read (one line on stderr), 2 bad command line.\n",
           DEFAULT_MAX_ERRORS);
}

typedef struct options {
    const char *trace;
    size_t max_errors;
    weft_progress_mode progress;
} options;

static int parse_option(int argc, char **argv, int *i, void *options_)
{
    options *opt = options_;
    const char *value = NULL;
    if (weft__cli_option_value(argc, argv, i, "--max-errors", true, &value)) {
        if (!weft__cli_parse_count(value, &opt->max_errors))
            return weft__cli_usage_error("check", "--max-errors needs a number (0: all), not '%s'",
                                         value ? value : "nothing");
    } else if (weft__cli_option_value(argc, argv, i, "--progress", false, &value)) {
        if (!weft__cli_parse_progress(value, &opt->progress))
            return weft__cli_usage_error("check",
                                         "--progress takes auto, always or never, not '%s'", value);
    } else {
        return weft__cli_usage_error("check", "unknown option '%s'", argv[*i]);
    }
    return -1;
}

static int parse_options(int argc, char **argv, options *opt)
{
    *opt = (options){.max_errors = DEFAULT_MAX_ERRORS, .progress = WEFT_PROGRESS_AUTO};
    int code = weft__cli_parse_line(argc, argv, "check", parse_option, opt, print_help,
                                    &opt->trace);
    if (code >= 0)
        return code;
    if (!opt->trace)
        return weft__cli_usage_error("check", "give a trace: the experiment directory or its "
                                              "traces.otf2 file");
    return -1;
}

/* ---- reporting ------------------------------------------------------------ */

void weft__check_problem(check_state *c, const check_at *at, const char *fmt, ...)
{
    c->problems++;
    if (c->max_errors != 0 && c->problems > c->max_errors)
        return;
    const weft_trace_reader *st = &c->read;
    char where[320] = "definitions";
    if (at) {
        const location_def *loc = &st->locations[at->location];
        const char *name = weft__trace_string(st, loc->name_ref);
        char rank[32] = "";
        if (loc->rank != WEFT_TRACE_NO_RANK)
            snprintf(rank, sizeof(rank), ", rank %" PRIu32, loc->rank);
        char when[64];
        if (st->have_clock && st->timer_resolution > 0 && at->time >= st->global_offset)
            snprintf(when, sizeof(when), "t=%.9f s",
                     (double)(at->time - st->global_offset) / (double)st->timer_resolution);
        else
            snprintf(when, sizeof(when), "tick %" PRIu64, at->time);
        if (at->position == 0) /* the location as a whole */
            snprintf(where, sizeof(where), "location '%s' (%" PRIu64 "%s)", name ? name : "?",
                     loc->ref, rank);
        else
            snprintf(where, sizeof(where), "location '%s' (%" PRIu64 "%s), event %" PRIu64 ", %s",
                     name ? name : "?", loc->ref, rank, at->position, when);
    }
    char what[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof(what), fmt, ap);
    va_end(ap);
    weft__cli_line(stdout, "weft check: %s: %s", where, what);
}

bool weft__check_push(check_vec *v, const void *item, size_t size)
{
    if (!weft__cli_grow(&v->items, &v->capacity, v->count + 1, size))
        return false;
    memcpy((char *)v->items + v->count * size, item, size);
    v->count++;
    return true;
}

void weft__check_vec_free(check_vec *v)
{
    free(v->items);
    *v = (check_vec){0};
}

const char *weft__check_region_name(const check_state *c, uint64_t ref, char *buf, size_t size)
{
    size_t r = weft__trace_find_region(&c->read, ref);
    const char *name =
        r == NOT_FOUND ? NULL : weft__trace_string(&c->read, c->read.regions[r].name_ref);
    if (name)
        snprintf(buf, size, "'%s'", name);
    else
        snprintf(buf, size, "<region %" PRIu64 ">", ref);
    return buf;
}

const char *weft__check_comm_name(const check_state *c, uint64_t ref, char *buf, size_t size)
{
    size_t i = weft__trace_find_comm(&c->read, ref);
    const char *name =
        i == NOT_FOUND ? NULL : weft__trace_string(&c->read, c->read.comms[i].name_ref);
    if (name)
        snprintf(buf, size, "'%s' (%" PRIu64 ")", name, ref);
    else
        snprintf(buf, size, "<communicator %" PRIu64 ">", ref);
    return buf;
}

/* ---- definitions ------------------------------------------------------------ */

static bool string_defined(const weft_trace_reader *st, uint64_t ref)
{
    return weft__trace_string(st, ref) != NULL;
}

/* Scalasca's analyzer replays the n-th thread location defined in a
 * process as its thread n, and takes its implicit task to be the one named
 * by the location's thread index (its id's upper half): the locations of a
 * process must be defined in thread-index order (it crashed where they
 * were not). Indices may have gaps (a thread that recorded nothing). */
static void check_thread_order(check_state *c)
{
    const weft_trace_reader *st = &c->read;
    size_t n = st->location_count;
    size_t *by_definition = malloc((n ? n : 1) * sizeof(*by_definition));
    uint64_t *last = calloc(st->group_count ? st->group_count : 1, sizeof(*last));
    if (!by_definition || !last) {
        free(by_definition);
        free(last);
        return;
    }
    for (size_t i = 0; i < n; i++)
        by_definition[i] = SIZE_MAX;
    for (size_t i = 0; i < n; i++) /* duplicates dropped: places past the count are left out */
        if (st->locations[i].defined_at < n)
            by_definition[st->locations[i].defined_at] = i;
    for (size_t k = 0; k < n; k++) {
        if (by_definition[k] == SIZE_MAX)
            continue;
        const location_def *l = &st->locations[by_definition[k]];
        size_t group = weft__trace_find_group(st, l->group_ref);
        if (l->type != OTF2_LOCATION_TYPE_CPU_THREAD || group == NOT_FOUND)
            continue;
        uint64_t index = (l->ref >> 32) + 1; /* last[]: 0 before the first */
        if (index < last[group])
            weft__check_problem(c, NULL,
                                "location %" PRIu64 " (thread index %" PRIu64
                                ") is defined after thread index %" PRIu64 " of its process",
                                l->ref, index - 1, last[group] - 1);
        else
            last[group] = index;
    }
    free(by_definition);
    free(last);
}

/* Every reference of a definition names a definition. */
static void check_definitions(check_state *c)
{
    const weft_trace_reader *st = &c->read;
    for (size_t i = 0; i < st->region_count; i++) {
        const region_def *r = &st->regions[i];
        if (!string_defined(st, r->name_ref))
            weft__check_problem(c, NULL, "region %" PRIu64 " is named by undefined string %" PRIu64,
                                r->ref, r->name_ref);
        if (r->file_ref != OTF2_UNDEFINED_STRING && !string_defined(st, r->file_ref))
            weft__check_problem(
                c, NULL, "region %" PRIu64 " names undefined string %" PRIu64 " as its source file",
                r->ref, r->file_ref);
    }
    for (size_t i = 0; i < st->location_count; i++) {
        const location_def *l = &st->locations[i];
        if (!string_defined(st, l->name_ref))
            weft__check_problem(c, NULL,
                                "location %" PRIu64 " is named by undefined string %" PRIu64,
                                l->ref, l->name_ref);
        if (weft__trace_find_group(st, l->group_ref) == NOT_FOUND)
            weft__check_problem(c, NULL,
                                "location %" PRIu64 " belongs to undefined location group %" PRIu64,
                                l->ref, l->group_ref);
    }
    check_thread_order(c);
    for (size_t i = 0; i < st->location_count; i++) {
        if (st->locations[i].events_lost == 0)
            continue;
        const check_at at = {.location = (uint32_t)i}; /* position 0: the whole location */
        weft__check_problem(c, &at,
                            "the recorder lost %" PRIu64 " of its events (" WEFT_TRACE_EVENTS_LOST
                            "): they could not be written, the trace is incomplete",
                            st->locations[i].events_lost);
    }
    for (size_t i = 0; i < st->comm_count; i++) {
        const comm_def *m = &st->comms[i];
        if (!string_defined(st, m->name_ref))
            weft__check_problem(c, NULL,
                                "communicator %" PRIu64 " is named by undefined string %" PRIu64,
                                m->ref, m->name_ref);
        if (m->members == NOT_FOUND)
            weft__check_problem(c, NULL,
                                "communicator %" PRIu64 " refers to undefined group %" PRIu64,
                                m->ref, m->group_ref);
    }
}

/* ---- the command ------------------------------------------------------------ */

/* What weft recover says a trace lost (docs/FAULTS.md): locations whose
 * process ended before writing all it recorded (weft::recovered), and
 * events it left out because their partner was lost
 * (weft::events_left_out). */
typedef struct recovery_losses {
    uint64_t locations;
    uint64_t left_out;
} recovery_losses;

static recovery_losses recovered_with_losses(const weft_trace_reader *st)
{
    recovery_losses losses = {0};
    for (size_t i = 0; i < st->location_count; i++) {
        losses.locations += st->locations[i].recovered;
        losses.left_out += st->locations[i].events_left_out;
    }
    return losses;
}

/* Scalasca's analyzer replays a process's thread locations on as many
 * threads and stops unless each began as many OpenMP teams as the first
 * (the location of the lowest thread index): sets c->counts_vary. It
 * crashed, too, where more than one thread of a process forked teams
 * outside any team: sets c->roots_many. */
static void compare_team_begins(check_state *c)
{
    const weft_trace_reader *st = &c->read;
    if (!c->team_begins)
        return; /* no OpenMP team at all */
    uint64_t *first = malloc((st->group_count ? st->group_count : 1) * sizeof(*first));
    size_t *first_at = malloc((st->group_count ? st->group_count : 1) * sizeof(*first_at));
    unsigned *roots = calloc(st->group_count ? st->group_count : 1, sizeof(*roots));
    for (size_t g = 0; first && first_at && g < st->group_count; g++)
        first[g] = UINT64_MAX;
    for (int pass = 0; first && first_at && roots && pass < 2; pass++) {
        for (size_t i = 0; i < st->location_count; i++) {
            const location_def *l = &st->locations[i];
            size_t g = weft__trace_find_group(st, l->group_ref);
            if (l->type != OTF2_LOCATION_TYPE_CPU_THREAD || g == NOT_FOUND)
                continue;
            if (pass == 0 && (l->ref >> 32) < first[g]) {
                first[g] = l->ref >> 32;
                first_at[g] = i;
            } else if (pass == 1) {
                c->counts_vary |= c->team_begins[i] != c->team_begins[first_at[g]];
                roots[g] += c->root_forks[i];
                c->roots_many |= roots[g] > 1;
            }
        }
    }
    free(first);
    free(first_at);
    free(roots);
}

/* What makes Scalasca 2.6's analyzer refuse a sound trace: a note line
 * each, before the closing line; not problems. */
static void print_notes(check_state *c)
{
    compare_team_begins(c);
    if (c->team_sizes_vary || c->teams_nested || c->counts_vary)
        weft__cli_line(stdout,
                       "weft check: note: %s: Scalasca 2.6's analyzer refuses such a trace "
                       "(\"Varying numbers of threads in OpenMP parallel regions\"); Vampir "
                       "and weft's tools read it",
                       c->teams_nested && c->team_sizes_vary
                           ? "nested OpenMP parallel regions, teams of different sizes"
                       : c->teams_nested    ? "nested OpenMP parallel regions"
                       : c->team_sizes_vary ? "OpenMP teams of different sizes in a process"
                                            : "threads of a process that began different "
                                              "numbers of OpenMP teams (threads the program "
                                              "made, forking teams or none)");
    if (c->roots_many)
        weft__cli_line(stdout, "weft check: note: OpenMP teams forked by more than one thread of a "
                               "process outside any team (threads the program made): Scalasca "
                               "2.6's analyzer does not read such a trace (it stops or crashes); "
                               "Vampir and weft's tools read it");
    if (c->mpi_off_master)
        weft__cli_line(stdout, "weft check: note: MPI messages or collectives on threads other "
                               "than a process's first: Scalasca 2.6's analyzer refuses such a "
                               "trace (\"MPI calls on threads other than the master thread not "
                               "supported\"); Vampir and weft's tools read it");
}

static void free_check(check_state *c)
{
    weft__check_vec_free(&c->regions);
    weft__check_vec_free(&c->teams);
    weft__check_vec_free(&c->requests);
    weft__check_vec_free(&c->sends);
    weft__check_vec_free(&c->receives);
    weft__check_vec_free(&c->collectives);
    weft__check_vec_free(&c->locks);
    weft__check_vec_free(&c->team_sizes);
    free(c->team_begins);
    free(c->root_forks);
    weft__check_barriers_free(c);
    weft__check_rma_free(c);
    weft__trace_free(&c->read);
}

int weft__cli_check(int argc, char **argv)
{
    options opt;
    int exit_code = parse_options(argc, argv, &opt);
    if (exit_code >= 0)
        return exit_code;
    char *anchor = weft__trace_find_anchor("weft check", opt.trace);
    if (!anchor)
        return WEFT_CLI_EXIT_FAILURE;

    check_state c = {.read = {.command = "weft check",
                              .path = anchor,
                              .progress = opt.progress,
                              .failure = WEFT_OK},
                     .max_errors = opt.max_errors};
    OTF2_Reader *reader = weft__trace_open(&c.read);
    weft_status status = reader ? WEFT_OK : WEFT_ERR_OTF2;
    if (status == WEFT_OK)
        status = weft__trace_read_defs(&c.read, reader);
    if (status == WEFT_OK)
        check_definitions(&c);
    if (status == WEFT_OK)
        status = weft__check_read_events(&c, reader);
    status = weft__trace_close(&c.read, reader, status);
    if (status == WEFT_OK)
        status = weft__check_match(&c);
    if (status == WEFT_ERR_NO_MEMORY)
        weft__cli_line(stderr, "weft check: out of memory checking '%s'", anchor);

    recovery_losses losses = {0};
    if (status == WEFT_OK)
        losses = recovered_with_losses(&c.read);
    bool recovered = losses.locations > 0 || losses.left_out > 0;
    if (status == WEFT_OK)
        print_notes(&c);
    if (status == WEFT_OK) {
        char what[160] = "";
        if (recovered)
            snprintf(what, sizeof(what),
                     "%" PRIu64 " location%s lost %s last events (" WEFT_TRACE_RECOVERED
                     "), %" PRIu64 " event%s left out (" WEFT_TRACE_EVENTS_LEFT_OUT ")",
                     losses.locations, losses.locations == 1 ? "" : "s",
                     losses.locations == 1 ? "its" : "their", losses.left_out,
                     losses.left_out == 1 ? " was" : "s were");
        if (c.problems == 0)
            weft__cli_line(stdout,
                           "weft check: %s: %" PRIu64 " events in %zu locations, %" PRIu64
                           " messages and %" PRIu64 " collectives matched, %" PRIu64
                           " lock events%s%s: %s",
                           recovered ? "recovered with losses" : "sound", c.read.event_count,
                           c.read.location_count, c.matched_messages, c.matched_collectives,
                           (uint64_t)c.locks.count, recovered ? "; " : "", what, anchor);
        else
            weft__cli_line(stdout,
                           "weft check: %" PRIu64 " problem%s (%" PRIu64 " shown) in %" PRIu64
                           " events of %zu locations%s%s: %s",
                           c.problems, c.problems == 1 ? "" : "s",
                           c.max_errors && c.problems > c.max_errors ? c.max_errors : c.problems,
                           c.read.event_count, c.read.location_count,
                           recovered ? "; recovered with losses: " : "", what, anchor);
    }
    /* A recovered trace that lost events is consistent but incomplete: it
     * is never called sound (docs/FAULTS.md). */
    bool sound = status == WEFT_OK && c.problems == 0 && !recovered;
    free_check(&c);
    free(anchor);
    return sound ? WEFT_CLI_EXIT_OK : WEFT_CLI_EXIT_FAILURE;
}
