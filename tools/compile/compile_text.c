/* SPDX-License-Identifier: BSD-3-Clause */
/* Text buffer and whole-file I/O for `weft compile` (compile_text.h). */
#include "compile_text.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void weft__compile_text_put(weft_compile_text *t, const char *data, size_t len)
{
    if (t->failed)
        return;
    if (t->len + len + 1 > t->capacity) {
        size_t capacity = t->capacity ? t->capacity : 256;
        while (t->len + len + 1 > capacity)
            capacity *= 2;
        char *grown = realloc(t->text, capacity);
        if (!grown) {
            t->failed = true;
            return;
        }
        t->text = grown;
        t->capacity = capacity;
    }
    if (len)
        memcpy(t->text + t->len, data, len);
    t->len += len;
    t->text[t->len] = '\0';
}

void weft__compile_text_puts(weft_compile_text *t, const char *s)
{
    weft__compile_text_put(t, s, strlen(s));
}

void weft__compile_text_truncate(weft_compile_text *t, size_t len)
{
    if (len > t->len)
        return;
    t->len = len;
    if (t->text)
        t->text[len] = '\0';
}

weft_status weft__compile_text_read(const char *path, weft_compile_text *t)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return errno == ENOENT ? WEFT_ERR_NOT_FOUND : WEFT_ERR_IO;
    weft__compile_text_put(t, "", 0);
    char chunk[4096];
    size_t got;
    while ((got = fread(chunk, 1, sizeof(chunk), f)) > 0)
        weft__compile_text_put(t, chunk, got);
    int read_error = ferror(f);
    int saved_errno = errno;
    fclose(f);
    if (t->failed)
        return WEFT_ERR_NO_MEMORY;
    errno = saved_errno;
    return read_error ? WEFT_ERR_IO : WEFT_OK;
}

weft_status weft__compile_text_write(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return WEFT_ERR_IO;
    size_t len = strlen(text);
    bool ok = fwrite(text, 1, len, f) == len;
    int saved_errno = errno;
    if (fclose(f) != 0)
        ok = false;
    else
        errno = saved_errno;
    return ok ? WEFT_OK : WEFT_ERR_IO;
}

char *weft__compile_text_take(weft_compile_text *t)
{
    if (t->failed) {
        weft__compile_text_free(t);
        return NULL;
    }
    return t->text;
}

void weft__compile_text_free(weft_compile_text *t)
{
    if (!t)
        return;
    free(t->text);
    memset(t, 0, sizeof(*t));
}
