/* SPDX-License-Identifier: BSD-3-Clause */
/* Parser for OPARI2's CTC strings and the canonical OpenMP region name.
 *
 * One left-to-right pass over at most max_len bytes: the length prefix, then
 * key=value pairs up to the empty pair that ends the string. Nothing is
 * copied or allocated; the result points into the input. Bad input never
 * stops the pass: the first problem is noted and reading goes on, so that
 * the adapter can still name a region from a damaged string. Turning the
 * result into region definitions is the POMP2 adapter's business. */
#include "weft/ctc.h"

#include <stdbool.h>
#include <string.h>

/* What a key sets; clause keys carry their bit in key_rule.clause_bit. */
enum key_id {
    KEY_REGION_TYPE,
    KEY_SSCL,
    KEY_ESCL,
    KEY_CRITICAL_NAME,
    KEY_USER_REGION_NAME,
    KEY_USER_GROUP_NAME,
    KEY_NUM_SECTIONS,
    KEY_CLAUSE,
    /* the merged POMP proposal's keys */
    KEY_TYPE,
    KEY_FILE,
    KEY_NAME,
    KEY_GROUP,
    KEY_LINES,
    KEY_SLINES,
    KEY_ELINES,
};

typedef struct key_rule {
    const char *key;
    uint8_t id;
    uint8_t clause_bit;
} key_rule;

#define CLAUSE_RULE(name, key) {key, KEY_CLAUSE, WEFT_CTC_CLAUSE_BIT_##name},
static const key_rule rules[] = {
    {"regionType", KEY_REGION_TYPE, 0},
    {"sscl", KEY_SSCL, 0},
    {"escl", KEY_ESCL, 0},
    {"criticalName", KEY_CRITICAL_NAME, 0},
    {"userRegionName", KEY_USER_REGION_NAME, 0},
    {"userGroupName", KEY_USER_GROUP_NAME, 0},
    {"numSections", KEY_NUM_SECTIONS, 0},
    WEFT_CTC_CLAUSE_LIST(CLAUSE_RULE)
    /* OPARI2 2.0.7 writes this spelling for copyprivate, although its own
     * parser only knows hasCopyPrivate. */
    {"hasCopyprivate", KEY_CLAUSE, WEFT_CTC_CLAUSE_BIT_COPYPRIVATE},
};
#undef CLAUSE_RULE

/* The merged POMP proposal's keys (weft_ctc_parse_proposal). */
static const key_rule proposal_rules[] = {
    {"type", KEY_TYPE, 0},
    {"file", KEY_FILE, 0},
    {"name", KEY_NAME, 0},
    {"group", KEY_GROUP, 0},
    {"lines", KEY_LINES, 0},
    {"slines", KEY_SLINES, 0},
    {"elines", KEY_ELINES, 0},
    {"hasFirstPrivate", KEY_CLAUSE, WEFT_CTC_CLAUSE_BIT_FIRSTPRIVATE},
    {"hasLastprivate", KEY_CLAUSE, WEFT_CTC_CLAUSE_BIT_LASTPRIVATE},
    {"hasReduction", KEY_CLAUSE, WEFT_CTC_CLAUSE_BIT_REDUCTION},
    {"hasNowait", KEY_CLAUSE, WEFT_CTC_CLAUSE_BIT_NOWAIT},
    {"hasCopyin", KEY_CLAUSE, WEFT_CTC_CLAUSE_BIT_COPYIN},
    {"hasOrdered", KEY_CLAUSE, WEFT_CTC_CLAUSE_BIT_ORDERED},
    {"hasCopyprivate", KEY_CLAUSE, WEFT_CTC_CLAUSE_BIT_COPYPRIVATE},
    {"scheduleType", KEY_CLAUSE, WEFT_CTC_CLAUSE_BIT_SCHEDULE},
};

