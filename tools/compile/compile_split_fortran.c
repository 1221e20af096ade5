/* SPDX-License-Identifier: BSD-3-Clause */
/* Combined master constructs and `parallel loop` split in preprocessed
 * Fortran before OPARI2 (compile_split.h). */
#include <stdlib.h>
#include <string.h>

#include "compile_directive.h"
#include "compile_fortran_loop.h"
#include "compile_leaves.h"
#include "compile_split.h"
#include "compile_text.h"

#define line_length weft__directive_line_length
#define skip_blanks weft__directive_skip_blanks

/* A directive: its first line, the text after its last, the number of its
 * lines, and its words and clauses joined into one line (sentinels,
 * continuation marks and comments left out). */
typedef struct directive {
    const char *first;
    const char *after;
    unsigned lines;
    weft_compile_text joined;
} directive;

/* The end of a directive line's text from FROM on: before a `!` comment, a
 * continuation `&` and blanks. */
static size_t text_end(const char *line, size_t from, size_t len)
{
    const char *bang = memchr(line + from, '!', len - from);
    size_t end = bang ? (size_t)(bang - line) : len;
    while (end > from && strchr(" \t\r", line[end - 1]))
        end--;
    if (end > from && line[end - 1] == '&')
        end--;
    return end;
}

/* Reads the directive whose first line is LINE (its words at WORD). */
static void read_directive(directive *d, const char *line, size_t word)
{
    *d = (directive){line, line, (unsigned)weft__directive_fortran_lines(line, word), {0}};
    bool continued;
    for (unsigned n = 0; n < d->lines; n++) {
        size_t len = line_length(line);
        size_t from = n == 0 ? word : weft__directive_fortran(line, len, &continued);
        weft__compile_text_put(&d->joined, " ", 1);
        weft__compile_text_put(&d->joined, line + from, text_end(line, from, len) - from);
        line += len + (line[len] == '\n');
    }
    d->after = line;
}

/* The words of the combined directive D (none when it is no such). */
static bool words_of(const directive *d, const char *words[LEAF_COUNT], size_t *clauses)
{
    const char *text = d->joined.text;
    size_t len = d->joined.len;
    return text && weft__leaves_of(text, skip_blanks(text, 0, len), len, words, clauses, true);
}

static bool same_words(const char *const a[LEAF_COUNT], const char *const b[LEAF_COUNT])
{
    for (int k = 0; k < LEAF_COUNT; k++) {
        if ((a[k] == NULL) != (b[k] == NULL) || (a[k] && strcmp(a[k], b[k]) != 0))
            return false;
    }
    return true;
}

/* The words after `end` on an end directive LINE: false when it is none. */
static bool end_words(const char *line, const char *words[LEAF_COUNT])
{
    size_t len = line_length(line), at = weft__directive_first_word(line, len, true), from;
    if (!at || !weft__directive_word_at(line + at, len - at, "end", true))
        return false;
    len = text_end(line, at, len);
    return weft__leaves_of(line, skip_blanks(line, at + 3, len), len, words, &from, true) &&
           skip_blanks(line, from, len) == len;
}

/* The end directive of the construct WORDS that starts before FROM, or
 * NULL (a loop construct written without its end, or none found): the
 * first end of the same words not taken by a construct nested in it. */
static const char *find_end(const char *from, const char *const words[LEAF_COUNT])
{
    int depth = 1;
    for (const char *line = from; *line;) {
        size_t len = line_length(line), at = weft__directive_first_word(line, len, true);
        const char *seen[LEAF_COUNT];
        if (at && end_words(line, seen) && same_words(seen, words) && --depth == 0)
            return line;
        if (at) {
            directive d;
            read_directive(&d, line, at);
            size_t clauses;
            if (words_of(&d, seen, &clauses) && same_words(seen, words))
                depth++;
            weft__compile_text_free(&d.joined);
        }
        line += len + (line[len] == '\n');
    }
    return NULL;
}

/* Writes the line `!$omp WORD` and the clauses C of D going to LEAF, one
 * per continuation line; false when a line would be longer than LIMIT. */
static bool put_leaf(weft_compile_text *out, const char *prefix, size_t prefix_len,
                     const char *word, const directive *d, const leaf_clause *c, size_t count,
                     const char *const words[LEAF_COUNT], enum leaf leaf, bool fixed_form)
{
    size_t limit = fixed_form ? 72 : 132;
    weft__compile_text_put(out, prefix, prefix_len);
    weft__compile_text_puts(out, word);
    for (size_t k = 0; k < count; k++) {
        if (weft__leaves_route(d->joined.text, &c[k], words, true) != leaf)
            continue;
        if (c[k].end - c[k].start + 9 > limit)
            return false;
        weft__compile_text_puts(out, fixed_form ? "\n!$omp& " : " &\n!$omp& ");
        weft__compile_text_put(out, d->joined.text + c[k].start, c[k].end - c[k].start);
    }
    weft__compile_text_put(out, "\n", 1);
    return true;
}

/* The split of D (line LINE_NO, after the marker MARKER) into OUT; false,
 * and OUT as it was, when its clauses cannot be divided or would not fit. */
