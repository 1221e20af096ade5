/* SPDX-License-Identifier: BSD-3-Clause */
/* Writing the recovery journal; see journal.h and weft/journal.h for what
 * it holds and journal_format.h for the layout.
 *
 * The order that makes a killed process's leftovers readable: OTF2 calls
 * the archive's pre-flush callback (archive.c) before it writes any chunk
 * of events to disk, and that callback brings the journal up to date
 * first. Events only name definitions registered before they were
 * recorded, so every event on disk finds its definitions in the journal.
 * A version is written whole into a temporary file and renamed over the
 * previous one, so a reader never sees half of one. */
#include "journal.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "archive.h"
#include "clock.h"
#include "io_whole.h"
#include "job_internal.h"
#include "journal_format.h"
#include "otf2_memory.h"
#include "weft/alloc.h"
#include "weft/log.h"
#include "weft/unify.h"

/* A version older than this is rewritten at the next flush even without
 * new definitions, so that the clock's last reading stays recent. */
#define CLOCK_REFRESH_NS 1000000000u

/* Guards everything below. Lock order: the sink's mutex (held around
 * OTF2's flushes), then this one, then the registry's. */
static pthread_mutex_t journal_mutex = PTHREAD_MUTEX_INITIALIZER;
static bool open_;
static char path[4200], temporary[4300];
static uint32_t rank;
static uint64_t written_generation;
static uint64_t first_ticks, first_mono, first_real, last_mono;
static weft_journal_state state;
static uint32_t end_signal;
static uint64_t end_time;
static bool flushed;
static bool failed_once;

static atomic_uint_fast64_t progress;

typedef struct out {
    unsigned char *at;
} out;

static void put32(out *o, uint32_t v)
{
    memcpy(o->at, &v, 4);
    o->at += 4;
}

static void put64(out *o, uint64_t v)
{
    memcpy(o->at, &v, 8);
    o->at += 8;
}

static void put_bytes(out *o, const void *data, size_t len)
{
    if (len)
        memcpy(o->at, data, len);
    o->at += len;
}

/* One version of the journal in memory (weft_alloc'ed), or NULL. */
static unsigned char *build(size_t *len)
{
    void *pack = NULL;
    uint64_t pack_len = 0;
    if (weft_registry_pack(weft_defs_global(), rank, WEFT_PACK_LOCATIONS, &pack, &pack_len) !=
        WEFT_OK)
        return NULL;
    char host[256] = "localhost";
    if (gethostname(host, sizeof(host)) != 0)
        strcpy(host, "localhost");
    host[sizeof(host) - 1] = '\0';
    weft_clock_offset offsets[256];
    size_t offset_count = weft__job_offsets_copy(offsets, sizeof(offsets) / sizeof(offsets[0]));

    size_t host_len = strlen(host);
    size_t total = WEFT_JOURNAL_HEADER_BYTES + host_len + offset_count * WEFT_JOURNAL_OFFSET_BYTES +
                   pack_len + WEFT_JOURNAL_HASH_BYTES;
    unsigned char *buf = weft_alloc(total);
    if (!buf) {
        free(pack);
        return NULL;
    }
    uint64_t ticks = weft_clock_now();
    last_mono = weft__monotonic_ns();
    out o = {buf};
    put32(&o, WEFT_JOURNAL_MAGIC);
    put32(&o, WEFT_JOURNAL_VERSION);
    put32(&o, WEFT_JOURNAL_ORDER);
    put32(&o, rank);
    put32(&o, (uint32_t)getpid());
    put32(&o, (uint32_t)state);
    put32(&o, end_signal);
    put32(&o, flushed);
    put64(&o, end_time);
    put32(&o, !weft__clock_uses_tsc);
    put32(&o, 0);
    put64(&o, first_ticks);
    put64(&o, first_mono);
    put64(&o, first_real);
    put64(&o, ticks);
    put64(&o, last_mono);
    put64(&o, WEFT_OTF2_EVENT_CHUNK_BYTES);
    put64(&o, WEFT_OTF2_DEF_CHUNK_BYTES);
    put32(&o, (uint32_t)host_len);
    put32(&o, (uint32_t)offset_count);
    put64(&o, pack_len);
    put_bytes(&o, host, host_len);
    for (size_t i = 0; i < offset_count; i++) {
        put64(&o, offsets[i].time);
        put64(&o, (uint64_t)offsets[i].offset);
        put_bytes(&o, &offsets[i].stddev, 8);
    }
    put_bytes(&o, pack, pack_len);
    free(pack);
    put64(&o, weft__journal_hash(buf, (size_t)(o.at - buf)));
    *len = total;
    return buf;
}

