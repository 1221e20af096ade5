/* SPDX-License-Identifier: BSD-3-Clause */
/* OpenMP event control for both OpenMP adapters; see weft/openmp_control.h.
 *
 * Throttling keeps, per thread, one slot per region id: whether the region
 * may be throttled at all (looked up once per region and thread in the
 * process-wide list weft_openmp_region keeps; barriers, critical sections
 * and lock routines never may: see throttleable), its open depth, and the
 * length of its latest visits (only the last TIMED_VISITS before each
 * judgement are timed, so most visits read no extra clock). A region is
 * judged only when its outermost visit on the thread ends, every
 * WEFT_THROTTLE_NUMCALLS visits: from then on both its enters and its
 * leaves are skipped on that thread (counted, so a region entered again
 * inside a skipped one is skipped to the end too). Nothing is decided while
 * a visit is open, so no enter loses its leave. */
#include "weft/openmp_control.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "lifecycle.h"
#include "weft/alloc.h"
#include "weft/log.h"
#include "weft/recorder.h"

/* ---- what is recorded at all -------------------------------------------- */

static pthread_once_t settings_once = PTHREAD_ONCE_INIT;
static uint32_t recorded_groups = WEFT_OMP_GROUPS_ALL;
static bool throttling;
static uint64_t throttle_calls;
static uint64_t throttle_percall_ns;

static void load_settings(void)
{
    const weft_config *cfg = weft_config_current();
    char bad[64];
    if (weft_omp_groups_parse(cfg->openmp_events, &recorded_groups, bad, sizeof(bad)) != WEFT_OK)
        weft_log_error("WEFT_OPENMP_EVENTS: '%s' is not a kind of OpenMP event (all, none, loops, "
                       "sections, single, workshare, master, critical, ordered, atomic, flush, "
                       "barrier, taskwait, tasks, locks, sync, each with or without '-'); "
                       "ignored",
                       bad);
    throttling = cfg->throttle;
    throttle_calls = cfg->throttle_numcalls ? cfg->throttle_numcalls : 1;
    throttle_percall_ns = cfg->throttle_percall_ns;
}

static void settings(void)
{
    pthread_once(&settings_once, load_settings);
}

bool weft_openmp_group_recorded(weft_omp_group group)
{
    settings();
    return (recorded_groups >> group) & 1u;
}

/* ---- the regions that may be throttled ------------------------------------ */

/* One byte per region id: 1 for a region weft_openmp_region defined with an
 * optional kind. Grown and read under the mutex (once per region and
 * thread); the report at the end also keeps its list here. */
static pthread_mutex_t regions_mutex = PTHREAD_MUTEX_INITIALIZER;
static uint8_t *optional;
static size_t optional_size;

typedef struct throttled {
    uint32_t region;
    uint32_t threads;
} throttled;
static throttled *throttled_list;
static size_t throttled_count, throttled_capacity;

static void mark_optional(uint32_t id)
{
    pthread_mutex_lock(&regions_mutex);
    if (id >= optional_size) {
        size_t size = optional_size ? optional_size : 64;
        while (size <= id)
            size *= 2;
        uint8_t *grown = weft_realloc(optional, size);
        if (grown) {
            memset(grown + optional_size, 0, size - optional_size);
            optional = grown;
            optional_size = size;
        }
    }
    if (id < optional_size)
        optional[id] = 1;
    pthread_mutex_unlock(&regions_mutex);
}

static bool is_optional(uint32_t id)
{
    pthread_mutex_lock(&regions_mutex);
    bool result = id < optional_size && optional[id];
    pthread_mutex_unlock(&regions_mutex);
    return result;
}

/* Throttling judges each thread on its own visits, so it may stop a region
 * on some threads and not on others. Not for:
 *  - barriers: the thread that arrives last sees short visits; Scalasca's
 *    analyzer meets its own threads at every barrier of a team and crashes
 *    when the team's threads recorded different numbers (weft check
 *    reports that);
 *  - critical sections and lock routines: their lock events would either
 *    stay without their region (the analyzer then walks back to the
 *    parallel region's enter for each, minutes for 40,000 per thread) or
 *    go too, leaving gaps in the lock's acquisition orders, where the
 *    analyzer waits for the missing acquisition forever. */
