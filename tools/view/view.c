/* SPDX-License-Identifier: BSD-3-Clause */
/* `weft view TRACE [-o FILE.html] [--max-size SIZE] [--window=START:END]
 * [--progress[=WHEN]]`: the command line, and the order of the steps:
 * definitions; the time range when the trace has no length; pass A; the
 * messages matched; the pyramid and profile within their shares; the plan
 * of the detail; pass B; the detail tables; the file. Each pass opens the
 * trace afresh (a fresh OTF2 reader applies each location's clock offsets
 * once). At the end one line on stdout says where the page is, how large,
 * and how to open it. */
#include "cli.h"
#include "view.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void print_help(void)
{
    printf("usage: weft view TRACE [-o FILE.html] [--max-size SIZE] [--window=START:END]\n"
           "                      [--progress[=auto|always|never]]\n"
           "\n"
           "Writes the timeline of an OTF2 trace as one self-contained HTML page that\n"
           "any browser opens offline: one row per location grouped by rank, region\n"
           "visits coloured by region (MPI red, OpenMP orange, OpenMP barriers and waits\n"
           "violet, user code green), MPI messages as lines, collectives and OpenMP\n"
           "forks/joins marked; zoom (wheel, drag on the ruler, +/-) and pan (drag,\n"
           "arrow keys); a tooltip per visit and message; the profile of the visible\n"
           "range, a region search and a legend in the side panel.\n"
           "\n"
           "TRACE is the experiment directory (holding " WEFT_TRACE_ANCHOR_NAME ") or the\n"
           ".otf2 anchor file; any OTF2 trace. It is read twice, location by location;\n"
           "memory does not grow with the number of events (what must be sorted across\n"
           "locations goes through temporary files in $TMPDIR or /tmp).\n"
           "\n"
           "Large traces: the page holds a summary of the whole run at several\n"
           "resolutions (per location and time bin the region that ran most), the\n"
           "profile in time bins, and every event of a detail window in the middle of\n"
           "the run plus every long visit; the window is as large as the size bound\n"
           "allows. Small traces are embedded whole.\n"
           "\n"
           "Options:\n"
           "  -o FILE, --output FILE\n"
           "                 the page to write (default: the experiment directory's name\n"
           "                 with .html, in the current directory); replaced if it exists\n"
           "  --max-size SIZE\n"
           "                 the page's size bound in bytes, K, M or G (powers of 1024);\n"
           "                 default 25M. The page never exceeds it\n"
           "  --window=START:END\n"
           "                 the detail window, in seconds from the start of the run\n"
           "                 (e.g. 1.5:2), instead of the one around the middle\n"
           "  --progress[=WHEN]\n"
           "                 progress of reading on stderr: auto (default: when stderr is\n"
           "                 a terminal and reading has taken 2 s), always, never\n"
           "  -h, --help     show this help\n"
           "\n"
           "Exit status: 0 when the page was written, 1 when the trace cannot be read\n"
           "or the page cannot be written, 2 for a bad command line.\n");
}

/* A size with an optional K, M or G (powers of 1024). */
static bool parse_size(const char *text, uint64_t *out)
{
    if (!text || !isdigit((unsigned char)*text))
        return false;
    errno = 0;
    char *end = NULL;
    unsigned long long n = strtoull(text, &end, 10);
    unsigned shift = 0;
    switch (toupper((unsigned char)*end)) {
    case 'K':
        shift = 10, end++;
        break;
    case 'M':
        shift = 20, end++;
        break;
    case 'G':
        shift = 30, end++;
        break;
    default:
        break;
    }
    if (shift && tolower((unsigned char)*end) == 'i')
        end++;
    if (toupper((unsigned char)*end) == 'B')
        end++;
    if (errno != 0 || *end != '\0' || n > (UINT64_MAX >> shift))
        return false;
    *out = (uint64_t)n << shift;
    return true;
}

