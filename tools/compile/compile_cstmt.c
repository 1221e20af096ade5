/* SPDX-License-Identifier: BSD-3-Clause */
/* Braces around OpenMP constructs that are followed by `else`
 * (weft__compile_brace_else, compile_pretext.h), and around an `if` with an
 * `else` that a construct holds, directly or as its loops' body
 * (weft__compile_brace_if_else).
 *
 *     if (c)                              if (c)
 *     #pragma omp parallel for            {
 *         for (...) a[i] = i;      ->     # 7 "f.c"
 *     else                                #pragma omp parallel for
 *         a[0] = 5;                           for (...) a[i] = i;
 *                                         }
 *                                         # 9 "f.c"
 *                                         else ...
 *
 * To find where a construct's statement ends, this reads C and C++
 * statements the way the grammar nests them: a block, `if` with its `else`,
 * the loops, `switch`, `do ... while`, `try ... catch`, labels, and anything
 * else up to the `;` at bracket depth 0. Preprocessed text has no comments
 * or macros left; line markers and pragmas are lines of their own. Text it
 * cannot read (unbalanced brackets, the end of the file) is left as it is. */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compile_pretext.h"
#include "compile_directive.h"
#include "compile_text.h"

#define FAIL SIZE_MAX

typedef enum tok_kind { TOK_END, TOK_WORD, TOK_PUNCT, TOK_STRING, TOK_DIRECTIVE } tok_kind;

typedef struct tok {
    tok_kind kind;
    size_t start, end;
} tok;

typedef struct scanner {
    const char *text;
    size_t len;
} scanner;

static bool word_char(char c)
{
    return isalnum((unsigned char)c) || c == '_' || c == '$';
}

static bool line_start(const scanner *s, size_t at)
{
    size_t i = at;
    while (i > 0 && (s->text[i - 1] == ' ' || s->text[i - 1] == '\t'))
        i--;
    return i == 0 || s->text[i - 1] == '\n';
}

static size_t end_of_line(const scanner *s, size_t at)
{
    const char *newline = memchr(s->text + at, '\n', s->len - at);
    return newline ? (size_t)(newline - s->text) + 1 : s->len;
}

/* The end of the string or character literal opening at AT (its quote);
 * a C++ raw string R"d(...)d" when RAW. */
static size_t literal_end(const scanner *s, size_t at, bool raw)
{
    const char *t = s->text;
    char quote = t[at];
    if (raw) {
        size_t open = at + 1;
        while (open < s->len && t[open] != '(' && open - at < 18)
            open++;
        if (open >= s->len || t[open] != '(')
            return FAIL;
        size_t delim = open - at - 1;
        for (size_t i = open + 1; i + delim + 1 < s->len; i++) {
            if (t[i] == ')' && memcmp(t + i + 1, t + at + 1, delim) == 0 && t[i + 1 + delim] == '"')
                return i + delim + 2;
        }
        return FAIL;
    }
    for (size_t i = at + 1; i < s->len; i++) {
        if (t[i] == '\\')
            i++;
        else if (t[i] == quote)
            return i + 1;
        else if (t[i] == '\n')
            return FAIL;
    }
    return FAIL;
}

static tok next_token(const scanner *s, size_t at)
{
    const char *t = s->text;
    for (;;) {
        while (at < s->len && isspace((unsigned char)t[at]))
            at++;
        if (at + 1 < s->len && t[at] == '/' && t[at + 1] == '/') {
            at = end_of_line(s, at);
        } else if (at + 1 < s->len && t[at] == '/' && t[at + 1] == '*') {
            const char *close = strstr(t + at + 2, "*/");
            at = close ? (size_t)(close - t) + 2 : s->len;
        } else {
            break;
        }
    }
    if (at >= s->len)
        return (tok){TOK_END, at, at};
    if (t[at] == '#' && line_start(s, at))
        return (tok){TOK_DIRECTIVE, at, end_of_line(s, at)};
    if (word_char(t[at])) {
        size_t end = at;
        while (end < s->len && word_char(t[end]))
            end++;
        if (end < s->len && (t[end] == '"' || t[end] == '\'')) { /* L"x", u8"x", R"(x)" */
            size_t close = literal_end(s, end, t[end] == '"' && t[end - 1] == 'R');
            return close == FAIL ? (tok){TOK_END, s->len, s->len} : (tok){TOK_STRING, at, close};
        }
        return (tok){TOK_WORD, at, end};
    }
    if (t[at] == '"' || t[at] == '\'') {
        size_t close = literal_end(s, at, false);
        return close == FAIL ? (tok){TOK_END, s->len, s->len} : (tok){TOK_STRING, at, close};
    }
    return (tok){TOK_PUNCT, at, at + 1};
}