static bool throttleable(weft_omp_region kind)
{
    weft_omp_group group = weft_omp_region_group(kind);
    return group != WEFT_OMP_GROUP_BARRIER && group != WEFT_OMP_GROUP_CRITICAL &&
           group != WEFT_OMP_GROUP_LOCKS;
}

weft_region weft_openmp_region(const weft_region_desc *desc, weft_omp_region kind)
{
    settings();
    if (!weft_openmp_group_recorded(weft_omp_region_group(kind)))
        return WEFT_REGION_INVALID;
    bool may_drop = weft_omp_region_optional(kind);
    if (may_drop && weft__filter_excludes_openmp(desc->name))
        return WEFT_REGION_INVALID;
    weft_region region;
    if (weft_registry_region(weft_defs_global(), desc, &region) != WEFT_OK) {
        weft_log_error("cannot register OpenMP region '%s'; its events are not recorded",
                       desc->name);
        return WEFT_REGION_INVALID;
    }
    if (may_drop && throttling && throttleable(kind))
        mark_optional(region.id);
    return region;
}

/* ---- per thread ------------------------------------------------------------ */

enum { SLOT_UNSEEN, SLOT_PLAIN, SLOT_COUNTED, SLOT_THROTTLED };

/* Visits timed before each judgement: the average of the last of them
 * decides (the clock is read for those only). */
enum { TIMED_VISITS = 1024 };

typedef struct slot {
    uint8_t state;
    bool timing;      /* the open outermost visit is timed */
    uint32_t depth;   /* visits open now */
    uint32_t skipped; /* enters skipped and not left yet (throttled) */
    uint64_t until;   /* outermost visits to end before the next judgement */
    uint64_t timed;   /* timed visits since the last judgement */
    uint64_t ticks;   /* their summed length */
    uint64_t since;   /* the enter of the open outermost visit, when timed */
} slot;

typedef struct slots {
    uint32_t size;
    slot slot[];
} slots;

static __thread slots *mine __attribute__((tls_model("initial-exec")));
static pthread_key_t slots_key;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;

static void free_slots(void *table)
{
    mine = NULL; /* runs on the exiting thread: later events start afresh */
    weft_free(table);
}

static void make_key(void)
{
    pthread_key_create(&slots_key, free_slots);
}

/* slot_of's rare part, out of line so that the common one needs few
 * registers: the thread's first visit of region ID (its table grown). */
__attribute__((noinline, cold)) static slot *first_visit(uint32_t id)
{
    slots *table = mine;
    if (!table || id >= table->size) {
        uint32_t size = table ? table->size : 0;
        uint32_t grown_size = size ? size : 64;
        while (grown_size <= id)
            grown_size *= 2;
        slots *grown = weft_realloc(table, sizeof(slots) + grown_size * sizeof(slot));
        if (!grown)
            return NULL;
        memset(&grown->slot[size], 0, (grown_size - size) * sizeof(slot));
        grown->size = grown_size;
        pthread_once(&key_once, make_key);
        pthread_setspecific(slots_key, grown);
        mine = table = grown;
    }
    slot *s = &table->slot[id];
    s->state = is_optional(id) ? SLOT_COUNTED : SLOT_PLAIN;
    s->until = throttle_calls;
    return s;
}

/* The calling thread's slot of region ID; NULL when out of memory. */
static inline slot *slot_of(uint32_t id)
{
    slots *table = mine;
    if (WEFT_LIKELY(table && id < table->size && table->slot[id].state != SLOT_UNSEEN))
        return &table->slot[id];
    return first_visit(id);
}

/* Throttling's threshold in clock ticks, from the clock's rate measured so
 * far (the TSC's is known only at the end); measured again at each
 * judgement until the run is long enough for the measurement to hold. */
