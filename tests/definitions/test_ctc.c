/* The CTC-string parser: every string OPARI2 2.0.7 produced for the programs
 * in ctc_inputs/ (C, free- and fixed-form Fortran, a ':' in the path, a
 * string over 1000 bytes), each problem class with its phrase and offset,
 * the canonical region name, and a deterministic mutation sweep over the
 * real strings. Every parse reads a heap copy of exactly the bytes passed,
 * without a terminating NUL, so that ASan builds catch any overread. */
#include "weft/ctc.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

/* ---- helpers ------------------------------------------------------------- */

/* A heap copy of text[0..len) with nothing after it (no NUL). */
static char *exact_copy(const char *text, size_t len)
{
    char *copy = malloc(len ? len : 1);
    assert_non_null(copy);
    memcpy(copy, text, len);
    return copy;
}

/* Parses len bytes of text from an exact heap copy; spans in *out are
 * rebased onto text so that callers can compare them after the copy is gone. */
static weft_status parse_exact(const char *text, size_t len, weft_ctc_region *out)
{
    char *copy = exact_copy(text, len);
    weft_status st = weft_ctc_parse(copy, len, out);
    weft_ctc_span *spans[] = {
        &out->region_type,     &out->file,     &out->critical_name,  &out->user_region_name,
        &out->user_group_name, &out->schedule, &out->default_sharing};
    for (size_t i = 0; i < sizeof(spans) / sizeof(spans[0]); i++) {
        uintptr_t at = (uintptr_t)spans[i]->text, start = (uintptr_t)copy;
        if (at >= start && at <= start + len)
            spans[i]->text = text + (at - start);
    }
    free(copy);
    return st;
}

static void assert_span(weft_ctc_span span, const char *expected)
{
    assert_non_null(span.text);
    char *text = malloc(span.len + 1);
    assert_non_null(text);
    memcpy(text, span.text, span.len);
    text[span.len] = '\0';
    assert_string_equal(text, expected);
    free(text);
}

/* Builds a string from a template: a leading "NN" becomes the correct
 * length prefix. The result is NUL-terminated (for strstr); *len excludes
 * the NUL. */
static char *build(const char *templ, size_t *len)
{
    char *out = malloc(strlen(templ) + 16);
    assert_non_null(out);
    if (strncmp(templ, "NN", 2) != 0) {
        strcpy(out, templ);
    } else {
        size_t body = strlen(templ + 2), digits = 1, total;
        for (;; digits++) {
            total = body + digits;
            if ((size_t)snprintf(NULL, 0, "%zu", total) == digits)
                break;
        }
        sprintf(out, "%zu%s", total, templ + 2);
    }
    *len = strlen(out);
    return out;
}

/* ---- the real OPARI2 strings --------------------------------------------- */

typedef struct expected {
    const char *file; /* NULL: the long path built by long_path() */
    weft_ctc_construct construct;
    uint32_t begin_line, begin_line2, end_line, end_line2;
    const char *name; /* criticalName or userRegionName */
    uint32_t clauses;
    const char *schedule, *default_sharing;
    uint32_t num_sections;
} expected;

#define C_SRC "/tmp/weft-ctc/constructs.c"
#define F90_SRC "/tmp/weft-ctc/constructs.f90"
#define F_SRC "/tmp/weft-ctc/constructs.f"
#define COLON_SRC "/tmp/weft-ctc/dir:with:colons/colon.c"
#define H(clause) WEFT_CTC_HAS_##clause
#define R(construct) WEFT_CTC_##construct

