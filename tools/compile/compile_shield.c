/* SPDX-License-Identifier: BSD-3-Clause */
/* What OPARI2 does not know, hidden from it and shown again
 * (compile_shield.h). */
#include "compile_shield.h"

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
#define SHIELD "schedule(weft_"

/* The clauses of a combined loop shielded from OPARI2 (see the header). */
static const char *const shielded[] = {"ordered", "linear",  "order",      "safelen",
                                       "simdlen", "aligned", "nontemporal"};

/* One directive: its lines (a Fortran one's continuation lines included),
 * where its first word starts, and how many lines it has. */
typedef struct directive {
    const char *first;
    size_t word; /* in the first line; 0: no directive */
    size_t lines;
} directive;

static directive read_directive(const char *line, bool fortran)
{
    size_t len = line_length(line);
    directive d = {line, weft__directive_first_word(line, len, fortran), 1};
    /* C: the preprocessor joined a pragma's lines */
    if (fortran && d.word)
        d.lines = weft__directive_fortran_lines(line, d.word);
    return d;
}

/* Whether the directive's first word is WORD. */
static bool directive_is(const directive *d, const char *word, bool fortran)
{
    const char *line = d->first;
    size_t len = line_length(line);
    return d->word && word_at(line + d->word, len - d->word, word, fortran);
}

/* Whether a line of directive D holds WORD after its first word. */
static bool directive_holds(const directive *d, const char *word, bool fold)
{
    return weft__directive_holds(d->first, d->lines, d->word + 1, word, fold);
}