static uint64_t percall_ticks(void)
{
    static _Atomic uint64_t cached;
    static atomic_bool settled;
    if (atomic_load_explicit(&settled, memory_order_acquire))
        return atomic_load_explicit(&cached, memory_order_relaxed);
    bool reliable = false;
    double rate = weft__clock_ticks_per_ns(&reliable);
    uint64_t ticks = (uint64_t)((double)throttle_percall_ns * rate);
    atomic_store_explicit(&cached, ticks, memory_order_relaxed);
    if (reliable)
        atomic_store_explicit(&settled, true, memory_order_release);
    return ticks;
}

static void note_throttled(uint32_t region)
{
    pthread_mutex_lock(&regions_mutex);
    size_t i = 0;
    while (i < throttled_count && throttled_list[i].region != region)
        i++;
    if (i == throttled_count && throttled_count == throttled_capacity) {
        size_t capacity = throttled_capacity ? 2 * throttled_capacity : 16;
        throttled *grown = weft_realloc(throttled_list, capacity * sizeof(*grown));
        if (grown) {
            throttled_list = grown;
            throttled_capacity = capacity;
        }
    }
    if (i < throttled_capacity) {
        if (i == throttled_count)
            throttled_list[throttled_count++] = (throttled){region, 0};
        throttled_list[i].threads++;
    }
    pthread_mutex_unlock(&regions_mutex);
}

/* An outermost visit ended: every throttle_calls visits (a countdown, no
 * division on the way) the region is judged by the average length of its
 * timed visits, the last TIMED_VISITS of the round. */
static void visit_ended(slot *s, uint32_t region)
{
    if (WEFT_LIKELY(--s->until != 0))
        return;
    s->until = throttle_calls;
    if (s->timed && s->ticks / s->timed < percall_ticks()) {
        s->state = SLOT_THROTTLED;
        note_throttled(region);
    }
    s->timed = s->ticks = 0;
}

/* The end of a timed outermost visit at TIME: recorded, timed, judged. */
static uint64_t timed_leave(slot *s, weft_region region, uint64_t time)
{
    uint64_t at = weft_leave_at(region, time);
    s->ticks += at > s->since ? at - s->since : 0;
    s->timed++;
    s->timing = false;
    visit_ended(s, region.id);
    return at;
}

/* The counted (throttle-able) and throttled regions, apart from the plain
 * ones' path, which only looks at the slot; the _at forms (TIME given). */
__attribute__((noinline)) static uint64_t counted_enter_at(slot *s, weft_region region,
                                                           uint64_t time)
{
    if (s->state == SLOT_THROTTLED) {
        s->skipped++;
        return time;
    }
    uint64_t at = weft_enter_at(region, time);
    if (s->depth++ == 0 && s->until <= TIMED_VISITS) {
        s->since = at;
        s->timing = true;
    }
    return at;
}

__attribute__((noinline)) static uint64_t counted_leave_at(slot *s, weft_region region,
                                                           uint64_t time)
{
    if (s->state == SLOT_THROTTLED && s->skipped) {
        s->skipped--;
        return time;
    }
    if (s->state != SLOT_COUNTED || s->depth == 0 || --s->depth != 0)
        return weft_leave_at(region, time);
    if (s->timing)
        return timed_leave(s, region, time);
    visit_ended(s, region.id);
    return weft_leave_at(region, time);
}

/* The forms without a time: the same with the event functions last, as
 * tail calls, so that a counted visit that is not timed costs a few
 * instructions more than a plain one, and the clock is read here only for
 * a timed one. */
__attribute__((noinline)) static void counted_enter_now(slot *s, weft_region region)
{
    if (s->state == SLOT_THROTTLED) {
        s->skipped++;
        return;
    }
    if (s->depth++ == 0 && s->until <= TIMED_VISITS) {
        s->since = weft_enter_at(region, weft_clock_now());
        s->timing = true;
        return;
    }
    weft_enter(region);
}

__attribute__((noinline)) static void counted_leave_now(slot *s, weft_region region)
{
    if (s->state == SLOT_THROTTLED && s->skipped) {
        s->skipped--;
        return;
    }
    if (s->state == SLOT_COUNTED && s->depth > 0 && --s->depth == 0) {
        if (s->timing) {
            timed_leave(s, region, weft_clock_now());
            return;
        }
        visit_ended(s, region.id); /* judged now, this leave recorded all the same */
    }
    weft_leave(region);
}