/* One row per line of opari2_ctc_strings.txt, read off the sources. */
/* clang-format off */
static const expected expectations[] = {
    {C_SRC, R(PARALLEL), 19, 20, 60, 60, "", H(IF) | H(NUM_THREADS) | H(REDUCTION) | H(SHARED), "", "", 0},
    {C_SRC, R(FOR), 22, 22, 25, 25, "", H(COLLAPSE) | H(NOWAIT) | H(SCHEDULE), "dynamic,2", "", 0},
    {C_SRC, R(FOR), 26, 26, 30, 30, "", H(ORDERED) | H(SCHEDULE), "static", "", 0},
    {C_SRC, R(ORDERED), 28, 28, 29, 29, "", 0, "", "", 0},
    {C_SRC, R(SECTIONS), 31, 31, 39, 39, "", H(REDUCTION), "", "", 3},
    {C_SRC, R(SINGLE), 40, 40, 41, 41, "", H(COPYPRIVATE), "", "", 0},
    {C_SRC, R(SINGLE), 42, 42, 43, 43, "", H(NOWAIT), "", "", 0},
    {C_SRC, R(MASTER), 44, 44, 45, 45, "", 0, "", "", 0},
    {C_SRC, R(CRITICAL), 46, 46, 47, 47, "", 0, "", "", 0},
    {C_SRC, R(CRITICAL), 48, 48, 49, 49, "named_lock", 0, "", "", 0},
    {C_SRC, R(ATOMIC), 50, 50, 51, 51, "", 0, "", "", 0},
    {C_SRC, R(BARRIER), 52, 52, 52, 52, "", 0, "", "", 0},
    {C_SRC, R(FLUSH), 53, 53, 53, 53, "", 0, "", "", 0},
    {C_SRC, R(FLUSH), 54, 54, 54, 54, "", 0, "", "", 0},
    {C_SRC, R(TASK), 55, 55, 56, 56, "", H(IF) | H(SHARED), "", "", 0},
    {C_SRC, R(TASK), 57, 57, 58, 58, "", H(UNTIED), "", "", 0},
    {C_SRC, R(TASKWAIT), 59, 59, 59, 59, "", 0, "", "", 0},
    {C_SRC, R(PARALLEL_FOR), 62, 62, 64, 64, "", H(IF) | H(NUM_THREADS) | H(REDUCTION) | H(SCHEDULE), "guided", "", 0},
    {C_SRC, R(PARALLEL_FOR), 66, 67, 71, 71, "", H(COLLAPSE) | H(DEFAULT) | H(ORDERED) | H(SCHEDULE) | H(SHARED), "runtime", "none", 0},
    {C_SRC, R(PARALLEL_SECTIONS), 73, 73, 79, 79, "", H(NUM_THREADS) | H(REDUCTION), "", "", 0},
    {C_SRC, R(PARALLEL_FOR), 81, 81, 83, 83, "", H(SCHEDULE), "auto", "", 0},
    {C_SRC, R(USER_REGION), 85, 85, 87, 87, "user_phase", 0, "", "", 0},

    {F90_SRC, R(PARALLEL), 13, 14, 62, 62, "", H(IF) | H(NUM_THREADS) | H(REDUCTION) | H(SHARED), "", "", 0},
    {F90_SRC, R(DO), 15, 15, 21, 21, "", H(COLLAPSE) | H(SCHEDULE), "dynamic,2", "", 0},
    {F90_SRC, R(DO), 22, 22, 28, 28, "", H(ORDERED) | H(SCHEDULE), "static", "", 0},
    {F90_SRC, R(ORDERED), 24, 24, 26, 26, "", 0, "", "", 0},
    {F90_SRC, R(SECTIONS), 29, 29, 34, 34, "", H(REDUCTION), "", "", 2},
    {F90_SRC, R(SINGLE), 35, 35, 37, 37, "", 0, "", "", 0},
    {F90_SRC, R(MASTER), 38, 38, 40, 40, "", 0, "", "", 0},
    {F90_SRC, R(CRITICAL), 41, 41, 43, 43, "", 0, "", "", 0},
    {F90_SRC, R(CRITICAL), 44, 44, 46, 46, "named_lock", 0, "", "", 0},
    {F90_SRC, R(ATOMIC), 47, 47, 48, 48, "", 0, "", "", 0},
    {F90_SRC, R(BARRIER), 49, 49, 49, 49, "", 0, "", "", 0},
    {F90_SRC, R(FLUSH), 50, 50, 50, 50, "", 0, "", "", 0},
    {F90_SRC, R(FLUSH), 51, 51, 51, 51, "", 0, "", "", 0},
    {F90_SRC, R(WORKSHARE), 52, 52, 54, 54, "", 0, "", "", 0},
    {F90_SRC, R(TASK), 55, 55, 57, 57, "", H(IF) | H(SHARED), "", "", 0},
    {F90_SRC, R(TASK), 58, 58, 60, 60, "", H(UNTIED), "", "", 0},
    {F90_SRC, R(TASKWAIT), 61, 61, 61, 61, "", 0, "", "", 0},
    {F90_SRC, R(PARALLEL_DO), 64, 64, 68, 68, "", H(NUM_THREADS) | H(REDUCTION) | H(SCHEDULE), "guided,4", "", 0},
    {F90_SRC, R(PARALLEL_SECTIONS), 70, 70, 73, 73, "", H(DEFAULT) | H(SHARED), "", "none", 0},
    {F90_SRC, R(PARALLEL_WORKSHARE), 75, 75, 77, 77, "", H(IF), "", "", 0},
    {F90_SRC, R(USER_REGION), 79, 79, 81, 81, "f90_phase", 0, "", "", 0},

    {F_SRC, R(PARALLEL_DO), 14, 15, 19, 19, "", H(IF) | H(NUM_THREADS) | H(REDUCTION) | H(SCHEDULE) | H(SHARED), "static,10", "", 0},
    {F_SRC, R(PARALLEL), 20, 20, 28, 28, "", 0, "", "", 0},
    {F_SRC, R(CRITICAL), 21, 21, 23, 23, "fixed_lock", 0, "", "", 0},
    {F_SRC, R(BARRIER), 24, 24, 24, 24, "", 0, "", "", 0},
    {F_SRC, R(SINGLE), 25, 25, 27, 27, "", 0, "", "", 0},
    {F_SRC, R(PARALLEL_SECTIONS), 29, 29, 36, 36, "", 0, "", "", 0},
    {F_SRC, R(PARALLEL_WORKSHARE), 37, 37, 39, 39, "", 0, "", "", 0},
    {F_SRC, R(USER_REGION), 40, 40, 42, 42, "fixed_form_region_with_a_rather_long_name_to_force_splits", 0, "", "", 0},

    {COLON_SRC, R(PARALLEL), 6, 6, 10, 10, "", H(NUM_THREADS), "", "", 0},
    {COLON_SRC, R(ATOMIC), 8, 8, 9, 9, "", 0, "", "", 0},
    {NULL, R(PARALLEL), 6, 6, 10, 10, "", H(NUM_THREADS), "", "", 0},
    {NULL, R(ATOMIC), 8, 8, 9, 9, "", 0, "", "", 0},
};
/* clang-format on */
#define EXPECTED_COUNT (sizeof(expectations) / sizeof(expectations[0]))