static bool parse_window(const char *text, view_options *o)
{
    if (!text)
        return false;
    char *end = NULL;
    errno = 0;
    double a = strtod(text, &end);
    if (end == text || *end != ':')
        return false;
    const char *second = end + 1;
    double b = strtod(second, &end);
    if (errno != 0 || end == second || *end != '\0' || !(a >= 0) || !(b > a))
        return false;
    o->window_start_s = a;
    o->window_end_s = b;
    o->window_given = true;
    return true;
}

static int parse_option(int argc, char **argv, int *i, void *options)
{
    view_options *o = options;
    const char *arg = argv[*i];
    const char *value = NULL;
    if (strcmp(arg, "-o") == 0 || weft__cli_option_value(argc, argv, i, "--output", true, &value)) {
        if (strcmp(arg, "-o") == 0)
            value = *i + 1 < argc ? argv[++*i] : NULL;
        if (!value || !*value)
            return weft__cli_usage_error("view", "%s needs the name of the page to write", arg);
        o->output = value;
    } else if (weft__cli_option_value(argc, argv, i, "--max-size", true, &value)) {
        if (!parse_size(value, &o->max_bytes) || o->max_bytes == 0)
            return weft__cli_usage_error(
                "view", "--max-size takes a size in bytes with an optional K, M or G, not '%s'",
                value ? value : "nothing");
    } else if (weft__cli_option_value(argc, argv, i, "--window", true, &value)) {
        if (!parse_window(value, o))
            return weft__cli_usage_error(
                "view", "--window takes START:END in seconds from the start, START < END, not '%s'",
                value ? value : "nothing");
    } else if (weft__cli_option_value(argc, argv, i, "--progress", false, &value)) {
        if (!weft__cli_parse_progress(value, &o->progress))
            return weft__cli_usage_error("view", "--progress takes auto, always or never, not '%s'",
                                         value);
    } else {
        return weft__cli_usage_error("view", "unknown option '%s'", arg);
    }
    return -1;
}

static int parse_options(int argc, char **argv, view_options *o)
{
    *o = (view_options){.max_bytes = VIEW_DEFAULT_MAX_BYTES, .progress = WEFT_PROGRESS_AUTO};
    int code = weft__cli_parse_line(argc, argv, "view", parse_option, o, print_help, &o->trace);
    if (code >= 0)
        return code;
    if (!o->trace)
        return weft__cli_usage_error(
            "view",
            "give a trace: the experiment directory or its " WEFT_TRACE_ANCHOR_NAME " file");
    return -1;
}

/* NAME.html in the current directory, NAME the experiment directory's name. */
static char *default_output(const char *anchor)
{
    char *copy = strdup(anchor);
    if (!copy)
        return NULL;
    char *slash = strrchr(copy, '/');
    const char *base = copy;
    if (slash && strcmp(slash + 1, WEFT_TRACE_ANCHOR_NAME) == 0) {
        *slash = '\0';
        slash = strrchr(copy, '/');
        base = slash ? slash + 1 : copy;
    } else if (slash) {
        base = slash + 1;
    }
    if (!*base || strcmp(base, ".") == 0 || strcmp(base, "..") == 0)
        base = "trace";
    size_t n = strlen(base) + 6;
    char *out = malloc(n);
    if (out) {
        snprintf(out, n, "%s", base);
        char *dot = strrchr(out, '.');
        if (dot && strcmp(dot, ".otf2") == 0)
            *dot = '\0';
        strcat(out, ".html");
    }
    free(copy);
    return out;
}

/* Opens the trace for one more pass: a fresh OTF2 reader, the definitions again. */
static OTF2_Reader *open_pass(view_state *s, const view_options *o, const char *anchor)
{
    weft__trace_free(&s->read);
    s->read = (weft_trace_reader){.command = VIEW_COMMAND, .path = anchor, .progress = o->progress};
    OTF2_Reader *reader = weft__trace_open(&s->read);
    if (reader && weft__trace_read_defs(&s->read, reader) != WEFT_OK) {
        weft__trace_close(&s->read, reader, WEFT_ERR_OTF2);
        return NULL;
    }
    return reader;
}

