/* SPDX-License-Identifier: BSD-3-Clause */
/* Combined master constructs split before OPARI2 (compile_split.h). */
#include "compile_split.h"

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

/* The leaf constructs of a combined directive this module splits. */
enum leaf { LEAF_PARALLEL, LEAF_MASTER, LEAF_LOOP, LEAF_COUNT };

/* One clause of the directive: its name and its whole text. */
typedef struct clause {
    size_t name, name_len, start, end;
} clause;

enum { MAX_CLAUSES = 64 };

/* The clauses of LINE[from, len) (separated by blanks or commas): false
 * when they cannot be read (unbalanced parentheses, too many). */
static bool read_clauses(const char *line, size_t from, size_t len, clause *c, size_t *count)
{
    *count = 0;
    for (size_t i = from; i < len;) {
        while (i < len && (line[i] == ' ' || line[i] == '\t' || line[i] == ','))
            i++;
        if (i >= len)
            break;
        size_t name = i;
        while (i < len && ident_char(line[i]))
            i++;
        if (i == name || *count == MAX_CLAUSES)
            return false;
        size_t name_end = i, open = skip_blanks(line, i, len);
        if (open < len && line[open] == '(') {
            int depth = 0;
            for (i = open; i < len; i++) {
                depth += line[i] == '(' ? 1 : line[i] == ')' ? -1 : 0;
                if (depth == 0)
                    break;
            }
            if (i >= len)
                return false;
            i++;
        }
        c[(*count)++] = (clause){name, name_end - name, name, i};
    }
    return true;
}

static bool named(const char *line, const clause *c, const char *name)
{
    return c->name_len == strlen(name) && strncmp(line + c->name, name, c->name_len) == 0;
}

/* `if(MODIFIER: ...)`: whether it names MODIFIER. */
static bool if_for(const char *line, const clause *c, const char *modifier)
{
    size_t open = skip_blanks(line, c->name + 2, c->end);
    size_t word = skip_blanks(line, open + 1, c->end);
    size_t n = strlen(modifier);
    return word_at(line + word, c->end - word, modifier, false) &&
           line[skip_blanks(line, word + n, c->end)] == ':';
}

/* The leaf a clause goes to: `parallel` takes those only it knows (and an
 * `if` without modifier: one team of one thread runs the rest as before),
 * master/masked `filter`, the loop (taskloop or loop) the rest; without a
 * loop, `parallel` takes all but `filter`. */
static enum leaf route(const char *line, const clause *c, bool has_loop)
{
    if (named(line, c, "filter"))
        return LEAF_MASTER;
    if (!has_loop)
        return LEAF_PARALLEL;
    static const char *const parallel_only[] = {"num_threads", "proc_bind", "copyin", "shared",
                                                "firstprivate"};
    for (size_t k = 0; k < sizeof(parallel_only) / sizeof(parallel_only[0]); k++) {
        if (named(line, c, parallel_only[k]))
            return LEAF_PARALLEL;
    }
    if (named(line, c, "if"))
        return if_for(line, c, "taskloop") ? LEAF_LOOP : LEAF_PARALLEL;
    return LEAF_LOOP;
}

/* The combined directive at LINE[word, len): its leaves' words (NULL where
 * absent) and where its clauses start; false when it is none to split. */
static bool leaves_of(const char *line, size_t word, size_t len, const char *words[LEAF_COUNT],
                      size_t *clauses)
{
    static const char *const masters[] = {"master", "masked"};
    static const char *const loops[] = {"taskloop simd", "taskloop", "loop"};
    memset(words, 0, sizeof(*words) * LEAF_COUNT);
    size_t i = word;
    if (word_at(line + i, len - i, "parallel", false)) {
        words[LEAF_PARALLEL] = "parallel";
        i = skip_blanks(line, i + 8, len);
    }
    for (size_t k = 0; k < 2; k++) {
        if (word_at(line + i, len - i, masters[k], false)) {
            words[LEAF_MASTER] = masters[k];
            i = skip_blanks(line, i + 6, len);
        }
    }
    for (size_t k = 0; k < 3 && (words[LEAF_MASTER] || words[LEAF_PARALLEL]); k++) {
        size_t n = strlen(loops[k]);
        bool simd = k == 0;
        size_t simd_at = skip_blanks(line, i + 8, len);
        if (simd ? word_at(line + i, len - i, "taskloop", false) &&
                       word_at(line + simd_at, len - simd_at, "simd", false)
                 : word_at(line + i, len - i, loops[k], false)) {
            words[LEAF_LOOP] = loops[k];
            i = skip_blanks(line, simd ? simd_at + 4 : i + n, len);
            break;
        }
    }
    *clauses = i;
    int present = !!words[LEAF_PARALLEL] + !!words[LEAF_MASTER] + !!words[LEAF_LOOP];
    /* `parallel loop` is split, `master loop` is no construct */
    bool loop_alone = words[LEAF_LOOP] && strcmp(words[LEAF_LOOP], "loop") == 0;
    return present >= 2 && !(loop_alone && words[LEAF_MASTER]);
}

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
    clause c[MAX_CLAUSES];
    if (!leaves_of(line, word, len, words, &from) || !read_clauses(line, from, len, c, &count))
        return false;
    for (size_t k = 0; k < count; k++) {
        if (named(line, &c[k], "default") && words[LEAF_LOOP])
            return false;
    }
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
            enum leaf to = route(line, &c[k], words[LEAF_LOOP] != NULL);
            if (to == LEAF_PARALLEL && !words[LEAF_PARALLEL])
                to = LEAF_LOOP; /* master taskloop: all but filter */
            if (to != leaf)
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
