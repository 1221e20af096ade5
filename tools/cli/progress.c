/* SPDX-License-Identifier: BSD-3-Clause */
/* Progress lines on stderr. On a terminal one line is
 * rewritten in place at most four times a second and erased at the end; on
 * anything else (--progress=always into a log) a new line at most once a
 * second and a last one at 100 %. By default nothing appears unless reading
 * has already taken two seconds, so quick summaries stay quiet. */
#include "progress.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define QUIET_S 2.0 /* AUTO: silent for this long */
#define TERMINAL_EVERY_S 0.25
#define LOG_EVERY_S 1.0

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

bool weft__cli_parse_progress(const char *value, weft_progress_mode *out)
{
    if (!value || strcmp(value, "always") == 0)
        *out = WEFT_PROGRESS_ALWAYS;
    else if (strcmp(value, "auto") == 0)
        *out = WEFT_PROGRESS_AUTO;
    else if (strcmp(value, "never") == 0)
        *out = WEFT_PROGRESS_NEVER;
    else
        return false;
    return true;
}

void weft__cli_progress_start(weft_cli_progress *p, weft_progress_mode mode,
                                  uint64_t events, size_t locations)
{
    *p = (weft_cli_progress){0};
    p->terminal = isatty(STDERR_FILENO) == 1;
    p->enabled =
        mode == WEFT_PROGRESS_ALWAYS || (mode == WEFT_PROGRESS_AUTO && p->terminal);
    p->start_s = now_s();
    p->next_s = p->start_s + (mode == WEFT_PROGRESS_AUTO ? QUIET_S : 0.0);
    p->events = events;
    p->locations = locations;
}

static void print(weft_cli_progress *p, uint64_t events_read, size_t locations_done, double t)
{
    double share = p->events      ? (double)events_read / (double)p->events
                   : p->locations ? (double)locations_done / (double)p->locations
                                  : 1.0;
    if (share > 1.0)
        share = 1.0;
    fprintf(stderr,
            "%s%s: %s: %3.0f%% (%zu of %zu locations, %" PRIu64 " events, %.1f s)%s",
            p->terminal ? "\r" : "", p->command ? p->command : "weft summary",
            p->what ? p->what : "reading events", 100.0 * share,
            locations_done, p->locations, events_read, t - p->start_s,
            p->terminal ? "\033[K" : "\n");
    fflush(stderr);
    p->shown = true;
    p->next_s = t + (p->terminal ? TERMINAL_EVERY_S : LOG_EVERY_S);
}

void weft__cli_progress_update(weft_cli_progress *p, uint64_t events_read, size_t locations_done)
{
    if (!p->enabled)
        return;
    double t = now_s();
    if (t >= p->next_s)
        print(p, events_read, locations_done, t);
}

void weft__cli_progress_finish(weft_cli_progress *p, uint64_t events_read)
{
    if (!p->enabled)
        return;
    if (p->terminal) {
        if (p->shown) {
            fputs("\r\033[K", stderr);
            fflush(stderr);
        }
        return;
    }
    p->events = 0; /* 100 % by locations, even when the definitions announced too few */
    print(p, events_read, p->locations, now_s());
}
