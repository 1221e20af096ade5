/* SPDX-License-Identifier: BSD-3-Clause */
/* OTF2's chunks and event files; see otf2_memory.h. */
#include "otf2_memory.h"

#include <pthread.h>
#include <sys/resource.h>

#include "pages.h"
#include "weft/alloc.h"

/* Given-back event chunks kept for reuse. A location that writes holds two
 * and gives back two per write, so a few cover every writing location. */
#define POOL_MAX 8u

/* What OTF2 buffers per open file before writing it (OTF2_File.h). */
#define OTF2_FILE_BUFFER_BYTES (4u * 1024 * 1024)

/* Bounds on event files open during the run, by RLIMIT_NOFILE / 16. */
#define FILES_MIN 4u
#define FILES_MAX 64u
#define FILES_SHARE 16u

/* The chunks one OTF2 buffer holds (OTF2's per-buffer data). */
typedef struct held_chunks {
    void **chunks;
    uint32_t count, capacity;
    uint64_t chunk_size;
    bool events;    /* an event writer's buffer */
    bool file_open; /* it was refused a chunk: OTF2 opened its file */
} held_chunks;

/* Everything below; the callbacks come from the writer thread and from the
 * finalising thread, and OTF2 itself takes no lock around them. */
static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
static void *pool[POOL_MAX];
static uint32_t pool_count;
static uint32_t files_open;
static uint32_t files_max = UINT32_MAX;
static bool closing;
static bool over_budget;

static bool add_held(held_chunks *held, void *chunk)
{
    if (held->count == held->capacity) {
        uint32_t capacity = held->capacity ? 2 * held->capacity : 4;
        void **grown = weft_realloc(held->chunks, capacity * sizeof(*grown));
        if (!grown)
            return false;
        held->chunks = grown;
        held->capacity = capacity;
    }
    held->chunks[held->count++] = chunk;
    return true;
}

/* Whether OTF2 must write what this event buffer holds before it gets
 * another chunk (then it is refused one: OTF2 writes, gives the chunks
 * back and asks again). Caller holds the mutex. */
static bool must_write(held_chunks *held)
{
    if (held->count < WEFT_OTF2_EVENT_CHUNKS_HELD)
        return false;
    if (held->file_open)
        return true;
    if (closing || files_open < files_max) {
        held->file_open = true;
        files_open++;
        return true;
    }
    /* No file may be opened now: one chunk more, and the sink parks the
     * location's next events until the end. */
    over_budget = true;
    return false;
}

static void *allocate_chunk(void *user_data, OTF2_FileType file_type, OTF2_LocationRef location,
                            void **per_buffer, uint64_t chunk_size)
{
    (void)user_data, (void)location;
    void *chunk = NULL;
    pthread_mutex_lock(&mutex);
    held_chunks *held = *per_buffer;
    if (!held && (held = *per_buffer = weft_calloc(1, sizeof(*held)))) {
        held->chunk_size = chunk_size;
        held->events = file_type == OTF2_FILETYPE_EVENTS;
    }
    if (!held || (held->events && must_write(held)))
        goto out;
    if (chunk_size == WEFT_OTF2_EVENT_CHUNK_BYTES && pool_count > 0)
        chunk = pool[--pool_count];
    else
        chunk = weft__pages_map(chunk_size, false);
    if (chunk && !add_held(held, chunk)) {
        weft__pages_unmap(chunk, chunk_size);
        chunk = NULL;
    }
out:
    pthread_mutex_unlock(&mutex);
    return chunk;
}

static void free_chunks(void *user_data, OTF2_FileType file_type, OTF2_LocationRef location,
                        void **per_buffer, bool final)
{
    (void)user_data, (void)file_type, (void)location;
    pthread_mutex_lock(&mutex);
    held_chunks *held = *per_buffer;
    if (held) {
        for (uint32_t i = 0; i < held->count; i++) {
            if (held->chunk_size == WEFT_OTF2_EVENT_CHUNK_BYTES && pool_count < POOL_MAX)
                pool[pool_count++] = held->chunks[i];
            else
                weft__pages_unmap(held->chunks[i], held->chunk_size);
        }
        held->count = 0;
        if (final) {
            /* The writer is closed, and with it its file. */
            if (held->file_open)
                files_open--;
            weft_free(held->chunks);
            weft_free(held);
            *per_buffer = NULL;
        }
    }
    pthread_mutex_unlock(&mutex);
}

static const OTF2_MemoryCallbacks callbacks = {.otf2_allocate = allocate_chunk,
                                               .otf2_free_all = free_chunks};

const OTF2_MemoryCallbacks *weft__otf2_memory_callbacks(void)
{
    return &callbacks;
}

uint64_t weft__otf2_pending_bytes(uint32_t event_writers)
{
    return (uint64_t)event_writers *
           (WEFT_OTF2_EVENT_CHUNKS_HELD * WEFT_OTF2_EVENT_CHUNK_BYTES + OTF2_FILE_BUFFER_BYTES);
}

uint32_t weft__otf2_files_bound(void)
{
    struct rlimit limit;
    uint64_t bound = FILES_MAX;
    if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY)
        bound = limit.rlim_cur / FILES_SHARE;
    bound = bound < FILES_MIN ? FILES_MIN : bound > FILES_MAX ? FILES_MAX : bound;
    pthread_mutex_lock(&mutex);
    files_max = (uint32_t)bound;
    pthread_mutex_unlock(&mutex);
    return (uint32_t)bound;
}

bool weft__otf2_take_over_budget(void)
{
    pthread_mutex_lock(&mutex);
    bool was = over_budget;
    over_budget = false;
    pthread_mutex_unlock(&mutex);
    return was;
}

void weft__otf2_files_closing(void)
{
    pthread_mutex_lock(&mutex);
    closing = true;
    pthread_mutex_unlock(&mutex);
}

void weft__otf2_memory_forget(void)
{
    pthread_mutex_init(&mutex, NULL);
    pool_count = 0;
    files_open = 0;
    files_max = UINT32_MAX;
    closing = false;
    over_budget = false;
}
