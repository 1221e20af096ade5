/* PAPI counters as metrics (WEFT_METRIC_PAPI); see metrics_source.h.
 *
 * The events are checked once, on the thread that starts recording: each
 * name must be known to PAPI, and all of them must fit in one event set and
 * start together (counters share hardware registers, so some combinations
 * cannot be counted at once). What fails is reported and left out. Every
 * thread then counts the remaining events in its own event set. */
#include <papi.h>
#include <stdio.h>
#include <pthread.h>
#include <string.h>

#include "metrics_source.h"
#include "weft/log.h"

static int codes[WEFT_METRIC_MAX_MEMBERS];
static char names[WEFT_METRIC_MAX_MEMBERS][PAPI_MAX_STR_LEN];
static char descriptions[WEFT_METRIC_MAX_MEMBERS][PAPI_HUGE_STR_LEN];
static uint32_t code_count;

static unsigned long thread_id(void)
{
    return (unsigned long)pthread_self();
}

static bool library_ready(void)
{
    int version = PAPI_library_init(PAPI_VER_CURRENT);
    if (version != PAPI_VER_CURRENT) {
        weft_log_error("WEFT_METRIC_PAPI: the PAPI library does not start (%s); no PAPI "
                       "metrics are recorded",
                       version > 0 ? "version mismatch" : PAPI_strerror(version));
        return false;
    }
    int rc = PAPI_thread_init(thread_id);
    if (rc != PAPI_OK) {
        weft_log_error("WEFT_METRIC_PAPI: PAPI has no thread support here (%s); no PAPI "
                       "metrics are recorded",
                       PAPI_strerror(rc));
        return false;
    }
    return true;
}

/* Adds the named event to the trial event set, or says why it cannot be. */
static void try_event(int trial, const char *name)
{
    int code = 0;
    int rc = PAPI_event_name_to_code(name, &code);
    if (rc != PAPI_OK) {
        weft_log_error("WEFT_METRIC_PAPI: '%s' is not a PAPI event this machine knows (%s); "
                       "left out",
                       name, PAPI_strerror(rc));
        return;
    }
    rc = PAPI_add_event(trial, code);
    if (rc != PAPI_OK) {
        weft_log_error("WEFT_METRIC_PAPI: '%s' cannot be counted%s (%s); left out", name,
                       code_count ? " together with the events before it" : " on this machine",
                       PAPI_strerror(rc));
        return;
    }
    PAPI_event_info_t info;
    const char *text = PAPI_get_event_info(code, &info) == PAPI_OK ? info.long_descr : "";
    snprintf(names[code_count], sizeof(names[0]), "%s", name);
    snprintf(descriptions[code_count], sizeof(descriptions[0]), "%s", text);
    codes[code_count++] = code;
}

void weft__papi_configure(const char *list, weft_metric_member_desc *members, uint32_t *count)
{
    code_count = 0;
    if (!list || !library_ready())
        return;
    int trial = PAPI_NULL;
    int rc = PAPI_create_eventset(&trial);
    if (rc != PAPI_OK) {
        weft_log_error("WEFT_METRIC_PAPI: PAPI cannot create an event set (%s); no PAPI "
                       "metrics are recorded",
                       PAPI_strerror(rc));
        return;
    }
    for (const char *at = list; *at;) {
        at += strspn(at, " \t,");
        size_t len = strcspn(at, " \t,");
        if (len == 0)
            break;
        char name[PAPI_MAX_STR_LEN];
        snprintf(name, sizeof(name), "%.*s", (int)len, at);
        if (*count + code_count < WEFT_METRIC_MAX_MEMBERS)
            try_event(trial, name);
        at += len;
    }
    if (code_count && (rc = PAPI_start(trial)) != PAPI_OK) {
        weft_log_error("WEFT_METRIC_PAPI: the PAPI events cannot be started together (%s); no "
                       "PAPI metrics are recorded",
                       PAPI_strerror(rc));
        code_count = 0;
    } else if (code_count) {
        long long ignored[WEFT_METRIC_MAX_MEMBERS];
        PAPI_stop(trial, ignored);
    }
    PAPI_cleanup_eventset(trial);
    PAPI_destroy_eventset(&trial);
    for (uint32_t i = 0; i < code_count; i++)
        members[(*count)++] = (weft_metric_member_desc){names[i],
                                                        descriptions[i][0] ? descriptions[i] : NULL,
                                                        "#",
                                                        WEFT_METRIC_SOURCE_PAPI,
                                                        WEFT_METRIC_MODE_ACCUMULATED_START,
                                                        0};
}

bool weft__papi_thread_start(int *state)
{
    *state = PAPI_NULL;
    if (code_count == 0)
        return true;
    if (PAPI_register_thread() != PAPI_OK || PAPI_create_eventset(state) != PAPI_OK)
        return false;
    if (PAPI_add_events(*state, codes, (int)code_count) != PAPI_OK ||
        PAPI_start(*state) != PAPI_OK) {
        PAPI_cleanup_eventset(*state);
        PAPI_destroy_eventset(state);
        return false;
    }
    return true;
}

uint32_t weft__papi_read(int state, uint64_t *values)
{
    if (code_count == 0)
        return 0;
    long long counts[WEFT_METRIC_MAX_MEMBERS];
    if (PAPI_read(state, counts) != PAPI_OK)
        memset(counts, 0, sizeof(counts));
    for (uint32_t i = 0; i < code_count; i++)
        values[i] = (uint64_t)counts[i];
    return code_count;
}

void weft__papi_thread_end(int state)
{
    if (code_count == 0 || state == PAPI_NULL)
        return;
    long long ignored[WEFT_METRIC_MAX_MEMBERS];
    PAPI_stop(state, ignored);
    PAPI_cleanup_eventset(state);
    PAPI_destroy_eventset(&state);
    PAPI_unregister_thread();
}
