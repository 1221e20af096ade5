/* SPDX-License-Identifier: BSD-3-Clause */
/* `weft summary TRACE [options]`: parses the command line, finds the anchor
 * file (TRACE may be the experiment directory), reads the trace into a
 * weft_summary and prints it as text, CSV or JSON. Reading and printing live
 * in summary_read.c and summary_{text,csv,json}.c; this file only decides
 * what to do and how to exit. */
#include "cli.h"
#include "escape.h"
#include "summary.h"
#include "progress.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_TOP 20
#define ANCHOR_NAME "traces.otf2"

#ifndef WEFT_VERSION
#error "WEFT_VERSION must be defined by the build (PROJECT_VERSION)"
#endif

typedef enum format { FORMAT_TEXT, FORMAT_CSV, FORMAT_JSON } format;

typedef struct options {
    const char *trace;
    size_t top;
    bool top_given;
    format format;
    weft_summary_table_id table;
    bool table_given;
    weft_progress_mode progress;
} options;

static void print_help(void)
{
    printf("usage: weft summary TRACE [--top N] [--format text|csv|json] [--table NAME]\n"
           "                         [--progress[=auto|always|never]]\n"
           "\n"
           "Prints a profile computed from an OTF2 trace: its duration, location groups\n"
           "(processes), ranks, locations, threads and events; one row per region,\n"
           "heaviest inclusive time first; exclusive time and visits per paradigm; MPI\n"
           "point-to-point messages and bytes per rank pair and per communicator, and\n"
           "collective calls and bytes per operation and communicator; OpenMP time in\n"
           "barriers and waiting for locks, per location; I/O (MPI-IO) per rank and\n"
           "file.\n"
           "\n"
           "TRACE is the experiment directory (holding " ANCHOR_NAME ") or the .otf2\n"
           "anchor file itself. The trace is read once, location by location; memory\n"
           "does not grow with the number of events.\n"
           "\n"
           "Region columns:\n"
           "  visits    times the region was entered, summed over locations\n"
           "  incl [s]  inclusive time summed over locations; when a region is entered\n"
           "            again while open (recursion), only the outermost instance counts\n"
           "  excl [s]  inclusive time minus the time spent in regions entered inside it\n"
           "  incl %%    incl as a percentage of the summed inclusive time of all\n"
           "            root-level regions (those entered with nothing open on their\n"
           "            location), over all locations\n"
           "  min/mean/max [s]\n"
           "            inclusive time per location, over the locations that entered the\n"
           "            region (mean = incl / number of those locations)\n"
           "  region    the region's name\n"
           "\n"
           "Paradigms: user, openmp, mpi, measurement (the measurement system's own and\n"
           "artificial regions), other (pthreads, CUDA, ...): the regions' exclusive\n"
           "time and visits.\n"
           "\n"
           "MPI: sends (MpiSend, MpiIsend) are counted by the sender's rank, receives\n"
           "(MpiRecv, MpiIrecv) by the receiver's; peers are translated to world ranks\n"
           "through the communicator's members. Collectives: MpiCollectiveEnd records,\n"
           "their calls and bytes sent and received summed over the ranks.\n"
           "\n"
           "OpenMP: barrier time is the time inside explicit and implicit barrier\n"
           "regions; lock wait is, for each lock acquisition recorded directly inside a\n"
           "critical construct or omp_set_lock / omp_set_nest_lock, the time from\n"
           "entering that region to the acquisition.\n"
           "\n"
           "I/O, per rank and file (OTF2 I/O records): reads and writes (operations\n"
           "completed, bytes transferred), flushes, and time [s]: from each operation's\n"
           "IoOperationBegin to its IoOperationComplete, summed (a non-blocking one's\n"
           "until the Wait that completed it).\n"
           "\n"
           "The duration is the trace length from the ClockProperties definition, or\n"
           "the span between the first and last enter/leave when that is zero.\n"
           "Events: last, the regions that produced the most events (at most 10, fewer\n"
           "with --top, all with --top 0): each event counts to the region it was\n"
           "recorded in (an enter to the region it opens, a leave to the one it closes,\n"
           "any other event to the innermost open region), with its share of all events,\n"
           "its visits and events per visit: what to leave out for a smaller trace\n"
           "(WEFT_OPENMP_EVENTS, a filter file; weft info).\n"
           "\n"
           "The duration is the trace length from the ClockProperties definition, or\n"
           "the span between the first and last enter/leave when that is zero.\n");
    printf("\n"
           "Unbalanced traces are summarised anyway: a leave with no matching enter is\n"
           "ignored, a leave of a region with others still open inside closes those\n"
           "too, and regions open at the end are closed at their location's last\n"
           "enter/leave; one warning line on stderr gives the count. Events the\n"
           "recorder lost (weft::events_lost) are counted in one warning line too, and\n"
           "so is what a trace weft recover made lost (weft::recovered,\n"
           "weft::events_left_out).\n"
           "\n"
           "A damaged trace is an error, not a profile of part of it: an event file\n"
           "holding fewer events than its location's definition promises, definition\n"
           "files whose records do not fit (checked before OTF2 reads them), files that\n"
           "are not regular files (a named pipe is refused, not waited for). Names are\n"
           "printed with control characters escaped (\\x1b, \\u009b).\n"
           "\n");
    /* two strings: C99 compilers need not take literals over 4095 bytes */
    printf("Options:\n"
           "  --top N        show only the N heaviest regions (0: all); in the text\n"
           "                 format also at most N rank pairs and OpenMP locations.\n"
           "                 Default: 20 for text, all for csv and json\n"
           "  --format text|csv|json\n"
           "                 text (default): tables for reading; json: one object with\n"
           "                 every section (schema_version 1, see docs/COMMANDS.md);\n"
           "                 csv: one table, chosen with --table\n"
           "  --table NAME   the CSV table: overview, regions (default), paradigms,\n"
           "                 p2p_pairs, p2p_communicators, collectives, openmp_locations,\n"
           "                 io\n"
           "  --progress[=WHEN]\n"
           "                 progress of reading the events on stderr, never on stdout.\n"
           "                 auto (default): when stderr is a terminal and reading has\n"
           "                 taken 2 s, updated 4 times a second; always (--progress\n"
           "                 alone): from the start, also into a file or pipe (then one\n"
           "                 line a second and a last line at 100%%); never\n"
           "  -h, --help     show this help\n"
           "\n"
           "Exit status: 0 on success, 1 when the trace cannot be read (missing, not an\n"
           "OTF2 archive, damaged or truncated), 2 for a bad command line.\n");
}