/* The real strings, read once by the group setup. */
static char *real[EXPECTED_COUNT + 1];
static size_t real_count;

static int read_real_strings(void **state)
{
    (void)state;
    FILE *f = fopen(WEFT_CTC_STRINGS_FILE, "r");
    if (!f)
        return -1;
    char line[4096];
    while (fgets(line, sizeof(line), f) && real_count <= EXPECTED_COUNT) {
        line[strcspn(line, "\n")] = '\0';
        real[real_count] = malloc(strlen(line) + 1);
        strcpy(real[real_count++], line);
    }
    fclose(f);
    return 0;
}

static int free_real_strings(void **state)
{
    (void)state;
    for (size_t i = 0; i < real_count; i++)
        free(real[i]);
    return 0;
}

/* /tmp/weft-ctc/<160 l>/<160 l>/<160 l>/colon.c, as regenerate.sh makes it. */
static const char *long_path(void)
{
    static char path[600];
    char part[161];
    memset(part, 'l', 160);
    part[160] = '\0';
    snprintf(path, sizeof(path), "/tmp/weft-ctc/%s/%s/%s/colon.c", part, part, part);
    return path;
}

static bool is_fortran(const char *file)
{
    size_t n = strlen(file);
    return (n > 2 && strcmp(file + n - 2, ".f") == 0) ||
           (n > 4 && strcmp(file + n - 4, ".f90") == 0);
}

static void assert_expected(const weft_ctc_region *r, const expected *e, const char *file)
{
    assert_null(r->problem);
    assert_int_equal(r->construct, e->construct);
    assert_span(r->region_type, weft_ctc_construct_text(e->construct));
    assert_span(r->file, file);
    assert_int_equal(r->begin_line, e->begin_line);
    assert_int_equal(r->begin_line2, e->begin_line2);
    assert_int_equal(r->end_line, e->end_line);
    assert_int_equal(r->end_line2, e->end_line2);
    bool user = e->construct == WEFT_CTC_USER_REGION;
    assert_span(r->critical_name, user ? "" : e->name);
    assert_span(r->user_region_name, user ? e->name : "");
    assert_span(r->user_group_name, "");
    assert_int_equal(r->clauses, e->clauses);
    assert_span(r->schedule, e->schedule);
    assert_span(r->default_sharing, e->default_sharing);
    assert_int_equal(r->num_sections, e->num_sections);
}

static void test_real_strings(void **state)
{
    (void)state;
    assert_int_equal(real_count, EXPECTED_COUNT);
    for (size_t i = 0; i < real_count; i++) {
        const expected *e = &expectations[i];
        const char *file = e->file ? e->file : long_path();
        size_t len = strlen(real[i]);
        weft_ctc_region r;
        assert_int_equal(weft_ctc_parse(real[i], SIZE_MAX, &r), WEFT_OK);
        assert_expected(&r, e, file);
        assert_int_equal(r.length, len);
        /* OPARI2 writes (bytes after the number) + 2. */
        size_t digits = strspn(real[i], "0123456789");
        assert_int_equal(r.length_prefix, len - digits + 2);
        assert_int_equal(parse_exact(real[i], len, &r), WEFT_OK);
        assert_expected(&r, e, file);
        if (is_fortran(file)) {
            /* The callee gets the CHARACTER constant: the text, two blanks
             * of padding, no NUL. */
            char *padded = malloc(len + 2);
            memcpy(padded, real[i], len);
            memcpy(padded + len, "  ", 2);
            assert_int_equal(parse_exact(padded, len + 2, &r), WEFT_OK);
            assert_expected(&r, e, file);
            assert_int_equal(r.length, len);
            free(padded);
        }
    }
}

