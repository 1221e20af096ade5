/* What is still open on a location (recorder/open_scopes.c), which the sink
 * closes, innermost first, when the trace is written: regions and thread
 * teams opened and closed in and out of order, closings of nothing, deep
 * nesting, forks and held locks, and running out of memory (then nothing is
 * closed at the end, rather than something wrong). */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "open_scopes.h"
#include "weft/alloc.h"

#define R WEFT_SCOPE_REGION
#define T WEFT_SCOPE_TEAM
#define F WEFT_SCOPE_FORK
#define L WEFT_SCOPE_LOCK

/* An opening as the sink notes an enter or team begin (no task: the
 * implicit one). */
static void open_scope(weft_open_scopes *s, weft_scope_kind kind, uint32_t id)
{
    weft__scopes_open_scope(s, (weft_scope){.id = id, .kind = (uint8_t)kind});
}

/* Pops everything and checks it against want[] (kind, id pairs, innermost
 * first). */
static void expect_open(weft_open_scopes *s, const uint32_t (*want)[2], size_t count)
{
    weft_scope scope;
    for (size_t i = 0; i < count; i++) {
        if (!weft__scopes_pop(s, &scope))
            fail_msg("pop %zu of %zu: nothing left", i + 1, count);
        assert_int_equal(scope.kind, want[i][0]);
        assert_int_equal(scope.id, want[i][1]);
    }
    assert_false(weft__scopes_pop(s, &scope));
    weft__scopes_free(s);
}

#define EXPECT_OPEN(s, ...)                                                                        \
    do {                                                                                           \
        static const uint32_t want_[][2] = {__VA_ARGS__};                                          \
        expect_open(s, want_, sizeof(want_) / sizeof(want_[0]));                                   \
    } while (0)

static void test_closed_innermost_first(void **state)
{
    (void)state;
    weft_open_scopes s = {0};
    open_scope(&s, R, 1);
    open_scope(&s, T, 7);
    open_scope(&s, R, 2);
    open_scope(&s, R, UINT32_MAX);
    weft__scopes_close(&s, R, UINT32_MAX);
    assert_int_equal(s.depth, 3);
    EXPECT_OPEN(&s, {R, 2}, {T, 7}, {R, 1});
    assert_int_equal(s.depth, 0);
    assert_null(s.items);
}

/* A closing removes the innermost scope it matches: of the same kind and
 * id (a team and a region of equal ids are different scopes). */
static void test_close_matches_kind_and_id(void **state)
{
    (void)state;
    weft_open_scopes s = {0};
    open_scope(&s, R, 5);
    open_scope(&s, R, 6);
    open_scope(&s, R, 5);
    weft__scopes_close(&s, T, 5); /* no team 5: nothing */
    weft__scopes_close(&s, R, 9); /* never opened: nothing */
    assert_int_equal(s.depth, 3);
    weft__scopes_close(&s, R, 5);
    EXPECT_OPEN(&s, {R, 6}, {R, 5});

    weft__scopes_close(&s, R, 1); /* on an empty tracker */
    assert_int_equal(s.depth, 0);
}

/* Out of order: closing an outer scope also forgets what was opened inside
 * it, so nothing inside is closed again later. */
static void test_out_of_order_close(void **state)
{
    (void)state;
    weft_open_scopes s = {0};
    open_scope(&s, R, 1);
    open_scope(&s, T, 3);
    open_scope(&s, R, 2);
    open_scope(&s, R, 4);
    weft__scopes_close(&s, T, 3);
    assert_int_equal(s.depth, 1);
    weft__scopes_close(&s, R, 2); /* forgotten already */
    EXPECT_OPEN(&s, {R, 1});
}

static void test_deep_nesting(void **state)
{
    (void)state;
    weft_open_scopes s = {0};
    for (uint32_t i = 0; i < 1000; i++)
        open_scope(&s, i % 3 ? R : T, i);
    for (uint32_t i = 1000; i-- > 0;) {
        weft_scope scope;
        assert_true(weft__scopes_pop(&s, &scope));
        assert_int_equal(scope.kind, i % 3 ? R : T);
        assert_int_equal(scope.id, i);
    }
    weft__scopes_free(&s);
}