static bool parse_format(const char *value, format *out)
{
    static const char *const names[] = {"text", "csv", "json"};
    for (int f = 0; f < 3; f++) {
        if (value && strcmp(value, names[f]) == 0) {
            *out = (format)f;
            return true;
        }
    }
    return false;
}

static bool parse_table(const char *value, weft_summary_table_id *out)
{
    for (int t = 0; t < WEFT_SUMMARY_TABLE_COUNT; t++) {
        if (value && strcmp(value, weft__summary_table_name((weft_summary_table_id)t)) == 0) {
            *out = (weft_summary_table_id)t;
            return true;
        }
    }
    return false;
}

/* Parses one option at argv[*i]; returns -1 when it is good, else the exit code. */
static int parse_option(int argc, char **argv, int *i, void *options_)
{
    options *opt = options_;
    const char *arg = argv[*i];
    const char *value = NULL;
    if (weft__cli_option_value(argc, argv, i, "--top", true, &value)) {
        if (!weft__cli_parse_count(value, &opt->top)) {
            return weft__cli_usage_error("summary",
                                         "--top needs a number of regions (0 for all), not '%s'",
                                         value ? value : "nothing");
        }
        opt->top_given = true;
    } else if (weft__cli_option_value(argc, argv, i, "--format", true, &value)) {
        if (!parse_format(value, &opt->format)) {
            return weft__cli_usage_error("summary", "--format takes text, csv or json, not '%s'",
                                         value ? value : "nothing");
        }
    } else if (weft__cli_option_value(argc, argv, i, "--table", true, &value)) {
        if (!parse_table(value, &opt->table)) {
            return weft__cli_usage_error(
                "summary",
                "--table takes overview, regions, paradigms, p2p_pairs, p2p_communicators, "
                "collectives, openmp_locations or io, not '%s'",
                value ? value : "nothing");
        }
        opt->table_given = true;
    } else if (weft__cli_option_value(argc, argv, i, "--progress", false, &value)) {
        if (!weft__cli_parse_progress(value, &opt->progress)) {
            return weft__cli_usage_error("summary",
                                         "--progress takes auto, always or never, "
                                         "not '%s'",
                                         value);
        }
    } else {
        return weft__cli_usage_error("summary", "unknown option '%s'", arg);
    }
    return -1;
}

