/* SPDX-License-Identifier: BSD-3-Clause */
/* Fortran atomic constructs with an end directive (compile_atomic.h). */
#include "compile_atomic.h"

#include <stdbool.h>
#include <string.h>

#include "compile_directive.h"
#include "compile_shield.h"
#include "compile_text.h"

#define line_length weft__directive_line_length
#define word_at weft__directive_word_at
#define skip_blanks weft__directive_skip_blanks

static const char *next_line(const char *line, size_t len)
{
    return line + len + (line[len] == '\n');
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
            lines = weft__directive_fortran_lines(line, word);
            hidden = hide = weft__directive_holds(line, lines, word + 6, "capture", true) ||
                            weft__directive_holds(line, lines, word + 6, "compare", true);
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
