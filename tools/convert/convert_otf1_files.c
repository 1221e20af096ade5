/* SPDX-License-Identifier: BSD-3-Clause */
/* The files of an OTF version 1 trace, checked before and after the OTF
 * library reads the definitions (LEGACY-FORMATS.md 2.1): every file of the
 * trace is a regular file (the library would block on a named pipe), and
 * the master file maps a stream to every process the definitions hold and
 * lists every stream whose event file is there. A master file that is cut
 * maps only some processes, and the library then reads only their events,
 * without a word: 76 of 174 events (issue 23). */
#include <dirent.h>
#include <otf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "convert_otf1.h"
#include "convert_otf1_internal.h"
#include "files.h"

/* The name stub OTF wants ("run" for run.otf); malloc'ed. */
char *weft__otf1_name_stub(const char *path)
{
    char *stub = strdup(path);
    size_t len = stub ? strlen(stub) : 0;
    if (len > 4 && strcmp(stub + len - 4, ".otf") == 0)
        stub[len - 4] = '\0';
    return stub;
}

bool weft__convert_is_otf1(const char *path)
{
    char *stub = weft__otf1_name_stub(path);
    if (!stub)
        return false;
    char master[4200];
    snprintf(master, sizeof(master), "%s.otf", stub);
    free(stub);
    FILE *f = fopen(master, "r");
    if (!f)
        return false;
    /* A master control file: lines "<stream>:<process>[,<process>...]" in hex. */
    char line[256];
    bool ok = fgets(line, sizeof(line), f) != NULL;
    size_t digits = ok ? strspn(line, "0123456789abcdefABCDEF") : 0;
    ok = ok && digits > 0 && line[digits] == ':';
    fclose(f);
    return ok;
}

/* The directory and the base name of the name stub ("dir/run": "dir", "run"). */
static void split_stub(const char *stub, char *dir, size_t dir_size, const char **base)
{
    const char *slash = strrchr(stub, '/');
    *base = slash ? slash + 1 : stub;
    if (!slash)
        snprintf(dir, dir_size, ".");
    else if (slash == stub)
        snprintf(dir, dir_size, "/");
    else
        snprintf(dir, dir_size, "%.*s", (int)(slash - stub), stub);
}

/* The stream of an event file's name after "BASE.": "<hex>.events" or
 * "<hex>.events.z"; false for any other file of the trace. */
static bool events_stream(const char *rest, uint32_t *stream)
{
    char *end = NULL;
    unsigned long value = strtoul(rest, &end, 16);
    if (end == rest || value > UINT32_MAX)
        return false;
    *stream = (uint32_t)value;
    return strcmp(end, ".events") == 0 || strcmp(end, ".events.z") == 0;
}

/* Calls FN for every directory entry of the trace (a name "BASE.*"). */
static int each_file(otf_convert *c, const char *stub,
                     int (*fn)(otf_convert *c, const char *path, const char *rest, void *data),
                     void *data)
{
    char dir[4096];
    const char *base;
    split_stub(stub, dir, sizeof(dir), &base);
    DIR *d = opendir(dir);
    if (!d)
        return 0; /* the OTF library says what is wrong */
    size_t len = strlen(base);
    int status = 0;
    struct dirent *entry;
    while (status == 0 && (entry = readdir(d)) != NULL) {
        if (strncmp(entry->d_name, base, len) != 0 || entry->d_name[len] != '.')
            continue;
        char path[8192];
        snprintf(path, sizeof(path), "%s/%s", dir, entry->d_name);
        status = fn(c, path, entry->d_name + len + 1, data);
    }
    closedir(d);
    return status;
}

static int regular(otf_convert *c, const char *path, const char *rest, void *data)
{
    (void)rest, (void)data;
    const char *kind = weft__cli_special_file(path);
    if (!kind)
        return 0;
    snprintf(c->err, sizeof(c->err),
             "'%.300s' is %s, not a regular file; weft convert reads only regular files", path,
             kind);
    return -1;
}

int weft__otf1_check_files(otf_convert *c, const char *stub)
{
    return each_file(c, stub, regular, NULL);
}