void weft_openmp_enter(weft_region region)
{
    if (WEFT_UNLIKELY(region.id == WEFT_INVALID_ID))
        return;
    slot *s = slot_of(region.id);
    if (WEFT_LIKELY(!s || s->state == SLOT_PLAIN))
        weft_enter(region);
    else
        counted_enter_now(s, region);
}

void weft_openmp_leave(weft_region region)
{
    if (WEFT_UNLIKELY(region.id == WEFT_INVALID_ID))
        return;
    slot *s = slot_of(region.id);
    if (WEFT_LIKELY(!s || s->state == SLOT_PLAIN))
        weft_leave(region);
    else
        counted_leave_now(s, region);
}

uint64_t weft_openmp_enter_at(weft_region region, uint64_t time)
{
    if (WEFT_UNLIKELY(region.id == WEFT_INVALID_ID))
        return time;
    slot *s = slot_of(region.id);
    if (WEFT_LIKELY(!s || s->state == SLOT_PLAIN))
        return weft_enter_at(region, time);
    return counted_enter_at(s, region, time);
}

uint64_t weft_openmp_leave_at(weft_region region, uint64_t time)
{
    if (WEFT_UNLIKELY(region.id == WEFT_INVALID_ID))
        return time;
    slot *s = slot_of(region.id);
    if (WEFT_LIKELY(!s || s->state == SLOT_PLAIN))
        return weft_leave_at(region, time);
    return counted_leave_at(s, region, time);
}

/* ---- the report at the end --------------------------------------------------- */

void weft__openmp_control_report(void)
{
    pthread_mutex_lock(&regions_mutex);
    if (throttled_count == 0) {
        pthread_mutex_unlock(&regions_mutex);
        return;
    }
    char names[1024];
    size_t used = 0;
    enum { SHOWN = 6 };
    for (size_t i = 0; i < throttled_count && i < SHOWN; i++) {
        weft_region_def def;
        const char *name = "?";
        if (weft_registry_region_get(weft_defs_global(), (weft_region){throttled_list[i].region},
                                     &def) == WEFT_OK)
            name = weft_registry_string_text(weft_defs_global(), def.name);
        int n = snprintf(names + used, sizeof(names) - used, "%s'%s' (%u thread%s)", i ? ", " : "",
                         name ? name : "?", throttled_list[i].threads,
                         throttled_list[i].threads == 1 ? "" : "s");
        if (n < 0 || (size_t)n >= sizeof(names) - used)
            break;
        used += (size_t)n;
    }
    char more[48] = "";
    if (throttled_count > SHOWN)
        snprintf(more, sizeof(more), " and %zu more", throttled_count - SHOWN);
    char percall[32];
    uint64_t ns = throttle_percall_ns;
    if (ns % 1000000000u == 0 && ns)
        snprintf(percall, sizeof(percall), "%llu s", (unsigned long long)(ns / 1000000000u));
    else if (ns % 1000000u == 0 && ns)
        snprintf(percall, sizeof(percall), "%llu ms", (unsigned long long)(ns / 1000000u));
    else if (ns % 1000u == 0 && ns)
        snprintf(percall, sizeof(percall), "%llu us", (unsigned long long)(ns / 1000u));
    else
        snprintf(percall, sizeof(percall), "%llu ns", (unsigned long long)ns);
    weft_log_error("throttled %zu OpenMP region%s entered over %llu times on a thread for less "
                   "than %s each, recorded up to then: %s%s; to keep every visit set "
                   "WEFT_THROTTLE=false (or raise WEFT_THROTTLE_NUMCALLS), to drop them all "
                   "leave their kind out (WEFT_OPENMP_EVENTS=-flush, ...) or filter them "
                   "(EXCLUDE '!$omp ...')",
                   throttled_count, throttled_count == 1 ? "" : "s",
                   (unsigned long long)throttle_calls, percall, names, more);
    pthread_mutex_unlock(&regions_mutex);
}
