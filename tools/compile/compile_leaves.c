/* SPDX-License-Identifier: BSD-3-Clause */
/* Leaves and clauses of combined directives (compile_leaves.h). */
#include "compile_leaves.h"

#include <string.h>
#include <strings.h>

#include "compile_directive.h"

#define ident_char weft__directive_ident_char
#define word_at weft__directive_word_at
#define skip_blanks weft__directive_skip_blanks

bool weft__leaves_read_clauses(const char *line, size_t from, size_t len, leaf_clause *c,
                               size_t *count)
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
        if (i == name || *count == LEAF_MAX_CLAUSES)
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
        c[(*count)++] = (leaf_clause){name, name_end - name, name, i};
    }
    return true;
}

bool weft__leaves_named(const char *line, const leaf_clause *c, const char *name, bool fold)
{
    size_t n = strlen(name);
    return c->name_len == n &&
           (fold ? strncasecmp(line + c->name, name, n) : strncmp(line + c->name, name, n)) == 0;
}

/* `if(MODIFIER: ...)`: whether it names MODIFIER. */
static bool if_for(const char *line, const leaf_clause *c, const char *modifier, bool fold)
{
    size_t open = skip_blanks(line, c->name + 2, c->end);
    size_t word = skip_blanks(line, open + 1, c->end);
    size_t n = strlen(modifier);
    return word_at(line + word, c->end - word, modifier, fold) &&
           line[skip_blanks(line, word + n, c->end)] == ':';
}

enum leaf weft__leaves_route(const char *line, const leaf_clause *c,
                             const char *const words[LEAF_COUNT], bool fold)
{
    if (weft__leaves_named(line, c, "filter", fold))
        return LEAF_MASTER;
    if (!words[LEAF_LOOP])
        return LEAF_PARALLEL;
    if (!words[LEAF_PARALLEL])
        return LEAF_LOOP;
    static const char *const parallel_only[] = {"num_threads", "proc_bind", "copyin", "shared",
                                                "firstprivate"};
    for (size_t k = 0; k < sizeof(parallel_only) / sizeof(parallel_only[0]); k++) {
        if (weft__leaves_named(line, c, parallel_only[k], fold))
            return LEAF_PARALLEL;
    }
    if (weft__leaves_named(line, c, "if", fold))
        return if_for(line, c, "taskloop", fold) ? LEAF_LOOP : LEAF_PARALLEL;
    return LEAF_LOOP;
}

bool weft__leaves_divisible(const char *line, const leaf_clause *c, size_t count,
                            const char *const words[LEAF_COUNT], bool fold)
{
    for (size_t k = 0; k < count && words[LEAF_LOOP]; k++) {
        if (weft__leaves_named(line, &c[k], "default", fold))
            return false;
    }
    return true;
}

bool weft__leaves_of(const char *line, size_t word, size_t len, const char *words[LEAF_COUNT],
                     size_t *clauses, bool fold)
{
    static const char *const masters[] = {"master", "masked"};
    static const char *const loops[] = {"taskloop simd", "taskloop", "loop"};
    memset(words, 0, sizeof(*words) * LEAF_COUNT);
    size_t i = word;
    if (word_at(line + i, len - i, "parallel", fold)) {
        words[LEAF_PARALLEL] = "parallel";
        i = skip_blanks(line, i + 8, len);
    }
    for (size_t k = 0; k < 2; k++) {
        if (word_at(line + i, len - i, masters[k], fold)) {
            words[LEAF_MASTER] = masters[k];
            i = skip_blanks(line, i + 6, len);
        }
    }
    for (size_t k = 0; k < 3 && (words[LEAF_MASTER] || words[LEAF_PARALLEL]); k++) {
        size_t n = strlen(loops[k]);
        bool simd = k == 0;
        size_t simd_at = skip_blanks(line, i + 8, len);
        if (simd ? word_at(line + i, len - i, "taskloop", fold) &&
                       word_at(line + simd_at, len - simd_at, "simd", fold)
                 : word_at(line + i, len - i, loops[k], fold)) {
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
