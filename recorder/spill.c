/* SPDX-License-Identifier: BSD-3-Clause */
/* The spill file; see spill.h. */
#include "spill.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "archive.h"
#include "io_whole.h"
#include "weft/alloc.h"
#include "weft/log.h"

typedef struct extent {
    uint64_t offset; /* in the spill file, bytes */
    uint64_t slots;
    uint64_t events;
    bool ends_thread;
} extent;

struct weft_spilled {
    extent *extents;
    size_t count, capacity;
    bool active;
};

static int fd = -1;
static bool open_failed;
static uint64_t end_offset;

/* An unnamed file in the experiment directory: O_TMPFILE where the file
 * system has it, else a uniquely named one (ranks of a job share the
 * directory) unlinked at once. */
static bool open_file(void)
{
    if (fd >= 0)
        return true;
    if (open_failed)
        return false;
    const char *dir = weft__archive_directory();
    if (dir) {
        fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
        if (fd < 0) {
            char path[4200];
            snprintf(path, sizeof(path), "%s/.weft-spill-XXXXXX", dir);
            fd = mkostemp(path, O_CLOEXEC);
            if (fd >= 0)
                unlink(path);
        }
    }
    if (fd < 0) {
        open_failed = true;
        weft_log_verbose("no spill file in '%s' (%s): threads without an open event file keep "
                         "their events in memory",
                         dir ? dir : "?", strerror(errno));
        return false;
    }
    weft_log_verbose("more threads write than may keep an event file open: the others' events "
                     "wait in a spill file until the end");
    return true;
}

bool weft__spill_begin(weft_loc *loc)
{
    if (!loc->spilled && !(loc->spilled = weft_calloc(1, sizeof(*loc->spilled))))
        return false;
    loc->spilled->active = true;
    return true;
}

bool weft__spill_active(const weft_loc *loc)
{
    return loc->spilled && loc->spilled->active;
}

bool weft__spill_park(weft_loc *loc, const weft_slot *slots, size_t count, uint64_t events,
                      bool ends_thread)
{
    struct weft_spilled *s = loc->spilled;
    if (s->count == s->capacity) {
        size_t capacity = s->capacity ? 2 * s->capacity : 16;
        extent *grown = weft_realloc(s->extents, capacity * sizeof(*grown));
        if (!grown)
            goto cannot;
        s->extents = grown;
        s->capacity = capacity;
    }
    size_t bytes = count * sizeof(weft_slot);
    if (count > 0 &&
        (!open_file() || weft__io_whole(fd, true, (void *)slots, bytes, end_offset) != bytes))
        goto cannot;
    s->extents[s->count++] = (extent){end_offset, count, events, ends_thread};
    end_offset += bytes;
    return true;
cannot:
    /* What is parked stays parked (it is replayed first at the end); this
     * and later chunks go to OTF2's memory. */
    s->active = false;
    return false;
}

uint64_t weft__spill_replay(weft_loc *loc, weft_spill_writer write)
{
    struct weft_spilled *s = loc->spilled;
    uint64_t lost = 0;
    if (!s)
        return 0;
    s->active = false;
    size_t largest = 0;
    for (size_t i = 0; i < s->count; i++)
        largest = s->extents[i].slots > largest ? s->extents[i].slots : largest;
    weft_slot *buffer = largest ? weft_alloc(largest * sizeof(weft_slot)) : NULL;
    for (size_t i = 0; i < s->count; i++) {
        const extent *e = &s->extents[i];
        if (e->slots == 0 ||
            (buffer && weft__io_whole(fd, false, buffer, e->slots * sizeof(weft_slot), e->offset) ==
                           e->slots * sizeof(weft_slot)))
            write(loc, buffer, e->slots, e->ends_thread);
        else
            lost += e->events;
    }
    if (lost)
        weft_log_error("the spill file could not be read back: %llu events of thread %u are "
                       "lost",
                       (unsigned long long)lost, loc->thread_number);
    weft_free(buffer);
    weft_free(s->extents);
    weft_free(s);
    loc->spilled = NULL;
    return lost;
}

void weft__spill_close(void)
{
    if (fd >= 0)
        close(fd);
    fd = -1;
    end_offset = 0;
}

void weft__spill_forget(void)
{
    if (fd >= 0)
        close(fd); /* the child's descriptor only */
    fd = -1;
    open_failed = false;
    end_offset = 0;
}
