/* SPDX-License-Identifier: BSD-3-Clause */
/* An external sort for `weft view`: records of a few uint64_t words are
 * collected in a buffer of fixed size; a full buffer is sorted and written
 * to an unlinked temporary file (in $TMPDIR, else /tmp) as one sorted run,
 * and reading merges the runs through a heap, one record of each in memory.
 * So ordering what the location-by-location reader delivers (visits by end
 * time across locations, sends and receives by channel) costs memory of
 * the buffer plus one stdio buffer per run, whatever the number of records;
 * the disk holds the records themselves. */
#include "view.h"
#include "grow.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BUFFER_BYTES (16u << 20) /* one run */

typedef struct view_spill_cursor {
    FILE *file;
    uint64_t record[VIEW_SPILL_MAX_WORDS];
} view_spill_cursor;

static size_t sort_keys; /* qsort has no context; the command is single-threaded */

static int compare_records(const uint64_t *a, const uint64_t *b, size_t keys)
{
    for (size_t k = 0; k < keys; k++) {
        if (a[k] != b[k])
            return a[k] < b[k] ? -1 : 1;
    }
    return 0;
}

static int compare_for_qsort(const void *a, const void *b)
{
    return compare_records(a, b, sort_keys);
}

void weft__view_spill_init(view_spill *s, size_t words, size_t keys)
{
    *s = (view_spill){.words = words, .keys = keys};
}

static FILE *temporary_file(void)
{
    const char *dir = getenv("TMPDIR");
    char path[4096];
    snprintf(path, sizeof(path), "%s/weft-view-XXXXXX", dir && *dir ? dir : "/tmp");
    int fd = mkstemp(path);
    if (fd < 0)
        return NULL;
    unlink(path); /* gone when closed, even if weft view is killed */
    FILE *f = fdopen(fd, "w+b");
    if (!f)
        close(fd);
    return f;
}

static void sort_buffer(view_spill *s)
{
    sort_keys = s->keys;
    if (s->buffered > 1)
        qsort(s->buffer, s->buffered, s->words * sizeof(uint64_t), compare_for_qsort);
}

static void write_run(view_spill *s)
{
    sort_buffer(s);
    FILE *f = temporary_file();
    if (!f || fwrite(s->buffer, s->words * sizeof(uint64_t), s->buffered, f) != s->buffered ||
        fflush(f) != 0) {
        if (f)
            fclose(f);
        s->failed = true;
        return;
    }
    if (!weft__cli_grow(&s->runs, &s->run_capacity, s->run_count + 1, sizeof(*s->runs))) {
        fclose(f);
        s->failed = true;
        return;
    }
    s->runs[s->run_count++] = f;
    s->buffered = 0;
}

void weft__view_spill_add(view_spill *s, const uint64_t *record)
{
    if (s->failed)
        return;
    if (!s->buffer) {
        if (s->buffer_capacity == 0) /* the tests set a small one */
            s->buffer_capacity = BUFFER_BYTES / (s->words * sizeof(uint64_t));
        s->buffer = malloc(s->buffer_capacity * s->words * sizeof(uint64_t));
        if (!s->buffer) {
            s->failed = true;
            return;
        }
    }
    memcpy(s->buffer + s->buffered * s->words, record, s->words * sizeof(uint64_t));
    s->count++;
    if (++s->buffered == s->buffer_capacity)
        write_run(s);
}

/* --- Merging ------------------------------------------------------------------------ */

static bool load(view_spill *s, size_t run)
{
    view_spill_cursor *c = &s->cursors[run];
    return fread(c->record, sizeof(uint64_t), s->words, c->file) == s->words;
}

static bool heap_less(const view_spill *s, size_t a, size_t b)
{
    return compare_records(s->cursors[a].record, s->cursors[b].record, s->keys) < 0;
}

static void sift_down(view_spill *s, size_t i)
{
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < s->heap_size && heap_less(s, s->heap[l], s->heap[m]))
            m = l;
        if (r < s->heap_size && heap_less(s, s->heap[r], s->heap[m]))
            m = r;
        if (m == i)
            return;
        size_t t = s->heap[i];
        s->heap[i] = s->heap[m];
        s->heap[m] = t;
        i = m;
    }
}

bool weft__view_spill_rewind(view_spill *s)
{
    if (s->failed)
        return false;
    s->merging = true;
    s->next_in_memory = 0;
    if (s->run_count == 0) {
        sort_buffer(s);
        return true;
    }
    if (s->buffered > 0)
        write_run(s);
    if (s->failed)
        return false;
    free(s->cursors);
    free(s->heap);
    s->cursors = calloc(s->run_count, sizeof(*s->cursors));
    s->heap = calloc(s->run_count, sizeof(*s->heap));
    if (!s->cursors || !s->heap) {
        s->failed = true;
        return false;
    }
    free(s->buffer); /* the runs hold everything now */
    s->buffer = NULL;
    s->heap_size = 0;
    for (size_t r = 0; r < s->run_count; r++) {
        s->cursors[r].file = s->runs[r];
        if (fseek(s->runs[r], 0, SEEK_SET) != 0) {
            s->failed = true;
            return false;
        }
        if (load(s, r))
            s->heap[s->heap_size++] = r;
    }
    for (size_t i = s->heap_size; i-- > 0;)
        sift_down(s, i);
    return true;
}

bool weft__view_spill_next(view_spill *s, uint64_t *record)
{
    if (s->failed || !s->merging)
        return false;
    if (s->run_count == 0) {
        if (s->next_in_memory >= s->buffered)
            return false;
        memcpy(record, s->buffer + s->next_in_memory++ * s->words, s->words * sizeof(uint64_t));
        return true;
    }
    if (s->heap_size == 0)
        return false;
    size_t run = s->heap[0];
    memcpy(record, s->cursors[run].record, s->words * sizeof(uint64_t));
    if (!load(s, run))
        s->heap[0] = s->heap[--s->heap_size];
    sift_down(s, 0);
    return true;
}

void weft__view_spill_free(view_spill *s)
{
    for (size_t r = 0; r < s->run_count; r++)
        fclose(s->runs[r]);
    free(s->runs);
    free(s->buffer);
    free(s->cursors);
    free(s->heap);
    *s = (view_spill){0};
}
