/* SPDX-License-Identifier: BSD-3-Clause */
/* The extent of a DO loop in preprocessed Fortran (compile_fortran_loop.h). */
#include "compile_fortran_loop.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "compile_directive.h"

#define line_length weft__directive_line_length
#define skip_blanks weft__directive_skip_blanks
#define word_at weft__directive_word_at

enum { MAX_DEPTH = 64 };

/* A statement's first line: its label (0: none) and where its text starts;
 * false for a line that starts no statement. */
static bool statement_at(const char *line, size_t len, bool fixed_form, unsigned long *label,
                         size_t *text)
{
    *label = 0;
    if (weft__directive_is_marker(line, len))
        return false;
    size_t i = skip_blanks(line, 0, len);
    if (fixed_form) {
        if (len == 0 || strchr("cC*!", line[0]) || (len > 5 && line[5] != ' ' && line[5] != '0'))
            return false; /* comment or continuation */
        for (size_t k = 0; k < 5 && k < len; k++) {
            if (isdigit((unsigned char)line[k]))
                *label = *label * 10 + (unsigned long)(line[k] - '0');
        }
        i = skip_blanks(line, len < 6 ? len : 6, len);
    } else {
        if (i >= len || line[i] == '!')
            return false; /* blank, comment or directive */
        if (isdigit((unsigned char)line[i])) {
            char *end;
            *label = strtoul(line + i, &end, 10);
            i = skip_blanks(line, (size_t)(end - line), len);
        }
    }
    *text = i;
    return i < len;
}

/* A DO statement at LINE[i]: true, with its terminal label (0: block DO). */
static bool do_statement(const char *line, size_t i, size_t len, unsigned long *terminal)
{
    size_t name = i;
    while (name < len && weft__directive_ident_char(line[name]))
        name++;
    size_t colon = skip_blanks(line, name, len);
    if (name > i && colon < len && line[colon] == ':' &&
        (colon + 1 >= len || line[colon + 1] != ':'))
        i = skip_blanks(line, colon + 1, len); /* `outer: do` */
    if (!word_at(line + i, len - i, "do", true))
        return false;
    size_t after = skip_blanks(line, i + 2, len);
    if (after < len && line[after] == '=')
        return false; /* an assignment to a variable named do */
    *terminal = isdigit((unsigned char)line[after]) ? strtoul(line + after, NULL, 10) : 0;
    return true;
}

static bool end_do(const char *line, size_t i, size_t len)
{
    if (word_at(line + i, len - i, "enddo", true))
        return true;
    size_t next = skip_blanks(line, i + 3, len);
    return word_at(line + i, len - i, "end", true) && word_at(line + next, len - next, "do", true);
}

static const char *next_line(const char *line, size_t len)
{
    return line + len + (line[len] == '\n');
}

/* The line after the statement whose first line is LINE (and *LAST, the
 * start of its last line). */
static const char *statement_end(const char *line, bool fixed_form, const char **last)
{
    for (;;) {
        size_t len = line_length(line);
        const char *next = next_line(line, len);
        size_t next_len = line_length(next);
        *last = line;
        bool more = fixed_form ? *next && next_len > 5 && !strchr("cC*!", next[0]) &&
                                     next[5] != ' ' && next[5] != '0'
                               : weft__directive_fortran_continues(line, 0, len) && *next;
        if (!more)
            return next;
        line = next;
    }
}

const char *weft__fortran_loop_end(const char *from, bool fixed_form, const char **last)
{
    unsigned long open[MAX_DEPTH]; /* terminal labels, 0 for a block DO */
    int depth = 0;
    for (const char *line = from; *line;) {
        size_t len = line_length(line), text;
        unsigned long label, terminal;
        if (!statement_at(line, len, fixed_form, &label, &text)) {
            line = next_line(line, len);
            continue;
        }
        if (do_statement(line, text, len, &terminal)) {
            if (depth == MAX_DEPTH)
                return NULL;
            open[depth++] = terminal;
        } else if (depth == 0) {
            return NULL; /* the directive is followed by no loop */
        } else if (end_do(line, text, len)) {
            if (open[depth - 1] == 0)
                depth--;
            else if (open[depth - 1] != label)
                return NULL; /* `10 end do` ends `do 10` below */
        }
        while (label != 0 && depth > 0 && open[depth - 1] == label)
            depth--;
        const char *after = statement_end(line, fixed_form, last);
        if (depth == 0)
            return after;
        line = after;
    }
    return NULL;
}
