/* SPDX-License-Identifier: BSD-3-Clause */
/* The I/O table of `weft summary`: per rank and file, the reads and writes
 * (operations and bytes transferred), flushes, and the time from each
 * operation's IoOperationBegin to its IoOperationComplete. Operations are
 * matched by their matching id within one location; a completion without a
 * begin is left out (weft check reports it). Rows of one rank and file name are
 * one (a file opened twice, or on two handles). */
#include "summary_state.h"
#include "grow.h"

#include <stdlib.h>
#include <string.h>

enum { MODE_READ = 0, MODE_WRITE = 1, MODE_FLUSH = 2 }; /* OTF2_IoOperationMode */

/* An operation begun and not yet completed: few at a time, so memory
 * does not grow with the number of operations. */
struct summary_io_open {
    uint64_t id;
    uint64_t begin;
    uint8_t mode;
};

weft_status weft__summary_io_begin_location(summary_state *s)
{
    s->io_open_count = 0; /* matching ids are unique per location only */
    return WEFT_OK;
}

static weft_status io_begin(summary_state *s, const weft_trace_event *e)
{
    if (!weft__cli_grow(&s->io_open, &s->io_open_capacity, s->io_open_count + 1,
                        sizeof(*s->io_open)))
        return WEFT_ERR_NO_MEMORY;
    s->io_open[s->io_open_count++] = (struct summary_io_open){e->request, e->time, e->op};
    return WEFT_OK;
}

weft_status weft__summary_io_event(summary_state *s, const weft_trace_event *e)
{
    if ((!s->io_ops && !(s->io_ops = weft__summary_table_create())) ||
        (!s->io_time && !(s->io_time = weft__summary_table_create())))
        return WEFT_ERR_NO_MEMORY;
    if (e->kind == WEFT_TRACE_IO_BEGIN)
        return io_begin(s, e);
    /* A completion: its begin's mode and time, if it had one. */
    uint64_t mode = UINT64_MAX, ticks = 0;
    for (size_t i = s->io_open_count; i-- > 0;) {
        if (s->io_open[i].id == e->request) {
            mode = s->io_open[i].mode;
            ticks = e->time >= s->io_open[i].begin ? e->time - s->io_open[i].begin : 0;
            s->io_open[i] = s->io_open[--s->io_open_count];
            break;
        }
    }
    if (mode == UINT64_MAX)
        return WEFT_OK;
    uint64_t key = (uint64_t)s->read.current_rank << 32 | (uint32_t)e->ref;
    uint64_t *ops = weft__summary_table_counters(s->io_ops, key);
    if (!ops)
        return WEFT_ERR_NO_MEMORY;
    if (mode == MODE_READ) {
        ops[0]++;
        ops[1] += e->bytes;
    } else if (mode == MODE_WRITE) {
        ops[2]++;
        ops[3] += e->bytes;
    }
    uint64_t *time = weft__summary_table_counters(s->io_time, key);
    if (!time)
        return WEFT_ERR_NO_MEMORY;
    time[0] += ticks;
    time[1] += mode == MODE_FLUSH;
    return WEFT_OK;
}

static int compare_io(const void *pa, const void *pb)
{
    const weft_summary_io *a = pa, *b = pb;
    if (a->rank != b->rank)
        return a->rank < b->rank ? -1 : 1;
    return strcmp(a->file, b->file);
}

weft_status weft__summary_io_result(const summary_state *s, weft_summary *out)
{
    size_t n = s->io_ops ? weft__summary_table_size(s->io_ops) : 0;
    if (n == 0)
        return WEFT_OK;
    out->io = calloc(n, sizeof(*out->io));
    if (!out->io)
        return WEFT_ERR_NO_MEMORY;
    for (size_t i = 0; i < n; i++) {
        const uint64_t *ops = NULL;
        uint64_t key = weft__summary_table_key(s->io_ops, i, &ops);
        const uint64_t *time = weft__summary_table_counters(s->io_time, key);
        uint32_t rank = (uint32_t)(key >> 32);
        const char *file = weft__trace_io_handle_file(&s->read, (uint32_t)key);
        weft_summary_io *row = NULL;
        for (size_t r = 0; r < out->io_count && !row; r++) {
            if (out->io[r].rank == rank && strcmp(out->io[r].file, file) == 0)
                row = &out->io[r];
        }
        if (!row) {
            row = &out->io[out->io_count];
            row->file = strdup(file);
            if (!row->file)
                return WEFT_ERR_NO_MEMORY;
            row->rank = rank;
            out->io_count++;
        }
        row->reads += ops[0];
        row->read_bytes += ops[1];
        row->writes += ops[2];
        row->written_bytes += ops[3];
        if (time) {
            row->ticks += time[0];
            row->flushes += time[1];
        }
    }
    qsort(out->io, out->io_count, sizeof(*out->io), compare_io);
    return WEFT_OK;
}

void weft__summary_io_free(summary_state *s)
{
    weft__summary_table_destroy(s->io_ops);
    weft__summary_table_destroy(s->io_time);
    free(s->io_open);
}
