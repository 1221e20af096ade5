/* Unit tests of the `weft summary` builder (tools/summary_model.c): nesting,
 * recursion, unbalanced input, the spread across locations, and sorting.
 * Each case is a table of enter/leave events per location and the sums it
 * must give; no OTF2 file is involved. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "summary.h"

#define MAX_EVENTS 16
#define MAX_LOCATIONS 3
#define MAX_REGIONS 3

typedef struct event {
    char kind; /* 'E' enter, 'L' leave, 0 ends the location */
    size_t region;
    uint64_t time;
} event;

typedef struct expected_region {
    uint64_t visits, incl, excl, min, max, locations;
} expected_region;

typedef struct model_case {
    const char *name;
    size_t region_count;
    event locations[MAX_LOCATIONS][MAX_EVENTS]; /* an empty list ends the locations */
    expected_region regions[MAX_REGIONS];
    uint64_t root_incl;
    uint64_t unbalanced;
} model_case;

/* clang-format off */
static const model_case cases[] = {
    {"nested", 2,
     {{{'E', 0, 0}, {'E', 1, 10}, {'L', 1, 30}, {'L', 0, 100}}},
     {{1, 100, 80, 100, 100, 1}, {1, 20, 20, 20, 20, 1}}, 100, 0},
    {"direct recursion counts the outermost instance only", 1,
     {{{'E', 0, 0}, {'E', 0, 10}, {'L', 0, 20}, {'L', 0, 50}}},
     {{2, 50, 50, 50, 50, 1}}, 50, 0},
    {"mutual recursion", 2,
     {{{'E', 0, 0}, {'E', 1, 10}, {'E', 0, 20}, {'L', 0, 30}, {'L', 1, 40}, {'L', 0, 50}}},
     {{2, 50, 30, 50, 50, 1}, {1, 30, 20, 30, 30, 1}}, 50, 0},
    {"a leave without enter is ignored", 2,
     {{{'L', 1, 5}, {'E', 0, 10}, {'L', 0, 20}}},
     {{1, 10, 10, 10, 10, 1}, {0, 0, 0, 0, 0, 0}}, 10, 1},
    {"regions open at the end close at the last timestamp", 2,
     {{{'E', 0, 0}, {'E', 1, 10}, {'L', 1, 20}}},
     {{1, 20, 10, 20, 20, 1}, {1, 10, 10, 10, 10, 1}}, 20, 1},
    {"leaving an outer region closes the inner ones", 2,
     {{{'E', 0, 0}, {'E', 1, 10}, {'L', 0, 30}}},
     {{1, 30, 10, 30, 30, 1}, {1, 20, 20, 20, 20, 1}}, 30, 1},
    {"spread across locations", 2,
     {{{'E', 0, 0}, {'L', 0, 10}},
      {{'E', 0, 0}, {'L', 0, 30}, {'E', 0, 40}, {'E', 1, 45}, {'L', 1, 46}, {'L', 0, 50}},
      {{'E', 1, 0}, {'L', 1, 7}}},
     {{3, 50, 49, 10, 40, 2}, {2, 8, 8, 1, 7, 2}}, 57, 0},
    {"a clock going backwards gives zero, not a wrap", 1,
     {{{'E', 0, 100}, {'L', 0, 50}}},
     {{1, 0, 0, 0, 0, 1}}, 0, 0},
    {"an open region on one location does not leak into the next", 1,
     {{{'E', 0, 0}, {'E', 0, 5}}, {{'E', 0, 10}, {'L', 0, 12}}},
     {{3, 7, 7, 2, 5, 2}}, 7, 2},
};
/* clang-format on */

