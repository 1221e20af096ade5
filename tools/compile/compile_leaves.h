/* SPDX-License-Identifier: BSD-3-Clause */
/* The constructs and clauses of a combined directive that weft compile
 * splits before OPARI2 (compile_split.h): `parallel`, `master`/`masked`,
 * `taskloop [simd]`/`loop`, and which of them each clause belongs to.
 * Shared by the C/C++ and the Fortran split. FOLD: compare words case
 * folded (Fortran). Private to tools/. */
#ifndef WEFT_TOOLS_COMPILE_LEAVES_H
#define WEFT_TOOLS_COMPILE_LEAVES_H

#include <stdbool.h>
#include <stddef.h>

/* The leaf constructs of a combined directive. */
enum leaf { LEAF_PARALLEL, LEAF_MASTER, LEAF_LOOP, LEAF_COUNT };

/* One clause of a directive: its name and its whole text, as offsets. */
typedef struct leaf_clause {
    size_t name, name_len, start, end;
} leaf_clause;

enum { LEAF_MAX_CLAUSES = 64 };

/* The combined directive whose words start at LINE[word] (LEN bytes in
 * all): its leaves' words (NULL where absent; the strings are constant) and
 * where its clauses start. False when it is none this module splits:
 * fewer than two leaves, or `master loop`. */
bool weft__leaves_of(const char *line, size_t word, size_t len, const char *words[LEAF_COUNT],
                     size_t *clauses, bool fold);

/* The clauses of LINE[from, len) (separated by blanks or commas): false
 * when they cannot be read (unbalanced parentheses, more than
 * LEAF_MAX_CLAUSES). */
bool weft__leaves_read_clauses(const char *line, size_t from, size_t len, leaf_clause *c,
                               size_t *count);

/* Whether clause C is named NAME. */
bool weft__leaves_named(const char *line, const leaf_clause *c, const char *name, bool fold);

/* The leaf clause C goes to: `filter` to master/masked; with a loop,
 * `num_threads`, `proc_bind`, `copyin`, `shared`, `firstprivate` and an
 * `if` not for the taskloop to `parallel`, the others to the loop; without
 * one, all to `parallel`; with no `parallel` (master taskloop), all but
 * `filter` to the loop. */
enum leaf weft__leaves_route(const char *line, const leaf_clause *c,
                             const char *const words[LEAF_COUNT], bool fold);

/* Whether the clauses can be divided: no `default` clause with a loop
 * (the variables the loop's clauses name would have to be listed on
 * `parallel` too). */
bool weft__leaves_divisible(const char *line, const leaf_clause *c, size_t count,
                            const char *const words[LEAF_COUNT], bool fold);

#endif /* WEFT_TOOLS_COMPILE_LEAVES_H */
