/* SPDX-License-Identifier: BSD-3-Clause */
/* `weft recover DIR [--keep-leftovers]`; see recover.h for the steps and
 * print_help for what the user sees.
 *
 * The leftovers (traces/ with the event files, journal/, and whatever else
 * the recording wrote) first move into DIR/leftovers/, so that the new
 * trace can take their place; a recovery that was interrupted finds them
 * there and starts again. The new trace is written into a fresh directory
 * inside DIR and only then moved into place, so DIR never holds a half
 * written traces.otf2. */
#define _GNU_SOURCE
#include "recover.h"

#include <errno.h>
#include <ftw.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "trace_reader.h"
#include "escape.h"

static void print_help(void)
{
    printf("usage: weft recover DIR [--keep-leftovers]\n"
           "\n"
           "Makes a consistent trace of what a recording that could not finish left in its\n"
           "experiment directory DIR: a process killed with SIGKILL or by the kernel's\n"
           "out-of-memory killer, a node that failed, an MPI job whose ranks ended by a\n"
           "signal, MPI_Abort or without MPI_Finalize. Everything that reached the disk\n"
           "is kept, from every rank; each thread's events end where its event file ends,\n"
           "with the regions still open there closed, and the program's end added.\n"
           "Messages and collectives whose partner's events did not reach the disk are\n"
           "left out. The trace is written into DIR (traces.otf2, traces.def, traces/),\n"
           "and a report on stdout says, per process, how it ended and what was kept and\n"
           "lost. A trace that lost events says so in its locations' properties, and\n"
           "'weft check' calls it \"recovered with losses\", not sound.\n"
           "\n"
           "Options:\n"
           "  --keep-leftovers  keep what the recording left in DIR/leftovers/ (by default\n"
           "                    it is removed once the new trace is complete)\n"
           "  -h, --help        show this help\n"
           "\n"
           "Exit status: 0 the trace was recovered, or DIR holds a complete trace already;\n"
           "1 nothing could be recovered (one line on stderr); 2 bad command line.\n");
}

static int remove_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb, (void)flag, (void)ftw;
    return remove(path);
}

