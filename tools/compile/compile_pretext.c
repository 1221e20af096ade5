/* SPDX-License-Identifier: BSD-3-Clause */
/* The untied-clause and line-directive rewrites of preprocessed text
 * (compile_pretext.h); the braces around constructs before an `else` are in
 * compile_cstmt.c. Both work line by line on the text as the preprocessor
 * wrote it. */
#include "compile_pretext.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "compile_directive.h"
#include "compile_text.h"
#include "grow.h"

#define line_length weft__directive_line_length
#define ident_char weft__directive_ident_char
#define word_at weft__directive_word_at
#define skip_blanks weft__directive_skip_blanks
#define c_directive_clauses weft__directive_c_clauses
#define fortran_directive weft__directive_fortran
#define fortran_continues weft__directive_fortran_continues

/* ---- untied --------------------------------------------------------------- */

/* Copies the clause text LINE[from, len) into OUT with a comma after each
 * `untied` at parenthesis depth 0 that needs one. */
static unsigned comma_untied(weft_compile_text *out, const char *line, size_t from, size_t len,
                             bool fold)
{
    unsigned changed = 0;
    int depth = 0;
    size_t copied = from;
    for (size_t i = from; i < len; i++) {
        char c = line[i];
        if (c == '(')
            depth++;
        else if (c == ')' && depth > 0)
            depth--;
        if (depth != 0 || !word_at(line + i, len - i, "untied", fold) ||
            (i > 0 && ident_char(line[i - 1])))
            continue;
        size_t after = i + 6;
        size_t next = skip_blanks(line, after, len);
        if (next >= len || line[next] == ',' || line[next] == '\r')
            continue;
        weft__compile_text_put(out, line + copied, after - copied);
        weft__compile_text_put(out, ",", 1);
        copied = after;
        changed++;
    }
    weft__compile_text_put(out, line + copied, len - copied);
    return changed;
}

char *weft__compile_untied_commas(const char *text, bool fortran, unsigned *changed)
{
    weft_compile_text out = {0};
    weft__compile_text_put(&out, "", 0);
    unsigned count = 0;
    bool in_task = false;   /* Fortran: the current directive is a task */
    bool continues = false; /* Fortran: the previous directive line ended with & */
    for (const char *line = text; *line;) {
        size_t len = line_length(line);
        size_t clauses = 0;
        if (!fortran) {
            clauses = c_directive_clauses(line, len, "task");
        } else {
            bool continued = false;
            size_t at = fortran_directive(line, len, &continued);
            if (at && (continued || continues)) {
                clauses = in_task ? at : 0;
            } else if (at) {
                size_t word = skip_blanks(line, at, len);
                in_task = word_at(line + word, len - word, "task", true);
                clauses = in_task ? word + 4 : 0;
            } else {
                in_task = false;
            }
            continues = at && fortran_continues(line, at, len);
        }
        if (clauses) {
            weft__compile_text_put(&out, line, clauses);
            count += comma_untied(&out, line, clauses, len, fortran);
        } else {
            weft__compile_text_put(&out, line, len);
        }
        if (line[len] == '\n')
            weft__compile_text_put(&out, "\n", 1);
        line += len + (line[len] == '\n');
    }
    if (changed)
        *changed = count;
    return weft__compile_text_take(&out);
}

/* ---- #line directives back into line markers ------------------------------ */

typedef struct marked_file {
    const char *name; /* as quoted in the text, escapes kept */
    size_t len;
    bool system, extern_c; /* flags 3 and 4 */
} marked_file;

typedef struct marked_files {
    marked_file *files;
    size_t count, capacity;
    bool failed;
} marked_files;

/* Parses a line `# N "NAME" FLAGS` (MARKER) or `#line N "NAME"`; sets the
 * name's span and where the flags start. */
static bool parse_line_directive(const char *line, size_t len, bool marker, const char **name,
                                 size_t *name_len, size_t *flags)
{
    size_t i = 0;
    if (len < 2 || line[0] != '#')
        return false;
    i = 1;
    if (!marker) {
        if (len < 6 || strncmp(line, "#line ", 6) != 0)
            return false;
        i = 6;
    } else if (line[1] != ' ') {
        return false;
    }
    i = skip_blanks(line, i, len);
    size_t digits = i;
    while (i < len && isdigit((unsigned char)line[i]))
        i++;
    if (i == digits || i >= len || line[i] != ' ')
        return false;
    i = skip_blanks(line, i, len);
    if (i >= len || line[i] != '"')
        return false;
    size_t start = ++i;
    while (i < len && line[i] != '"')
        i += line[i] == '\\' && i + 1 < len ? 2 : 1;
    if (i >= len)
        return false;
    *name = line + start;
    *name_len = i - start;
    *flags = i + 1;
    return true;
}

static marked_file *find_file(const marked_files *set, const char *name, size_t len)
{
    for (size_t i = 0; i < set->count; i++) {
        if (set->files[i].len == len && memcmp(set->files[i].name, name, len) == 0)
            return &set->files[i];
    }
    return NULL;
}

static void note_marker(marked_files *set, const char *line, size_t len)
{
    const char *name;
    size_t name_len, flags;
    if (!parse_line_directive(line, len, true, &name, &name_len, &flags))
        return;
    marked_file *f = find_file(set, name, name_len);
    if (!f) {
        if (!weft__cli_grow(&set->files, &set->capacity, set->count + 1, sizeof(*set->files))) {
            set->failed = true;
            return;
        }
        f = &set->files[set->count++];
        *f = (marked_file){name, name_len, false, false};
    }
    for (size_t i = flags; i < len; i++) {
        if (line[i] == '3' && (i + 1 == len || line[i + 1] == ' '))
            f->system = true;
        if (line[i] == '4' && (i + 1 == len || line[i + 1] == ' '))
            f->extern_c = true;
    }
}

