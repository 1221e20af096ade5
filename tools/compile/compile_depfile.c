/* SPDX-License-Identifier: BSD-3-Clause */
/* Rewriting the make dependency files of instrumented compiles
 * (compile_depfile.h). The text is read as make rules the way the compilers
 * write them:
 *
 *     target [target...]: prerequisite prerequisite \
 *      prerequisite ...
 *     phony-target:
 *
 * Words are separated by blanks; a backslash before a newline continues the
 * rule, a backslash before any other character belongs to the word (as in
 * "dir\ with\ space"); an unescaped newline ends the rule. Words keep their
 * original spelling in the output; only the comparison with the work
 * directory unescapes them. */
#include "compile_depfile.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "compile_text.h"

/* A word as it appears in the text: START and LEN, unescaped into WORD. */
typedef struct word {
    const char *start;
    size_t len;
    bool ends_targets; /* written "word:" — the colon is not part of start/len */
} word;

static bool is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

/* Compares the unescaped spelling of W with PATH (whole word) or, when
 * PREFIX_ONLY, with the start of it. Escapes: "\ ", "\#", "\\", "\:", "$$". */
static bool word_matches(const word *w, const char *path, bool prefix_only)
{
    size_t i = 0;
    const char *p = path;
    while (i < w->len) {
        char c = w->start[i];
        if (c == '\\' && i + 1 < w->len && strchr(" #\\:\t", w->start[i + 1]))
            c = w->start[++i];
        else if (c == '$' && i + 1 < w->len && w->start[i + 1] == '$')
            i++;
        if (*p == '\0')
            return prefix_only;
        if (*p != c)
            return false;
        p++;
        i++;
    }
    return *p == '\0';
}

/* Reads the next word at *POS; returns false at the end of the rule (an
 * unescaped newline, consumed) or of the text (*POS then points at '\0'). */
static bool next_word(const char **pos, word *w)
{
    const char *p = *pos;
    for (;;) {
        while (is_blank(*p))
            p++;
        if (p[0] == '\\' && p[1] == '\n') {
            p += 2;
            continue;
        }
        break;
    }
    if (*p == '\n' || *p == '\0') {
        *pos = *p ? p + 1 : p;
        return false;
    }
    const char *start = p;
    while (*p && !is_blank(*p) && *p != '\n') {
        if (p[0] == '\\' && p[1] == '\n')
            break;
        p += (p[0] == '\\' && p[1]) ? 2 : 1;
    }
    w->start = start;
    w->len = (size_t)(p - start);
    w->ends_targets =
        w->len > 0 && start[w->len - 1] == ':' && !(w->len > 1 && start[w->len - 2] == '\\');
    if (w->ends_targets)
        w->len--;
    *pos = p;
    return true;
}

static void put_escaped(weft_compile_text *b, const char *path)
{
    for (const char *p = path; *p; p++) {
        if (*p == ' ' || *p == '#' || *p == '\t')
            weft__compile_text_put(b, "\\", 1);
        else if (*p == '$')
            weft__compile_text_put(b, "$", 1);
        weft__compile_text_put(b, p, 1);
    }
}

typedef struct rewrite {
    const char *work_prefix; /* WORK_DIR followed by '/' */
    const char *copy;
    const char *original;
} rewrite;

/* Rewrites the one rule that starts at *POS into OUT. */
static void rewrite_rule(const char **pos, const rewrite *rw, weft_compile_text *out)
{
    word w;
    bool in_targets = true;
    bool kept_target = false; /* a target outside the work directory */
    word kept[16];            /* the targets seen */
    size_t kept_count = 0;
    size_t rule_start = out->len;
    size_t column = 0;
    while (next_word(pos, &w)) {
        if (in_targets) {
            /* gfortran -E names the target twice; once is enough */
            bool seen = false;
            for (size_t k = 0; k < kept_count && !seen; k++)
                seen = kept[k].len == w.len && memcmp(kept[k].start, w.start, w.len) == 0;
            if (!seen && kept_count < sizeof(kept) / sizeof(kept[0]))
                kept[kept_count++] = w;
            if (w.len > 0 && !seen && !word_matches(&w, rw->work_prefix, true)) {
                if (kept_target)
                    weft__compile_text_put(out, " ", 1);
                weft__compile_text_put(out, w.start, w.len);
                column += w.len + 1;
                kept_target = true;
            }
            if (w.ends_targets) {
                in_targets = false;
                weft__compile_text_put(out, ":", 1);
            }
            continue;
        }
        bool is_copy = word_matches(&w, rw->copy, false);
        if (!is_copy && word_matches(&w, rw->work_prefix, true))
            continue;
        size_t len = is_copy ? strlen(rw->original) : w.len;
        if (column + len > 78) {
            weft__compile_text_puts(out, " \\\n");
            column = 0;
        }
        weft__compile_text_put(out, " ", 1);
        if (is_copy)
            put_escaped(out, rw->original);
        else
            weft__compile_text_put(out, w.start, w.len);
        column += len + 1;
    }
    if (!kept_target) {
        /* nothing, or a rule about the work directory only */
        weft__compile_text_truncate(out, rule_start);
        return;
    }
    weft__compile_text_put(out, "\n", 1);
}

