/* The process's region filter (WEFT_FILTERING_FILE), read once when
 * recording starts; see weft/filter.h for the syntax and weft/recorder.h
 * for weft_region_filtered. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "lifecycle.h"
#include "weft/alloc.h"
#include "weft/filter.h"
#include "weft/log.h"
#include "weft/recorder.h"

/* Written once by weft__filter_load inside weft_init, before any thread can
 * see recording on; read-only afterwards. */
static weft_filter *filter;

/* The whole file, weft_alloc'ed, or NULL with errno set. */
static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *text = NULL;
    size_t size = 0, capacity = 0;
    for (;;) {
        if (size + 4096 > capacity) {
            capacity = capacity ? 2 * capacity : 8192;
            char *grown = weft_realloc(text, capacity);
            if (!grown) {
                weft_free(text);
                fclose(f);
                errno = ENOMEM;
                return NULL;
            }
            text = grown;
        }
        size_t n = fread(text + size, 1, capacity - size, f);
        size += n;
        if (n == 0)
            break;
    }
    int failed = ferror(f);
    fclose(f);
    if (failed) {
        weft_free(text);
        errno = EIO;
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
    char *text = read_file(path, &len);
    if (!text) {
        weft_log_error("WEFT_FILTERING_FILE '%s': cannot read it (%s); no filter is applied", path,
                       strerror(errno));
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