/* Every construct parses; the texts round-trip. */
static void test_constructs(void **state)
{
    (void)state;
    for (weft_ctc_construct c = WEFT_CTC_UNKNOWN + 1; c < WEFT_CTC_CONSTRUCT_COUNT; c++) {
        if (c == WEFT_CTC_RUNTIME_CALL)
            continue; /* the proposal's, by routine name: test_proposal_dialect */
        char templ[128];
        snprintf(templ, sizeof(templ), "NN*regionType=%s*sscl=a.c:1:2*escl=a.c:3:4**",
                 weft_ctc_construct_text(c));
        size_t len;
        char *text = build(templ, &len);
        weft_ctc_region r;
        assert_int_equal(parse_exact(text, len, &r), WEFT_OK);
        assert_int_equal(r.construct, c);
        free(text);
    }
    assert_string_equal(weft_ctc_construct_text(WEFT_CTC_UNKNOWN), "");
    assert_string_equal(weft_ctc_construct_text(WEFT_CTC_PARALLEL_WORKSHARE), "parallelworkshare");
    assert_string_equal(weft_ctc_construct_text(WEFT_CTC_CONSTRUCT_COUNT), "");
    assert_string_equal(weft_ctc_construct_text(255), "");
}

/* Rules that well-formed strings still exercise. */
static void test_well_formed_variants(void **state)
{
    (void)state;
    weft_ctc_region r;
    size_t len;
    char *text;

    /* Unknown keys are ignored; repeated keys: the last wins. */
    text = build("NN*regionType=for*futureKey=42*sscl=a.c:1:1*escl=a.c:2:2*regionType=do*"
                 "sscl=b.c:5:6*hasIf=1*hasIf=0*hasSchedule=static*hasSchedule=guided,3**",
                 &len);
    assert_int_equal(parse_exact(text, len, &r), WEFT_OK);
    assert_int_equal(r.construct, WEFT_CTC_DO);
    assert_span(r.file, "b.c");
    assert_int_equal(r.begin_line, 5);
    assert_int_equal(r.begin_line2, 6);
    assert_int_equal(r.clauses, WEFT_CTC_HAS_SCHEDULE);
    assert_span(r.schedule, "guided,3");
    free(text);

    /* Both spellings of copyprivate; the keys OPARI2 knows but 2.0.7 does
     * not write; userGroupName; an empty hasSchedule clears the clause. */
    text = build("NN*regionType=single*sscl=a.c:1:1*escl=a.c:2:2*hasCopyPrivate=1*hasCopyIn=1*"
                 "hasFirstPrivate=1*hasLastPrivate=1*userGroupName=grp*hasSchedule=**",
                 &len);
    assert_int_equal(parse_exact(text, len, &r), WEFT_OK);
    assert_int_equal(r.clauses, WEFT_CTC_HAS_COPYPRIVATE | WEFT_CTC_HAS_COPYIN |
                                    WEFT_CTC_HAS_FIRSTPRIVATE | WEFT_CTC_HAS_LASTPRIVATE);
    assert_span(r.user_group_name, "grp");
    assert_span(r.schedule, "");
    free(text);

    /* File names with ':' (a Windows-style path), and sscl without a file
     * name takes escl's. */
    text = build("NN*regionType=barrier*sscl=C:\\src\\a:b.f90:3:4*escl=x.f:5:6**", &len);
    assert_int_equal(parse_exact(text, len, &r), WEFT_OK);
    assert_span(r.file, "C:\\src\\a:b.f90");
    assert_int_equal(r.begin_line, 3);
    assert_int_equal(r.end_line2, 6);
    free(text);
    text = build("NN*regionType=barrier*sscl=:3:4*escl=/x/y.c:5:6**", &len);
    assert_int_equal(parse_exact(text, len, &r), WEFT_OK);
    assert_span(r.file, "/x/y.c");
    assert_int_equal(r.begin_line, 3);
    free(text);

    /* The largest line number, and the true length as prefix of a string
     * over 99 bytes (OPARI2 would write one less; both are fine). */
    text = build("NN*regionType=taskuntied*sscl=/a/rather/long/path/to/some/file.c:4294967295:1*"
                 "escl=/a/rather/long/path/to/some/file.c:1:1**",
                 &len);
    assert_true(len > 99);
    assert_int_equal(parse_exact(text, len, &r), WEFT_OK);
    assert_int_equal(r.construct, WEFT_CTC_TASKUNTIED);
    assert_int_equal(r.begin_line, UINT32_MAX);
    assert_int_equal(r.length_prefix, len);
    free(text);

    /* max_len shorter than the C string, and a NUL before max_len. */
    static const char c_string[] = "47*regionType=flush*sscl=f.c:1:1*escl=f.c:1:1**EXTRA";
    assert_int_equal(parse_exact(c_string, 47, &r), WEFT_OK);
    assert_int_equal(weft_ctc_parse(c_string, SIZE_MAX, &r), WEFT_ERR_INVALID);
    assert_string_equal(r.problem, "text after the final '*'");
    assert_int_equal(r.problem_offset, 47);
    static const char nul_inside[] = "47*regionType=flush*sscl=f.c:1:1*escl=f.c:1:1**\0junk";
    assert_int_equal(parse_exact(nul_inside, sizeof(nul_inside), &r), WEFT_OK);
    assert_int_equal(r.length, 47);
}