static void run_case(const model_case *c)
{
    weft_summary_builder *b = weft__summary_builder_create(c->region_count);
    assert_non_null(b);
    for (size_t l = 0; l < MAX_LOCATIONS && c->locations[l][0].kind; l++) {
        weft__summary_location_begin(b);
        for (const event *e = c->locations[l]; e->kind; e++) {
            if (e->kind == 'E')
                assert_int_equal(weft__summary_enter(b, e->region, e->time), WEFT_OK);
            else
                weft__summary_leave(b, e->region, e->time);
        }
        weft__summary_location_end(b);
    }
    const weft_summary_region *r = weft__summary_builder_regions(b);
    for (size_t i = 0; i < c->region_count; i++) {
        const expected_region *x = &c->regions[i];
        print_message("case '%s', region %zu\n", c->name, i);
        assert_int_equal(r[i].visits, x->visits);
        assert_int_equal(r[i].incl_ticks, x->incl);
        assert_int_equal(r[i].excl_ticks, x->excl);
        assert_int_equal(r[i].min_incl_ticks, x->min);
        assert_int_equal(r[i].max_incl_ticks, x->max);
        assert_int_equal(r[i].location_count, x->locations);
    }
    weft_summary_totals totals = weft__summary_builder_totals(b);
    assert_int_equal(totals.root_incl_ticks, c->root_incl);
    assert_int_equal(totals.unbalanced_count, c->unbalanced);
    weft__summary_builder_destroy(b);
}

static void test_cases(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        run_case(&cases[i]);
}

/* A deep recursion grows the stack well past its first allocation. */
static void test_deep_recursion(void **state)
{
    (void)state;
    enum { DEPTH = 10000 };
    weft_summary_builder *b = weft__summary_builder_create(1);
    assert_non_null(b);
    weft__summary_location_begin(b);
    for (uint64_t i = 0; i < DEPTH; i++)
        assert_int_equal(weft__summary_enter(b, 0, i), WEFT_OK);
    for (uint64_t i = 0; i < DEPTH; i++)
        weft__summary_leave(b, 0, DEPTH + i);
    weft__summary_location_end(b);
    const weft_summary_region *r = weft__summary_builder_regions(b);
    assert_int_equal(r[0].visits, DEPTH);
    assert_int_equal(r[0].incl_ticks, 2 * DEPTH - 1);
    assert_int_equal(r[0].excl_ticks, 2 * DEPTH - 1);
    weft_summary_totals totals = weft__summary_builder_totals(b);
    assert_int_equal(totals.unbalanced_count, 0);
    assert_int_equal(totals.first_ticks, 0);
    assert_int_equal(totals.last_ticks, 2 * DEPTH - 1);
    weft__summary_builder_destroy(b);
}

static void test_bad_region(void **state)
{
    (void)state;
    weft_summary_builder *b = weft__summary_builder_create(2);
    assert_non_null(b);
    weft__summary_location_begin(b);
    assert_int_equal(weft__summary_enter(b, 2, 0), WEFT_ERR_RANGE);
    weft__summary_leave(b, 7, 1);
    weft__summary_location_end(b);
    assert_int_equal(weft__summary_builder_totals(b).unbalanced_count, 1);
    weft__summary_builder_destroy(b);
    weft__summary_builder_destroy(NULL);
}

static void test_no_regions(void **state)
{
    (void)state;
    weft_summary_builder *b = weft__summary_builder_create(0);
    assert_non_null(b);
    weft__summary_location_begin(b);
    weft__summary_location_end(b);
    weft_summary_totals totals = weft__summary_builder_totals(b);
    assert_int_equal(totals.first_ticks, UINT64_MAX);
    assert_int_equal(totals.last_ticks, 0);
    weft__summary_builder_destroy(b);
}

static void test_sort_and_clear(void **state)
{
    (void)state;
    weft_summary s = {0};
    s.region_count = 4;
    s.regions = calloc(s.region_count, sizeof(*s.regions));
    assert_non_null(s.regions);
    static const char *const names[] = {"b", "c", "a", "d"};
    static const uint64_t incl[] = {5, 9, 5, 1};
    for (size_t i = 0; i < s.region_count; i++) {
        s.regions[i].name = strdup(names[i]);
        assert_non_null(s.regions[i].name);
        s.regions[i].incl_ticks = incl[i];
    }
    weft__summary_sort(&s);
    assert_string_equal(s.regions[0].name, "c");
    assert_string_equal(s.regions[1].name, "a");
    assert_string_equal(s.regions[2].name, "b");
    assert_string_equal(s.regions[3].name, "d");
    weft__summary_clear(&s);
    assert_null(s.regions);
    assert_int_equal(s.region_count, 0);
    weft__summary_clear(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cases),       cmocka_unit_test(test_deep_recursion),
        cmocka_unit_test(test_bad_region),  cmocka_unit_test(test_no_regions),
        cmocka_unit_test(test_sort_and_clear),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
/* SPDX-License-Identifier: BSD-3-Clause */