static void remove_tree(const char *path)
{
    nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static bool exists(const char *path)
{
    struct stat sb;
    return lstat(path, &sb) == 0;
}

/* Moves DIR/NAME into the leftovers (if it is there). */
static bool move_aside(const recover_state *st, const char *name)
{
    char from[4400], to[4400];
    snprintf(from, sizeof(from), "%s/%s", st->dir, name);
    snprintf(to, sizeof(to), "%s/%s", st->leftovers, name);
    if (!exists(from))
        return true;
    if (exists(to))
        remove_tree(to);
    if (rename(from, to) == 0)
        return true;
    weft__cli_line(stderr, "%s: cannot move '%s' to '%s': %s", RECOVER, from, to, strerror(errno));
    return false;
}

/* What is to be recovered: 0 go on, or the exit code to end with. */
static int find_leftovers(recover_state *st)
{
    char journal[4400], anchor[4400];
    snprintf(st->leftovers, sizeof(st->leftovers), "%s/leftovers", st->dir);
    snprintf(journal, sizeof(journal), "%s/%s", st->dir, WEFT_JOURNAL_DIR);
    snprintf(anchor, sizeof(anchor), "%s/" WEFT_TRACE_ANCHOR_NAME, st->dir);
    struct stat sb;
    if (stat(st->dir, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
        weft__cli_line(stderr, "%s: '%s' is not a directory: %s", RECOVER, st->dir,
                       errno ? strerror(errno) : "a file");
        return WEFT_CLI_EXIT_FAILURE;
    }
    bool interrupted = exists(st->leftovers);
    if (!interrupted && !exists(journal)) {
        if (exists(anchor)) {
            weft__cli_line(stdout, "%s: '%s' holds a complete trace; nothing to recover", RECOVER,
                           st->dir);
            return -1;
        }
        weft__cli_line(stderr,
                       "%s: '%s' has no journal/ (it is not an experiment directory weft "
                       "recorded into, or nothing reached its disk)",
                       RECOVER, st->dir);
        return WEFT_CLI_EXIT_FAILURE;
    }
    if (!interrupted && mkdir(st->leftovers, 0777) != 0) {
        weft__cli_line(stderr, "%s: cannot create '%s': %s", RECOVER, st->leftovers,
                       strerror(errno));
        return WEFT_CLI_EXIT_FAILURE;
    }
    /* A recovery that was interrupted may have moved part of a new trace
     * in: the leftovers are what counts. */
    static const char *const names[] = {"traces", WEFT_JOURNAL_DIR, "traces.otf2", "traces.def"};
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        char path[4400];
        snprintf(path, sizeof(path), "%s/%s", st->dir, names[i]);
        if (interrupted) {
            char kept[4400];
            snprintf(kept, sizeof(kept), "%s/%s", st->leftovers, names[i]);
            if (exists(kept)) {
                remove_tree(path);
                continue;
            }
        }
        if (!move_aside(st, names[i]))
            return WEFT_CLI_EXIT_FAILURE;
    }
    snprintf(st->shadow, sizeof(st->shadow), "%s/shadow", st->leftovers);
    remove_tree(st->shadow);
    return 0;
}

/* The trace's clock: rank 0's tick rate, from its first event to its last. */
static weft_clock_properties clock_of(const recover_state *st)
{
    uint64_t first = UINT64_MAX, last = 0;
    for (size_t l = 0; l < st->location_count; l++) {
        const recover_location *loc = &st->locations[l];
        if (!loc->events_written)
            continue;
        first = loc->first_time < first ? loc->first_time : first;
        last = loc->last_time > last ? loc->last_time : last;
    }
    if (first > last)
        first = last = 0;
    weft_clock_properties clock = {.ticks_per_second = weft_journal_ticks_per_second(&st->parts[0]),
                                   .global_offset = first,
                                   .trace_length = last - first,
                                   .realtime_ns = weft_journal_realtime_at(&st->parts[0], first)};
    return clock;
}

bool recover_has_comm(const recover_state *st, weft_paradigm paradigm)
{
    uint32_t n = weft_registry_comm_count(st->reg);
    for (uint32_t c = 0; c < n; c++) {
        weft_comm_def def;
        if (weft_registry_comm_get(st->reg, (weft_comm){c}, &def) == WEFT_OK &&
            def.paradigm == paradigm)
            return true;
    }
    return false;
}

#define S(n) ((n) == 1 ? "" : "s")

/* Whether a part's process ended before writing all it recorded. */
static bool part_lost_events(const weft_journal_part *part)
{
    return part->state == WEFT_JOURNAL_RECORDING || !part->flushed;
}

static void report(const recover_state *st)
{
    bool losses = false;
    for (size_t p = 0; p < st->part_count; p++) {
        const weft_journal_part *part = &st->parts[p];
        uint64_t events = 0, dropped = 0, closed = 0, cut = 0, damaged = 0, locations = 0;
        for (size_t l = 0; l < st->location_count; l++) {
            const recover_location *loc = &st->locations[l];
            if (loc->part != p)
                continue;
            locations++;
            events += loc->events_written;
            dropped += loc->events_dropped;
            closed += loc->scopes_closed;
            losses = losses || loc->events_dropped > 0;
            cut += loc->bytes_cut;
            damaged += loc->damaged;
        }
        char how[96];
        if (part->state == WEFT_JOURNAL_SIGNALLED && part->signal)
            snprintf(how, sizeof(how), "ended by signal %u (%s)", part->signal,
                     strsignal((int)part->signal));
        else
            snprintf(how, sizeof(how), "%s", weft_journal_state_text(part->state));
        char closed_text[96] = "", dropped_text[112] = "";
        if (closed)
            snprintf(closed_text, sizeof(closed_text),
                     "; %" PRIu64 " region%s, team%s, fork%s or lock%s open at the end closed",
                     closed, S(closed), S(closed), S(closed), S(closed));
        if (dropped)
            snprintf(dropped_text, sizeof(dropped_text),
                     "; %" PRIu64 " event%s left out (messages or collectives whose partner was "
                     "lost)",
                     dropped, S(dropped));
        /* The host name comes from the journal, a file like any other. */
        weft__cli_line(stdout,
                       "%s: rank %u (process %u on %s) %s: %" PRIu64 " events of %" PRIu64
                       " thread%s recovered%s%s",
                       RECOVER, part->rank, part->pid, part->host[0] ? part->host : "?", how,
                       events, locations, locations == 1 ? "" : "s", closed_text, dropped_text);
        if (cut || damaged)
            weft__cli_line(stdout,
                           "%s: rank %u: %" PRIu64
                           " bytes of partly written event chunks and %" PRIu64
                           " damaged event files cut short",
                           RECOVER, part->rank, cut, damaged);
        if (part_lost_events(part)) {
            weft__cli_line(
                stdout,
                "%s: rank %u: lost: what it had recorded but not yet written when it ended "
                "(up to WEFT_BUFFER_SIZE per thread, and what OTF2 held)",
                RECOVER, part->rank);
            losses = true;
        }
    }
    /* As weft check says it (docs/FAULTS.md): consistent, and complete only
     * when nothing was lost. */
    weft__cli_line(stdout, "%s: %s trace of %" PRIu64 " events on %zu thread%s%s: %s/traces.otf2",
                   RECOVER, losses ? "a" : "a sound", st->events_written, st->location_count,
                   st->location_count == 1 ? "" : "s", losses ? ", recovered with losses" : "",
                   st->dir);
}

/* The trace says itself what recover did (docs/dev/OTF2-CONVENTIONS.md,
 * section 10): weft::recovered on every location whose process did not
 * write all its events (what it held when it ended is lost, how much is not
 * known), weft::events_left_out where messages or collectives were. */
static void mark_locations(recover_state *st)
{
    for (size_t l = 0; l < st->location_count; l++) {
        const recover_location *loc = &st->locations[l];
        const weft_journal_part *part = &st->parts[loc->part];
        if (part_lost_events(part))
            weft_registry_location_property(st->reg, loc->loc, WEFT_TRACE_RECOVERED, 1);
        if (loc->events_dropped)
            weft_registry_location_property(st->reg, loc->loc, WEFT_TRACE_EVENTS_LEFT_OUT,
                                            loc->events_dropped);
    }
}

/* Puts the new trace (in DIR/.recovered) into DIR. */
static bool move_into_place(const recover_state *st, const char *fresh)
{
    static const char *const names[] = {"traces", "traces.otf2", "traces.def"};
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        char from[4500], to[4400];
        snprintf(from, sizeof(from), "%s/%s", fresh, names[i]);
        snprintf(to, sizeof(to), "%s/%s", st->dir, names[i]);
        if (!exists(from))
            continue;
        if (rename(from, to) != 0) {
            weft__cli_line(stderr, "%s: cannot move '%s' to '%s': %s", RECOVER, from, to,
                           strerror(errno));
            return false;
        }
    }
    rmdir(fresh);
    return true;
}