/* ---- problems -------------------------------------------------------------- */

#define AT_END "<end>"   /* the problem offset is the string's length */
#define AT_LAST "<last>" /* the problem offset is that of the last byte */

typedef struct problem_case {
    const char *templ; /* see build() */
    const char *problem;
    const char *at; /* the offset is where this first occurs; NULL: 0 */
} problem_case;

static void test_problems(void **state)
{
    (void)state;
    static const problem_case cases[] = {
        {"abc*regionType=barrier*sscl=f.c:1:1*escl=f.c:1:1**", "the length prefix is not a number",
         NULL},
        {"*regionType=barrier*sscl=f.c:1:1*escl=f.c:1:1**", "the length prefix is not a number",
         NULL},
        {"", "the length prefix is not a number", NULL},
        {"99999999999*regionType=barrier*sscl=f.c:1:1*escl=f.c:1:1**",
         "the length prefix is too large", NULL},
        {"47regionType=barrier*sscl=f.c:1:1*escl=f.c:1:1**",
         "the length prefix is not followed by '*'", "regionType"},
        {"NN*regionType=barrier*hasIf*sscl=f.c:1:1*escl=f.c:1:1**", "a key has no '='", "hasIf"},
        {"NN*regionType=barrier*=1*sscl=f.c:1:1*escl=f.c:1:1**", "a key is empty", "=1"},
        {"NN*regionType=parallelloop*sscl=f.c:1:1*escl=f.c:1:1**", "regionType is not known",
         "parallelloop"},
        {"NN*regionType=*sscl=f.c:1:1*escl=f.c:1:1**", "regionType is not known", "*sscl"},
        {"NN*regionType=barrier*sscl=f.c*escl=f.c:1:1**", "sscl has no line numbers", "f.c*"},
        {"NN*regionType=barrier*sscl=f.c:1:1*escl=f.c:12**", "escl has no line numbers", "f.c:12"},
        {"NN*regionType=barrier*sscl=f.c:x:1*escl=f.c:1:1**",
         "a line number in sscl is not a number", "x:1"},
        {"NN*regionType=barrier*sscl=f.c:1:1*escl=f.c::**", "a line number in escl is not a number",
         ":**"},
        {"NN*regionType=barrier*sscl=f.c:1:4294967296*escl=f.c:1:1**",
         "a line number in sscl is too large", "4294967296"},
        {"NN*regionType=barrier*sscl=f.c:1:1*escl=f.c:99999999999999999999999:1**",
         "a line number in escl is too large", "99999"},
        {"NN*regionType=sections*numSections=two*sscl=f.c:1:1*escl=f.c:1:1**",
         "numSections is not a number", "two"},
        {"NN*regionType=sections*numSections=5000000000*sscl=f.c:1:1*escl=f.c:1:1**",
         "numSections is too large", "5000000000"},
        {"NN*regionType=parallel*hasIf=yes*sscl=f.c:1:1*escl=f.c:1:1**",
         "a clause flag is neither 0 nor 1", "yes"},
        {"NN*regionType=barrier*sscl=f.c:1:1*escl=f.c:1:1*", "the string ends before the final '*'",
         AT_END},
        {"NN*regionType=critical*sscl=f.c:1:1*escl=f.c:1:1*criticalName=lock",
         "the string ends before the final '*'", AT_END},
        {"NN*regionType=barrier*sscl=f.c:1:1*escl=f.c:1:1**  x", "text after the final '*'", "x"},
        {"NN*regionType=barrier*sscl=f.c:1:1*escl=f.c:1:1***", "text after the final '*'", AT_LAST},
        {"NN*sscl=f.c:1:1*escl=f.c:1:1**", "no regionType", AT_END},
        {"NN*regionType=barrier*escl=f.c:1:1**", "no sscl", AT_END},
        {"NN*regionType=barrier*sscl=f.c:1:1**", "no escl", AT_END},
        {"10*regionType=barrier*sscl=f.c:1:1*escl=f.c:1:1**",
         "the length prefix does not match the length", NULL},
        {"48*regionType=barrier*sscl=f.c:1:1*escl=f.c:1:1**",
         "the length prefix does not match the length", NULL},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const problem_case *c = &cases[i];
        size_t len;
        char *text = build(c->templ, &len);
        size_t offset = 0;
        if (c->at && strcmp(c->at, AT_END) == 0)
            offset = len;
        else if (c->at && strcmp(c->at, AT_LAST) == 0)
            offset = len - 1;
        else if (c->at)
            offset = (size_t)(strstr(text, c->at) - text);
        weft_ctc_region r;
        assert_int_equal(parse_exact(text, len, &r), WEFT_ERR_INVALID);
        assert_non_null(r.problem);
        if (strcmp(r.problem, c->problem) != 0 || r.problem_offset != offset)
            fail_msg("case %zu \"%s\": got \"%s\" at %u, want \"%s\" at %zu", i, text, r.problem,
                     r.problem_offset, c->problem, offset);
        free(text);
    }
}