static weft_status run_pass(view_state *s, const view_options *o, const char *anchor, int pass)
{
    OTF2_Reader *reader = open_pass(s, o, anchor);
    if (!reader)
        return WEFT_ERR_OTF2;
    weft_status status = weft__view_read_pass(s, reader, pass);
    return weft__trace_close(&s->read, reader, status);
}

static void init_spills(view_state *s)
{
    weft__view_spill_init(&s->sends, P2P_WORDS, P2P_KEYS);
    weft__view_spill_init(&s->receives, P2P_WORDS, P2P_KEYS);
    weft__view_spill_init(&s->messages, MSG_WORDS, SORT_KEYS);
    weft__view_spill_init(&s->collectives, COL_WORDS, SORT_KEYS);
    weft__view_spill_init(&s->threads, THR_WORDS, SORT_KEYS);
    weft__view_spill_init(&s->visits, VIS_WORDS, SORT_KEYS);
}

static bool spills_failed(view_state *s)
{
    if (!s->sends.failed && !s->receives.failed && !s->collectives.failed && !s->threads.failed &&
        !s->visits.failed)
        return false;
    weft__trace_report(&s->read, OTF2_SUCCESS, NULL,
                       "cannot write temporary files ($TMPDIR or /tmp) while reading");
    return true;
}

static void free_state(view_state *s, view_page *p)
{
    weft__view_spill_free(&s->sends);
    weft__view_spill_free(&s->receives);
    weft__view_spill_free(&s->messages);
    weft__view_spill_free(&s->collectives);
    weft__view_spill_free(&s->threads);
    weft__view_spill_free(&s->visits);
    weft__view_nest_free(&s->nest);
    weft__view_lod_free(&s->lod);
    weft__view_defs_free(&s->defs);
    free(s->requests);
    weft__trace_free(&s->read);
    for (size_t i = 0; i < p->table_count; i++)
        weft__view_buf_free(&p->tables[i].payload);
    weft__view_buf_free(&p->definitions);
    free(p->trace_path);
}

/* The steps up to pass A's results. The reader that read the definitions
 * serves the first events pass too (each open reads and checks them again). */
static weft_status read_trace(view_state *s, const view_options *o, const char *anchor)
{
    OTF2_Reader *reader = open_pass(s, o, anchor);
    if (!reader)
        return WEFT_ERR_OTF2;
    weft_status status = weft__view_defs_build(&s->defs, &s->read) == WEFT_OK
                             ? WEFT_OK
                             : WEFT_ERR_NO_MEMORY;
    if (status == WEFT_OK && s->defs.duration == 0) {
        /* Some converters write no trace length: the first and last events tell. */
        status = weft__trace_close(&s->read, reader, weft__view_read_pass(s, reader, 0));
        reader = NULL;
        if (status == WEFT_OK && s->any_time) {
            s->defs.origin = s->first_time;
            s->defs.duration = s->last_time - s->first_time;
        }
    }
    if (status == WEFT_OK && !weft__view_lod_init(&s->lod, s->defs.duration, s->defs.location_count,
                                                  s->read.region_count))
        status = WEFT_ERR_NO_MEMORY;
    if (status == WEFT_ERR_NO_MEMORY)
        weft__trace_report(&s->read, OTF2_SUCCESS, NULL, "out of memory reading");
    if (reader)
        status = weft__trace_close(&s->read, reader,
                                   status == WEFT_OK ? weft__view_read_pass(s, reader, 1) : status);
    else if (status == WEFT_OK)
        status = run_pass(s, o, anchor, 1);
    if (status == WEFT_OK && spills_failed(s))
        status = WEFT_ERR_IO;
    if (status == WEFT_OK)
        status = weft__view_match(s);
    return status;
}

static void human_size(uint64_t bytes, char *buf, size_t size)
{
    if (bytes >= 1024 * 1024)
        snprintf(buf, size, "%.1f MiB", (double)bytes / (1024.0 * 1024.0));
    else if (bytes >= 1024)
        snprintf(buf, size, "%.1f KiB", (double)bytes / 1024.0);
    else
        snprintf(buf, size, "%" PRIu64 " bytes", bytes);
}