static bool split_start(weft_compile_text *out, const directive *d, size_t word,
                        const char *const words[LEAF_COUNT], size_t clauses, const char *marker,
                        unsigned long line_no, bool fixed_form)
{
    leaf_clause c[LEAF_MAX_CLAUSES];
    size_t count, mark = out->len;
    if (!weft__leaves_read_clauses(d->joined.text, clauses, d->joined.len, c, &count) ||
        !weft__leaves_divisible(d->joined.text, c, count, words, true))
        return false;
    enum leaf last = words[LEAF_LOOP] ? LEAF_LOOP : LEAF_MASTER;
    bool first = true;
    for (enum leaf leaf = LEAF_PARALLEL; leaf < LEAF_COUNT; leaf++) {
        if (!words[leaf])
            continue;
        /* the first leaf keeps the sentinel as written */
        if (!put_leaf(out, first ? d->first : "!$omp ", first ? word : 6, words[leaf], d, c, count,
                      words, leaf, fixed_form)) {
            weft__compile_text_truncate(out, mark);
            return false;
        }
        first = false;
        weft__directive_put_marker(out, marker, line_length(marker),
                                   leaf == last ? line_no + d->lines : line_no);
    }
    return true;
}

/* The end directives of the split construct WORDS, innermost first, all
 * numbered LINE_NO; the first with PREFIX (the sentinel). */
static void put_ends(weft_compile_text *out, const char *prefix, size_t prefix_len,
                     const char *const words[LEAF_COUNT], const char *marker, unsigned long line_no)
{
    bool first = true;
    for (int leaf = LEAF_COUNT - 1; leaf >= 0; leaf--) {
        if (!words[leaf])
            continue;
        weft__compile_text_put(out, first ? prefix : "!$omp ", first ? prefix_len : 6);
        weft__compile_text_puts(out, "end ");
        weft__compile_text_puts(out, words[leaf]);
        weft__compile_text_put(out, "\n", 1);
        bool outermost = leaf == LEAF_PARALLEL || (leaf == LEAF_MASTER && !words[LEAF_PARALLEL]);
        weft__directive_put_marker(out, marker, line_length(marker),
                                   outermost ? line_no + 1 : line_no);
        first = false;
    }
}

/* End directives of constructs split, to be written when reached: in
 * place of the end directive LINE, or before LINE when the construct had
 * none (INSERT). */
typedef struct pending_end {
    const char *line;
    bool insert;
    const char *words[LEAF_COUNT];
} pending_end;

/* The first line from LINE on that is neither blank nor a line marker. */
static const char *skip_empty(const char *line)
{
    for (;;) {
        size_t len = line_length(line);
        if (!*line || (skip_blanks(line, 0, len) < len && !weft__directive_is_marker(line, len)))
            return line;
        line += len + (line[len] == '\n');
    }
}

/* Where the construct E->words starting with D ends: E->line and
 * E->insert; false when not found. A loop construct ends with its loop,
 * and its end directive, optional, follows the loop at once. */
static bool find_construct_end(pending_end *e, const directive *d, bool fixed_form)
{
    if (!e->words[LEAF_LOOP]) {
        e->insert = false;
        return (e->line = find_end(d->after, e->words)) != NULL;
    }
    const char *last, *after = weft__fortran_loop_end(d->after, fixed_form, &last);
    if (!after)
        return false;
    const char *next = skip_empty(after), *seen[LEAF_COUNT];
    e->insert = !(*next && end_words(next, seen) && same_words(seen, e->words));
    e->line = e->insert ? after : next;
    return true;
}

enum { MAX_PENDING = 64 };

/* Writes the ends pending at LINE (line LINE_NO) into OUT: the inserted
 * ones, then, when DONE is given, the one replacing LINE (*DONE true). */
static void write_pending(weft_compile_text *out, pending_end *ends, size_t *pending,
                          const char *line, const char *marker, unsigned long line_no, bool *done)
{
    for (size_t k = 0; k < *pending;) {
        pending_end *e = &ends[k];
        if (e->line != line || (!e->insert && !done)) {
            k++;
            continue;
        }
        if (e->insert) { /* numbered as the loop's last line */
            weft__directive_put_marker(out, marker, line_length(marker), line_no - 1);
            put_ends(out, "!$omp ", 6, e->words, marker, line_no - 1);
        } else {
            put_ends(out, line, weft__directive_first_word(line, line_length(line), true), e->words,
                     marker, line_no);
            *done = true;
        }
        *e = ends[--*pending];
    }
}

char *weft__compile_split_fortran(const char *text, bool fixed_form, unsigned *changed)
{
    weft_compile_text out = {0};
    weft__compile_text_put(&out, "", 0);
    const char *marker = NULL;
    unsigned long next = 1; /* the number of the line read next */
    pending_end ends[MAX_PENDING];
    size_t pending = 0;
    unsigned count = 0;
    const char *line = text;
    for (; *line;) {
        size_t len = line_length(line), word = weft__directive_first_word(line, len, true);
        const char *after = line + len + (line[len] == '\n');
        unsigned lines = 1;
        bool done = false;
        if (marker)
            write_pending(&out, ends, &pending, line, marker, next, word ? &done : NULL);
        if (word && marker && !done && pending < MAX_PENDING) {
            directive d;
            read_directive(&d, line, word);
            pending_end *e = &ends[pending];
            size_t clauses;
            if (words_of(&d, e->words, &clauses) && find_construct_end(e, &d, fixed_form) &&
                split_start(&out, &d, word, e->words, clauses, marker, next, fixed_form)) {
                pending++;
                count++;
                after = d.after;
                lines = d.lines;
                done = true;
            }
            weft__compile_text_free(&d.joined);
        }
        if (!done)
            weft__compile_text_put(&out, line, (size_t)(after - line));
        if (weft__directive_is_marker(line, len)) {
            marker = line;
            next = strtoul(line + 2, NULL, 10);
        } else {
            next += lines;
        }
        line = after;
    }
    if (marker) /* a loop that ends the text */
        write_pending(&out, ends, &pending, line, marker, next, NULL);
    if (changed)
        *changed = count;
    return weft__compile_text_take(&out);
}
