/* SPDX-License-Identifier: BSD-3-Clause */
/* Disk space set aside for the end of a trace; see disk_reserve.h. */
#include "disk_reserve.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "archive.h"
#include "otf2_memory.h"
#include "weft/journal.h"
#include "weft/log.h"

/* What closing writes besides the event chunks OTF2 holds: the global and
 * local definitions and the anchor file, with room to spare. */
#define DEFINITIONS_BYTES (2u * 1024 * 1024)
/* Room to spare past what OTF2 may write of one location's file at once. */
#define STDIO_SLACK (64u * 1024)

/* Guards everything below; taken inside the sink's mutex (OTF2's flushes
 * run there) and never around anything that takes another lock. */
static pthread_mutex_t reserve_mutex = PTHREAD_MUTEX_INITIALIZER;
static char directory[4096];
static char path[4200];
static bool held; /* the reserve file exists and holds `size` bytes */
static uint64_t size;
static atomic_bool exhausted;

static bool allocate(const char *file, bool keep_size, uint64_t offset, uint64_t len)
{
    int fd = open(file, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0)
        return false;
    int rc = fallocate(fd, keep_size ? FALLOC_FL_KEEP_SIZE : 0, (off_t)offset, (off_t)len);
    int err = errno;
    close(fd);
    errno = err;
    return rc == 0;
}

void weft__disk_reserve_open(const char *dir)
{
    if (!dir)
        return;
    int saved_errno = errno;
    pthread_mutex_lock(&reserve_mutex);
    snprintf(directory, sizeof(directory), "%s", dir);
    char journal_dir[4150];
    snprintf(journal_dir, sizeof(journal_dir), "%s/%s", dir, WEFT_JOURNAL_DIR);
    mkdir(journal_dir, 0777);
    snprintf(path, sizeof(path), "%s/reserve", journal_dir);
    size = DEFINITIONS_BYTES;
    held = allocate(path, false, 0, size);
    if (!held) {
        if (errno == ENOSPC)
            atomic_store(&exhausted, true);
        else
            weft_log_verbose("cannot set disk space aside in '%s' (%s): a disk that another "
                             "process fills may leave the trace unreadable",
                             path, strerror(errno));
        unlink(path);
    }
    pthread_mutex_unlock(&reserve_mutex);
    errno = saved_errno;
}

bool weft__disk_reserve_grow(uint32_t event_writers)
{
    pthread_mutex_lock(&reserve_mutex);
    uint64_t wanted = DEFINITIONS_BYTES + weft__otf2_pending_bytes(event_writers);
    if (held && wanted > size) {
        if (allocate(path, false, size, wanted - size))
            size = wanted;
        else if (errno == ENOSPC)
            atomic_store(&exhausted, true);
    }
    pthread_mutex_unlock(&reserve_mutex);
    return !atomic_load(&exhausted);
}

/* Whether the chunks about to be written to FILE have their space: allocated
 * in the file (it exists), or free on the disk (OTF2 creates the file, and
 * truncates what was allocated in it, at its first write). */
static bool room_for_chunk(const char *file, uint64_t len, bool *exists, uint64_t *at)
{
    struct stat sb;
    *exists = stat(file, &sb) == 0;
    *at = *exists ? (uint64_t)sb.st_size : 0;
    if (*exists)
        return allocate(file, true, *at, len) || errno != ENOSPC;
    struct statvfs fs;
    return statvfs(directory, &fs) != 0 || (uint64_t)fs.f_bavail * fs.f_frsize >= len;
}

bool weft__disk_reserve_before_flush(uint64_t location)
{
    pthread_mutex_lock(&reserve_mutex);
    bool ok = true;
    if (held && directory[0]) {
        char file[4400];
        snprintf(file, sizeof(file), "%s/traces/%llu.evt", directory, (unsigned long long)location);
        /* A flush hands every chunk OTF2 holds for the location to its file
         * buffer, which OTF2 writes out when full (otf2_memory.h): the next
         * write to the file may be all of that at once. */
        uint64_t len = weft__otf2_pending_bytes(1) + STDIO_SLACK;
        uint64_t at;
        bool exists;
        ok = room_for_chunk(file, len, &exists, &at);
        if (!ok) {
            /* The disk is full: a chunk's worth of the reserve goes to this
             * write (it would be written when closing anyway), and
             * recording stops. */
            atomic_store(&exhausted, true);
            if (size >= DEFINITIONS_BYTES + len && truncate(path, (off_t)(size - len)) == 0) {
                size -= len;
                ok = !exists || allocate(file, true, at, len);
            }
        }
    }
    pthread_mutex_unlock(&reserve_mutex);
    return ok;
}

bool weft__disk_reserve_held(void)
{
    pthread_mutex_lock(&reserve_mutex);
    bool result = held;
    pthread_mutex_unlock(&reserve_mutex);
    return result;
}

bool weft__disk_reserve_exhausted(void)
{
    return atomic_load(&exhausted);
}

void weft__disk_reserve_release(void)
{
    pthread_mutex_lock(&reserve_mutex);
    if (held)
        unlink(path);
    held = false;
    pthread_mutex_unlock(&reserve_mutex);
}

void weft__disk_reserve_forget(void)
{
    pthread_mutex_init(&reserve_mutex, NULL);
    held = false;
    directory[0] = '\0';
    atomic_store(&exhausted, false);
}