static void report_done(const view_state *s, const view_page *p, const view_options *o,
                        const char *path, uint64_t bytes)
{
    char size[32], bound[32];
    human_size(bytes, size, sizeof(size));
    human_size(o->max_bytes, bound, sizeof(bound));
    const view_built *visits = &p->tables[p->table_count - 1];
    printf("weft view: wrote %s (%s of at most %s): %" PRIu64 " events on %zu locations, ", path,
           size, bound, s->stats.events, s->defs.location_count);
    if (s->detail.everything && !s->detail.truncated)
        printf("every visit embedded\n");
    else
        printf("%" PRIu64 " of %" PRIu64 " visits embedded (a detail window and the long visits)\n",
               visits->count, s->stats.visits);
    printf("open it in any browser: file://");
    /* A URL: bytes other than letters, digits and -._~/ percent-encoded. */
    for (const unsigned char *c = (const unsigned char *)path; *c; c++) {
        if (isalnum(*c) || strchr("-._~/", *c))
            putchar(*c);
        else
            printf("%%%02X", *c);
    }
    putchar('\n');
    if (s->stats.unbalanced > 0)
        fprintf(
            stderr,
            "weft view: warning: %" PRIu64 " unbalanced enter/leave event(s) in '%s'; open "
            "regions were closed at their location's last enter/leave (weft check tells more)\n",
            s->stats.unbalanced, s->read.path);
    if (s->stats.unmatched_sends + s->stats.unmatched_receives > 0)
        fprintf(stderr,
                "weft view: warning: %" PRIu64 " send(s) and %" PRIu64 " receive(s) in '%s' have "
                "no partner and are not drawn (weft check tells more)\n",
                s->stats.unmatched_sends, s->stats.unmatched_receives, s->read.path);
}

static char *absolute(const char *path)
{
    char *full = realpath(path, NULL);
    return full ? full : strdup(path);
}

static int view(const view_options *o, const char *anchor, const char *output)
{
    view_state s = {0};
    view_page p = {0};
    init_spills(&s);
    weft_status status = read_trace(&s, o, anchor);
    if (status == WEFT_OK)
        status = weft__view_build_lod(&s, &p, o);
    if (status == WEFT_OK)
        status = weft__view_plan_detail(&s, &p, o);
    if (status == WEFT_OK)
        status = run_pass(&s, o, anchor, 2);
    if (status == WEFT_OK && spills_failed(&s))
        status = WEFT_ERR_IO;
    if (status == WEFT_OK)
        status = weft__view_build_detail(&s, &p, o);
    uint64_t bytes = 0;
    if (status == WEFT_OK) {
        char created[32];
        time_t now = time(NULL);
        strftime(created, sizeof(created), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
        p.created = created;
        p.trace_path = absolute(anchor);
        bytes = weft__view_write(&s, &p, o, output);
        if (bytes > 0) {
            char *where = absolute(output);
            report_done(&s, &p, o, where ? where : output, bytes);
            free(where);
        }
    }
    free_state(&s, &p);
    return status == WEFT_OK && bytes > 0 ? WEFT_CLI_EXIT_OK : WEFT_CLI_EXIT_FAILURE;
}

int weft__cli_view(int argc, char **argv)
{
    view_options o;
    int code = parse_options(argc, argv, &o);
    if (code >= 0)
        return code;
    char *anchor = weft__trace_find_anchor(VIEW_COMMAND, o.trace);
    if (!anchor)
        return WEFT_CLI_EXIT_FAILURE;
    char *output = o.output ? strdup(o.output) : default_output(anchor);
    if (!output) {
        free(anchor);
        fprintf(stderr, "%s: out of memory\n", VIEW_COMMAND);
        return WEFT_CLI_EXIT_FAILURE;
    }
    code = view(&o, anchor, output);
    free(output);
    free(anchor);
    return code;
}
