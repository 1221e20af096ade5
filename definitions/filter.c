/* SPDX-License-Identifier: BSD-3-Clause */
/* The filter-file parser and matcher; see weft/filter.h. */
#include "weft/filter.h"

#include <ctype.h>
#include <fnmatch.h>
#include <stdio.h>
#include <string.h>

#include "weft/alloc.h"

typedef struct rule {
    bool exclude;
    char *pattern;
} rule;

typedef struct rule_list {
    rule *rules;
    size_t count, capacity;
} rule_list;

struct weft_filter {
    rule_list names, files;
};

typedef enum block { NO_BLOCK, NAMES_BLOCK, FILES_BLOCK } block;

static bool push_rule(rule_list *l, bool exclude, const char *word, size_t len)
{
    if (l->count == l->capacity) {
        size_t capacity = l->capacity ? 2 * l->capacity : 16;
        rule *grown = weft_realloc(l->rules, capacity * sizeof(*grown));
        if (!grown)
            return false;
        l->rules = grown;
        l->capacity = capacity;
    }
    char *copy = weft_alloc(len + 1);
    if (!copy)
        return false;
    memcpy(copy, word, len);
    copy[len] = '\0';
    l->rules[l->count++] = (rule){exclude, copy};
    return true;
}

static void free_list(rule_list *l)
{
    for (size_t i = 0; i < l->count; i++)
        weft_free(l->rules[i].pattern);
    weft_free(l->rules);
}

void weft_filter_free(weft_filter *f)
{
    if (!f)
        return;
    free_list(&f->names);
    free_list(&f->files);
    weft_free(f);
}

static bool word_is(const char *word, size_t len, const char *keyword)
{
    return strlen(keyword) == len && memcmp(word, keyword, len) == 0;
}

/* Block markers with the SCOREP_ or WEFT_ prefix: "REGION_NAMES_BEGIN"... */
static bool marker_is(const char *word, size_t len, const char *marker)
{
    char scorep[64], weft[64];
    snprintf(scorep, sizeof(scorep), "SCOREP_%s", marker);
    snprintf(weft, sizeof(weft), "WEFT_%s", marker);
    return word_is(word, len, scorep) || word_is(word, len, weft);
}

/* Parser state across lines. */
typedef struct parser {
    weft_filter *f;
    block in;
    bool have_rule; /* an INCLUDE/EXCLUDE seen in this block: patterns may follow */
    bool exclude;   /* of the current rule */
    size_t rule_patterns;
    unsigned line;
    char *err;
    size_t err_size;
} parser;

static weft_status syntax(parser *p, const char *what, const char *word, size_t len)
{
    if (word)
        snprintf(p->err, p->err_size, "line %u: %s '%.*s'", p->line, what, (int)len, word);
    else
        snprintf(p->err, p->err_size, "line %u: %s", p->line, what);
    return WEFT_ERR_INVALID;
}

static weft_status end_rule(parser *p)
{
    if (p->have_rule && p->rule_patterns == 0)
        return syntax(p, p->exclude ? "EXCLUDE without a pattern" : "INCLUDE without a pattern",
                      NULL, 0);
    return WEFT_OK;
}