/* ---- the master file against the definitions and the event files ----------- */

typedef struct mapping {
    OTF_MasterControl *master;
    uint32_t *processes; /* mapped by the master file, sorted */
    uint32_t count;
    uint32_t unlisted, first_unlisted; /* event files of streams the master lacks */
} mapping;

static int by_value(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static bool mapped(const mapping *m, uint32_t process)
{
    return m->count && bsearch(&process, m->processes, m->count, sizeof(uint32_t), by_value);
}

static int stream_listed(otf_convert *c, const char *path, const char *rest, void *data)
{
    (void)c, (void)path;
    mapping *m = data;
    uint32_t stream;
    if (events_stream(rest, &stream) && !OTF_MasterControl_getEntry(m->master, stream)) {
        if (m->unlisted++ == 0)
            m->first_unlisted = stream;
    }
    return 0;
}

/* How many (and the first) of the processes of the definitions the master
 * file does not map. (Processes it maps that the definitions lack are left
 * to the events: an event of an undefined process is damage there.) */
static uint32_t unmapped(const otf_convert *c, const mapping *m, const otf_proc **first)
{
    const otf_proc *procs = c->procs.items;
    uint32_t count = 0;
    for (uint32_t i = 0; i < c->procs.count; i++) {
        if (!mapped(m, procs[i].id) && count++ == 0)
            *first = &procs[i];
    }
    return count;
}

static void more(char *text, size_t size, uint32_t count)
{
    if (count > 1)
        snprintf(text, size, " (and %u more)", count - 1);
    else
        text[0] = '\0';
}

int weft__otf1_check_master(otf_convert *c, const char *stub, char *damage, size_t size)
{
    damage[0] = '\0';
    OTF_FileManager *files = OTF_FileManager_open(4);
    mapping m = {.master = files ? OTF_MasterControl_new(files) : NULL};
    if (!m.master || !OTF_MasterControl_read(m.master, stub)) {
        snprintf(c->err, sizeof(c->err), "its master file cannot be read");
        if (m.master)
            OTF_MasterControl_close(m.master);
        if (files)
            OTF_FileManager_close(files);
        return -1;
    }
    /* every stream's entry lists its processes */
    uint32_t streams = OTF_MasterControl_getCount(m.master), total = 0;
    for (uint32_t i = 0; i < streams; i++) {
        OTF_MapEntry *e = OTF_MasterControl_getEntryByIndex(m.master, i);
        total += e && total <= UINT32_MAX - e->n ? e->n : 0;
    }
    m.processes = malloc((total ? total : 1) * sizeof(uint32_t));
    int status = m.processes ? 0 : -1;
    for (uint32_t i = 0; status == 0 && i < streams; i++) {
        OTF_MapEntry *e = OTF_MasterControl_getEntryByIndex(m.master, i);
        for (uint32_t j = 0; e && j < e->n && m.count < total; j++)
            m.processes[m.count++] = e->values[j];
    }
    if (status == 0) {
        qsort(m.processes, m.count, sizeof(uint32_t), by_value);
        status = each_file(c, stub, stream_listed, &m);
    }
    const otf_proc *first = NULL;
    uint32_t lost = status == 0 ? unmapped(c, &m, &first) : 0;
    char others[32];
    if (lost) {
        more(others, sizeof(others), lost);
        snprintf(damage, size,
                 "its master file maps no stream to process %u (\"%.60s\")%s of the "
                 "definitions, whose events would be lost: the master file is cut or damaged",
                 first->id, first->name ? first->name : "", others);
    } else if (status == 0 && m.unlisted) {
        more(others, sizeof(others), m.unlisted);
        snprintf(damage, size,
                 "its master file does not list stream %x%s, whose event file is there: the "
                 "master file is cut or damaged",
                 m.first_unlisted, others);
    }
    if (status < 0 && !c->err[0])
        snprintf(c->err, sizeof(c->err), "out of memory");
    free(m.processes);
    OTF_MasterControl_close(m.master);
    OTF_FileManager_close(files);
    return status;
}
