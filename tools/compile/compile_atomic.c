/* SPDX-License-Identifier: BSD-3-Clause */
/* Fortran atomic constructs with an end directive (compile_atomic.h). */
#include "compile_atomic.h"

#include <stdbool.h>
#include <string.h>

#include "compile_directive.h"
#include "compile_shield.h"
#include "compile_text.h"

#define line_length weft__directive_line_length
#define ident_char weft__directive_ident_char
#define word_at weft__directive_word_at
#define skip_blanks weft__directive_skip_blanks

static const char *next_line(const char *line, size_t len)
{
    return line + len + (line[len] == '\n');
}

/* The lines of the directive starting at LINE (its continuation lines). */
static size_t directive_lines(const char *line, size_t from)
{
    size_t lines = 1, len = line_length(line);
    while (line[len] == '\n') {
        const char *next = next_line(line, len);
        size_t next_len = line_length(next);
        bool continued = false;
        size_t at = weft__directive_fortran(next, next_len, &continued);
        if (!at || !(continued || weft__directive_fortran_continues(line, from, len)))
            break;
        line = next, len = next_len, from = at;
        lines++;
    }
    return lines;
}

/* Whether one of the LINES lines from LINE holds the clause WORD (after the
 * first word at FROM on the first). */
static bool holds(const char *line, size_t lines, size_t from, const char *word)
{
    for (size_t n = 0; n < lines; n++) {
        size_t len = line_length(line);
        for (size_t i = n == 0 ? from : 0; i < len; i++) {
            if ((i == 0 || !ident_char(line[i - 1])) && word_at(line + i, len - i, word, true))
                return true;
        }
        line = next_line(line, len);
    }
    return false;
}

static bool end_atomic(const char *line, size_t len, size_t word)
{
    size_t next = skip_blanks(line, word + 3, len);
    return word_at(line + word, len - word, "end", true) &&
           word_at(line + next, len - next, "atomic", true);
}

char *weft__compile_fortran_atomics(const char *text, unsigned *changed)
{
    weft_compile_text out = {0};
    weft__compile_text_put(&out, "", 0);
    unsigned count = 0;
    bool hidden = false; /* the last atomic construct is hidden: so is its end */
    for (const char *line = text; *line;) {
        size_t len = line_length(line), word = weft__directive_first_word(line, len, true);
        size_t lines = 1;
        bool hide = false;
        if (word && word_at(line + word, len - word, "atomic", true)) {
            lines = directive_lines(line, word);
            hidden = hide =
                holds(line, lines, word + 6, "capture") || holds(line, lines, word + 6, "compare");
        } else if (word && end_atomic(line, len, word)) {
            hide = hidden;
            count++;
            if (!hidden) { /* optional after one statement: left out */
                line = next_line(line, len);
                weft__compile_text_put(&out, "\n", 1);
                continue;
            }
        }
        for (size_t n = 0; n < lines; n++) {
            len = line_length(line);
            if (hide)
                weft__compile_put_hidden(&out, line, len, true);
            else
                weft__compile_text_put(&out, line, len);
            weft__compile_text_put(&out, "\n", line[len] == '\n');
            line = next_line(line, len);
        }
    }
    if (changed)
        *changed = count;
    return weft__compile_text_take(&out);
}