static bool is_word(const scanner *s, tok k, const char *word)
{
    size_t n = strlen(word);
    return k.kind == TOK_WORD && k.end - k.start == n && memcmp(s->text + k.start, word, n) == 0;
}

static bool is_punct(const scanner *s, tok k, char c)
{
    return k.kind == TOK_PUNCT && s->text[k.start] == c;
}

/* The words of a directive line: "#pragma omp for" -> the word after omp. */
static bool pragma_omp(const scanner *s, tok line, tok *directive)
{
    scanner in = {s->text, line.end};
    tok k = next_token(&in, line.start + 1);
    if (!is_word(&in, k, "pragma"))
        return false;
    k = next_token(&in, k.end);
    if (!is_word(&in, k, "omp"))
        return false;
    *directive = next_token(&in, k.end);
    return directive->kind == TOK_WORD;
}

/* True for an OpenMP directive line that has a statement of its own. */
static bool omp_with_statement(const scanner *s, tok line)
{
    tok d;
    if (!pragma_omp(s, line, &d))
        return false;
    static const char *const standalone[] = {
        "barrier", "flush",   "taskwait",     "taskyield", "threadprivate", "declare",
        "end",     "cancel",  "cancellation", "scan",      "depobj",        "requires",
        "error",   "nothing", "assumes",      "interop",   "allocate",      "section"};
    for (size_t i = 0; i < sizeof(standalone) / sizeof(standalone[0]); i++) {
        if (is_word(s, d, standalone[i]))
            return strcmp(standalone[i], "section") == 0; /* a section has a block */
    }
    scanner in = {s->text, line.end};
    tok next = next_token(&in, d.end);
    if (is_word(s, d, "target") &&
        (is_word(&in, next, "update") || is_word(&in, next, "enter") || is_word(&in, next, "exit")))
        return false;
    if (is_word(s, d, "ordered")) { /* ordered depend(...)/doacross(...) stands alone */
        for (tok k = next; k.kind != TOK_END; k = next_token(&in, k.end)) {
            if (is_word(&in, k, "depend") || is_word(&in, k, "doacross"))
                return false;
        }
    }
    return true;
}

/* The end of the bracketed group opening at OPEN, or FAIL. */
static size_t skip_group(const scanner *s, tok open)
{
    int depth = 0;
    for (tok k = open; k.kind != TOK_END; k = next_token(s, k.end)) {
        if (k.kind != TOK_PUNCT)
            continue;
        char c = s->text[k.start];
        if (c == '(' || c == '[' || c == '{')
            depth++;
        else if ((c == ')' || c == ']' || c == '}') && --depth == 0)
            return k.end;
        if (depth < 0)
            return FAIL;
    }
    return FAIL;
}

/* The next token that is not a line marker or a pragma other than OpenMP's
 * with a statement. */
static tok next_significant(const scanner *s, size_t at, bool stop_at_omp)
{
    tok k = next_token(s, at);
    while (k.kind == TOK_DIRECTIVE && !(stop_at_omp && omp_with_statement(s, k)))
        k = next_token(s, k.end);
    return k;
}

static size_t statement_end(const scanner *s, size_t at, int depth);

/* `(...)` then a statement: if, for, while, switch, catch. */
static size_t header_then_statement(const scanner *s, size_t at, int depth)
{
    tok open = next_significant(s, at, false);
    if (!is_punct(s, open, '('))
        return FAIL;
    size_t after = skip_group(s, open);
    return after == FAIL ? FAIL : statement_end(s, after, depth + 1);
}

/* Everything up to the `;` at bracket depth 0. */
static size_t simple_statement(const scanner *s, tok k)
{
    for (; k.kind != TOK_END; k = next_token(s, k.end)) {
        if (is_punct(s, k, ';'))
            return k.end;
        if (k.kind == TOK_PUNCT && strchr("([{", s->text[k.start])) {
            size_t after = skip_group(s, k);
            if (after == FAIL)
                return FAIL;
            k.end = after;
        }
    }
    return FAIL;
}