/* What is still filled in around a problem. */
static void test_problem_recovery(void **state)
{
    (void)state;
    weft_ctc_region r;
    size_t len;
    char *text;

    assert_int_equal(weft_ctc_parse(NULL, 10, &r), WEFT_ERR_INVALID);
    assert_string_equal(r.problem, "no CTC string");
    assert_int_equal(r.problem_offset, 0);
    assert_int_equal(r.construct, WEFT_CTC_UNKNOWN);
    assert_span(r.file, "");

    /* A wrong prefix: parsing goes by the real bytes. */
    text = build("5*regionType=critical*sscl=f.c:7:8*escl=f.c:9:9*criticalName=lock**", &len);
    assert_int_equal(parse_exact(text, len, &r), WEFT_ERR_INVALID);
    assert_int_equal(r.construct, WEFT_CTC_CRITICAL);
    assert_span(r.critical_name, "lock");
    assert_int_equal(r.begin_line2, 8);
    assert_int_equal(r.length_prefix, 5);
    free(text);

    /* A line number that overflows reads as 0, the other one is kept; the
     * first problem wins over later ones. */
    text = build("NN*regionType=for*sscl=f.c:4294967296:3*escl=f.c:1*hasIf=2**", &len);
    assert_int_equal(parse_exact(text, len, &r), WEFT_ERR_INVALID);
    assert_string_equal(r.problem, "a line number in sscl is too large");
    assert_int_equal(r.begin_line, 0);
    assert_int_equal(r.begin_line2, 3);
    assert_span(r.file, "f.c");
    assert_int_equal(r.end_line, 0);
    assert_int_equal(r.clauses, WEFT_CTC_HAS_IF);
    free(text);

    /* An unterminated value ends at max_len. */
    text = build("NN*regionType=userRegion*sscl=u.c:1:2*escl=u.c:3:4*userRegionName=phase", &len);
    assert_int_equal(parse_exact(text, len, &r), WEFT_ERR_INVALID);
    assert_span(r.user_region_name, "phase");
    assert_int_equal(r.construct, WEFT_CTC_USER_REGION);
    assert_int_equal(r.end_line2, 4);
    free(text);

    /* No prefix at all: the pairs are still read. */
    text = build("regionType=master*sscl=m.c:2:2*escl=m.c:3:3**", &len);
    assert_int_equal(parse_exact(text, len, &r), WEFT_ERR_INVALID);
    assert_int_equal(r.construct, WEFT_CTC_MASTER);
    assert_int_equal(r.end_line, 3);
    free(text);
}

/* ---- region names ---------------------------------------------------------- */

static weft_ctc_span span_of(const char *text)
{
    return (weft_ctc_span){text, (uint32_t)strlen(text)};
}

static void test_region_name(void **state)
{
    (void)state;
    char buf[64];
    assert_int_equal(weft_omp_region_name(buf, sizeof(buf), "parallel", span_of("/tmp/op/t.c"), 7),
                     21);
    assert_string_equal(buf, "!$omp parallel @t.c:7");
    assert_int_equal(weft_omp_region_name(buf, sizeof(buf), "for", span_of("t.c"), 4294967295u),
                     25);
    assert_string_equal(buf, "!$omp for @t.c:4294967295");
    weft_omp_region_name(buf, sizeof(buf), "critical", span_of("/a/dir:x/c.c"), 0);
    assert_string_equal(buf, "!$omp critical @c.c:0");

    /* Empty file: no " @file:line". NULL construct text reads as "". */
    assert_int_equal(weft_omp_region_name(buf, sizeof(buf), "barrier", span_of(""), 9), 13);
    assert_string_equal(buf, "!$omp barrier");
    assert_int_equal(weft_omp_region_name(buf, sizeof(buf), "barrier", (weft_ctc_span){NULL, 0}, 9),
                     13);
    assert_int_equal(weft_omp_region_name(buf, sizeof(buf), NULL, span_of("a.c"), 1), 13);
    assert_string_equal(buf, "!$omp  @a.c:1");

    /* Truncation: always NUL-terminated, returns the length it wanted. */
    memset(buf, 'Z', sizeof(buf));
    assert_int_equal(weft_omp_region_name(buf, 10, "parallel", span_of("/x/t.c"), 7), 21);
    assert_string_equal(buf, "!$omp par");
    assert_int_equal(buf[10], 'Z');
    assert_int_equal(weft_omp_region_name(buf, 1, "parallel", span_of("t.c"), 7), 21);
    assert_string_equal(buf, "");
    assert_int_equal(weft_omp_region_name(NULL, 0, "parallel", span_of("t.c"), 7), 21);
    for (size_t size = 1; size <= 22; size++) {
        char *small = malloc(size);
        assert_int_equal(weft_omp_region_name(small, size, "parallel", span_of("a/t.c"), 7), 21);
        assert_int_equal(strlen(small), size - 1 < 21 ? size - 1 : 21);
        assert_memory_equal(small, "!$omp parallel @t.c:7", strlen(small));
        free(small);
    }

    /* From a parsed span (not NUL-terminated): the real strings. */
    assert_int_equal(real_count, EXPECTED_COUNT);
    weft_ctc_region r;
    assert_int_equal(parse_exact(real[0], strlen(real[0]), &r), WEFT_OK);
    weft_omp_region_name(buf, sizeof(buf), weft_ctc_construct_text(r.construct), r.file,
                         r.begin_line);
    assert_string_equal(buf, "!$omp parallel @constructs.c:19");
    assert_int_equal(parse_exact(real[EXPECTED_COUNT - 4], strlen(real[EXPECTED_COUNT - 4]), &r),
                     WEFT_OK);
    weft_omp_region_name(buf, sizeof(buf), "parallel", r.file, r.begin_line);
    assert_string_equal(buf, "!$omp parallel @colon.c:6");
}