/* Returns -1 when the options are good, else the exit code to leave with. */
static int parse_options(int argc, char **argv, options *opt)
{
    *opt = (options){.format = FORMAT_TEXT,
                     .table = WEFT_SUMMARY_TABLE_REGIONS,
                     .progress = WEFT_PROGRESS_AUTO};
    int code = weft__cli_parse_line(argc, argv, "summary", parse_option, opt, print_help,
                                    &opt->trace);
    if (code >= 0)
        return code;
    if (!opt->trace) {
        return weft__cli_usage_error("summary", "give a trace: the experiment directory or "
                                                "its " ANCHOR_NAME " file");
    }
    if (opt->table_given && opt->format != FORMAT_CSV)
        return weft__cli_usage_error("summary", "--table selects a CSV table; add --format csv");
    if (!opt->top_given)
        opt->top = opt->format == FORMAT_TEXT ? DEFAULT_TOP : 0;
    return -1;
}

static void warn_about(const weft_summary *s)
{
    if (s->events_lost > 0) {
        weft__cli_line(stderr,
                       "weft summary: warning: the recorder lost %" PRIu64 " events of %" PRIu64
                       " location(s) of '%s' (" WEFT_TRACE_EVENTS_LOST "): they could not be "
                       "written; the trace is incomplete, and so is this summary",
                       s->events_lost, s->events_lost_locations, s->trace_path);
    }
    if (s->recovered_locations > 0 || s->events_left_out > 0) {
        weft__cli_line(stderr,
                       "weft summary: warning: '%s' was recovered with losses: %" PRIu64
                       " location(s) lost their last events (" WEFT_TRACE_RECOVERED "), %" PRIu64
                       " event(s) were left out (" WEFT_TRACE_EVENTS_LEFT_OUT
                       "); this summary covers what was recovered",
                       s->trace_path, s->recovered_locations, s->events_left_out);
    }
    if (s->unbalanced_count > 0) {
        weft__cli_line(stderr,
                       "weft summary: warning: %" PRIu64 " unbalanced enter/leave event(s) in '%s' "
                       "(a leave without its enter, or a region left open); open regions were "
                       "closed at their location's last enter/leave",
                       s->unbalanced_count, s->trace_path);
    }
    if (s->undefined_region_count > 0) {
        weft__cli_line(stderr,
                       "weft summary: warning: %" PRIu64 " enter/leave event(s) in '%s' name an "
                       "undefined region and were ignored",
                       s->undefined_region_count, s->trace_path);
    }
    if (s->undefined_comm_count > 0) {
        weft__cli_line(stderr,
                       "weft summary: warning: %" PRIu64 " MPI event(s) in '%s' name an undefined "
                       "communicator; their peers are counted as rank '?'",
                       s->undefined_comm_count, s->trace_path);
    }
}

int weft__cli_summary(int argc, char **argv)
{
    options opt;
    int exit_code = parse_options(argc, argv, &opt);
    if (exit_code >= 0)
        return exit_code;

    char *anchor = weft__trace_find_anchor("weft summary", opt.trace);
    if (!anchor)
        return WEFT_CLI_EXIT_FAILURE;
    weft_summary summary;
    weft_status status = weft__summary_read(anchor, opt.progress, &summary);
    free(anchor);
    if (status != WEFT_OK)
        return WEFT_CLI_EXIT_FAILURE;

    warn_about(&summary);
    switch (opt.format) {
    case FORMAT_TEXT:
        weft__summary_print_text(stdout, &summary, opt.top);
        break;
    case FORMAT_CSV:
        weft__summary_print_csv(stdout, &summary, opt.table, opt.top);
        break;
    case FORMAT_JSON:
        weft__summary_print_json(stdout, &summary, opt.top, WEFT_VERSION);
        break;
    }
    weft__summary_clear(&summary);
    return WEFT_CLI_EXIT_OK;
}