/* When the tracker cannot grow, it stops for good: nothing is closed at the
 * end (some scopes would be missing, and closing the rest could close
 * them in the wrong place). */
static void test_out_of_memory_stops_tracking(void **state)
{
    (void)state;
    weft_open_scopes s = {0};
    weft_alloc_fail_after(0);
    open_scope(&s, R, 1);
    weft_alloc_fail_after(-1);
    assert_true(s.overflow);
    open_scope(&s, R, 2);
    weft_scope scope;
    assert_false(weft__scopes_pop(&s, &scope));

    weft__scopes_free(&s);
    assert_false(s.overflow);
    open_scope(&s, R, 1);
    for (uint32_t i = 1; i < s.capacity; i++)
        open_scope(&s, T, i);
    weft_alloc_fail_after(0); /* the growth past the first capacity fails */
    open_scope(&s, R, 99);
    weft_alloc_fail_after(-1);
    assert_true(s.overflow);
    weft__scopes_close(&s, T, s.capacity - 1); /* closings still count */
    assert_int_equal(s.depth, s.capacity - 1);
    assert_false(weft__scopes_pop(&s, &scope));
    weft__scopes_free(&s);
    weft__scopes_free(&s); /* twice is harmless */
}

/* Forks and locks are scopes too (a thread that exits inside a parallel
 * region leaves its fork without a join; a signal can come while a lock is
 * held): a fork closes by kind alone (a join names no fork), keeps what its
 * opening carried (the paradigm), and an out-of-order join forgets the
 * regions inside it, like a region's leave. */
static void test_forks(void **state)
{
    (void)state;
    weft_open_scopes s = {0};
    open_scope(&s, R, 1);
    weft__scopes_open_scope(&s, (weft_scope){.kind = F, .small = 3});
    open_scope(&s, R, 2);
    open_scope(&s, T, 4);
    assert_true(weft__scopes_close(&s, F, 0));
    assert_int_equal(s.depth, 1);
    assert_false(weft__scopes_close(&s, F, 0)); /* a join without its fork */
    weft__scopes_open_scope(&s, (weft_scope){.kind = F, .small = 3});
    weft_scope scope;
    assert_true(weft__scopes_pop(&s, &scope));
    assert_int_equal(scope.kind, F);
    assert_int_equal(scope.small, 3);
    EXPECT_OPEN(&s, {R, 1});
}

/* Locks need not nest: a release removes its lock alone, wherever it is;
 * a region or fork that closes keeps the locks acquired inside it held
 * (their release may come later); a release of a lock never acquired here
 * matches nothing. */
static void test_locks(void **state)
{
    (void)state;
    weft_open_scopes s = {0};
    open_scope(&s, R, 1);
    weft__scopes_open_scope(&s, (weft_scope){.kind = L, .id = 7, .small = 2, .extra = 11});
    open_scope(&s, R, 2);
    weft__scopes_open_scope(&s, (weft_scope){.kind = L, .id = 8, .small = 2, .extra = 12});
    assert_true(weft__scopes_close(&s, L, 7)); /* not the innermost */
    assert_int_equal(s.depth, 3);
    assert_false(weft__scopes_close(&s, L, 9));
    assert_true(weft__scopes_close(&s, R, 1)); /* lock 8 stays held */
    assert_int_equal(s.depth, 1);
    weft_scope scope;
    assert_true(weft__scopes_pop(&s, &scope));
    assert_int_equal(scope.kind, L);
    assert_int_equal(scope.id, 8);
    assert_int_equal(scope.small, 2);
    assert_int_equal(scope.extra, 12);
    assert_false(weft__scopes_pop(&s, &scope));
    weft__scopes_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_closed_innermost_first),
        cmocka_unit_test(test_close_matches_kind_and_id),
        cmocka_unit_test(test_out_of_order_close),
        cmocka_unit_test(test_deep_nesting),
        cmocka_unit_test(test_out_of_memory_stops_tracking),
        cmocka_unit_test(test_forks),
        cmocka_unit_test(test_locks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
/* SPDX-License-Identifier: BSD-3-Clause */