/* The end of the statement that starts at or after AT. */
static size_t statement_end(const scanner *s, size_t at, int depth)
{
    if (depth > 200)
        return FAIL;
    tok k = next_significant(s, at, true);
    if (k.kind == TOK_DIRECTIVE) /* an OpenMP construct: the statement after it */
        return statement_end(s, k.end, depth + 1);
    if (k.kind == TOK_END)
        return FAIL;
    if (is_punct(s, k, '{'))
        return skip_group(s, k);
    if (is_punct(s, k, ';'))
        return k.end;
    if (is_word(s, k, "if")) {
        size_t end = header_then_statement(s, k.end, depth);
        if (end == FAIL)
            return FAIL;
        tok e = next_significant(s, end, true);
        return is_word(s, e, "else") ? statement_end(s, e.end, depth + 1) : end;
    }
    if (is_word(s, k, "for") || is_word(s, k, "while") || is_word(s, k, "switch"))
        return header_then_statement(s, k.end, depth);
    if (is_word(s, k, "do")) {
        size_t body = statement_end(s, k.end, depth + 1);
        tok w = body == FAIL ? (tok){TOK_END, 0, 0} : next_significant(s, body, false);
        return is_word(s, w, "while") ? simple_statement(s, next_token(s, w.end)) : FAIL;
    }
    if (is_word(s, k, "try")) {
        size_t end = statement_end(s, k.end, depth + 1);
        for (tok c = next_significant(s, end, false); end != FAIL && is_word(s, c, "catch");
             c = next_significant(s, end, false))
            end = header_then_statement(s, c.end, depth);
        return end;
    }
    if (is_word(s, k, "else"))
        return FAIL;
    tok after = next_token(s, k.end);
    bool label = k.kind == TOK_WORD && is_punct(s, after, ':') &&
                 !(after.end < s->len && s->text[after.end] == ':');
    if (is_word(s, k, "case") || is_word(s, k, "default") || label) {
        tok c = after;
        while (c.kind != TOK_END &&
               !(is_punct(s, c, ':') && s->text[c.end] != ':' && s->text[c.start - 1] != ':'))
            c = next_token(s, c.end);
        return c.kind == TOK_END ? FAIL : statement_end(s, c.end, depth + 1);
    }
    return simple_statement(s, k);
}

/* Writes the line marker that makes the line holding AT keep its number:
 * the last marker before AT and the lines since, its file's system flags. */
static void put_marker_for(weft_compile_text *out, const scanner *s, size_t at)
{
    size_t line_no = 0, marker = FAIL;
    for (size_t i = 0; i < s->len;) {
        size_t eol = end_of_line(s, i);
        if (at < eol || eol == s->len)
            break; /* the line holding AT */
        if (weft__directive_is_marker(s->text + i, eol - i)) {
            marker = i;
            line_no = strtoul(s->text + i + 2, NULL, 10);
        } else {
            line_no++;
        }
        i = eol;
    }
    if (marker != FAIL)
        weft__directive_put_marker(out, s->text + marker, end_of_line(s, marker) - marker, line_no);
}

/* The `if` statement with an `else` that the construct whose line ends at
 * AT holds, directly or as the body of its `for` loops: its start and end. */
static bool inner_if_else(const scanner *s, size_t at, size_t *start, size_t *end)
{
    tok k = next_significant(s, at, true);
    while (is_word(s, k, "for")) {
        tok open = next_significant(s, k.end, false);
        size_t after = is_punct(s, open, '(') ? skip_group(s, open) : FAIL;
        if (after == FAIL)
            return false;
        k = next_significant(s, after, true);
    }
    if (!is_word(s, k, "if"))
        return false;
    size_t then_end = header_then_statement(s, k.end, 0);
    tok e = then_end == FAIL ? (tok){TOK_END, 0, 0} : next_significant(s, then_end, true);
    size_t if_end = is_word(s, e, "else") ? statement_end(s, e.end, 1) : FAIL;
    if (if_end == FAIL)
        return false;
    *start = k.start;
    *end = if_end;
    return true;
}