/* Writes a new version; caller holds journal_mutex. */
static void write_locked(void)
{
    uint64_t generation = weft_registry_generation(weft_defs_global());
    size_t len = 0;
    unsigned char *buf = build(&len);
    bool ok = false;
    if (buf) {
        int fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (fd >= 0) {
            ok = weft__io_whole(fd, true, buf, len, 0) == len;
            ok = close(fd) == 0 && ok;
            ok = ok && rename(temporary, path) == 0;
            if (!ok)
                unlink(temporary);
        }
        weft_free(buf);
    }
    atomic_fetch_add(&progress, 1);
    if (ok) {
        written_generation = generation;
    } else if (!failed_once) {
        failed_once = true;
        weft_log_verbose("cannot write the recovery journal '%s' (%s); a trace that is not "
                         "finished may not be recoverable",
                         path, strerror(errno));
    }
}

void weft__journal_open(const char *dir, uint32_t process_rank)
{
    if (!dir)
        return;
    int saved_errno = errno;
    pthread_mutex_lock(&journal_mutex);
    char journal_dir[4150];
    snprintf(journal_dir, sizeof(journal_dir), "%s/%s", dir, WEFT_JOURNAL_DIR);
    if (mkdir(journal_dir, 0777) != 0 && errno != EEXIST) {
        weft_log_verbose("cannot create '%s' (%s); a trace that is not finished will not be "
                         "recoverable",
                         journal_dir, strerror(errno));
    } else {
        rank = process_rank;
        snprintf(path, sizeof(path), "%s/%u%s", journal_dir, rank, WEFT_JOURNAL_SUFFIX);
        snprintf(temporary, sizeof(temporary), "%s.new", path);
        /* The clock's own first readings, from when recording started:
         * the longer the span to the last reading, the truer the rate. */
        weft_clock_start_readings(&first_ticks, &first_mono, &first_real);
        state = WEFT_JOURNAL_RECORDING;
        end_signal = 0;
        end_time = 0;
        flushed = false;
        open_ = true;
        write_locked();
    }
    pthread_mutex_unlock(&journal_mutex);
    errno = saved_errno;
}

void weft__journal_before_flush(void)
{
    atomic_fetch_add(&progress, 1);
    pthread_mutex_lock(&journal_mutex);
    if (open_ && (weft_registry_generation(weft_defs_global()) != written_generation ||
                  weft__monotonic_ns() - last_mono > CLOCK_REFRESH_NS))
        write_locked();
    pthread_mutex_unlock(&journal_mutex);
}

void weft__journal_end(weft_journal_state how, uint32_t signal, uint64_t time, bool all_written)
{
    pthread_mutex_lock(&journal_mutex);
    if (open_) {
        state = how;
        end_signal = signal;
        end_time = time;
        flushed = all_written;
        write_locked();
    }
    pthread_mutex_unlock(&journal_mutex);
}

void weft__journal_remove(void)
{
    pthread_mutex_lock(&journal_mutex);
    if (open_) {
        open_ = false;
        unlink(path);
        /* The last process of a job to finish removes the directory. */
        char *slash = strrchr(path, '/');
        if (slash) {
            *slash = '\0';
            rmdir(path);
        }
    }
    pthread_mutex_unlock(&journal_mutex);
}

void weft__journal_forget(void)
{
    pthread_mutex_init(&journal_mutex, NULL);
    open_ = false;
}

uint64_t weft__journal_progress(void)
{
    return atomic_load(&progress);
}
