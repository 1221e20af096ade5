/* SPDX-License-Identifier: BSD-3-Clause */
/* The argument vector of the commands `weft compile` runs (compile_argv.h). */
#include "compile_argv.h"
#include "grow.h"

#include <stdlib.h>
#include <string.h>

/* Makes room for one more string and the terminating NULL. */
static bool grow(weft_compile_argv *argv)
{
    if (argv->failed)
        return false;
    /* Room for one more argument and the terminating NULL. */
    if (weft__cli_grow(&argv->items, &argv->capacity, argv->count + 2, sizeof(*argv->items)))
        return true;
    argv->failed = true;
    return false;
}

/* Appends the LEN bytes at TEXT followed by the LEN2 bytes at TEXT2. */
static void append(weft_compile_argv *argv, const char *text, size_t len, const char *text2,
                   size_t len2)
{
    if (!grow(argv))
        return;
    char *copy = malloc(len + len2 + 1);
    if (!copy) {
        argv->failed = true;
        return;
    }
    memcpy(copy, text, len);
    memcpy(copy + len, text2, len2);
    copy[len + len2] = '\0';
    argv->items[argv->count++] = copy;
    argv->items[argv->count] = NULL;
}

void weft__compile_argv_push(weft_compile_argv *argv, const char *text)
{
    append(argv, text, strlen(text), "", 0);
}

void weft__compile_argv_push2(weft_compile_argv *argv, const char *prefix, const char *text)
{
    append(argv, prefix, strlen(prefix), text, strlen(text));
}

void weft__compile_argv_split(weft_compile_argv *argv, const char *text)
{
    static const char blanks[] = " \t\r\n";
    const char *p = text;
    for (;;) {
        p += strspn(p, blanks);
        if (*p == '\0')
            return;
        size_t len = strcspn(p, blanks);
        append(argv, p, len, "", 0);
        p += len;
    }
}

bool weft__compile_argv_ok(const weft_compile_argv *argv)
{
    return !argv->failed;
}

char **weft__compile_argv_items(weft_compile_argv *argv)
{
    if (!argv->items && !grow(argv))
        return NULL;
    argv->items[argv->count] = NULL;
    return argv->items;
}

void weft__compile_argv_free(weft_compile_argv *argv)
{
    if (!argv)
        return;
    for (size_t i = 0; i < argv->count; i++)
        free(argv->items[i]);
    free(argv->items);
    memset(argv, 0, sizeof(*argv));
}
