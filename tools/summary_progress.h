/* Progress of `weft summary` and `weft check` on stderr while they read events: the share of
 * events (or, when the definitions do not give the counts, of locations)
 * read so far. Never on stdout. Private to tools/. */
#ifndef WEFT_TOOLS_SUMMARY_PROGRESS_H
#define WEFT_TOOLS_SUMMARY_PROGRESS_H

#include "summary.h"

typedef struct summary_progress {
    bool enabled;     /* the mode and stderr allow it */
    bool terminal;    /* stderr is a terminal: one line rewritten with \r */
    bool shown;       /* something has been printed */
    double start_s;   /* CLOCK_MONOTONIC when reading started */
    double next_s;    /* no new report before this time */
    uint64_t events;  /* events the definitions announce; 0 when unknown */
    size_t locations; /* locations to read */
    const char *command; /* "weft summary", "weft check": starts each line */
} summary_progress;

/* The value of --progress: NULL (the option alone) is always. False for
 * anything but auto, always or never. */
bool weft__summary_parse_progress(const char *value, weft_summary_progress_mode *out);

/* Starts the clock. MODE decides whether anything is ever printed: AUTO
 * when stderr is a terminal and reading takes more than 2 s, ALWAYS from
 * the start (one line per second when stderr is not a terminal), NEVER not.
 * EVENTS is the sum of the locations' announced event counts, 0 when some
 * location does not announce one. */
void weft__summary_progress_start(summary_progress *p, weft_summary_progress_mode mode,
                                  uint64_t events, size_t locations);

/* Reports EVENTS_READ events and LOCATIONS_DONE finished locations, when the
 * time has come for a new line; cheap otherwise (one clock read). */
void weft__summary_progress_update(summary_progress *p, uint64_t events_read,
                                   size_t locations_done);

/* Ends the report: a last line at 100 % (terminal: the line is erased
 * instead, so that what follows on stderr starts on a clean line). */
void weft__summary_progress_finish(summary_progress *p, uint64_t events_read);

#endif /* WEFT_TOOLS_SUMMARY_PROGRESS_H */