/* ---- deterministic mutation sweep ------------------------------------------ */

static size_t mutation_count;

/* Whatever the input: spans inside it, status and problem agree. */
static void check_invariants(const char *copy, size_t len, weft_status st, const weft_ctc_region *r)
{
    const weft_ctc_span spans[] = {
        r->region_type,     r->file,     r->critical_name,  r->user_region_name,
        r->user_group_name, r->schedule, r->default_sharing};
    for (size_t i = 0; i < sizeof(spans) / sizeof(spans[0]); i++) {
        assert_non_null(spans[i].text);
        uintptr_t at = (uintptr_t)spans[i].text, start = (uintptr_t)copy;
        if (spans[i].len > 0)
            assert_true(at >= start && at + spans[i].len <= start + len);
    }
    assert_int_equal(st == WEFT_OK, r->problem == NULL);
    assert_true(st == WEFT_OK || st == WEFT_ERR_INVALID);
    assert_true(r->problem_offset <= len);
    assert_true(r->length <= len);
    assert_true(r->construct < WEFT_CTC_CONSTRUCT_COUNT);
    assert_true(r->clauses < (1u << WEFT_CTC_CLAUSE_COUNT));
    char name[48];
    size_t want = weft_omp_region_name(name, sizeof(name), weft_ctc_construct_text(r->construct),
                                       r->file, r->begin_line);
    assert_true(strlen(name) == (want < sizeof(name) ? want : sizeof(name) - 1));
}

/* Parses an exact heap copy of text[0..len); returns the status. */
static weft_status mutant(const char *text, size_t len)
{
    char *copy = exact_copy(text, len);
    weft_ctc_region r;
    weft_status st = weft_ctc_parse(copy, len, &r);
    check_invariants(copy, len, st, &r);
    free(copy);
    mutation_count++;
    return st;
}

/* text with [at, at + cut) replaced by insert, into buf; returns the length. */
static size_t splice(char *buf, const char *text, size_t len, size_t at, size_t cut,
                     const char *insert)
{
    size_t n = strlen(insert);
    memcpy(buf, text, at);
    memcpy(buf + at, insert, n);
    memcpy(buf + at + n, text + at + cut, len - at - cut);
    return len - cut + n;
}

static void mutate_one(const char *text)
{
    static const char flips[] = {'*', '=', ':', '0', '9', '\0', ' ', 'x', '/', '\xff'};
    static const char *const numbers[] = {"0", "4294967295", "4294967296",
                                          "99999999999999999999999", ""};
    size_t len = strlen(text);
    char *buf = malloc(len + 64);

    for (size_t k = 0; k < len; k++) /* truncation at every length */
        assert_int_equal(mutant(text, k), WEFT_ERR_INVALID);
    for (size_t i = 0; i < len; i++) {
        for (size_t f = 0; f < sizeof(flips); f++) { /* byte flips */
            memcpy(buf, text, len);
            buf[i] = flips[f];
            mutant(buf, len);
        }
        if (strchr("*=:0123456789", text[i])) { /* deleted and duplicated */
            char twice[3] = {text[i], text[i], '\0'};
            mutant(buf, splice(buf, text, len, i, 1, ""));
            mutant(buf, splice(buf, text, len, i, 1, twice));
        }
        if (text[i] == '=') { /* empty value */
            size_t value = strcspn(text + i + 1, "*");
            mutant(buf, splice(buf, text, len, i + 1, value, ""));
        }
        /* other numbers in place of every digit run: prefix and lines */
        if (text[i] >= '0' && text[i] <= '9' && (i == 0 || !strchr("0123456789", text[i - 1]))) {
            size_t run = strspn(text + i, "0123456789");
            for (size_t n = 0; n < sizeof(numbers) / sizeof(numbers[0]); n++)
                mutant(buf, splice(buf, text, len, i, run, numbers[n]));
        }
    }
    free(buf);
}

