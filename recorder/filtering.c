/* SPDX-License-Identifier: BSD-3-Clause */
/* The process's region filter (WEFT_FILTERING_FILE), read once when
 * recording starts; see weft/filter.h for the syntax and weft/recorder.h
 * for weft_region_filtered. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io_whole.h"
#include "lifecycle.h"
#include "weft/alloc.h"
#include "weft/filter.h"
#include "weft/log.h"
#include "weft/recorder.h"

/* Written once by weft__filter_load inside weft_init, before any thread can
 * see recording on; read-only afterwards. */
static weft_filter *filter;

/* Filter files are a few lines; anything larger is not one. */
#define MAX_FILTER_BYTES (1024 * 1024)

/* The whole file, weft_alloc'ed, or NULL with *why set (a reason for the
 * user). Only a regular file of sane size is read: a device (/dev/zero)
 * would be read without end, and a FIFO would block the program in open(2)
 * (hence O_NONBLOCK, which regular files ignore). */
static char *read_file(const char *path, size_t *len, const char **why)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        *why = strerror(errno);
        return NULL;
    }
    struct stat st;
    char *text = NULL;
    if (fstat(fd, &st) != 0)
        *why = strerror(errno);
    else if (!S_ISREG(st.st_mode))
        *why = "not a regular file";
    else if (st.st_size > MAX_FILTER_BYTES)
        *why = "larger than 1 MiB, which no filter file is";
    else if (!(text = weft_alloc((size_t)st.st_size + 1)))
        *why = strerror(ENOMEM);
    size_t size = 0;
    if (text) {
        errno = 0; /* a file cut meanwhile ends early without an error */
        size = weft__io_whole(fd, false, text, (size_t)st.st_size, 0);
        if (size < (size_t)st.st_size && errno)
            *why = strerror(errno);
    }
    close(fd);
    if (text && size < (size_t)st.st_size && *why) {
        weft_free(text);
        return NULL;
    }
    *len = size;
    return text;
}

void weft__filter_load(const char *path)
{
    if (!path || !path[0])
        return;
    size_t len = 0;
    const char *why = NULL;
    char *text = read_file(path, &len, &why);
    if (!text) {
        weft_log_error("WEFT_FILTERING_FILE '%s': cannot read it (%s); no filter is applied", path,
                       why ? why : "unknown reason");
        return;
    }
    char err[256];
    weft_status st = weft_filter_parse(text, len, &filter, err, sizeof(err));
    weft_free(text);
    if (st == WEFT_ERR_NO_MEMORY)
        weft_log_error("WEFT_FILTERING_FILE '%s': out of memory; no filter is applied", path);
    else if (st != WEFT_OK)
        weft_log_error("WEFT_FILTERING_FILE '%s': %s; no filter is applied", path, err);
    else
        weft_log_verbose("filtering regions with '%s' (%zu rules)", path,
                         weft_filter_rule_count(filter));
}

bool weft_region_filtered(const char *name, const char *file)
{
    weft_init(); /* the filter is read when recording starts */
    return weft_filter_excludes(filter, name, file);
}

bool weft__filter_excludes_openmp(const char *name)
{
    return weft_filter_excludes_openmp(filter, name);
}
