/* SPDX-License-Identifier: BSD-3-Clause */
/* OpenMP directive lines of preprocessed text (compile_directive.h). */
#include "compile_directive.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

size_t weft__directive_line_length(const char *line)
{
    const char *newline = strchr(line, '\n');
    return newline ? (size_t)(newline - line) : strlen(line);
}

bool weft__directive_ident_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

bool weft__directive_word_at(const char *at, size_t len, const char *word, bool fold)
{
    size_t n = strlen(word);
    if (len < n || (fold ? strncasecmp(at, word, n) : strncmp(at, word, n)) != 0)
        return false;
    return len == n || !weft__directive_ident_char(at[n]);
}

size_t weft__directive_skip_blanks(const char *line, size_t i, size_t len)
{
    while (i < len && (line[i] == ' ' || line[i] == '\t'))
        i++;
    return i;
}

size_t weft__directive_c_omp(const char *line, size_t len)
{
    size_t i = weft__directive_skip_blanks(line, 0, len);
    if (i >= len || line[i] != '#')
        return 0;
    i = weft__directive_skip_blanks(line, i + 1, len);
    if (!weft__directive_word_at(line + i, len - i, "pragma", false))
        return 0;
    i = weft__directive_skip_blanks(line, i + 6, len);
    return weft__directive_word_at(line + i, len - i, "omp", false) ? i + 3 : 0;
}

size_t weft__directive_c_clauses(const char *line, size_t len, const char *word)
{
    size_t i = weft__directive_c_omp(line, len);
    if (i == 0)
        return 0;
    i = weft__directive_skip_blanks(line, i, len);
    return weft__directive_word_at(line + i, len - i, word, false) ? i + strlen(word) : 0;
}

size_t weft__directive_fortran(const char *line, size_t len, bool *continued)
{
    size_t i = weft__directive_skip_blanks(line, 0, len);
    bool column1 = i == 0;
    if (len - i < 5 || line[i + 1] != '$' || strncasecmp(line + i + 2, "omp", 3) != 0)
        return 0;
    char s = line[i];
    if (!(s == '!' || (column1 && (s == 'c' || s == 'C' || s == '*'))))
        return 0;
    i += 5;
    *continued = false;
    if (i < len && line[i] == '&') { /* free form: "!$omp& ..." */
        *continued = true;
        return i + 1;
    }
    if (column1 && i < len && line[i] != ' ' && line[i] != '\t' && line[i] != '0') {
        *continued = true; /* fixed form: a mark in column 6 */
        return i + 1;
    }
    return i;
}

bool weft__directive_fortran_continues(const char *line, size_t from, size_t len)
{
    size_t end = len;
    for (size_t i = from; i < len; i++) {
        if (line[i] == '!') {
            end = i;
            break;
        }
    }
    while (end > from && (line[end - 1] == ' ' || line[end - 1] == '\t' || line[end - 1] == '\r'))
        end--;
    return end > from && line[end - 1] == '&';
}

size_t weft__directive_fortran_lines(const char *line, size_t word)
{
    /* Continued by a `&` at the end (free form) or a mark in column 6 of
     * the next line (fixed form). */
    size_t lines = 1, len = weft__directive_line_length(line), from = word;
    while (line[len] == '\n') {
        const char *next = line + len + 1;
        size_t next_len = weft__directive_line_length(next);
        bool continued = false;
        size_t at = weft__directive_fortran(next, next_len, &continued);
        if (!at || !(continued || weft__directive_fortran_continues(line, from, len)))
            break;
        line = next, len = next_len, from = at;
        lines++;
    }
    return lines;
}

bool weft__directive_holds(const char *line, size_t lines, size_t from, const char *word, bool fold)
{
    for (size_t n = 0; n < lines; n++) {
        size_t len = weft__directive_line_length(line);
        for (size_t i = n == 0 ? from : 0; i < len; i++) {
            if ((i == 0 || !weft__directive_ident_char(line[i - 1])) &&
                weft__directive_word_at(line + i, len - i, word, fold))
                return true;
        }
        line += len + (line[len] == '\n');
    }
    return false;
}

size_t weft__directive_first_word(const char *line, size_t len, bool fortran)
{
    if (!fortran) {
        size_t omp = weft__directive_c_omp(line, len);
        return omp ? weft__directive_skip_blanks(line, omp, len) : 0;
    }
    bool continued = false;
    size_t at = weft__directive_fortran(line, len, &continued);
    return at && !continued ? weft__directive_skip_blanks(line, at, len) : 0;
}

bool weft__directive_is_marker(const char *line, size_t len)
{
    return len > 2 && line[0] == '#' && line[1] == ' ' && isdigit((unsigned char)line[2]);
}

void weft__directive_put_marker(weft_compile_text *out, const char *marker, size_t len,
                                unsigned long line_no)
{
    const char *quote = memchr(marker, '"', len), *close = NULL;
    for (const char *c = quote ? quote + 1 : NULL; c && c < marker + len; c++) {
        if (*c == '\\' && c + 1 < marker + len) {
            c++;
        } else if (*c == '"') {
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
    for (const char *c = close + 1; c < marker + len; c++) {
        if ((*c == '3' || *c == '4') && c[-1] == ' ')
            weft__compile_text_put(out, c - 1, 2);
    }
    weft__compile_text_put(out, "\n", 1);
}