/* `ordered` with a `depend` or `doacross` clause. */
static bool stand_alone_ordered(const directive *d, bool fortran)
{
    return directive_is(d, "ordered", fortran) &&
           (directive_holds(d, "depend", fortran) || directive_holds(d, "doacross", fortran));
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

/* The shielded clause name at AT (LEN bytes on), followed by blanks and
 * `(`: the name's length, and *OPEN where the parenthesis is; 0 for none. */
static size_t shielded_clause(const char *line, size_t at, size_t len, bool fold, size_t *open)
{
    if (at > 0 && ident_char(line[at - 1]))
        return 0;
    for (size_t k = 0; k < sizeof(shielded) / sizeof(shielded[0]); k++) {
        size_t n = strlen(shielded[k]);
        if (!word_at(line + at, len - at, shielded[k], fold))
            continue;
        *open = skip_blanks(line, at + n, len);
        return *open < len && line[*open] == '(' ? n : 0;
    }
    return 0;
}

/* Copies LINE[from, len) into OUT with every shielded clause at parenthesis
 * depth 0 (DEPTH, carried over continuation lines) written as
 * `schedule(weft_NAME:`; counts them. */
static unsigned shield_clauses(weft_compile_text *out, const char *line, size_t from, size_t len,
                               bool fold, int *depth)
{
    unsigned count = 0;
    size_t copied = from;
    for (size_t i = from; i < len; i++) {
        if (line[i] == '(' || line[i] == ')') {
            *depth += line[i] == '(' ? 1 : -1;
            continue;
        }
        size_t open = 0, n = *depth == 0 ? shielded_clause(line, i, len, fold, &open) : 0;
        if (n == 0)
            continue;
        weft__compile_text_put(out, line + copied, i - copied);
        weft__compile_text_put(out, SHIELD, strlen(SHIELD));
        weft__compile_text_put(out, line + i, n);
        weft__compile_text_put(out, ":", 1);
        copied = open + 1;
        i = open;
        ++*depth;
        count++;
    }
    weft__compile_text_put(out, line + copied, len - copied);
    return count;
}

/* Copies the first line of the combined loop D into OUT, its `simd` after
 * the loop's word written as the first clause, `schedule(weft_simd:)`, and
 * its clauses shielded. */
static unsigned shield_first_line(weft_compile_text *out, const directive *d, bool fortran,
                                  int *depth)
{
    const char *line = d->first;
    size_t len = line_length(line);
    size_t loop = skip_blanks(line, d->word + 8, len);
    size_t after = loop + (fortran ? 2 : 3);
    size_t simd = skip_blanks(line, after, len);
    if (!word_at(line + simd, len - simd, "simd", fortran))
        return shield_clauses(out, line, 0, len, fortran, depth);
    weft__compile_text_put(out, line, after);
    weft__compile_text_put(out, " " SHIELD "simd:)", strlen(" " SHIELD "simd:)"));
    return 1 + shield_clauses(out, line, simd + 4, len, fortran, depth);
}

/* ---- one pass a directive at a time ---------------------------------- */

/* Writes line N (LINE, LEN bytes) of directive D into OUT, rewritten;
 * DEPTH carries parentheses over its lines. Returns the changes made. */
typedef unsigned (*line_rewrite)(weft_compile_text *out, const directive *d, size_t n,
                                 const char *line, size_t len, bool fortran, int *depth);

/* The rewrite a pass gives directive D's lines; NULL: copied as they are. */
typedef line_rewrite (*directive_rule)(const directive *d, bool fortran, bool fixed_form);

static char *each_directive(const char *text, bool fortran, bool fixed_form, directive_rule rule,
                            unsigned *changed)
{
    weft_compile_text out = {0};
    weft__compile_text_put(&out, "", 0);
    unsigned count = 0;
    for (const char *line = text; *line;) {
        directive d = read_directive(line, fortran);
        line_rewrite rewrite = d.word ? rule(&d, fortran, fixed_form) : NULL;
        int depth = 0;
        for (size_t n = 0; n < d.lines; n++) {
            size_t len = line_length(line);
            if (rewrite)
                count += rewrite(&out, &d, n, line, len, fortran, &depth);
            else
                weft__compile_text_put(&out, line, len);
            weft__compile_text_put(&out, "\n", line[len] == '\n');
            line += len + (line[len] == '\n');
        }
    }
    if (changed)
        *changed = count;
    return weft__compile_text_take(&out);
}

/* ---- the shield ------------------------------------------------------ */

void weft__compile_put_hidden(weft_compile_text *out, const char *line, size_t len, bool fortran)
{
    weft__compile_text_puts(out, fortran ? HIDDEN_FORTRAN : HIDDEN_C);
    weft__compile_text_put(out, line, len);
}

static unsigned hide_line(weft_compile_text *out, const directive *d, size_t n, const char *line,
                          size_t len, bool fortran, int *depth)
{
    (void)d, (void)depth;
    weft__compile_put_hidden(out, line, len, fortran);
    return n == 0; /* one directive */
}

static unsigned shield_line(weft_compile_text *out, const directive *d, size_t n, const char *line,
                            size_t len, bool fortran, int *depth)
{
    if (n == 0)
        return shield_first_line(out, d, fortran, depth);
    return shield_clauses(out, line, 0, len, fortran, depth);
}

static line_rewrite shield_rule(const directive *d, bool fortran, bool fixed_form)
{
    if (stand_alone_ordered(d, fortran))
        return hide_line;
    return !fixed_form && combined_loop(d, fortran) ? shield_line : NULL;
}

char *weft__compile_shield(const char *text, bool fortran, bool fixed_form, unsigned *changed)
{
    return each_directive(text, fortran, fixed_form, shield_rule, changed);
}

/* ---- if clauses with a directive-name modifier ---------------------- */

/* The construct whose name an `if` modifier on directive D may be dropped
 * for: `parallel` (alone, or combined with a loop, sections or workshare:
 * not with simd, to which an `if` without modifier would apply too) and
 * `task`; NULL for others. */
static const char *if_owner(const directive *d, bool fortran)
{
    if (directive_is(d, "task", fortran))
        return "task";
    if (!directive_is(d, "parallel", fortran) || directive_holds(d, "simd", fortran))
        return NULL;
    return "parallel";
}

/* Copies LINE into OUT with the `OWNER :` of every `if (OWNER : ...)` at
 * parenthesis depth 0 (DEPTH carried over continuation lines) left out,
 * OWNER being if_owner's; counts them. */
static unsigned plain_if_line(weft_compile_text *out, const directive *d, size_t n,
                              const char *line, size_t len, bool fortran, int *depth)
{
    (void)n;
    const char *owner = if_owner(d, fortran);
    unsigned count = 0;
    size_t copied = 0, owner_len = strlen(owner);
    for (size_t i = 0; i < len; i++) {
        if (line[i] == '(' || line[i] == ')') {
            *depth += line[i] == '(' ? 1 : -1;
            continue;
        }
        if (*depth != 0 || (i > 0 && ident_char(line[i - 1])) ||
            !word_at(line + i, len - i, "if", fortran))
            continue;
        size_t open = skip_blanks(line, i + 2, len);
        size_t word = open < len && line[open] == '(' ? skip_blanks(line, open + 1, len) : len;
        size_t colon = word < len && word_at(line + word, len - word, owner, fortran)
                           ? skip_blanks(line, word + owner_len, len)
                           : len;
        if (colon >= len || line[colon] != ':' || (colon + 1 < len && line[colon + 1] == ':'))
            continue;
        weft__compile_text_put(out, line + copied, word - copied);
        copied = colon + 1;
        i = colon;
        ++*depth; /* inside the clause's parentheses now */
        count++;
    }
    weft__compile_text_put(out, line + copied, len - copied);
    return count;
}

static line_rewrite plain_if_rule(const directive *d, bool fortran, bool fixed_form)
{
    (void)fixed_form;
    return if_owner(d, fortran) ? plain_if_line : NULL;
}

char *weft__compile_plain_if(const char *text, bool fortran, unsigned *changed)
{
    return each_directive(text, fortran, false, plain_if_rule, changed);
}

/* ---- shown again ----------------------------------------------------- */

/* Copies LINE into OUT with every `schedule(weft_NAME:` written back as
 * `NAME(`, and `schedule(weft_simd:)` as `simd`; says whether it held the
 * latter. */
static bool unshield_line(weft_compile_text *out, const char *line, size_t len)
{
    size_t shield_len = strlen(SHIELD), copied = 0;
    bool simd = false;
    for (size_t i = 0; i + shield_len <= len; i++) {
        if (strncmp(line + i, SHIELD, shield_len) != 0)
            continue;
        size_t name = i + shield_len, colon = name;
        while (colon < len && ident_char(line[colon]))
            colon++;
        if (colon >= len || line[colon] != ':')
            continue;
        weft__compile_text_put(out, line + copied, i - copied);
        if (colon + 1 < len && line[colon + 1] == ')' && colon - name == 4 &&
            strncmp(line + name, "simd", 4) == 0) {
            weft__compile_text_put(out, "simd", 4);
            copied = colon + 2;
            simd = true;
        } else {
            weft__compile_text_put(out, line + name, colon - name);
            weft__compile_text_put(out, "(", 1);
            copied = colon + 1;
        }
        i = copied - 1;
    }
    weft__compile_text_put(out, line + copied, len - copied);
    return simd;
}

/* The Fortran `end do` directive closing the loop whose directive is at
 * LINE: the next one that ends no loop begun in between; NULL for none. */
static const char *fortran_loop_end(const char *line)
{
    int depth = 0;
    for (line += line_length(line); *line; line += line_length(line)) {
        line++; /* the newline */
        directive d = read_directive(line, true);
        size_t len = line_length(line);
        if (directive_is(&d, "do", true))
            depth++;
        if (!directive_is(&d, "end", true))
            continue;
        size_t next = skip_blanks(line, d.word + 3, len);
        if (word_at(line + next, len - next, "do", true) && depth-- == 0)
            return line;
    }
    return NULL;
}

char *weft__compile_unshield(const char *text, bool fortran)
{
    const char *mark = fortran ? HIDDEN_FORTRAN : HIDDEN_C;
    size_t mark_len = strlen(mark);
    weft_compile_text out = {0};
    weft__compile_text_put(&out, "", 0);
    const char *simd_end = NULL; /* Fortran: the `end do` to say `end do simd` */
    for (const char *line = text; *line;) {
        size_t len = line_length(line);
        size_t from = strncmp(line, mark, mark_len) == 0 ? mark_len : 0;
        if (line == simd_end) {
            size_t word = read_directive(line, true).word;
            size_t after_do = skip_blanks(line, word + 3, len) + 2;
            weft__compile_text_put(&out, line, after_do);
            weft__compile_text_put(&out, " simd", 5);
            weft__compile_text_put(&out, line + after_do, len - after_do);
        } else if (unshield_line(&out, line + from, len - from) && fortran) {
            /* OPARI2's `do` of a `parallel do simd`: its end says simd too */
            directive d = read_directive(line, true);
            if (directive_is(&d, "do", true))
                simd_end = fortran_loop_end(line);
        }
        weft__compile_text_put(&out, "\n", line[len] == '\n');
        line += len + (line[len] == '\n');
    }
    return weft__compile_text_take(&out);
}
