/* SPDX-License-Identifier: BSD-3-Clause */
/* Where `weft run` finds the libraries it preloads, and the LD_PRELOAD value
 * it builds from them. An installed weft uses the lib directory of its own
 * installation (found from /proc/self/exe, as `weft compile` finds libweft);
 * a weft run from its build tree uses the directories CMake compiled in. The
 * two are never mixed, so libweft-mpi always comes with its own libweft. */
#include "run.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef WEFT_BUILD_LIBDIR
#error "WEFT_BUILD_LIBDIR (the build tree's directory of libweft.so) must be defined by the build"
#endif
#ifndef WEFT_BUILD_MPI_LIBDIR
#error "WEFT_BUILD_MPI_LIBDIR (libweft-mpi.so's build-tree directory or \"\") must be defined"
#endif
#ifndef WEFT_INSTALL_LIBDIR_FROM_BINDIR
#error "WEFT_INSTALL_LIBDIR_FROM_BINDIR (e.g. ../lib) must be defined by the build"
#endif

#define LIBWEFT "libweft.so"
#define LIBWEFT_MPI "libweft-mpi.so"
#define LIBWEFT_OMPT "libweft-ompt.so"

/* malloc'ed "DIR/NAME", or NULL when out of memory. */
static char *join(const char *dir, const char *name)
{
    size_t size = strlen(dir) + strlen(name) + 2;
    char *out = malloc(size);
    if (out)
        snprintf(out, size, "%s/%s", dir, name);
    return out;
}

/* The path of the regular file DIR/NAME, with DIR made canonical (realpath)
 * and NAME kept as it is (not resolved to the versioned file it links to),
 * malloc'ed; NULL when it is not there. Sets *NO_MEMORY when an allocation
 * failed. */
static char *find_file(const char *dir, const char *name, bool *no_memory)
{
    if (!dir || !dir[0])
        return NULL;
    /* realpath fails for a directory that does not exist: the file is absent. */
    char *canonical = realpath(dir, NULL);
    if (!canonical)
        return NULL;
    char *path = join(canonical, name);
    free(canonical);
    if (!path) {
        *no_memory = true;
        return NULL;
    }
    struct stat st;
    if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
        return path;
    free(path);
    return NULL;
}

/* The directory of the running weft executable, malloc'ed; NULL when
 * /proc/self/exe cannot be read. */
static char *exe_dir(void)
{
    char exe[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    if (len <= 0)
        return NULL;
    exe[len] = '\0';
    char *slash = strrchr(exe, '/');
    if (!slash)
        return NULL;
    *slash = '\0';
    return strdup(exe);
}

/* malloc'ed copy of FMT formatted with the three strings. */
static char *describe(const char *fmt, const char *a, const char *b, const char *c)
{
    int size = snprintf(NULL, 0, fmt, a, b, c);
    if (size < 0)
        return NULL;
    char *out = malloc((size_t)size + 1);
    if (out)
        snprintf(out, (size_t)size + 1, fmt, a, b, c);
    return out;
}

bool weft__run_libraries_find(weft_run_libraries *libs)
{
    *libs = (weft_run_libraries){0};
    bool no_memory = false;
    char *bindir = exe_dir();
    char *installed[2] = {NULL, NULL};
    if (bindir) {
        installed[0] = join(bindir, WEFT_INSTALL_LIBDIR_FROM_BINDIR);
        installed[1] = join(bindir, "../lib");
        no_memory = !installed[0] || !installed[1];
    }
    for (size_t i = 0; i < 2 && !no_memory && !libs->weft; i++) {
        libs->weft = find_file(installed[i], LIBWEFT, &no_memory);
        if (libs->weft) {
            libs->weft_mpi = find_file(installed[i], LIBWEFT_MPI, &no_memory);
            libs->weft_ompt = find_file(installed[i], LIBWEFT_OMPT, &no_memory);
            /* The directory part of the path found: the canonical installed[i]. */
            libs->where = strndup(libs->weft, strlen(libs->weft) - strlen("/" LIBWEFT));
        }
    }
    if (!libs->weft && !no_memory) {
        libs->weft = find_file(WEFT_BUILD_LIBDIR, LIBWEFT, &no_memory);
        libs->weft_mpi = find_file(WEFT_BUILD_MPI_LIBDIR, LIBWEFT_MPI, &no_memory);
        libs->weft_ompt = find_file(WEFT_BUILD_OMPT_LIBDIR, LIBWEFT_OMPT, &no_memory);
        if (libs->weft)
            libs->where = describe("%s%s%s", WEFT_BUILD_LIBDIR,
                                   WEFT_BUILD_MPI_LIBDIR[0] ? " and " : "", WEFT_BUILD_MPI_LIBDIR);
        else
            libs->where = describe("%s, %s or %s",
                                   installed[0] ? installed[0] : "(the weft executable's lib)",
                                   installed[1] ? installed[1] : "(its ../lib)", WEFT_BUILD_LIBDIR);
    }
    free(installed[0]);
    free(installed[1]);
    free(bindir);
    if (!libs->where)
        no_memory = true;
    if (no_memory)
        weft__run_libraries_clear(libs);
    return !no_memory;
}

void weft__run_libraries_clear(weft_run_libraries *libs)
{
    free(libs->weft);
    free(libs->weft_mpi);
    free(libs->weft_ompt);
    free(libs->where);
    *libs = (weft_run_libraries){0};
}

bool weft__run_preload_add(weft_run_preload *preload, const char *path)
{
    for (size_t i = 0; i < preload->count; i++) {
        if (strcmp(preload->paths[i], path) == 0)
            return true;
    }
    if (preload->count == WEFT_RUN_PRELOAD_MAX)
        return false;
    preload->paths[preload->count++] = path;
    return true;
}

char *weft__run_preload_value(const weft_run_preload *preload, const char *existing)
{
    size_t size = 1;
    for (size_t i = 0; i < preload->count; i++)
        size += strlen(preload->paths[i]) + 1;
    if (existing)
        size += strlen(existing);
    char *value = malloc(size);
    if (!value)
        return NULL;
    char *end = value;
    *end = '\0';
    for (size_t i = 0; i < preload->count; i++) {
        size_t len = strlen(preload->paths[i]);
        if (end != value)
            *end++ = ':';
        memcpy(end, preload->paths[i], len);
        end += len;
    }
    if (existing && existing[0]) {
        if (end != value)
            *end++ = ':';
        size_t len = strlen(existing);
        memcpy(end, existing, len);
        end += len;
    }
    *end = '\0';
    return value;
}

bool weft__run_preload_path_ok(const char *path)
{
    return path[0] == '/' && strpbrk(path, ": ") == NULL;
}
