/* SPDX-License-Identifier: BSD-3-Clause */
/* OPARI2's include lines in Fortran interface bodies (compile_interface.h). */
#include "compile_interface.h"

#include <string.h>

#include "compile_directive.h"
#include "compile_text.h"

#define line_length weft__directive_line_length
#define word_at weft__directive_word_at
#define skip_blanks weft__directive_skip_blanks

/* Where the statement on LINE starts (0 for a comment or blank line, which
 * starts none; fixed form: a mark in column 1 is a comment). */
static size_t statement_start(const char *line, size_t len, bool fixed_form)
{
    if (fixed_form && len > 0 && strchr("cC*!", line[0]))
        return 0;
    size_t i = skip_blanks(line, 0, len);
    return i < len && line[i] != '!' && line[i] != '#' ? i + 1 : 0; /* 1-based */
}

/* `interface ...` or `abstract interface` (not `interface = ...`). */
static bool opens_interface(const char *at, size_t len)
{
    if (word_at(at, len, "abstract", true)) {
        size_t next = skip_blanks(at, 8, len);
        at += next, len -= next;
    }
    if (!word_at(at, len, "interface", true))
        return false;
    size_t next = skip_blanks(at, 9, len);
    return next >= len || at[next] != '=';
}

static bool closes_interface(const char *at, size_t len)
{
    if (word_at(at, len, "endinterface", true))
        return true;
    size_t next = skip_blanks(at, 3, len);
    return word_at(at, len, "end", true) && word_at(at + next, len - next, "interface", true);
}

/* `include '....opari.inc'` (OPARI2's). */
static bool opari_include(const char *at, size_t len)
{
    if (!word_at(at, len, "include", true))
        return false;
    const char *inc = NULL;
    for (size_t i = 0; i + 10 <= len; i++) {
        if (memcmp(at + i, ".opari.inc", 10) == 0)
            inc = at + i;
    }
    return inc != NULL;
}

char *weft__compile_interface_includes(const char *text, bool fixed_form, unsigned *changed)
{
    weft_compile_text out = {0};
    weft__compile_text_put(&out, "", 0);
    unsigned depth = 0, count = 0;
    for (const char *line = text; *line;) {
        size_t len = line_length(line), start = statement_start(line, len, fixed_form);
        const char *at = line + (start ? start - 1 : 0);
        size_t rest = start ? len - (start - 1) : 0;
        bool drop = false;
        if (start && opens_interface(at, rest))
            depth++;
        else if (start && closes_interface(at, rest) && depth > 0)
            depth--;
        else if (start && depth > 0 && opari_include(at, rest))
            drop = true;
        if (drop)
            count++;
        else
            weft__compile_text_put(&out, line, len);
        weft__compile_text_put(&out, "\n", line[len] == '\n');
        line += len + (line[len] == '\n');
    }
    if (changed)
        *changed = count;
    return weft__compile_text_take(&out);
}