char *weft__compile_depfile_rewrite(const char *text, const char *work_dir, const char *copy,
                                    const char *original)
{
    weft_compile_text prefix = {0};
    weft__compile_text_puts(&prefix, work_dir);
    weft__compile_text_puts(&prefix, "/");
    weft_compile_text out = {0};
    weft__compile_text_put(&out, "", 0); /* an empty input still gives an empty string */
    if (!prefix.failed) {
        rewrite rw = {prefix.text, copy, original};
        const char *pos = text;
        while (*pos)
            rewrite_rule(&pos, &rw, &out);
    }
    bool failed = prefix.failed || out.failed;
    weft__compile_text_free(&prefix);
    if (failed) {
        weft__compile_text_free(&out);
        return NULL;
    }
    return out.text;
}

weft_status weft__compile_depfile_fix(const char *path, const char *work_dir, const char *copy,
                                      const char *original)
{
    weft_compile_text in = {0};
    weft_status status = weft__compile_text_read(path, &in);
    if (status == WEFT_ERR_NOT_FOUND)
        return WEFT_OK;
    if (status != WEFT_OK) {
        weft__compile_text_free(&in);
        return status;
    }
    char *fixed = weft__compile_depfile_rewrite(in.text, work_dir, copy, original);
    weft__compile_text_free(&in);
    if (!fixed)
        return WEFT_ERR_NO_MEMORY;
    status = weft__compile_text_write(path, fixed);
    free(fixed);
    return status;
}

/* True when the word W occurs (same spelling) among the words of TEXT that
 * TARGETS selects: the targets of every rule, or the prerequisites of the
 * first rule. */
static bool has_word(const char *text, const word *w, bool targets)
{
    const char *pos = text;
    for (int rule = 0; *pos; rule++) {
        word other;
        bool in_targets = true;
        while (next_word(&pos, &other)) {
            bool wanted = targets ? in_targets : (!in_targets && rule == 0);
            if (wanted && other.len == w->len && memcmp(other.start, w->start, w->len) == 0)
                return true;
            if (other.ends_targets)
                in_targets = false;
        }
    }
    return false;
}

/* The end of the first rule of TEXT (after its newline). */
static const char *first_rule_end(const char *text)
{
    const char *pos = text;
    word w;
    while (next_word(&pos, &w))
        ;
    return pos;
}

char *weft__compile_depfile_join(const char *first, const char *second)
{
    weft_compile_text out = {0};
    weft__compile_text_put(&out, "", 0);
    const char *end = first_rule_end(first);
    size_t head = (size_t)(end - first);
    while (head > 0 && (first[head - 1] == '\n' || first[head - 1] == '\r'))
        head--;
    weft__compile_text_put(&out, first, head);
    /* the prerequisites of SECOND's first rule that are new */
    const char *pos = second;
    word w;
    bool in_targets = true;
    while (next_word(&pos, &w)) {
        if (in_targets) {
            in_targets = !w.ends_targets;
            continue;
        }
        if (has_word(first, &w, false))
            continue;
        weft__compile_text_puts(&out, " \\\n ");
        weft__compile_text_put(&out, w.start, w.len);
    }
    weft__compile_text_put(&out, "\n", 1);
    weft__compile_text_puts(&out, end);
    /* SECOND's other rules, unless FIRST has a rule for their target */
    while (*pos) {
        const char *rule = pos;
        bool first_word = true, known = false;
        while (next_word(&pos, &w)) {
            if (first_word)
                known = has_word(first, &w, true);
            first_word = false;
        }
        if (!first_word && !known)
            weft__compile_text_put(&out, rule, (size_t)(pos - rule));
    }
    return weft__compile_text_take(&out);
}
