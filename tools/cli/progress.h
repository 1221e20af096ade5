/* SPDX-License-Identifier: BSD-3-Clause */
/* Progress of the commands that read traces (summary, check, convert) on
 * stderr while they read events: the share of events (or, when the counts
 * are not known, of locations) read so far. Never on stdout. */
#ifndef WEFT_TOOLS_CLI_PROGRESS_H
#define WEFT_TOOLS_CLI_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* When to show progress on stderr while reading events. */
typedef enum weft_progress_mode {
    WEFT_PROGRESS_AUTO,   /* stderr is a terminal, after 2 s of reading */
    WEFT_PROGRESS_ALWAYS, /* from the start, terminal or not */
    WEFT_PROGRESS_NEVER,
} weft_progress_mode;

typedef struct weft_cli_progress {
    bool enabled;     /* the mode and stderr allow it */
    bool terminal;    /* stderr is a terminal: one line rewritten with \r */
    bool shown;       /* something has been printed */
    double start_s;   /* CLOCK_MONOTONIC when reading started */
    double next_s;    /* no new report before this time */
    uint64_t events;  /* events the definitions announce; 0 when unknown */
    size_t locations; /* locations to read */
    const char *command; /* "weft summary", "weft check": starts each line */
    const char *what;    /* what is going on; NULL: "reading events" */
} weft_cli_progress;

/* The value of --progress: NULL (the option alone) is always. False for
 * anything but auto, always or never. */
bool weft__cli_parse_progress(const char *value, weft_progress_mode *out);

/* Starts the clock. MODE decides whether anything is ever printed: AUTO
 * when stderr is a terminal and reading takes more than 2 s, ALWAYS from
 * the start (one line per second when stderr is not a terminal), NEVER not.
 * EVENTS is the sum of the locations' announced event counts, 0 when some
 * location does not announce one. */
void weft__cli_progress_start(weft_cli_progress *p, weft_progress_mode mode,
                                  uint64_t events, size_t locations);

/* Reports EVENTS_READ events and LOCATIONS_DONE finished locations, when the
 * time has come for a new line; cheap otherwise (one clock read). */
void weft__cli_progress_update(weft_cli_progress *p, uint64_t events_read,
                                   size_t locations_done);

/* Ends the report: a last line at 100 % (terminal: the line is erased
 * instead, so that what follows on stderr starts on a clean line). */
void weft__cli_progress_finish(weft_cli_progress *p, uint64_t events_read);

#endif /* WEFT_TOOLS_CLI_PROGRESS_H */