static weft_status word(parser *p, const char *w, size_t len)
{
    if (marker_is(w, len, "REGION_NAMES_BEGIN") || marker_is(w, len, "FILE_NAMES_BEGIN")) {
        if (p->in != NO_BLOCK)
            return syntax(p, "a block begins inside another:", w, len);
        p->in = marker_is(w, len, "REGION_NAMES_BEGIN") ? NAMES_BLOCK : FILES_BLOCK;
        p->have_rule = false;
        return WEFT_OK;
    }
    if (marker_is(w, len, "REGION_NAMES_END") || marker_is(w, len, "FILE_NAMES_END")) {
        block ends = marker_is(w, len, "REGION_NAMES_END") ? NAMES_BLOCK : FILES_BLOCK;
        if (p->in != ends)
            return syntax(p, "no matching BEGIN for", w, len);
        weft_status st = end_rule(p);
        p->in = NO_BLOCK;
        p->have_rule = false;
        return st;
    }
    if (p->in == NO_BLOCK)
        return syntax(p, "outside a REGION_NAMES or FILE_NAMES block:", w, len);
    if (word_is(w, len, "INCLUDE") || word_is(w, len, "EXCLUDE")) {
        weft_status st = end_rule(p);
        if (st != WEFT_OK)
            return st;
        p->have_rule = true;
        p->exclude = word_is(w, len, "EXCLUDE");
        p->rule_patterns = 0;
        return WEFT_OK;
    }
    if (word_is(w, len, "MANGLED") && p->have_rule && p->rule_patterns == 0)
        return WEFT_OK; /* weft's region names are what the program gave: match those */
    if (!p->have_rule)
        return syntax(p, "a pattern before INCLUDE or EXCLUDE:", w, len);
    p->rule_patterns++;
    rule_list *l = p->in == NAMES_BLOCK ? &p->f->names : &p->f->files;
    return push_rule(l, p->exclude, w, len) ? WEFT_OK : WEFT_ERR_NO_MEMORY;
}

weft_status weft_filter_parse(const char *text, size_t len, weft_filter **out, char *err,
                              size_t err_size)
{
    char scratch[8];
    *out = NULL;
    parser p = {.err = err && err_size ? err : scratch,
                .err_size = err && err_size ? err_size : sizeof(scratch),
                .line = 1};
    p.err[0] = '\0';
    p.f = weft_calloc(1, sizeof(*p.f));
    if (!p.f)
        return WEFT_ERR_NO_MEMORY;
    weft_status st = WEFT_OK;
    size_t i = 0;
    while (i < len && st == WEFT_OK) {
        char c = text[i];
        if (c == '\n') {
            p.line++;
            i++;
        } else if (c == '#') {
            while (i < len && text[i] != '\n')
                i++;
        } else if (isspace((unsigned char)c)) {
            i++;
        } else if (c == '\0') {
            st = syntax(&p, "a NUL byte (not a text file?)", NULL, 0);
        } else {
            size_t start = i;
            while (i < len && !isspace((unsigned char)text[i]) && text[i] != '#' && text[i] != '\0')
                i++;
            st = word(&p, text + start, i - start);
        }
    }
    if (st == WEFT_OK && p.in != NO_BLOCK)
        st = syntax(&p,
                    p.in == NAMES_BLOCK ? "REGION_NAMES block not ended at the end of the file"
                                        : "FILE_NAMES block not ended at the end of the file",
                    NULL, 0);
    if (st != WEFT_OK) {
        weft_filter_free(p.f);
        return st;
    }
    *out = p.f;
    return WEFT_OK;
}

/* The last matching rule decides; none matching: included. */
static bool excluded_by(const rule_list *l, const char *text)
{
    bool excluded = false;
    for (size_t i = 0; i < l->count; i++) {
        if (fnmatch(l->rules[i].pattern, text, 0) == 0)
            excluded = l->rules[i].exclude;
    }
    return excluded;
}

bool weft_filter_excludes(const weft_filter *f, const char *name, const char *file)
{
    if (!f)
        return false;
    if (file && excluded_by(&f->files, file))
        return true;
    return name && excluded_by(&f->names, name);
}

bool weft_filter_excludes_openmp(const weft_filter *f, const char *name)
{
    if (!f || !name)
        return false;
    bool excluded = false;
    for (size_t i = 0; i < f->names.count; i++) {
        const rule *r = &f->names.rules[i];
        if (strncmp(r->pattern, "!$omp", 5) == 0 && fnmatch(r->pattern, name, 0) == 0)
            excluded = r->exclude;
    }
    return excluded;
}

size_t weft_filter_rule_count(const weft_filter *f)
{
    return f ? f->names.count + f->files.count : 0;
}
