/* See fuzz_seed.h. */
#include "fuzz_seed.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static void copy_tree(const char *from, const char *to)
{
    struct stat st;
    if (stat(from, &st) != 0)
        abort();
    if (S_ISDIR(st.st_mode)) {
        if (mkdir(to, 0755) != 0)
            abort();
        DIR *d = opendir(from);
        struct dirent *entry;
        while (d && (entry = readdir(d)) != NULL) {
            if (entry->d_name[0] == '.')
                continue;
            char a[4200], b[4200];
            snprintf(a, sizeof(a), "%s/%s", from, entry->d_name);
            snprintf(b, sizeof(b), "%s/%s", to, entry->d_name);
            copy_tree(a, b);
        }
        if (d)
            closedir(d);
        return;
    }
    FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
    char buffer[65536];
    size_t n;
    while (in && out && (n = fread(buffer, 1, sizeof(buffer), in)) > 0) {
        if (fwrite(buffer, 1, n, out) != n)
            abort();
    }
    if (!in || !out || fclose(out) != 0)
        abort();
    fclose(in);
}

static char base[64];

static void remove_base(void)
{
    fuzz_seed_remove(base);
}

void fuzz_seed_copy(const char *seed, char work[64])
{
    snprintf(base, sizeof(base), "/tmp/weft_fuzz_XXXXXX");
    if (!mkdtemp(base) || atexit(remove_base) != 0)
        abort();
    snprintf(work, 64, "%s/seed", base);
    copy_tree(seed, work);
}

int fuzz_seed_write(const char *path, const uint8_t *data, size_t size)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0)
        return -1;
    int status = write(fd, data, size) == (ssize_t)size ? 0 : -1;
    close(fd);
    return status;
}

void fuzz_seed_restore(const char *seed, const char *work, const char *name)
{
    char from[4200], to[4200];
    snprintf(from, sizeof(from), "%s/%s", seed, name);
    snprintf(to, sizeof(to), "%s/%s", work, name);
    copy_tree(from, to);
}

void fuzz_seed_remove(const char *path)
{
    DIR *d = opendir(path);
    struct dirent *entry;
    while (d && (entry = readdir(d)) != NULL) {
        if (entry->d_name[0] == '.' &&
            (entry->d_name[1] == '\0' || (entry->d_name[1] == '.' && entry->d_name[2] == '\0')))
            continue;
        char inner[4200];
        snprintf(inner, sizeof(inner), "%s/%s", path, entry->d_name);
        fuzz_seed_remove(inner);
    }
    if (d) {
        closedir(d);
        rmdir(path);
    } else {
        unlink(path);
    }
}
/* SPDX-License-Identifier: BSD-3-Clause */