/* The proposal's `type` values that are not OPARI2's regionType texts. */
static const struct {
    const char *text;
    weft_ctc_construct construct;
} proposal_types[] = {
    {"preregion", WEFT_CTC_PARALLEL}, {"pregion", WEFT_CTC_PARALLEL},
    {"loop", WEFT_CTC_FOR},           {"region", WEFT_CTC_USER_REGION},
    {"userregion", WEFT_CTC_USER_REGION},
};

/* The OpenMP runtime routines whose calls the proposal instruments: a call's
 * type is the routine's name (construct RUNTIME_CALL). */
static const char *const runtime_routines[] = {
    "omp_init_lock",       "omp_destroy_lock",   "omp_set_lock",          "omp_unset_lock",
    "omp_test_lock",       "omp_init_nest_lock", "omp_destroy_nest_lock", "omp_set_nest_lock",
    "omp_unset_nest_lock", "omp_test_nest_lock", "omp_set_num_threads",   "omp_get_num_threads",
    "omp_get_max_threads", "omp_get_thread_num", "omp_get_num_procs",     "omp_in_parallel",
    "omp_set_dynamic",     "omp_get_dynamic",    "omp_set_nested",        "omp_get_nested",
};

#define CONSTRUCT_TEXT(name, text) text,
static const char *const construct_texts[] = {WEFT_CTC_CONSTRUCT_LIST(CONSTRUCT_TEXT)};
#undef CONSTRUCT_TEXT

/* Problem phrases: {not a number, too large}, and for sscl/escl {no lines,
 * not a number, too large} indexed by "is escl". */
static const char *const prefix_problems[2] = {"the length prefix is not a number",
                                               "the length prefix is too large"};
static const char *const sections_problems[2] = {"numSections is not a number",
                                                 "numSections is too large"};
static const char *const location_problems[2][3] = {
    {"sscl has no line numbers", "a line number in sscl is not a number",
     "a line number in sscl is too large"},
    {"escl has no line numbers", "a line number in escl is not a number",
     "a line number in escl is too large"}};

static const weft_ctc_span empty_span = {"", 0};

typedef struct parser {
    const char *text;
    uint32_t len; /* bytes to parse: up to max_len or the NUL */
    weft_ctc_region *out;
    weft_ctc_span end_file; /* escl's file, used when sscl names none */
    uint32_t prefix_digits;
    bool prefix_read, seen_type, seen_sscl, seen_escl;
    bool proposal; /* the merged POMP proposal's dialect */
} parser;

/* Keeps only the first problem, as the API promises. */
static void note(parser *p, const char *problem, uint32_t offset)
{
    if (!p->out->problem) {
        p->out->problem = problem;
        p->out->problem_offset = offset;
    }
}

static uint32_t offset_of(const parser *p, weft_ctc_span s)
{
    return (uint32_t)(s.text - p->text);
}

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static bool span_equals(weft_ctc_span s, const char *text)
{
    size_t len = strlen(text);
    return s.len == len && memcmp(s.text, text, len) == 0;
}

/* Reads s as a decimal uint32 into *value; otherwise stores 0 and notes
 * problems[0] (not a number) or problems[1] (too large). */
static bool read_number(parser *p, weft_ctc_span s, const char *const problems[2], uint32_t *value)
{
    uint64_t v = 0;
    bool digits_only = s.len > 0;
    for (uint32_t i = 0; i < s.len && digits_only; i++) {
        digits_only = is_digit(s.text[i]);
        if (digits_only && v <= UINT32_MAX) /* stops growing once too large */
            v = v * 10 + (uint64_t)(s.text[i] - '0');
    }
    bool ok = digits_only && v <= UINT32_MAX;
    *value = ok ? (uint32_t)v : 0;
    if (!ok)
        note(p, digits_only ? problems[1] : problems[0], offset_of(p, s));
    return ok;
}

/* "file:line1:line2", where file may hold ':' itself: the lines are the
 * last two fields. */