/* The file of a marker or #line directive named NAME in OPARI2's output:
 * CWD/REL for a relative REL of the preprocessor's markers, or NAME itself
 * as they had it. */
static const marked_file *original_file(const marked_files *set, const char *name, size_t name_len,
                                        const char *cwd)
{
    size_t cwd_len = strlen(cwd);
    if (name_len > cwd_len + 1 && memcmp(name, cwd, cwd_len) == 0 && name[cwd_len] == '/') {
        const marked_file *f = find_file(set, name + cwd_len + 1, name_len - cwd_len - 1);
        if (f && f->name[0] != '/')
            return f;
    }
    return find_file(set, name, name_len);
}

/* Writes a line marker for LINE, a marker or `#line N "NAME"`: the file as
 * the preprocessor named it, with its system-header flags, or the name as
 * it is; a marker's own flags 1 and 2 (entering, returning) stay. */
static const marked_file *put_marker(weft_compile_text *out, const marked_files *set,
                                     const char *line, size_t len, bool marker, const char *name,
                                     size_t name_len, size_t flags, const char *cwd,
                                     const marked_file *last)
{
    const marked_file *f = original_file(set, name, name_len, cwd);
    /* A name the preprocessor never wrote is OPARI2's input file, which it
     * names after some constructs (a Fortran atomic) with the line number
     * of the file before: that file. */
    if (!f)
        f = last;
    const char *number = line + (marker ? 1 : 5);
    while (*number == ' ')
        number++;
    weft__compile_text_put(out, "# ", 2);
    weft__compile_text_put(out, number, (size_t)(name - 1 - number));
    weft__compile_text_put(out, "\"", 1);
    if (f)
        weft__compile_text_put(out, f->name, f->len);
    else
        weft__compile_text_put(out, name, name_len);
    weft__compile_text_put(out, "\"", 1);
    if (marker)
        weft__compile_text_put(out, line + flags, len - flags);
    else if (f && f->system)
        weft__compile_text_puts(out, f->extern_c ? " 3 4" : " 3");
    return f;
}

char *weft__compile_absolute_markers(const char *text, const char *cwd)
{
    weft_compile_text out = {0};
    weft__compile_text_put(&out, "", 0);
    for (const char *line = text; *line;) {
        size_t len = line_length(line);
        const char *name;
        size_t name_len, flags;
        if (line[0] == '#' && parse_line_directive(line, len, true, &name, &name_len, &flags) &&
            name_len > 0 && name[0] != '/' && name[0] != '<') {
            weft__compile_text_put(&out, line, (size_t)(name - line));
            weft__compile_text_puts(&out, cwd);
            weft__compile_text_put(&out, "/", 1);
            weft__compile_text_put(&out, name, len - (size_t)(name - line));
        } else {
            weft__compile_text_put(&out, line, len);
        }
        if (line[len] == '\n')
            weft__compile_text_put(&out, "\n", 1);
        line += len + (line[len] == '\n');
    }
    return weft__compile_text_take(&out);
}

char *weft__compile_map_lines(const char *text, const char *preprocessed, const char *cwd)
{
    marked_files set = {0};
    for (const char *line = preprocessed; *line;) {
        size_t len = line_length(line);
        if (line[0] == '#')
            note_marker(&set, line, len);
        line += len + (line[len] == '\n');
    }
    weft_compile_text out = {0};
    weft__compile_text_put(&out, "", 0);
    const marked_file *last = NULL;
    for (const char *line = text; *line;) {
        size_t len = line_length(line);
        const char *name;
        size_t name_len, flags;
        bool marker = false;
        if (line[0] == '#' &&
            ((marker = parse_line_directive(line, len, true, &name, &name_len, &flags)) ||
             parse_line_directive(line, len, false, &name, &name_len, &flags)))
            last = put_marker(&out, &set, line, len, marker, name, name_len, flags, cwd, last);
        else
            weft__compile_text_put(&out, line, len);
        if (line[len] == '\n')
            weft__compile_text_put(&out, "\n", 1);
        line += len + (line[len] == '\n');
    }
    free(set.files);
    if (out.failed || set.failed) {
        weft__compile_text_free(&out);
        return NULL;
    }
    return out.text;
}

char *weft__compile_fortran_continuations(const char *text, bool fixed_form, unsigned *changed)
{
    weft_compile_text out = {0};
    weft__compile_text_put(&out, "", 0);
    unsigned count = 0;
    for (const char *line = text; *line;) {
        size_t len = weft__directive_line_length(line);
        bool continued = false;
        size_t at = weft__directive_fortran(line, len, &continued);
        /* at: just after the mark; the mark is line[at - 1] */
        bool mark_ok = !continued ||
                       (line[at - 1] == '&' && (at >= len || line[at] == ' ' || line[at] == '\t'));
        if (continued && !mark_ok && (!fixed_form || len < 72)) {
            weft__compile_text_put(&out, line, at - 1);
            weft__compile_text_puts(&out, "& ");
            weft__compile_text_put(&out, line + at, len - at);
            count++;
        } else {
            weft__compile_text_put(&out, line, len);
        }
        weft__compile_text_put(&out, "\n", line[len] == '\n');
        line += len + (line[len] == '\n');
    }
    if (changed)
        *changed = count;
    return weft__compile_text_take(&out);
}
