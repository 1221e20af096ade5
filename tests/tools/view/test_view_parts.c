/* Unit tests of `weft view`'s parts that the pages from traces exercise
 * only partly: the external sort across many sorted runs (a 16 MiB run
 * holds more than the suite's traces give), a table cut by the hard stop
 * (still a complete zlib stream of whole blocks), the nesting's repairs of
 * unbalanced input, the histogram edges, and JSON strings from the trace. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <zlib.h>

#include "view.h"

/* --- the external sort ------------------------------------------------------------- */

static uint64_t next_random(uint64_t *x)
{
    *x ^= *x << 13, *x ^= *x >> 7, *x ^= *x << 17;
    return *x;
}

/* 5,000 records in runs of 64: 79 runs merged, in order, twice. */
static void test_spill_runs(void **state)
{
    (void)state;
    view_spill s;
    weft__view_spill_init(&s, 3, 2);
    s.buffer_capacity = 64; /* before the first add: runs of 64 records */
    uint64_t x = 88172645463325252u, sum = 0;
    enum { N = 5000 };
    for (uint64_t i = 0; i < N; i++) {
        uint64_t r[3] = {next_random(&x) % 100, i, next_random(&x)};
        sum += r[2];
        weft__view_spill_add(&s, r);
    }
    assert_false(s.failed);
    assert_int_equal(s.run_count, N / 64);
    for (int pass = 0; pass < 2; pass++) {
        assert_true(weft__view_spill_rewind(&s));
        uint64_t r[3], prev[3] = {0, 0, 0}, n = 0, seen = 0;
        while (weft__view_spill_next(&s, r)) {
            if (n > 0)
                assert_true(r[0] > prev[0] || (r[0] == prev[0] && r[1] > prev[1]));
            memcpy(prev, r, sizeof(r));
            seen += r[2];
            n++;
        }
        assert_int_equal(n, N);
        assert_true(seen == sum);
    }
    weft__view_spill_free(&s);
}

/* Without a full run nothing goes to disk; the records come back sorted. */
static void test_spill_in_memory(void **state)
{
    (void)state;
    view_spill s;
    weft__view_spill_init(&s, 2, 2);
    for (uint64_t i = 10; i > 0; i--)
        weft__view_spill_add(&s, (uint64_t[]){i, 0});
    assert_true(weft__view_spill_rewind(&s));
    assert_int_equal(s.run_count, 0);
    uint64_t r[2];
    for (uint64_t i = 1; i <= 10; i++) {
        assert_true(weft__view_spill_next(&s, r));
        assert_int_equal(r[0], i);
    }
    assert_false(weft__view_spill_next(&s, r));
    weft__view_spill_free(&s);
}

/* --- tables and the hard stop ------------------------------------------------------- */

/* Decodes the blocks of a visits table; returns the records, checks the layout. */
static uint64_t uvar(const unsigned char *p, size_t *pos)
{
    uint64_t v = 0;
    for (int shift = 0;; shift += 7) {
        unsigned char b = p[(*pos)++];
        v |= (uint64_t)(b & 0x7f) << shift;
        if (b < 0x80)
            return v;
    }
}

static uint64_t count_records(const unsigned char *raw, size_t n, size_t columns)
{
    size_t pos = 0;
    uint64_t records = 0;
    while (pos < n) {
        uint64_t k = uvar(raw, &pos);
        assert_true(k > 0);
        for (size_t c = 0; c < columns; c++) {
            uint64_t length = uvar(raw, &pos);
            pos += length;
        }
        records += k;
    }
    assert_int_equal(pos, n);
    return records;
}

static void check_stream(view_table *t)
{
    uLongf size = (uLongf)t->z.raw + 16;
    unsigned char *raw = malloc(size);
    assert_int_equal(uncompress(raw, &size, t->z.out.data, t->z.out.len), Z_OK);
    assert_int_equal(size, t->z.raw);
    assert_int_equal(count_records(raw, size, t->spec->columns), t->count);
    free(raw);
}

static void test_table_cut(void **state)
{
    (void)state;
    view_table t;
    assert_true(weft__view_table_init(&t, &weft__view_visits_spec));
    t.block_records = 100;
    uint64_t x = 2463534242u;
    bool cut = false, stopped = false;
    uint64_t limit = 3000, added = 0;
    for (uint64_t i = 0; i < 20000 && !stopped; i++) {
        uint64_t row[5] = {i * 10, next_random(&x) % 1000, i % 7, i % 3, next_random(&x) % 50};
        weft__view_table_add(&t, row);
        added++;
        if (t.in_block == t.block_records) {
            weft__view_table_encode_block(&t);
            stopped = !weft__view_table_feed_block(&t, limit, &cut);
        }
    }
    assert_true(stopped && cut);
    assert_true(t.z.out.len <= limit);
    assert_true(t.count > 0 && t.count < added && t.count % 100 == 0);
    check_stream(&t);
    weft__view_table_free(&t);

    /* The same records without a limit: one stream of every block. */
    assert_true(weft__view_table_init(&t, &weft__view_visits_spec));
    for (uint64_t i = 0; i < 1000; i++)
        weft__view_table_add(&t, (uint64_t[]){i, 1, 0, 0, 0});
    assert_true(weft__view_table_finish(&t, 0, &cut));
    assert_int_equal(t.count, 1000);
    check_stream(&t);
    weft__view_table_free(&t);
}

