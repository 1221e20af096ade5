/* SPDX-License-Identifier: BSD-3-Clause */
/* Putting the user's source path back into the #line directives of an
 * instrumented copy (compile_copy.h). Only lines that start with "#line ",
 * a line number and the quoted name opari2 used are touched; the name is
 * compared as written, without unescaping. */
#include "compile_copy.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "compile_text.h"

/* The quoted name of the #line directive LINE (LEN bytes, no newline):
 * sets *NAME and *NAME_LEN to the text between the quotes and returns true,
 * or returns false for any other line. */
static bool line_name(const char *line, size_t len, const char **name, size_t *name_len)
{
    static const char directive[] = "#line ";
    size_t n = sizeof(directive) - 1;
    if (len < n || memcmp(line, directive, n) != 0)
        return false;
    size_t i = n;
    size_t digits = i;
    while (i < len && line[i] >= '0' && line[i] <= '9')
        i++;
    if (i == digits || i + 2 >= len || line[i] != ' ' || line[i + 1] != '"')
        return false;
    size_t last = len;
    while (last > i + 2 && (line[last - 1] == ' ' || line[last - 1] == '\r'))
        last--;
    if (last < i + 4 || line[last - 1] != '"') /* an empty name is not one opari2 writes */
        return false;
    *name = line + i + 2;
    *name_len = last - 1 - (i + 2);
    return true;
}

static void put_c_string(weft_compile_text *out, const char *s)
{
    for (const char *p = s; *p; p++) {
        if (*p == '\\' || *p == '"')
            weft__compile_text_put(out, "\\", 1);
        weft__compile_text_put(out, p, 1);
    }
}

char *weft__compile_copy_rewrite_lines(const char *text, const char *source)
{
    weft_compile_text out = {0};
    weft__compile_text_put(&out, "", 0);
    const char *first = NULL; /* the name in the first #line line */
    size_t first_len = 0;
    for (const char *line = text; *line;) {
        const char *newline = strchr(line, '\n');
        size_t len = newline ? (size_t)(newline - line) : strlen(line);
        const char *name;
        size_t name_len;
        bool directive = line_name(line, len, &name, &name_len);
        if (directive && !first) {
            first = name;
            first_len = name_len;
        }
        if (directive && name_len == first_len && memcmp(name, first, name_len) == 0) {
            weft__compile_text_put(&out, line, (size_t)(name - line));
            put_c_string(&out, source);
            weft__compile_text_put(&out, name + name_len, (size_t)(line + len - (name + name_len)));
        } else {
            weft__compile_text_put(&out, line, len);
        }
        if (newline)
            weft__compile_text_put(&out, "\n", 1);
        line += len + (newline ? 1 : 0);
    }
    return weft__compile_text_take(&out);
}

char *weft__compile_copy_init_task_handles(const char *text)
{
    static const char declaration[] = "POMP2_Task_handle pomp2_new_task;";
    size_t n = sizeof(declaration) - 1;
    weft_compile_text out = {0};
    weft__compile_text_put(&out, "", 0);
    for (const char *at = text;;) {
        const char *found = strstr(at, declaration);
        if (!found) {
            weft__compile_text_puts(&out, at);
            break;
        }
        weft__compile_text_put(&out, at, (size_t)(found - at) + n - 1);
        weft__compile_text_puts(&out, " = 0;");
        at = found + n;
    }
    return weft__compile_text_take(&out);
}

weft_status weft__compile_copy_fix_lines(const char *copy, const char *source)
{
    weft_compile_text in = {0};
    weft_status status = weft__compile_text_read(copy, &in);
    if (status != WEFT_OK) {
        weft__compile_text_free(&in);
        return status;
    }
    char *fixed = weft__compile_copy_rewrite_lines(in.text, source);
    weft__compile_text_free(&in);
    if (!fixed)
        return WEFT_ERR_NO_MEMORY;
    status = weft__compile_text_write(copy, fixed);
    free(fixed);
    return status;
}

weft_status weft__compile_copy_replace_literal(const char *path, const char *old, const char *new)
{
    weft_compile_text in = {0}, out = {0};
    weft_status status = weft__compile_text_read(path, &in);
    if (status != WEFT_OK) {
        weft__compile_text_free(&in);
        return status;
    }
    size_t old_len = strlen(old);
    weft__compile_text_put(&out, "", 0);
    for (const char *at = in.text; *at;) {
        if (at[0] == '"' && strncmp(at + 1, old, old_len) == 0 && at[1 + old_len] == '"') {
            weft__compile_text_put(&out, "\"", 1);
            put_c_string(&out, new);
            weft__compile_text_put(&out, "\"", 1);
            at += old_len + 2;
        } else {
            weft__compile_text_put(&out, at++, 1);
        }
    }
    status = out.failed ? WEFT_ERR_NO_MEMORY : weft__compile_text_write(path, out.text);
    weft__compile_text_free(&in);
    weft__compile_text_free(&out);
    return status;
}