/* Whether the `for` header whose `(` is OPEN (ending at END) is a
 * range-based one (C++): a lone `:` at its top level, fewer than two `;`. */
static bool range_header(const scanner *s, tok open, size_t end)
{
    int depth = 0, semicolons = 0;
    bool colon = false;
    for (tok k = open; k.kind != TOK_END && k.start < end; k = next_token(s, k.end)) {
        if (k.kind != TOK_PUNCT)
            continue;
        char c = s->text[k.start];
        depth += strchr("([{", c) ? 1 : strchr(")]}", c) ? -1 : 0;
        if (depth != 1)
            continue;
        semicolons += c == ';';
        colon |= c == ':' && s->text[k.start + 1] != ':' && s->text[k.start - 1] != ':';
    }
    return colon && semicolons < 2;
}

/* The unbraced body of the `for` loop that the construct whose line ends at
 * AT has for statement: OPARI2 finds a loop's end by the two `;` of its
 * header and the statement after it, and misread a range-based loop (it
 * took the statements after the loop into the construct: the program
 * computed another result) and bodies holding `;` of their own (a lambda
 * called at once, `try`, a macro's `} while (0)` on the loop's line). A
 * body that is itself a loop of a classic header is left (collapse). */
static bool loop_body(const scanner *s, size_t at, size_t *start, size_t *end, bool range_only)
{
    tok k = next_significant(s, at, true);
    if (!is_word(s, k, "for"))
        return false;
    tok open = next_significant(s, k.end, false);
    size_t after = is_punct(s, open, '(') ? skip_group(s, open) : FAIL;
    if (after == FAIL)
        return false;
    tok body = next_significant(s, after, true);
    if (body.kind != TOK_WORD && body.kind != TOK_PUNCT && body.kind != TOK_STRING)
        return false; /* an OpenMP construct as body, or the end */
    bool range = range_header(s, open, after);
    if (is_punct(s, body, '{') || (is_word(s, body, "for") && !range) || (range_only && !range))
        return false;
    *start = body.start;
    *end = statement_end(s, after, 0);
    return *end != FAIL;
}

/* Writes TEXT[FROM, TO) in braces, each on a line of its own followed by a
 * line marker, so that reported lines stay those of the source. */
static void put_braced(weft_compile_text *out, const scanner *s, size_t from, size_t to)
{
    weft__compile_text_puts(out, "{\n");
    put_marker_for(out, s, from);
    weft__compile_text_put(out, s->text + from, to - from);
    weft__compile_text_puts(out, "\n}\n");
    put_marker_for(out, s, to);
}

/* put_braced, the closing brace on the body's last line when nothing but
 * blanks follows the body there (the construct's end keeps its line). */
static void put_braced_body(weft_compile_text *out, const scanner *s, size_t from, size_t to)
{
    size_t eol = end_of_line(s, to), i = to;
    while (i < eol && strchr(" \t\r\n", s->text[i]))
        i++;
    if (i < eol) {
        put_braced(out, s, from, to);
        return;
    }
    weft__compile_text_puts(out, "{\n");
    put_marker_for(out, s, from);
    weft__compile_text_put(out, s->text + from, to - from);
    weft__compile_text_puts(out, " }");
}

/* What to brace after the OpenMP directive line [AT, EOL): the span
 * [*start, *end), or false for nothing. */
typedef bool brace_finder(const scanner *s, size_t at, size_t eol, size_t *start, size_t *end);

/* How a span is written in braces. */
typedef void brace_writer(weft_compile_text *out, const scanner *s, size_t from, size_t to);

/* The construct itself (its line through its statement's end) when `else`
 * follows it. */
static bool construct_before_else(const scanner *s, size_t at, size_t eol, size_t *start,
                                  size_t *end)
{
    size_t stmt_end = statement_end(s, eol, 0);
    tok e = stmt_end == FAIL ? (tok){TOK_END, 0, 0} : next_significant(s, stmt_end, true);
    *start = at;
    *end = stmt_end;
    return is_word(s, e, "else");
}

static bool if_else_inside(const scanner *s, size_t at, size_t eol, size_t *start, size_t *end)
{
    (void)at;
    return inner_if_else(s, eol, start, end);
}

