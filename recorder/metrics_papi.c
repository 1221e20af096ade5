/* SPDX-License-Identifier: BSD-3-Clause */
/* PAPI counters as metrics (WEFT_METRIC_PAPI); see metrics_source.h.
 *
 * The events are checked once, on the thread that starts recording: each
 * name must be known to PAPI, and all of them must fit in one event set and
 * start together (counters share hardware registers, so some combinations
 * cannot be counted at once). What fails is reported and left out. Every
 * thread then counts the remaining events in its own event set.
 *
 * libpapi (and libpfm under it) is loaded only when WEFT_METRIC_PAPI is
 * set: linked in, every traced process paid for its relocations at start
 * (about a millisecond here) whether it counted anything or not. */
#include <dlfcn.h>
#include <papi.h>
#include <stdio.h>
#include <pthread.h>
#include <string.h>

#include "metrics_source.h"
#include "weft/log.h"

/* The PAPI routines used, called through pointers looked up in the loaded
 * library (with the types papi.h declares). */
#define PAPI_ROUTINES(X)                                                                           \
    X(PAPI_library_init) X(PAPI_thread_init) X(PAPI_strerror) X(PAPI_event_name_to_code)         \
    X(PAPI_add_event) X(PAPI_add_events) X(PAPI_get_event_info) X(PAPI_create_eventset)          \
    X(PAPI_start) X(PAPI_stop) X(PAPI_read) X(PAPI_cleanup_eventset) X(PAPI_destroy_eventset)    \
    X(PAPI_register_thread) X(PAPI_unregister_thread)

#define PAPI_POINTER(name) __typeof__(name) *name;
static struct {
    PAPI_ROUTINES(PAPI_POINTER)
} papi;
#undef PAPI_POINTER

/* Loads the PAPI this weft was built against: its soname is
 * libpapi.so.MAJOR.MINOR (the plain libpapi.so comes with the development
 * package only). */
static bool load_library(void)
{
    char soname[64];
    snprintf(soname, sizeof(soname), "libpapi.so.%d.%d", PAPI_VERSION_MAJOR(PAPI_VERSION),
             PAPI_VERSION_MINOR(PAPI_VERSION));
    void *lib = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        lib = dlopen("libpapi.so", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        weft_log_error("WEFT_METRIC_PAPI: cannot load %s (%s); no PAPI metrics are recorded",
                       soname, dlerror());
        return false;
    }
#define PAPI_LOOKUP(name)                                                                          \
    if (!(*(void **)&papi.name = dlsym(lib, #name))) {                                             \
        weft_log_error("WEFT_METRIC_PAPI: %s has no %s; no PAPI metrics are recorded", soname,     \
                       #name);                                                                     \
        return false;                                                                              \
    }
    PAPI_ROUTINES(PAPI_LOOKUP)
#undef PAPI_LOOKUP
    return true;
}

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
    if (!load_library())
        return false;
    int version = papi.PAPI_library_init(PAPI_VER_CURRENT);
    if (version != PAPI_VER_CURRENT) {
        weft_log_error("WEFT_METRIC_PAPI: the PAPI library does not start (%s); no PAPI "
                       "metrics are recorded",
                       version > 0 ? "version mismatch" : papi.PAPI_strerror(version));
        return false;
    }
    int rc = papi.PAPI_thread_init(thread_id);
    if (rc != PAPI_OK) {
        weft_log_error("WEFT_METRIC_PAPI: PAPI has no thread support here (%s); no PAPI "
                       "metrics are recorded",
                       papi.PAPI_strerror(rc));
        return false;
    }
    return true;
}

/* Adds the named event to the trial event set, or says why it cannot be. */
static void try_event(int trial, const char *name)
{
    int code = 0;
    int rc = papi.PAPI_event_name_to_code(name, &code);
    if (rc != PAPI_OK) {
        weft_log_error("WEFT_METRIC_PAPI: '%s' is not a PAPI event this machine knows (%s); "
                       "left out",
                       name, papi.PAPI_strerror(rc));
        return;
    }
    rc = papi.PAPI_add_event(trial, code);
    if (rc != PAPI_OK) {
        weft_log_error("WEFT_METRIC_PAPI: '%s' cannot be counted%s (%s); left out", name,
                       code_count ? " together with the events before it" : " on this machine",
                       papi.PAPI_strerror(rc));
        return;
    }
    PAPI_event_info_t info;
    const char *text = papi.PAPI_get_event_info(code, &info) == PAPI_OK ? info.long_descr : "";
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
    int rc = papi.PAPI_create_eventset(&trial);
    if (rc != PAPI_OK) {
        weft_log_error("WEFT_METRIC_PAPI: PAPI cannot create an event set (%s); no PAPI "
                       "metrics are recorded",
                       papi.PAPI_strerror(rc));
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
    if (code_count && (rc = papi.PAPI_start(trial)) != PAPI_OK) {
        weft_log_error("WEFT_METRIC_PAPI: the PAPI events cannot be started together (%s); no "
                       "PAPI metrics are recorded",
                       papi.PAPI_strerror(rc));
        code_count = 0;
    } else if (code_count) {
        long long ignored[WEFT_METRIC_MAX_MEMBERS];
        papi.PAPI_stop(trial, ignored);
    }
    papi.PAPI_cleanup_eventset(trial);
    papi.PAPI_destroy_eventset(&trial);
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
    if (papi.PAPI_register_thread() != PAPI_OK || papi.PAPI_create_eventset(state) != PAPI_OK)
        return false;
    if (papi.PAPI_add_events(*state, codes, (int)code_count) != PAPI_OK ||
        papi.PAPI_start(*state) != PAPI_OK) {
        papi.PAPI_cleanup_eventset(*state);
        papi.PAPI_destroy_eventset(state);
        return false;
    }
    return true;
}

uint32_t weft__papi_read(int state, uint64_t *values)
{
    if (code_count == 0)
        return 0;
    long long counts[WEFT_METRIC_MAX_MEMBERS];
    if (papi.PAPI_read(state, counts) != PAPI_OK)
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
    papi.PAPI_stop(state, ignored);
    papi.PAPI_cleanup_eventset(state);
    papi.PAPI_destroy_eventset(&state);
    papi.PAPI_unregister_thread();
}
