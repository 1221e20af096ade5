/* SPDX-License-Identifier: BSD-3-Clause */
/* Combined master constructs split before OPARI2 (compile_split.h). */
#include "compile_split.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compile_directive.h"
#include "compile_text.h"

#define line_length weft__directive_line_length
#define ident_char weft__directive_ident_char
#define word_at weft__directive_word_at
#define skip_blanks weft__directive_skip_blanks

/* The last line marker (`# N "file" FLAGS`) and the number of the line
 * after what has been read so far. */
typedef struct position {
    const char *marker; /* NULL before the first */
    unsigned long next;
} position;

static bool is_marker(const char *line, size_t len)
{
    return len > 2 && line[0] == '#' && line[1] == ' ' && isdigit((unsigned char)line[2]);
}

/* Writes a marker that numbers the next line LINE_NO, in the file of the
 * last marker (its flags 3 and 4 kept, 1 and 2 left out). */
static void put_marker(weft_compile_text *out, const position *pos, unsigned long line_no)
{
    const char *m = pos->marker;
    size_t len = line_length(m);
    const char *quote = memchr(m, '"', len);
    const char *close = NULL;
    for (const char *c = quote ? quote + 1 : NULL; c && c < m + len; c++) {
        if (*c == '\\' && c + 1 < m + len)
            c++;
        else if (*c == '"') {
            close = c;
            break;
        }
    }
    if (!close)
        return;
    char number[32];
    snprintf(number, sizeof(number), "# %lu ", line_no);
    weft__compile_text_puts(out, number);
    weft__compile_text_put(out, quote, (size_t)(close - quote) + 1);
    for (const char *c = close + 1; c < m + len; c++) {
        if ((*c == '3' || *c == '4') && c[-1] == ' ')
            weft__compile_text_put(out, c - 1, 2);
    }
    weft__compile_text_put(out, "\n", 1);
}

/* The `filter(...)` clause of LINE[from, len): where it starts and ends
 * (after its parenthesis); false when there is none. */
static bool find_filter(const char *line, size_t from, size_t len, size_t *start, size_t *end)
{
    int depth = 0;
    for (size_t i = from; i < len; i++) {
        if (line[i] == '(' || line[i] == ')') {
            depth += line[i] == '(' ? 1 : -1;
            continue;
        }
        if (depth != 0 || (i > 0 && ident_char(line[i - 1])) ||
            !word_at(line + i, len - i, "filter", false))
            continue;
        size_t open = skip_blanks(line, i + 6, len);
        if (open >= len || line[open] != '(')
            continue;
        int inner = 0;
        for (size_t k = open; k < len; k++) {
            inner += line[k] == '(' ? 1 : line[k] == ')' ? -1 : 0;
            if (inner == 0) {
                *start = i;
                *end = k + 1;
                return true;
            }
        }
        return false;
    }
    return false;
}

/* Splits LINE, a `parallel master|masked` directive of line LINE_NO whose
 * second word ends at AFTER, into OUT. */
static void split(weft_compile_text *out, const char *line, size_t len, size_t word, size_t after,
                  const position *pos, unsigned long line_no)
{
    bool masked = word_at(line + word, len - word, "masked", false);
    size_t start = 0, end = 0;
    bool filter = masked && find_filter(line, after, len, &start, &end);
    weft__compile_text_put(out, line, word); /* `#pragma omp parallel ` */
    if (filter) {
        weft__compile_text_put(out, line + after, start - after);
        weft__compile_text_put(out, line + end, len - end);
    } else {
        weft__compile_text_put(out, line + after, len - after);
    }
    weft__compile_text_put(out, "\n", 1);
    put_marker(out, pos, line_no);
    weft__compile_text_puts(out, masked ? "#pragma omp masked" : "#pragma omp master");
    if (filter) {
        weft__compile_text_put(out, " ", 1);
        weft__compile_text_put(out, line + start, end - start);
    }
    weft__compile_text_put(out, "\n", 1);
    put_marker(out, pos, line_no + 1);
}

char *weft__compile_split_combined(const char *text, unsigned *changed)
{
    weft_compile_text out = {0};
    weft__compile_text_put(&out, "", 0);
    position pos = {NULL, 1};
    unsigned count = 0;
    for (const char *line = text; *line;) {
        size_t len = line_length(line);
        bool newline = line[len] == '\n';
        size_t after_parallel =
            is_marker(line, len) ? 0 : weft__directive_c_clauses(line, len, "parallel");
        size_t word = after_parallel ? skip_blanks(line, after_parallel, len) : 0;
        bool combined = word && (word_at(line + word, len - word, "master", false) ||
                                 word_at(line + word, len - word, "masked", false));
        size_t after = combined ? word + 6 : 0;
        size_t third = combined ? skip_blanks(line, after, len) : 0;
        if (combined && pos.marker && newline &&
            !word_at(line + third, len - third, "taskloop", false)) {
            split(&out, line, len, word, after, &pos, pos.next);
            count++;
        } else {
            weft__compile_text_put(&out, line, len + newline);
        }
        if (is_marker(line, len)) {
            pos.marker = line;
            pos.next = strtoul(line + 2, NULL, 10);
        } else {
            pos.next++;
        }
        line += len + newline;
    }
    if (changed)
        *changed = count;
    if (out.failed) {
        weft__compile_text_free(&out);
        return NULL;
    }
    return out.text;
}