/* --- nesting repairs ------------------------------------------------------------------ */

typedef struct visit_log {
    uint64_t region[8], start[8], end[8], depth[8];
    size_t n;
} visit_log;

static void log_visit(void *ctx, const view_frame *f, uint64_t end, uint64_t depth)
{
    visit_log *l = ctx;
    l->region[l->n] = f->region, l->start[l->n] = f->start, l->end[l->n] = end;
    l->depth[l->n++] = depth;
}

static void test_nest_repairs(void **state)
{
    (void)state;
    static const view_nest_hooks hooks = {NULL, NULL, log_visit};
    visit_log log = {0};
    view_nest n;
    assert_true(weft__view_nest_init(&n, 3, &hooks, &log));
    weft__view_nest_begin(&n);
    weft__view_nest_leave(&n, 2, 5); /* not open: ignored */
    assert_true(weft__view_nest_enter(&n, 0, 10));
    assert_true(weft__view_nest_enter(&n, 1, 20));
    assert_true(weft__view_nest_enter(&n, 2, 15)); /* earlier: taken at 20 */
    weft__view_nest_leave(&n, 1, 30);              /* closes 2 too */
    assert_true(weft__view_nest_enter(&n, 2, 40));
    weft__view_nest_end(&n); /* 2 and 0 closed at 40 */
    assert_int_equal(n.unbalanced, 4);
    assert_int_equal(log.n, 4);
    uint64_t want[4][4] = {{2, 20, 30, 2}, {1, 20, 30, 1}, {2, 40, 40, 1}, {0, 10, 40, 0}};
    for (size_t i = 0; i < 4; i++) {
        assert_int_equal(log.region[i], want[i][0]);
        assert_int_equal(log.start[i], want[i][1]);
        assert_int_equal(log.end[i], want[i][2]);
        assert_int_equal(log.depth[i], want[i][3]);
    }
    weft__view_nest_free(&n);
}

/* --- histograms and JSON ---------------------------------------------------------------- */

static void test_histogram_edges(void **state)
{
    (void)state;
    assert_int_equal(weft__view_edge(0), 0);
    assert_int_equal(weft__view_edge(1), 1);
    assert_int_equal(weft__view_edge(5), 2);
    assert_int_equal(weft__view_edge(6), 3); /* ceil(2^1.25) */
    assert_int_equal(weft__view_bucket(0), 0);
    assert_int_equal(weft__view_bucket(1), 1); /* E_2 = ceil(2^0.25) = 2 */
    assert_int_equal(weft__view_bucket(2), 5);
    assert_int_equal(weft__view_bucket(UINT64_MAX), VIEW_HISTOGRAM_BUCKETS - 1);
    for (uint64_t d = 1; d < 100000; d = d * 3 + 1) {
        size_t k = weft__view_bucket(d);
        assert_true(weft__view_edge(k) <= d);
        assert_true(k + 1 == VIEW_HISTOGRAM_BUCKETS || weft__view_edge(k + 1) > d);
    }
}

static void test_json_strings(void **state)
{
    (void)state;
    view_buf b = {0};
    weft__view_json_string(&b, "a<\"\\\n\xff\xc3\xa9</script>");
    weft__view_buf_append(&b, "", 1);
    assert_string_equal((char *)b.data,
                        "\"a\\u003c\\\"\\\\\\u000a\xef\xbf\xbd\xc3\xa9\\u003c/script>\"");
    b.len = 0;
    char longname[700];
    memset(longname, 'x', sizeof(longname) - 1);
    longname[sizeof(longname) - 1] = '\0';
    weft__view_json_string(&b, longname);
    assert_int_equal(b.len, 2 + 512 + 3); /* quotes, 512 bytes, the ellipsis */
    weft__view_buf_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spill_runs),      cmocka_unit_test(test_spill_in_memory),
        cmocka_unit_test(test_table_cut),       cmocka_unit_test(test_nest_repairs),
        cmocka_unit_test(test_histogram_edges), cmocka_unit_test(test_json_strings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
/* SPDX-License-Identifier: BSD-3-Clause */
