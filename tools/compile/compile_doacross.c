/* SPDX-License-Identifier: BSD-3-Clause */
/* Doacross loops hidden from OPARI2 and shown again (compile_doacross.h). */
#include "compile_doacross.h"

#include <stdlib.h>
#include <string.h>

#include "compile_directive.h"
#include "compile_text.h"

#define line_length weft__directive_line_length
#define ident_char weft__directive_ident_char
#define word_at weft__directive_word_at
#define skip_blanks weft__directive_skip_blanks

#define HIDDEN_C "//weft-hidden-from-opari2:"
#define HIDDEN_FORTRAN "!weft-hidden-from-opari2:"
#define SHIELDED "schedule(weft_ordered:"

/* True when LINE[from, len) holds the word `depend` or `doacross`. */
static bool names_doacross(const char *line, size_t from, size_t len, bool fold)
{
    for (size_t i = from; i < len; i++) {
        if ((i == 0 || !ident_char(line[i - 1])) && (word_at(line + i, len - i, "depend", fold) ||
                                                     word_at(line + i, len - i, "doacross", fold)))
            return true;
    }
    return false;
}

/* One directive: its lines (a Fortran one's continuation lines included),
 * where its first word starts, and how many lines it has. */
typedef struct directive {
    const char *first;
    size_t word; /* in the first line; 0: no directive */
    size_t lines;
} directive;

static directive read_directive(const char *line, bool fortran)
{
    directive d = {line, 0, 1};
    size_t len = line_length(line);
    if (!fortran) { /* one line: the preprocessor joined its continuations */
        size_t omp = weft__directive_c_omp(line, len);
        d.word = omp ? skip_blanks(line, omp, len) : 0;
        return d;
    }
    bool continued = false;
    size_t at = weft__directive_fortran(line, len, &continued);
    if (!at || continued)
        return d;
    d.word = skip_blanks(line, at, len);
    /* Continued by a `&` at the end (free form) or a mark in column 6 of
     * the next line (fixed form). */
    while (line[len] == '\n') {
        const char *next = line + len + 1;
        size_t next_len = line_length(next);
        size_t next_at = weft__directive_fortran(next, next_len, &continued);
        if (!next_at || !(continued || weft__directive_fortran_continues(line, at, len)))
            break;
        line = next, len = next_len, at = next_at;
        d.lines++;
    }
    return d;
}

/* Whether the directive's first word is WORD. */
static bool directive_is(const directive *d, const char *word, bool fortran)
{
    const char *line = d->first;
    size_t len = line_length(line);
    return d->word && word_at(line + d->word, len - d->word, word, fortran);
}

/* `ordered` with a `depend` or `doacross` clause. */
static bool stand_alone_ordered(const directive *d, bool fortran)
{
    if (!directive_is(d, "ordered", fortran))
        return false;
    const char *line = d->first;
    for (size_t n = 0; n < d->lines; n++) {
        size_t len = line_length(line);
        if (names_doacross(line, n == 0 ? d->word + 7 : 0, len, fortran))
            return true;
        line += len + 1;
    }
    return false;
}

/* `parallel for` (C) or `parallel do` (Fortran), with anything after. */
static bool combined_loop(const directive *d, bool fortran)
{
    if (!directive_is(d, "parallel", fortran))
        return false;
    size_t len = line_length(d->first);
    size_t next = skip_blanks(d->first, d->word + 8, len);
    return word_at(d->first + next, len - next, fortran ? "do" : "for", fortran);
}

/* Copies LINE into OUT with every `ordered (` at parenthesis depth 0 (DEPTH,
 * carried over continuation lines) written as SHIELDED; counts them. */
static unsigned shield_line(weft_compile_text *out, const char *line, size_t len, bool fold,
                            int *depth)
{
    unsigned count = 0;
    size_t copied = 0;
    for (size_t i = 0; i < len; i++) {
        if (line[i] == '(' || line[i] == ')') {
            *depth += line[i] == '(' ? 1 : -1;
            continue;
        }
        if (*depth != 0 || (i > 0 && ident_char(line[i - 1])) ||
            !word_at(line + i, len - i, "ordered", fold))
            continue;
        size_t open = skip_blanks(line, i + 7, len);
        if (open >= len || line[open] != '(')
            continue;
        weft__compile_text_put(out, line + copied, i - copied);
        weft__compile_text_put(out, SHIELDED, strlen(SHIELDED));
        copied = open + 1;
        i = open;
        ++*depth;
        count++;
    }
    weft__compile_text_put(out, line + copied, len - copied);
    return count;
}

char *weft__compile_hide_doacross(const char *text, bool fortran, bool fixed_form,
                                  unsigned *changed)
{
    weft_compile_text out = {0};
    weft__compile_text_put(&out, "", 0);
    const char *mark = fortran ? HIDDEN_FORTRAN : HIDDEN_C;
    unsigned count = 0;
    for (const char *line = text; *line;) {
        directive d = read_directive(line, fortran);
        bool hide = stand_alone_ordered(&d, fortran);
        bool shield = !hide && !fixed_form && combined_loop(&d, fortran);
        count += hide;
        int depth = 0;
        for (size_t n = 0; n < d.lines; n++) {
            size_t len = line_length(line);
            if (hide)
                weft__compile_text_put(&out, mark, strlen(mark));
            if (shield)
                count += shield_line(&out, line, len, fortran, &depth);
            else
                weft__compile_text_put(&out, line, len);
            weft__compile_text_put(&out, "\n", line[len] == '\n');
            line += len + (line[len] == '\n');
        }
    }
    if (changed)
        *changed = count;
    if (out.failed) {
        weft__compile_text_free(&out);
        return NULL;
    }
    return out.text;
}

char *weft__compile_show_doacross(const char *text, bool fortran)
{
    const char *mark = fortran ? HIDDEN_FORTRAN : HIDDEN_C;
    size_t mark_len = strlen(mark), shielded_len = strlen(SHIELDED);
    weft_compile_text out = {0};
    weft__compile_text_put(&out, "", 0);
    for (const char *line = text; *line;) {
        size_t len = line_length(line);
        size_t i = strncmp(line, mark, mark_len) == 0 ? mark_len : 0;
        size_t copied = i;
        for (; i + shielded_len <= len; i++) {
            if (strncmp(line + i, SHIELDED, shielded_len) != 0)
                continue;
            weft__compile_text_put(&out, line + copied, i - copied);
            weft__compile_text_put(&out, "ordered(", 8);
            copied = i + shielded_len;
            i = copied - 1;
        }
        weft__compile_text_put(&out, line + copied, len - copied + (line[len] == '\n'));
        line += len + (line[len] == '\n');
    }
    if (out.failed) {
        weft__compile_text_free(&out);
        return NULL;
    }
    return out.text;
}