static void read_location(parser *p, weft_ctc_span v, bool is_end)
{
    weft_ctc_region *out = p->out;
    uint32_t *first = is_end ? &out->end_line : &out->begin_line;
    uint32_t *last = is_end ? &out->end_line2 : &out->begin_line2;
    uint32_t colons[2] = {0, 0}; /* offsets in v of the last two ':' */
    uint32_t found = 0;
    for (uint32_t i = v.len; i > 0 && found < 2; i--) {
        if (v.text[i - 1] == ':')
            colons[found++] = i - 1;
    }
    const char *const *problems = location_problems[is_end];
    weft_ctc_span file = v;
    *first = *last = 0;
    if (found < 2) {
        note(p, problems[0], offset_of(p, v));
    } else {
        file.len = colons[1];
        weft_ctc_span one = {v.text + colons[1] + 1, colons[0] - colons[1] - 1};
        weft_ctc_span two = {v.text + colons[0] + 1, v.len - colons[0] - 1};
        read_number(p, one, problems + 1, first);
        read_number(p, two, problems + 1, last);
    }
    if (is_end)
        p->end_file = file;
    else
        out->file = file;
}

static void read_clause(parser *p, uint8_t bit, weft_ctc_span value)
{
    weft_ctc_region *out = p->out;
    uint32_t mask = 1u << bit;
    bool present;
    if (bit == WEFT_CTC_CLAUSE_BIT_SCHEDULE || bit == WEFT_CTC_CLAUSE_BIT_DEFAULT) {
        /* These carry the clause's argument instead of 0/1. */
        if (bit == WEFT_CTC_CLAUSE_BIT_SCHEDULE)
            out->schedule = value;
        else
            out->default_sharing = value;
        present = value.len > 0;
    } else {
        present = !span_equals(value, "0");
        if (present && !span_equals(value, "1"))
            note(p, "a clause flag is neither 0 nor 1", offset_of(p, value));
    }
    if (present)
        out->clauses |= mask;
    else
        out->clauses &= ~mask;
}

static void read_region_type(parser *p, weft_ctc_span value)
{
    p->out->region_type = value;
    p->out->construct = WEFT_CTC_UNKNOWN;
    for (uint8_t c = WEFT_CTC_UNKNOWN + 1; c < WEFT_CTC_CONSTRUCT_COUNT; c++) {
        /* A runtime call is told by the routine's name, not by a text. */
        if (c != WEFT_CTC_RUNTIME_CALL && span_equals(value, construct_texts[c]))
            p->out->construct = c;
    }
    for (size_t i = 0; p->proposal && i < sizeof(proposal_types) / sizeof(proposal_types[0]); i++) {
        if (span_equals(value, proposal_types[i].text))
            p->out->construct = proposal_types[i].construct;
    }
    for (size_t i = 0; p->proposal && i < sizeof(runtime_routines) / sizeof(runtime_routines[0]);
         i++) {
        if (span_equals(value, runtime_routines[i]))
            p->out->construct = WEFT_CTC_RUNTIME_CALL;
    }
    if (p->out->construct == WEFT_CTC_UNKNOWN)
        note(p, p->proposal ? "type is not known" : "regionType is not known",
             offset_of(p, value));
    p->seen_type = true;
}

/* The proposal's "a,b" line pairs (lines, slines, elines). */
static void read_line_pair(parser *p, weft_ctc_span v, uint32_t *first, uint32_t *second)
{
    static const char *const problems[2] = {"a line number is not a number",
                                            "a line number is too large"};
    const char *comma = memchr(v.text, ',', v.len);
    if (!comma) {
        note(p, "a line pair has no ','", offset_of(p, v));
        *first = *second = 0;
        return;
    }
    weft_ctc_span one = {v.text, (uint32_t)(comma - v.text)};
    weft_ctc_span two = {comma + 1, v.len - one.len - 1};
    read_number(p, one, problems, first);
    read_number(p, two, problems, second);
}

/* The proposal's `name`: what a critical section, a user region or a
 * function is called. */
static void read_name(parser *p, weft_ctc_span value)
{
    p->out->critical_name = value;
    p->out->user_region_name = value;
}

