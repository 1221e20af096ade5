/* SPDX-License-Identifier: BSD-3-Clause */
/* The recorder's side of a multi-process job; see weft/job.h.
 *
 * Every step that is collective in the job is taken by every rank whatever
 * happened locally: a rank that fails says so, and the job learns of it
 * through the next agreement (an all-reduce of "ok"), so no rank is left
 * waiting in a collective the others skipped. */
#include "job_internal.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "disk_reserve.h"
#include "journal.h"
#include "lifecycle.h"
#include "sink.h"
#include "weft/log.h"
#include "weft/recorder.h"
#include "writer.h"

static weft_job_ops job;
static bool attached;

/* Clock offsets, in the order measured; guarded by offsets_mutex. */
static pthread_mutex_t offsets_mutex = PTHREAD_MUTEX_INITIALIZER;
static weft_clock_offset *offsets;
static size_t offset_count, offset_capacity;

void weft_job_expect(void)
{
    weft__writer_hold(true); /* takes effect when the writer starts */
}

bool weft__job_attached(void)
{
    return attached;
}

uint32_t weft_job_rank(void)
{
    return attached ? job.rank : 0;
}

/* True on every rank when it is true on all of them. */
static bool all_agree(bool ok)
{
    uint64_t value = ok;
    if (job.allreduce_u64(&value, 1, false, job.data) != 0)
        return false;
    return value == 1;
}

/* Rank 0 claims the directory; every rank learns its name (empty: none). */
static bool agree_on_directory(void)
{
    char name[4096] = "";
    if (job.rank == 0 && weft__archive_claim(weft_config_current()) == WEFT_OK)
        snprintf(name, sizeof(name), "%s", weft__archive_directory());
    if (job.bcast(name, sizeof(name), 0, job.data) != 0)
        return false;
    if (name[0] == '\0')
        return false; /* rank 0 said why */
    if (job.rank != 0)
        weft__archive_adopt(name);
    return true;
}

static void register_process(void)
{
    char host[256] = "localhost";
    if (gethostname(host, sizeof(host)) != 0)
        strcpy(host, "localhost");
    host[sizeof(host) - 1] = '\0';
    weft_registry *reg = weft_defs_global();
    weft_registry_set_location_group(reg, job.rank);
    weft_registry_process(reg, job.rank, host, NULL);
}

weft_status weft_job_attach(const weft_job_ops *ops)
{
    weft_init();
    if (attached || !weft__lifecycle_running())
        return WEFT_ERR_STATE; /* tracing is off (the same on every rank) */
    job = *ops;
    bool ok = agree_on_directory();
    if (ok) {
        register_process();
        ok = all_agree(weft__archive_create(job.archive_collectives, job.data) == WEFT_OK);
        /* Opening the event files is collective: only when all can. */
        ok = ok && all_agree(weft__archive_open_events() == WEFT_OK);
    }
    if (!ok) {
        /* An archive half-opened on some ranks is left alone: closing it
         * would wait for ranks that have none. */
        weft__archive_forget();
        if (job.rank == 0)
            weft_log_error("the MPI job could not open its trace; no trace is written, the "
                           "program continues");
    }
    attached = ok;
    if (ok) {
        weft__journal_open(weft__archive_directory(), job.rank);
        weft__disk_reserve_open(weft__archive_directory());
    }
    weft__sink_archive_opened(ok);
    weft__writer_hold(false);
    return ok ? WEFT_OK : WEFT_ERR_IO;
}

size_t weft__job_offsets_copy(weft_clock_offset *out, size_t capacity)
{
    pthread_mutex_lock(&offsets_mutex);
    size_t count = offset_count;
    if (count <= capacity) {
        if (count)
            memcpy(out, offsets, count * sizeof(*out));
    } else if (capacity > 0) {
        /* Too many: the first (MPI_Init's) and the latest. */
        out[0] = offsets[0];
        memcpy(out + 1, offsets + (count - (capacity - 1)), (capacity - 1) * sizeof(*out));
        count = capacity;
    }
    pthread_mutex_unlock(&offsets_mutex);
    return count;
}

uint64_t weft_clock_ticks(void)
{
    return weft_clock_now();
}

bool weft_clock_ticks_are_ns(void)
{
    return !weft__clock_uses_tsc;
}

