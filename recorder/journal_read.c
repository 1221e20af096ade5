/* SPDX-License-Identifier: BSD-3-Clause */
/* Reading recovery journals back (weft/journal.h) for `weft recover`; the
 * layout is in journal_format.h. Every file is checked whole (its hash)
 * before anything of it is merged. */
#include "weft/journal.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "journal_format.h"
#include "weft/alloc.h"

/* Files larger than this are not journals of ours (a journal holds the
 * definitions of one process: kilobytes to a few megabytes). */
#define MAX_JOURNAL_BYTES ((uint64_t)1 << 31)

static const char *const state_texts[WEFT_JOURNAL_STATE_COUNT] = {
    "still recording when it ended (killed?)",
    "ended by a signal",
    "ended without MPI_Finalize",
    "called MPI_Abort",
};

const char *weft_journal_state_text(weft_journal_state state)
{
    return (unsigned)state < WEFT_JOURNAL_STATE_COUNT ? state_texts[state] : "in an unknown state";
}

static void say(char *err, size_t err_len, const char *fmt, ...)
{
    if (!err || err_len == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, err_len, fmt, ap);
    va_end(ap);
}

typedef struct in {
    const unsigned char *at, *end;
    bool short_;
} in;

/* The next LEN bytes, or NULL (and the input marked short) when fewer are
 * left. */
static const unsigned char *get_bytes(in *i, uint64_t len)
{
    if ((uint64_t)(i->end - i->at) < len) {
        i->short_ = true;
        return NULL;
    }
    const unsigned char *p = i->at;
    i->at += len;
    return p;
}

/* Copies the next SIZE bytes into V; leaves V as it was when they are
 * missing. */
static void get_into(in *i, void *v, size_t size)
{
    const unsigned char *p = get_bytes(i, size);
    if (p)
        memcpy(v, p, size);
}

static uint32_t get32(in *i)
{
    uint32_t v = 0;
    get_into(i, &v, sizeof(v));
    return v;
}

static uint64_t get64(in *i)
{
    uint64_t v = 0;
    get_into(i, &v, sizeof(v));
    return v;
}

static unsigned char *read_whole(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    unsigned char *buf = NULL;
    long size = -1;
    if (fseek(f, 0, SEEK_END) == 0)
        size = ftell(f);
    if (size >= 0 && (uint64_t)size <= MAX_JOURNAL_BYTES && fseek(f, 0, SEEK_SET) == 0)
        buf = weft_alloc((size_t)size + 1);
    if (buf && fread(buf, 1, (size_t)size, f) != (size_t)size) {
        weft_free(buf);
        buf = NULL;
    }
    fclose(f);
    *len = buf ? (size_t)size : 0;
    return buf;
}

/* Decodes one file into part (its fields, not yet its maps); *pack and
 * *pack_len point into buf. */
