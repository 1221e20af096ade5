/* SPDX-License-Identifier: BSD-3-Clause */
/* Cancellation through OPARI2 (compile_cancel.h). */
#include "compile_cancel.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "compile_directive.h"
#include "compile_text.h"

#define line_length weft__directive_line_length
#define ident_char weft__directive_ident_char
#define word_at weft__directive_word_at
#define skip_blanks weft__directive_skip_blanks

/* The lines of a text: where each starts. */
typedef struct lines {
    const char **at;
    size_t count;
} lines;

static bool split(const char *text, lines *out)
{
    size_t n = 0;
    for (const char *p = text; *p; p += line_length(p) + (p[line_length(p)] == '\n'))
        n++;
    out->at = malloc((n ? n : 1) * sizeof(*out->at));
    out->count = 0;
    if (!out->at)
        return false;
    for (const char *p = text; *p; p += line_length(p) + (p[line_length(p)] == '\n'))
        out->at[out->count++] = p;
    return true;
}

/* Whether directive LINE says FIRST then SECOND (SECOND NULL: anything). */
static bool says(const char *line, bool fortran, const char *first, const char *second)
{
    size_t len = line_length(line);
    size_t w = weft__directive_first_word(line, len, fortran);
    if (!w || !word_at(line + w, len - w, first, fortran))
        return false;
    if (!second)
        return true;
    size_t next = skip_blanks(line, w + strlen(first), len);
    return word_at(line + next, len - next, second, fortran);
}

/* Whether directive LINE is `cancellation point WHAT`. */
static bool says_point(const char *line, bool fortran, const char *what)
{
    size_t len = line_length(line);
    size_t w = weft__directive_first_word(line, len, fortran);
    if (!w || !word_at(line + w, len - w, "cancellation", fortran))
        return false;
    size_t next = skip_blanks(line, w + 12, len);
    if (!word_at(line + next, len - next, "point", fortran))
        return false;
    next = skip_blanks(line, next + 5, len);
    return word_at(line + next, len - next, what, fortran);
}

/* The construct a `cancel` or `cancellation point` directive names, as
 * OPARI2's output spells the construct's directive (C) or its end
 * (Fortran); NULL for others. */
static const char *cancelled(const char *line, bool fortran)
{
    const char *loop = fortran ? "do" : "for";
    if (says(line, fortran, "cancel", loop) || says_point(line, fortran, loop))
        return loop;
    if (says(line, fortran, "cancel", "sections") || says_point(line, fortran, "sections"))
        return "sections";
    return NULL;
}

/* The line holding the `nowait` OPARI2 gave the construct WHAT that a
 * cancel directive at line I binds to: in C the nearest `for`/`sections`
 * directive before it, in Fortran the nearest `end do`/`end sections`
 * after it that ends no construct begun in between. */
static size_t construct_line(const lines *l, size_t i, bool fortran, const char *what)
{
    if (!fortran) {
        while (i-- > 0) {
            if (says(l->at[i], false, what, NULL))
                return i;
        }
        return SIZE_MAX;
    }
    int depth = 0;
    for (size_t k = i + 1; k < l->count; k++) {
        if (says(l->at[k], true, what, NULL))
            depth++;
        else if (says(l->at[k], true, "end", what) && depth-- == 0)
            return k;
    }
    return SIZE_MAX;
}

/* Copies LINE into OUT without its word `nowait` (blanks in its place). */
static void put_without_nowait(weft_compile_text *out, const char *line, size_t len, bool fold)
{
    for (size_t i = 0; i < len; i++) {
        if ((i == 0 || !ident_char(line[i - 1])) && word_at(line + i, len - i, "nowait", fold)) {
            weft__compile_text_put(out, line, i);
            weft__compile_text_put(out, "      ", 6);
            weft__compile_text_put(out, line + i + 6, len - i - 6);
            return;
        }
    }
    weft__compile_text_put(out, line, len);
}

char *weft__compile_cancel_waits(const char *text, bool fortran, unsigned *changed)
{
    lines l;
    if (!split(text, &l))
        return NULL;
    bool *waits = calloc(l.count ? l.count : 1, sizeof(*waits));
    unsigned count = 0;
    for (size_t i = 0; waits && i < l.count; i++) {
        const char *what = cancelled(l.at[i], fortran);
        size_t k = what ? construct_line(&l, i, fortran, what) : SIZE_MAX;
        if (k != SIZE_MAX && !waits[k]) {
            waits[k] = true;
            count++;
        }
    }
    weft_compile_text out = {0};
    weft__compile_text_put(&out, "", 0);
    for (size_t i = 0; waits && i < l.count; i++) {
        size_t len = line_length(l.at[i]);
        if (waits[i])
            put_without_nowait(&out, l.at[i], len, fortran);
        else
            weft__compile_text_put(&out, l.at[i], len);
        weft__compile_text_put(&out, "\n", l.at[i][len] == '\n');
    }
    free(l.at);
    if (changed)
        *changed = count;
    out.failed |= !waits;
    free(waits);
    return weft__compile_text_take(&out);
}

unsigned weft__compile_cancel_jumps(const char *text, bool fortran)
{
    static const char *const jumping[] = {"parallel", "sections", "taskgroup"};
    unsigned count = 0;
    for (const char *p = text; *p; p += line_length(p) + (p[line_length(p)] == '\n')) {
        for (size_t j = 0; j < sizeof(jumping) / sizeof(jumping[0]); j++) {
            if (says(p, fortran, "cancel", jumping[j]) || says_point(p, fortran, jumping[j])) {
                count++;
                break;
            }
        }
    }
    return count;
}