/* Stores one pair; unknown keys are skipped on purpose (newer OPARI2s add
 * keys). A repeated key overwrites what the earlier one set. */
static void read_pair(parser *p, weft_ctc_span key, weft_ctc_span value)
{
    const key_rule *table = p->proposal ? proposal_rules : rules;
    size_t count = p->proposal ? sizeof(proposal_rules) / sizeof(proposal_rules[0])
                               : sizeof(rules) / sizeof(rules[0]);
    const key_rule *rule = NULL;
    for (size_t i = 0; i < count && !rule; i++) {
        if (span_equals(key, table[i].key))
            rule = &table[i];
    }
    if (!rule)
        return;
    weft_ctc_region *out = p->out;
    switch (rule->id) {
    case KEY_TYPE:
    case KEY_REGION_TYPE:
        read_region_type(p, value);
        break;
    case KEY_SSCL:
        read_location(p, value, false);
        p->seen_sscl = true;
        break;
    case KEY_ESCL:
        read_location(p, value, true);
        p->seen_escl = true;
        break;
    case KEY_CRITICAL_NAME:
        p->out->critical_name = value;
        break;
    case KEY_USER_REGION_NAME:
        p->out->user_region_name = value;
        break;
    case KEY_USER_GROUP_NAME:
        p->out->user_group_name = value;
        break;
    case KEY_NUM_SECTIONS:
        read_number(p, value, sections_problems, &p->out->num_sections);
        break;
    case KEY_FILE:
        out->file = value;
        break;
    case KEY_NAME:
        read_name(p, value);
        break;
    case KEY_GROUP:
        out->user_group_name = value;
        break;
    case KEY_LINES:
        read_line_pair(p, value, &out->begin_line, &out->end_line2);
        out->begin_line2 = out->begin_line;
        out->end_line = out->end_line2;
        break;
    case KEY_SLINES:
        read_line_pair(p, value, &out->begin_line, &out->begin_line2);
        break;
    case KEY_ELINES:
        read_line_pair(p, value, &out->end_line, &out->end_line2);
        break;
    default:
        read_clause(p, rule->clause_bit, value);
        break;
    }
}

/* Reads the digits and the '*' after them; returns where the pairs start.
 * Without a '*' the pairs are read from right after the digits. */
static uint32_t read_prefix(parser *p)
{
    uint32_t digits = 0;
    while (digits < p->len && is_digit(p->text[digits]))
        digits++;
    weft_ctc_span number = {p->text, digits};
    p->prefix_read = read_number(p, number, prefix_problems, &p->out->length_prefix);
    p->prefix_digits = digits;
    if (digits < p->len && p->text[digits] == '*')
        return digits + 1;
    if (digits > 0)
        note(p, "the length prefix is not followed by '*'", digits);
    return digits;
}

/* Reads key=value pairs from pos; returns the offset just past the final
 * '*', or the end of the input when there is none. */
static uint32_t read_pairs(parser *p, uint32_t pos)
{
    const char *text = p->text;
    while (pos < p->len) {
        if (text[pos] == '*')
            return pos + 1; /* the empty pair: the end */
        uint32_t key_start = pos;
        while (pos < p->len && text[pos] != '=' && text[pos] != '*')
            pos++;
        if (pos == p->len || text[pos] == '*') {
            note(p, "a key has no '='", key_start);
            if (pos < p->len)
                pos++; /* skips the '*' */
            continue;
        }
        weft_ctc_span key = {text + key_start, pos - key_start};
        uint32_t equals = pos++;
        uint32_t value_start = pos;
        while (pos < p->len && text[pos] != '*')
            pos++;
        weft_ctc_span value = {text + value_start, pos - value_start};
        if (key.len == 0)
            note(p, "a key is empty", equals);
        else
            read_pair(p, key, value);
        if (pos < p->len)
            pos++; /* skips the '*' that ends the value */
    }
    note(p, "the string ends before the final '*'", p->len);
    return p->len;
}