static bool decode(const unsigned char *buf, size_t len, weft_journal_part *part,
                   const unsigned char **pack, uint64_t *pack_len, const char **why)
{
    if (len < WEFT_JOURNAL_HEADER_BYTES + WEFT_JOURNAL_HASH_BYTES) {
        *why = "too short";
        return false;
    }
    uint64_t stored;
    memcpy(&stored, buf + len - WEFT_JOURNAL_HASH_BYTES, 8);
    in i = {buf, buf + len - WEFT_JOURNAL_HASH_BYTES, false};
    if (get32(&i) != WEFT_JOURNAL_MAGIC) {
        *why = "not a weft journal";
        return false;
    }
    if (get32(&i) != WEFT_JOURNAL_VERSION) {
        *why = "a journal of another weft version";
        return false;
    }
    if (get32(&i) != WEFT_JOURNAL_ORDER) {
        *why = "written on a machine of the other byte order";
        return false;
    }
    if (weft__journal_hash(buf, len - WEFT_JOURNAL_HASH_BYTES) != stored) {
        *why = "damaged (its check sum does not match)";
        return false;
    }
    part->rank = get32(&i);
    part->pid = get32(&i);
    uint32_t state = get32(&i);
    part->state =
        state < WEFT_JOURNAL_STATE_COUNT ? (weft_journal_state)state : WEFT_JOURNAL_RECORDING;
    part->signal = get32(&i);
    part->flushed = get32(&i) != 0;
    part->end_time = get64(&i);
    part->ticks_are_ns = get32(&i) != 0;
    (void)get32(&i);
    part->first_ticks = get64(&i);
    part->first_mono_ns = get64(&i);
    part->first_real_ns = get64(&i);
    part->last_ticks = get64(&i);
    part->last_mono_ns = get64(&i);
    part->event_chunk_bytes = get64(&i);
    part->definition_chunk_bytes = get64(&i);
    uint32_t host_len = get32(&i);
    uint32_t offset_count = get32(&i);
    *pack_len = get64(&i);
    const unsigned char *host = get_bytes(&i, host_len);
    if (host) {
        size_t n = host_len < sizeof(part->host) - 1 ? host_len : sizeof(part->host) - 1;
        memcpy(part->host, host, n);
        part->host[n] = '\0';
    }
    if (!i.short_ && offset_count > 0) {
        if ((uint64_t)offset_count * WEFT_JOURNAL_OFFSET_BYTES > (uint64_t)(i.end - i.at)) {
            i.short_ = true;
        } else {
            part->offsets = weft_calloc(offset_count, sizeof(*part->offsets));
            if (!part->offsets) {
                *why = "out of memory";
                return false;
            }
            part->offset_count = offset_count;
            for (uint32_t k = 0; k < offset_count; k++) {
                part->offsets[k].time = get64(&i);
                part->offsets[k].offset = (int64_t)get64(&i);
                const unsigned char *d = get_bytes(&i, 8);
                if (d)
                    memcpy(&part->offsets[k].stddev, d, 8);
            }
        }
    }
    *pack = get_bytes(&i, *pack_len);
    if (i.short_ || i.at != i.end || part->event_chunk_bytes == 0 ||
        part->definition_chunk_bytes == 0) {
        *why = "its parts do not add up";
        return false;
    }
    return true;
}

/* One file while it is read: its part and its bytes. */
typedef struct loaded {
    weft_journal_part part;
    unsigned char *buf;
    const unsigned char *pack;
    uint64_t pack_len;
} loaded;

static int by_rank(const void *a, const void *b)
{
    uint32_t x = ((const loaded *)a)->part.rank, y = ((const loaded *)b)->part.rank;
    return (x > y) - (x < y);
}

static char **list_files(const char *dir, size_t *count)
{
    *count = 0;
    DIR *d = opendir(dir);
    if (!d)
        return NULL;
    char **names = NULL;
    size_t capacity = 0;
    struct dirent *entry;
    while ((entry = readdir(d)) != NULL) {
        const char *name = entry->d_name;
        size_t digits = strspn(name, "0123456789");
        if (digits == 0 || digits > 10 || strcmp(name + digits, WEFT_JOURNAL_SUFFIX) != 0)
            continue;
        if (*count == capacity) {
            capacity = capacity ? 2 * capacity : 16;
            char **grown = weft_realloc(names, capacity * sizeof(*names));
            if (!grown)
                break;
            names = grown;
        }
        names[*count] = weft_strdup(name);
        if (names[*count])
            (*count)++;
    }
    closedir(d);
    return names;
}

void weft_journal_free(weft_journal_part *parts, size_t count)
{
    for (size_t i = 0; parts && i < count; i++) {
        weft_free(parts[i].offsets);
        weft_id_maps_free(&parts[i].maps);
    }
    weft_free(parts);
}

/* Reads and decodes one file. */
static weft_status load_one(const char *dir, const char *name, loaded *l, char *err, size_t err_len)
{
    char file[4400];
    snprintf(file, sizeof(file), "%s/%s", dir, name);
    size_t len = 0;
    l->buf = read_whole(file, &len);
    if (!l->buf) {
        say(err, err_len, "cannot read '%s': %s", file, strerror(errno ? errno : EIO));
        return WEFT_ERR_IO;
    }
    const char *why = NULL;
    if (!decode(l->buf, len, &l->part, &l->pack, &l->pack_len, &why)) {
        say(err, err_len, "'%s' is %s", file, why);
        return WEFT_ERR_INVALID;
    }
    return WEFT_OK;
}

