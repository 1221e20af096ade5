/* SPDX-License-Identifier: BSD-3-Clause */
/* Combined master constructs split before OPARI2 (compile_split.h). */
#include "compile_split.h"

#include <stdlib.h>
#include <string.h>

#include "compile_directive.h"
#include "compile_leaves.h"
#include "compile_text.h"

#define line_length weft__directive_line_length

/* The last line marker (`# N "file" FLAGS`) and the number of the line
 * after what has been read so far. */
typedef struct position {
    const char *marker; /* NULL before the first */
    unsigned long next;
} position;

/* Splits the combined directive LINE of line LINE_NO into OUT: a line per
 * leaf with its clauses, each numbered LINE_NO by a marker before it.
 * False (nothing written) when its clauses cannot be divided: unreadable,
 * or a `default` clause, which would then need every variable the others
 * name listed on `parallel` too. */
static bool split(weft_compile_text *out, const char *line, size_t len, size_t word,
                  const position *pos, unsigned long line_no)
{
    const char *words[LEAF_COUNT];
    size_t from, count;
    leaf_clause c[LEAF_MAX_CLAUSES];
    if (!weft__leaves_of(line, word, len, words, &from, false) ||
        !weft__leaves_read_clauses(line, from, len, c, &count) ||
        !weft__leaves_divisible(line, c, count, words, false))
        return false;
    enum leaf last = words[LEAF_LOOP] ? LEAF_LOOP : LEAF_MASTER;
    for (enum leaf leaf = LEAF_PARALLEL; leaf < LEAF_COUNT; leaf++) {
        if (!words[leaf])
            continue;
        if (leaf == LEAF_PARALLEL || (leaf == LEAF_MASTER && !words[LEAF_PARALLEL]))
            weft__compile_text_put(out, line, word); /* `#pragma omp ` as written */
        else
            weft__compile_text_puts(out, "#pragma omp ");
        weft__compile_text_puts(out, words[leaf]);
        for (size_t k = 0; k < count; k++) {
            if (weft__leaves_route(line, &c[k], words, false) != leaf)
                continue;
            weft__compile_text_put(out, " ", 1);
            weft__compile_text_put(out, line + c[k].start, c[k].end - c[k].start);
        }
        weft__compile_text_put(out, "\n", 1);
        /* each leaf on the directive's line, what follows on the next */
        weft__directive_put_marker(out, pos->marker, line_length(pos->marker),
                                   leaf == last ? line_no + 1 : line_no);
    }
    return true;
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
        size_t word = weft__directive_first_word(line, len, false);
        /* the first leaf's marker numbers the next leaf's line; split()
         * writes nothing unless it splits */
        if (word && pos.marker && newline && split(&out, line, len, word, &pos, pos.next))
            count++;
        else
            weft__compile_text_put(&out, line, len + newline);
        if (weft__directive_is_marker(line, len)) {
            pos.marker = line;
            pos.next = strtoul(line + 2, NULL, 10);
        } else {
            pos.next++;
        }
        line += len + newline;
    }
    if (changed)
        *changed = count;
    return weft__compile_text_take(&out);
}