/* The prefix is right if it is the string's length, or what OPARI2 2.0.7
 * writes: the bytes after the number plus 2 (see weft/ctc.h). */
static bool prefix_matches(const parser *p)
{
    uint64_t length = p->out->length;
    uint64_t opari2 = length - p->prefix_digits + 2;
    return p->out->length_prefix == length || p->out->length_prefix == opari2;
}

static weft_status parse(const char *ctc, size_t max_len, bool proposal, weft_ctc_region *out)
{
    *out = (weft_ctc_region){.region_type = empty_span,
                             .file = empty_span,
                             .critical_name = empty_span,
                             .user_region_name = empty_span,
                             .user_group_name = empty_span,
                             .schedule = empty_span,
                             .default_sharing = empty_span};
    if (!ctc) {
        out->problem = "no CTC string";
        return WEFT_ERR_INVALID;
    }
    size_t limit = max_len < UINT32_MAX ? max_len : UINT32_MAX;
    uint32_t len = 0;
    while (len < limit && ctc[len] != '\0')
        len++;

    parser p = {.text = ctc, .len = len, .out = out, .end_file = empty_span, .proposal = proposal};
    uint32_t end = read_pairs(&p, read_prefix(&p));
    out->length = end;
    uint32_t rest = end;
    while (rest < len && ctc[rest] == ' ') /* Fortran pads with blanks */
        rest++;
    if (rest < len)
        note(&p, "text after the final '*'", rest);
    if (out->file.len == 0)
        out->file = p.end_file;
    if (proposal) {
        /* The proposal's own example states a wrong length: the prefix is
         * only a hint, and no key but the type is required. */
        if (!p.seen_type)
            note(&p, "no type", end);
    } else {
        if (!p.seen_type)
            note(&p, "no regionType", end);
        if (!p.seen_sscl)
            note(&p, "no sscl", end);
        if (!p.seen_escl)
            note(&p, "no escl", end);
        if (p.prefix_read && !prefix_matches(&p))
            note(&p, "the length prefix does not match the length", 0);
    }
    return out->problem ? WEFT_ERR_INVALID : WEFT_OK;
}

weft_status weft_ctc_parse(const char *ctc, size_t max_len, weft_ctc_region *out)
{
    return parse(ctc, max_len, false, out);
}

weft_status weft_ctc_parse_proposal(const char *ctc, size_t max_len, weft_ctc_region *out)
{
    return parse(ctc, max_len, true, out);
}

const char *weft_ctc_construct_text(weft_ctc_construct c)
{
    return c < WEFT_CTC_CONSTRUCT_COUNT ? construct_texts[c] : construct_texts[WEFT_CTC_UNKNOWN];
}

/* snprintf-like output: appends at buf + len what fits before the last byte
 * and returns the length counting all of text. */
static size_t put(char *buf, size_t size, size_t len, const char *text, size_t n)
{
    if (size > 0 && len < size - 1)
        memcpy(buf + len, text, n < size - 1 - len ? n : size - 1 - len);
    return len + n;
}

size_t weft_omp_region_name(char *buf, size_t size, const char *construct_text, weft_ctc_span file,
                            uint32_t line)
{
    const char *text = construct_text ? construct_text : "";
    size_t len = put(buf, size, 0, "!$omp ", 6);
    len = put(buf, size, len, text, strlen(text));
    if (file.text && file.len > 0) {
        uint32_t base = file.len;
        while (base > 0 && file.text[base - 1] != '/')
            base--;
        char digits[10];
        size_t n = sizeof(digits);
        do {
            digits[--n] = (char)('0' + line % 10);
            line /= 10;
        } while (line > 0);
        len = put(buf, size, len, " @", 2);
        len = put(buf, size, len, file.text + base, file.len - base);
        len = put(buf, size, len, ":", 1);
        len = put(buf, size, len, digits + n, sizeof(digits) - n);
    }
    if (size > 0)
        buf[len < size ? len : size - 1] = '\0';
    return len;
}