/* Merges the files, sorted by rank, into `into`. */
static weft_status merge_all(loaded *files, size_t count, const char *journal_dir,
                             weft_registry *into, char *err, size_t err_len)
{
    qsort(files, count, sizeof(*files), by_rank);
    for (size_t i = 1; i < count; i++) {
        if (files[i].part.rank == files[i - 1].part.rank) {
            say(err, err_len, "two journals of rank %u in '%s'", files[i].part.rank, journal_dir);
            return WEFT_ERR_INVALID;
        }
    }
    for (size_t i = 0; i < count; i++) {
        weft_journal_part *part = &files[i].part;
        part->first_location = weft_registry_location_count(into);
        weft_status st = weft_registry_merge(into, files[i].pack, files[i].pack_len, &part->maps);
        if (st != WEFT_OK) {
            say(err, err_len, "the definitions in the journal of rank %u cannot be read (%s)",
                part->rank, weft_status_name(st));
            return st;
        }
        part->location_count = weft_registry_location_count(into) - part->first_location;
        if (part->host[0])
            (void)weft_registry_process(into, part->rank, part->host, NULL);
    }
    return WEFT_OK;
}

weft_status weft_journal_read(const char *journal_dir, weft_registry *into,
                              weft_journal_part **parts_out, size_t *count_out, char *err,
                              size_t err_len)
{
    *parts_out = NULL;
    *count_out = 0;
    size_t count = 0;
    char **names = list_files(journal_dir, &count);
    if (count == 0) {
        say(err, err_len, "no journal in '%s'", journal_dir);
        weft_free(names);
        return WEFT_ERR_NOT_FOUND;
    }
    loaded *files = weft_calloc(count, sizeof(*files));
    weft_status st = files ? WEFT_OK : WEFT_ERR_NO_MEMORY;
    for (size_t i = 0; i < count && st == WEFT_OK; i++)
        st = load_one(journal_dir, names[i], &files[i], err, err_len);
    if (st == WEFT_OK)
        st = merge_all(files, count, journal_dir, into, err, err_len);
    weft_journal_part *parts = st == WEFT_OK ? weft_calloc(count, sizeof(*parts)) : NULL;
    if (st == WEFT_OK && !parts)
        st = WEFT_ERR_NO_MEMORY;
    for (size_t i = 0; files && i < count; i++) {
        if (st == WEFT_OK) {
            parts[i] = files[i].part;
        } else {
            weft_free(files[i].part.offsets);
            weft_id_maps_free(&files[i].part.maps);
        }
        weft_free(files[i].buf);
    }
    for (size_t i = 0; i < count; i++)
        weft_free(names[i]);
    weft_free(names);
    weft_free(files);
    if (st != WEFT_OK)
        return st;
    *parts_out = parts;
    *count_out = count;
    return WEFT_OK;
}

uint64_t weft_journal_ticks_per_second(const weft_journal_part *part)
{
    if (part->ticks_are_ns)
        return 1000000000u;
    uint64_t ticks = part->last_ticks - part->first_ticks;
    uint64_t ns = part->last_mono_ns - part->first_mono_ns;
    if (part->last_ticks <= part->first_ticks || ns == 0)
        return 1000000000u; /* no second reading: a guess */
    return (uint64_t)((double)ticks * 1e9 / (double)ns + 0.5);
}

uint64_t weft_journal_realtime_at(const weft_journal_part *part, uint64_t ticks)
{
    double rate = (double)weft_journal_ticks_per_second(part);
    double since = ((double)ticks - (double)part->first_ticks) * 1e9 / rate;
    double real = (double)part->first_real_ns + since;
    return real > 0 ? (uint64_t)real : 0;
}