/* The merged POMP proposal's dialect (weft_ctc_parse_proposal). */
static void test_proposal_dialect(void **state)
{
    (void)state;
    weft_ctc_region r;
    /* The proposal's own example: 51 stated, 53 characters; accepted. */
    const char *demo = "51*type=preregion*file=demo.c*slines=7,8*elines=12,12**";
    assert_int_equal(weft_ctc_parse_proposal(demo, SIZE_MAX, &r), WEFT_OK);
    assert_int_equal(r.construct, WEFT_CTC_PARALLEL);
    assert_int_equal(r.file.len, 6);
    assert_memory_equal(r.file.text, "demo.c", 6);
    assert_int_equal(r.begin_line, 7);
    assert_int_equal(r.begin_line2, 8);
    assert_int_equal(r.end_line, 12);
    assert_int_equal(r.end_line2, 12);
    assert_int_equal(r.length, strlen(demo));
    /* OPARI2's parser refuses it (no sscl, no escl, type not a key). */
    assert_int_equal(weft_ctc_parse(demo, SIZE_MAX, &r), WEFT_ERR_INVALID);

    assert_int_equal(weft_ctc_parse_proposal("0*type=critical*name=one*lines=60,61*hasNowait=1**",
                                             SIZE_MAX, &r),
                     WEFT_OK);
    assert_int_equal(r.construct, WEFT_CTC_CRITICAL);
    assert_int_equal(r.critical_name.len, 3);
    assert_int_equal(r.begin_line, 60);
    assert_int_equal(r.end_line2, 61);
    assert_true(r.clauses & WEFT_CTC_HAS_NOWAIT);
    assert_int_equal(weft_ctc_parse_proposal("0*type=function*name=f*group=g**", SIZE_MAX, &r),
                     WEFT_OK);
    assert_int_equal(r.construct, WEFT_CTC_FUNCTION);
    assert_int_equal(r.user_group_name.len, 1);
    assert_int_equal(weft_ctc_parse_proposal("0*type=loop**", SIZE_MAX, &r), WEFT_OK);
    assert_int_equal(r.construct, WEFT_CTC_FOR);
    /* A runtime routine's call: its name is the type. */
    assert_int_equal(
        weft_ctc_parse_proposal("0*type=omp_set_nest_lock*file=f.c*lines=9,9**", SIZE_MAX, &r),
        WEFT_OK);
    assert_int_equal(r.construct, WEFT_CTC_RUNTIME_CALL);
    assert_int_equal(r.region_type.len, strlen("omp_set_nest_lock"));
    assert_memory_equal(r.region_type.text, "omp_set_nest_lock", r.region_type.len);
    assert_int_equal(r.begin_line, 9);
    assert_int_equal(weft_ctc_parse_proposal("0*type=omp_get_nested**", SIZE_MAX, &r), WEFT_OK);
    assert_int_equal(r.construct, WEFT_CTC_RUNTIME_CALL);
    /* Neither OPARI2's dialect nor the construct's own text make one. */
    assert_int_equal(
        weft_ctc_parse("0*regionType=omp_set_lock*sscl=a.c:1:1*escl=a.c:1:1**", SIZE_MAX, &r),
        WEFT_ERR_INVALID);
    assert_int_equal(r.construct, WEFT_CTC_UNKNOWN);
    assert_int_equal(weft_ctc_parse_proposal("0*type=runtime call**", SIZE_MAX, &r),
                     WEFT_ERR_INVALID);
    assert_int_equal(r.construct, WEFT_CTC_UNKNOWN);

    static const struct {
        const char *text, *problem;
    } bad[] = {
        {"2**", "no type"},
        {"19*type=nosuch**", "type is not known"},
        {"0*type=omp_set_locks**", "type is not known"},
        {"0*type=for*lines=7**", "a line pair has no ','"},
        {"0*type=for*slines=x,2**", "a line number is not a number"},
        {"0*type=for*elines=1,99999999999**", "a line number is too large"},
        {"0*type=for", "the string ends before the final '*'"},
        {NULL, "no CTC string"},
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        assert_int_equal(weft_ctc_parse_proposal(bad[i].text, SIZE_MAX, &r), WEFT_ERR_INVALID);
        assert_string_equal(r.problem, bad[i].problem);
    }
}

static void test_mutations(void **state)
{
    (void)state;
    mutation_count = 0;
    for (size_t i = 0; i < real_count; i++) {
        mutate_one(real[i]);
        assert_int_equal(mutant(real[i], strlen(real[i])), WEFT_OK);
    }
    assert_true(mutation_count > 50000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_real_strings),
        cmocka_unit_test(test_constructs),
        cmocka_unit_test(test_well_formed_variants),
        cmocka_unit_test(test_problems),
        cmocka_unit_test(test_problem_recovery),
        cmocka_unit_test(test_region_name),
        cmocka_unit_test(test_mutations),
        cmocka_unit_test(test_proposal_dialect),
    };
    return cmocka_run_group_tests(tests, read_real_strings, free_real_strings);
}
/* SPDX-License-Identifier: BSD-3-Clause */