static weft_status recover(recover_state *st)
{
    char fresh[4400], journal[4500], err[512] = "";
    snprintf(fresh, sizeof(fresh), "%s/.recovered", st->dir);
    remove_tree(fresh);
    weft_status status = weft_trace_writer_open(fresh, &st->writer);
    if (status != WEFT_OK)
        return status;
    st->reg = weft_trace_writer_registry(st->writer);
    snprintf(journal, sizeof(journal), "%s/%s", st->leftovers, WEFT_JOURNAL_DIR);
    status = weft_journal_read(journal, st->reg, &st->parts, &st->part_count, err, sizeof(err));
    if (status != WEFT_OK)
        weft__cli_line(stderr, "%s: %s", RECOVER, err);
    if (status == WEFT_OK)
        status = recover_shadow_create(st);
    if (status == WEFT_OK)
        status = recover_plan_teams(st);
    if (status == WEFT_OK && recover_has_comm(st, WEFT_PARADIGM_MPI))
        status = recover_match(st);
    for (size_t l = 0; status == WEFT_OK && l < st->location_count; l++)
        status = recover_write_location(st, l);
    if (status != WEFT_OK) {
        weft_trace_writer_discard(st->writer);
        st->writer = NULL;
        return status;
    }
    mark_locations(st);
    weft_clock_properties clock = clock_of(st);
    status = weft_trace_writer_close(st->writer, &clock);
    st->writer = NULL;
    if (status == WEFT_OK && !move_into_place(st, fresh))
        status = WEFT_ERR_IO;
    return status;
}

static int parse_option(int argc, char **argv, int *i, void *options)
{
    (void)argc;
    if (strcmp(argv[*i], "--keep-leftovers") != 0)
        return weft__cli_usage_error("recover", "unknown option '%s'", argv[*i]);
    *(bool *)options = true;
    return -1;
}

int weft__cli_recover(int argc, char **argv)
{
    const char *dir = NULL;
    bool keep = false;
    int code = weft__cli_parse_line(argc, argv, "recover", parse_option, &keep, print_help, &dir);
    if (code >= 0)
        return code;
    if (!dir)
        return weft__cli_usage_error("recover", "give the experiment directory to recover");
    recover_state st = {.dir = dir};
    int early = find_leftovers(&st);
    if (early)
        return early < 0 ? WEFT_CLI_EXIT_OK : early;
    weft_status status = recover(&st);
    if (status == WEFT_OK) {
        report(&st);
        remove_tree(st.shadow);
        if (!keep)
            remove_tree(st.leftovers);
        else
            weft__cli_line(stdout, "%s: the leftovers are kept in %s", RECOVER, st.leftovers);
    } else {
        weft__cli_line(stderr, "%s: no trace was recovered; the leftovers are in %s", RECOVER,
                       st.leftovers);
    }
    recover_match_free(&st);
    free(st.cuts);
    weft_journal_free(st.parts, st.part_count);
    free(st.locations);
    return status == WEFT_OK ? WEFT_CLI_EXIT_OK : WEFT_CLI_EXIT_FAILURE;
}