void weft_clock_offset_add(uint64_t local_time, int64_t offset, double stddev)
{
    pthread_mutex_lock(&offsets_mutex);
    if (offset_count == offset_capacity) {
        size_t capacity = offset_capacity ? 2 * offset_capacity : 16;
        weft_clock_offset *grown = realloc(offsets, capacity * sizeof(*grown));
        if (grown) {
            offsets = grown;
            offset_capacity = capacity;
        }
    }
    if (offset_count < offset_capacity)
        offsets[offset_count++] = (weft_clock_offset){local_time, offset, stddev};
    pthread_mutex_unlock(&offsets_mutex);
}

/* The offset that applies at local time t: the nearest measured before it
 * (or the first), which is enough for the trace's first and last event. */
static int64_t offset_at(uint64_t t)
{
    int64_t result = 0;
    for (size_t i = 0; i < offset_count; i++) {
        if (i == 0 || offsets[i].time <= t)
            result = offsets[i].offset;
    }
    return result;
}

/* The job's clock: first and last event over all ranks on rank 0's clock,
 * and rank 0's calibration. */
static bool describe_job_clock(const weft_sink_totals *totals, weft_clock_properties *clock)
{
    uint64_t first = UINT64_MAX, last = 0;
    if (totals->events_written > 0) {
        first = (uint64_t)((int64_t)totals->first_time + offset_at(totals->first_time));
        last = (uint64_t)((int64_t)totals->last_time + offset_at(totals->last_time));
    }
    /* One all-reduce: the minimum of first and of the complement of last. */
    uint64_t range[2] = {first, ~last};
    if (job.allreduce_u64(range, 2, false, job.data) != 0)
        return false;
    first = range[0];
    last = ~range[1];
    if (first > last)
        first = last = 0; /* no rank recorded anything */
    if (job.rank == 0)
        weft_clock_describe(first, last, clock);
    return true;
}

void weft_job_finalize(void)
{
    if (!attached) {
        weft_finalize();
        return;
    }
    attached = false;
    weft__finalize_begin();
    weft_sink_totals totals = weft__sink_finish(false);

    weft_clock_properties clock = {0};
    bool ok = describe_job_clock(&totals, &clock);
    weft_registry *global = NULL;
    weft_local_defs local = {0};
    weft_id_maps maps = {0};
    if (ok && weft__job_unify(&job, weft_defs_global(), &global, &maps) != WEFT_OK) {
        if (job.rank == 0)
            weft_log_error("unifying the definitions of the MPI ranks failed; the trace in '%s' "
                           "is incomplete",
                           weft__archive_directory());
        ok = false;
    }
    local.string_map = maps.strings;
    local.string_count = maps.string_count;
    local.region_map = maps.regions;
    local.region_count = maps.region_count;
    local.metric_map = maps.metrics;
    local.metric_count = maps.metric_count;
    local.comm_map = maps.comms;
    local.comm_count = maps.comm_count;
    local.object_map = maps.objects;
    local.object_count = maps.object_count;
    local.group_map = maps.groups;
    local.group_count = maps.group_count;
    pthread_mutex_lock(&offsets_mutex);
    local.offsets = offsets;
    local.offset_count = offset_count;
    pthread_mutex_unlock(&offsets_mutex);
    /* The last offset was measured before this (on this thread), so the
     * array no longer changes; the lock is not held across OTF2's writing,
     * whose flushes may update the journal, which reads the offsets. */
    weft_status closed = weft__archive_close(weft_defs_global(), global, &clock, &local);
    if (ok && closed == WEFT_OK)
        weft__journal_remove();

    weft_registry_destroy(global);
    weft_id_maps_free(&maps);
    if (ok)
        weft__finalize_report(&totals);
}

bool weft__job_detach(uint32_t *rank)
{
    if (!attached)
        return false;
    attached = false;
    *rank = job.rank;
    return true;
}

void weft__job_forget(void)
{
    attached = false;
    pthread_mutex_init(&offsets_mutex, NULL);
    offset_count = 0;
}

void weft_job_abort(int error_code)
{
    int saved_errno = errno;
    weft__finalize_part(WEFT_JOURNAL_ABORTED, (uint64_t)(int64_t)error_code, 0);
    errno = saved_errno;
}