/* Copies TEXT with the spans FIND picks after each OpenMP directive with a
 * statement braced; *CHANGED counts them. NULL when out of memory. */
static char *brace_spans(const char *text, brace_finder *find, brace_writer *put, unsigned *changed)
{
    scanner s = {text, strlen(text)};
    weft_compile_text out = {0};
    weft__compile_text_put(&out, "", 0);
    unsigned count = 0;
    size_t copied = 0;
    for (size_t at = 0; at < s.len;) {
        size_t eol = end_of_line(&s, at);
        size_t hash = at;
        while (hash < eol && (text[hash] == ' ' || text[hash] == '\t'))
            hash++;
        tok line = {TOK_DIRECTIVE, hash, eol};
        size_t start, end;
        if (text[hash] != '#' || !omp_with_statement(&s, line) ||
            !find(&s, at, eol, &start, &end)) {
            at = eol;
            continue;
        }
        weft__compile_text_put(&out, text + copied, start - copied);
        put(&out, &s, start, end);
        copied = end;
        at = end_of_line(&s, end > 0 ? end - 1 : 0);
        count++;
    }
    weft__compile_text_put(&out, text + copied, s.len - copied);
    if (changed)
        *changed = count;
    return weft__compile_text_take(&out);
}

static bool loop_body_after(const scanner *s, size_t at, size_t eol, size_t *start, size_t *end)
{
    (void)at;
    return loop_body(s, eol, start, end, false);
}

static bool range_body_after(const scanner *s, size_t at, size_t eol, size_t *start, size_t *end)
{
    (void)at;
    return loop_body(s, eol, start, end, true);
}

char *weft__compile_brace_loop_bodies(const char *text, unsigned *changed)
{
    return brace_spans(text, loop_body_after, put_braced_body, changed);
}

unsigned weft__compile_range_for_bodies(const char *text)
{
    unsigned count = 0;
    free(brace_spans(text, range_body_after, put_braced_body, &count));
    return count;
}

char *weft__compile_brace_if_else(const char *text, unsigned *changed)
{
    return brace_spans(text, if_else_inside, put_braced, changed);
}

char *weft__compile_brace_else(const char *text, unsigned *changed)
{
    return brace_spans(text, construct_before_else, put_braced, changed);
}

/* ---- C++14 digit separators -------------------------------------------- */

/* Whether the quote at AT stands inside a number (`1'000`, `0xFF'FF`): the
 * run of letters, digits, dots and quotes before it starts with a digit (or
 * a dot and a digit), and a digit or letter follows. */
static bool digit_separator(const char *text, size_t at)
{
    if (!isalnum((unsigned char)text[at + 1]))
        return false;
    size_t start = at;
    while (start > 0 && (isalnum((unsigned char)text[start - 1]) || text[start - 1] == '_' ||
                         text[start - 1] == '.' || text[start - 1] == '\''))
        start--;
    return start < at && (isdigit((unsigned char)text[start]) ||
                          (text[start] == '.' && isdigit((unsigned char)text[start + 1])));
}

/* A raw string's R at AT - 1: R alone or after an encoding prefix. */
static bool raw_prefix(const char *text, size_t at)
{
    if (at == 0 || text[at - 1] != 'R')
        return false;
    size_t p = at - 1;
    while (p > 0 && strchr("uUL8", text[p - 1]))
        p--;
    return p == 0 || !word_char(text[p - 1]);
}

char *weft__compile_digit_separators(const char *text, unsigned *changed)
{
    scanner s = {text, strlen(text)};
    weft_compile_text out = {0};
    weft__compile_text_put(&out, "", 0);
    unsigned count = 0;
    size_t copied = 0;
    for (size_t i = 0; i < s.len;) {
        if (text[i] == '\'' && digit_separator(text, i)) {
            weft__compile_text_put(&out, text + copied, i - copied);
            copied = ++i;
            count++;
        } else if (text[i] == '"' || text[i] == '\'') {
            size_t end = literal_end(&s, i, text[i] == '"' && raw_prefix(text, i));
            i = end == FAIL ? i + 1 : end;
        } else {
            i++;
        }
    }
    weft__compile_text_put(&out, text + copied, s.len - copied);
    if (changed)
        *changed = count;
    return weft__compile_text_take(&out);
}
