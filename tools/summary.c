/* `weft summary TRACE [--top N]`: parses the command line, finds the anchor
 * file (TRACE may be the experiment directory), reads the trace into a
 * weft_summary and prints it. Reading and printing live in summary_read.c
 * and summary_text.c; this file only decides what to do and how to exit. */
#include "cli.h"
#include "summary.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define DEFAULT_TOP 20
#define ANCHOR_NAME "traces.otf2"

typedef struct options {
    const char *trace;
    size_t top;
} options;

static void print_help(void)
{
    printf("usage: weft summary TRACE [--top N]\n"
           "\n"
           "Prints a profile computed from an OTF2 trace: the trace's duration, its\n"
           "location groups (processes), locations (threads) and events, then one row\n"
           "per region, heaviest inclusive time first.\n"
           "\n"
           "TRACE is the experiment directory (holding " ANCHOR_NAME ") or the .otf2\n"
           "anchor file itself. The trace is read once, location by location; memory\n"
           "does not grow with the number of events.\n"
           "\n"
           "Columns:\n"
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
           "The duration is the trace length from the ClockProperties definition, or\n"
           "the span between the first and last enter/leave when that is zero.\n"
           "\n"
           "Unbalanced traces are summarised anyway: a leave with no matching enter is\n"
           "ignored, a leave of a region with others still open inside closes those\n"
           "too, and regions open at the end are closed at their location's last\n"
           "enter/leave; one warning line on stderr gives the count.\n"
           "\n"
           "Options:\n"
           "  --top N      print only the N heaviest regions (default %d; 0 prints all)\n"
           "  -h, --help   show this help\n"
           "\n"
           "Exit status: 0 on success, 1 when the trace cannot be read (missing, not an\n"
           "OTF2 archive, damaged or truncated), 2 for a bad command line.\n",
           DEFAULT_TOP);
}

/* Parses a non-negative decimal count; false for anything else. */
static bool parse_count(const char *text, size_t *out)
{
    if (!text || *text < '0' || *text > '9')
        return false;
    errno = 0;
    char *end = NULL;
    unsigned long long value = strtoull(text, &end, 10);
    if (errno != 0 || *end != '\0' || value > SIZE_MAX)
        return false;
    *out = (size_t)value;
    return true;
}

/* Returns -1 when the options are good, else the exit code to leave with. */
static int parse_options(int argc, char **argv, options *opt)
{
    opt->trace = NULL;
    opt->top = DEFAULT_TOP;
    bool only_operands = false;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (!only_operands && weft__cli_is_help(arg)) {
            print_help();
            return WEFT_CLI_EXIT_OK;
        }
        if (!only_operands && strcmp(arg, "--") == 0) {
            only_operands = true;
        } else if (!only_operands && strncmp(arg, "--top", 5) == 0 &&
                   (arg[5] == '\0' || arg[5] == '=')) {
            const char *value = arg[5] == '=' ? arg + 6 : (i + 1 < argc ? argv[++i] : NULL);
            if (!parse_count(value, &opt->top)) {
                return weft__cli_usage_error("summary",
                                             "--top needs a number of regions (0 for all), "
                                             "not '%s'",
                                             value ? value : "nothing");
            }
        } else if (!only_operands && arg[0] == '-' && arg[1] != '\0') {
            return weft__cli_usage_error("summary", "unknown option '%s'", arg);
        } else if (opt->trace) {
            return weft__cli_usage_error("summary", "give one trace, not also '%s'", arg);
        } else {
            opt->trace = arg;
        }
    }
    if (!opt->trace) {
        return weft__cli_usage_error("summary", "give a trace: the experiment directory or "
                                                "its " ANCHOR_NAME " file");
    }
    return -1;
}

/* Finds the anchor file for TRACE. Returns a malloc'ed path owned by the
 * caller, or NULL after printing one line on stderr. */
static char *find_anchor(const char *trace)
{
    struct stat st;
    if (stat(trace, &st) != 0) {
        fprintf(stderr, "weft summary: cannot open '%s': %s\n", trace, strerror(errno));
        return NULL;
    }
    if (!S_ISDIR(st.st_mode)) {
        char *copy = strdup(trace);
        if (!copy)
            fprintf(stderr, "weft summary: out of memory\n");
        return copy;
    }
    size_t len = strlen(trace);
    bool slash = len > 0 && trace[len - 1] == '/';
    size_t size = len + (slash ? 0 : 1) + sizeof(ANCHOR_NAME);
    char *anchor = malloc(size);
    if (!anchor) {
        fprintf(stderr, "weft summary: out of memory\n");
        return NULL;
    }
    snprintf(anchor, size, "%s%s" ANCHOR_NAME, trace, slash ? "" : "/");
    if (stat(anchor, &st) != 0) {
        fprintf(stderr,
                "weft summary: '%s' is a directory without " ANCHOR_NAME
                " (%s); give an experiment directory or an .otf2 anchor file\n",
                trace, strerror(errno));
        free(anchor);
        return NULL;
    }
    return anchor;
}

static void warn_about(const weft_summary *s)
{
    if (s->unbalanced_count > 0) {
        fprintf(stderr,
                "weft summary: warning: %" PRIu64 " unbalanced enter/leave event(s) in '%s' "
                "(a leave without its enter, or a region left open); open regions were "
                "closed at their location's last enter/leave\n",
                s->unbalanced_count, s->trace_path);
    }
    if (s->undefined_region_count > 0) {
        fprintf(stderr,
                "weft summary: warning: %" PRIu64 " enter/leave event(s) in '%s' name an "
                "undefined region and were ignored\n",
                s->undefined_region_count, s->trace_path);
    }
}

int weft__cli_summary(int argc, char **argv)
{
    options opt;
    int exit_code = parse_options(argc, argv, &opt);
    if (exit_code >= 0)
        return exit_code;

    char *anchor = find_anchor(opt.trace);
    if (!anchor)
        return WEFT_CLI_EXIT_FAILURE;
    weft_summary summary;
    weft_status status = weft__summary_read(anchor, &summary);
    free(anchor);
    if (status != WEFT_OK)
        return WEFT_CLI_EXIT_FAILURE;

    warn_about(&summary);
    weft__summary_print_text(stdout, &summary, opt.top);
    weft__summary_clear(&summary);
    return WEFT_CLI_EXIT_OK;
}
