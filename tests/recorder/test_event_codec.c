/* The buffer encoding: every event kind survives encode + decode with all
 * its fields, sizes match the table, and bad input decodes to nothing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "event_codec.h"

static void decodes(const weft_slot *slots, size_t count, weft_event *e, size_t expected_slots)
{
    size_t used = weft__event_decode(slots, count, e);
    assert_int_equal(used, expected_slots);
}

static void test_head_only_kinds(void **state)
{
    (void)state;
    const uint8_t kinds[] = {WEFT_EVENT_ENTER, WEFT_EVENT_LEAVE, WEFT_EVENT_THREAD_FORK,
                             WEFT_EVENT_THREAD_JOIN, WEFT_EVENT_THREAD_TEAM_BEGIN,
                             WEFT_EVENT_THREAD_TEAM_END, WEFT_EVENT_MPI_COLLECTIVE_BEGIN,
                             WEFT_EVENT_MEASUREMENT_ON_OFF};
    for (size_t i = 0; i < sizeof(kinds); i++) {
        weft_slot s[1];
        weft__encode_head(s, kinds[i], 123456789012345u + i, 7, 0xdeadbeefu - (uint32_t)i);
        weft_event e;
        decodes(s, 1, &e, 1);
        assert_int_equal(e.kind, kinds[i]);
        assert_int_equal(e.time, 123456789012345u + i);
        assert_int_equal(e.small, 7);
        assert_int_equal(e.ref, 0xdeadbeefu - (uint32_t)i);
        assert_int_equal(weft__event_slots(kinds[i], 0), 1);
    }
}

static void test_pair_kinds(void **state)
{
    (void)state;
    const uint8_t kinds[] = {WEFT_EVENT_LOCK_ACQUIRE, WEFT_EVENT_LOCK_RELEASE,
                             WEFT_EVENT_TASK_CREATE, WEFT_EVENT_TASK_SWITCH,
                             WEFT_EVENT_TASK_COMPLETE};
    for (size_t i = 0; i < sizeof(kinds); i++) {
        weft_slot s[2];
        weft__encode_pair(s, kinds[i], 99, 3, 42, UINT32_MAX, 0x12345678u);
        weft_event e;
        decodes(s, 2, &e, 2);
        assert_int_equal(e.kind, kinds[i]);
        assert_int_equal(e.small, 3);
        assert_int_equal(e.ref, 42);
        assert_int_equal(e.a, UINT32_MAX);
        assert_int_equal(e.b, 0x12345678u);
    }
}

static void test_messages(void **state)
{
    (void)state;
    const uint8_t kinds[] = {WEFT_EVENT_MPI_SEND, WEFT_EVENT_MPI_RECV, WEFT_EVENT_MPI_ISEND,
                             WEFT_EVENT_MPI_IRECV};
    const size_t sizes[] = {2, 2, 3, 3};
    for (size_t i = 0; i < sizeof(kinds); i++) {
        weft_slot s[3];
        memset(s, 0xff, sizeof(s));
        weft__encode_message(s, kinds[i], 5, 3, 17, 0xabcdu, UINT64_C(1) << 40, 77);
        weft_event e;
        decodes(s, 3, &e, sizes[i]);
        assert_int_equal(e.kind, kinds[i]);
        assert_int_equal(e.a, 3);
        assert_int_equal(e.ref, 17);
        assert_int_equal(e.b, 0xabcdu);
        assert_int_equal(e.bytes, UINT64_C(1) << 40);
        assert_int_equal(e.request, sizes[i] == 3 ? 77 : 0);
    }
}

static void test_words_and_collective(void **state)
{
    (void)state;
    const uint8_t kinds[] = {WEFT_EVENT_MPI_ISEND_COMPLETE, WEFT_EVENT_MPI_IRECV_REQUEST,
                             WEFT_EVENT_MPI_REQUEST_TEST, WEFT_EVENT_MPI_REQUEST_CANCELLED};
    for (size_t i = 0; i < sizeof(kinds); i++) {
        weft_slot s[2];
        weft__encode_word(s, kinds[i], 8, UINT64_MAX - i);
        weft_event e;
        decodes(s, 2, &e, 2);
        assert_int_equal(e.request, UINT64_MAX - i);
    }
    weft_slot f[2];
    weft__encode_word(f, WEFT_EVENT_BUFFER_FLUSH, 100, 250);
    weft_event e;
    decodes(f, 2, &e, 2);
    assert_int_equal(e.time, 100);
    assert_int_equal(e.bytes, 250); /* the stop time */

    weft_slot c[3];
    weft__encode_collective_end(c, 9, 11, 4, 2, 1000, 2000);
    decodes(c, 3, &e, 3);
    assert_int_equal(e.kind, WEFT_EVENT_MPI_COLLECTIVE_END);
    assert_int_equal(e.small, 11);
    assert_int_equal(e.ref, 4);
    assert_int_equal(e.a, 2);
    assert_int_equal(e.bytes, 1000);
    assert_int_equal(e.bytes_received, 2000);
}

static void test_metric_sizes(void **state)
{
    (void)state;
    uint64_t values[WEFT_METRIC_MAX_VALUES];
    for (int i = 0; i < WEFT_METRIC_MAX_VALUES; i++)
        values[i] = (uint64_t)i * 1000003u;
    for (uint16_t count = 0; count <= WEFT_METRIC_MAX_VALUES; count++) {
        weft_slot s[WEFT_EVENT_MAX_SLOTS];
        weft__encode_metric(s, 1, 6, count, values);
        weft_event e;
        decodes(s, WEFT_EVENT_MAX_SLOTS, &e, 1 + (count + 1u) / 2);
        assert_int_equal(e.value_count, count);
        for (uint16_t i = 0; i < count; i++)
            assert_int_equal(e.values[i], values[i]);
    }
}

static void test_sequence_and_bad_input(void **state)
{
    (void)state;
    weft_slot s[6];
    weft__encode_head(&s[0], WEFT_EVENT_ENTER, 1, 0, 1);
    weft__encode_message(&s[1], WEFT_EVENT_MPI_ISEND, 2, 1, 0, 0, 8, 5);
    weft__encode_pair(&s[4], WEFT_EVENT_LOCK_ACQUIRE, 3, 0, 0, 1, 0);
    weft_event e;
    size_t at = 0, events = 0, used;
    while (at < 6 && (used = weft__event_decode(s + at, 6 - at, &e))) {
        at += used;
        events++;
    }
    assert_int_equal(events, 3);
    assert_int_equal(at, 6);

    /* Cut short, unknown kind, kind 0, empty input, oversized metric. */
    assert_int_equal(weft__event_decode(&s[1], 2, &e), 0);
    weft_slot bad[2];
    weft__encode_head(bad, WEFT_EVENT_KIND_COUNT, 1, 0, 0);
    assert_int_equal(weft__event_decode(bad, 2, &e), 0);
    weft__encode_head(bad, WEFT_EVENT_NONE, 1, 0, 0);
    assert_int_equal(weft__event_decode(bad, 2, &e), 0);
    assert_int_equal(weft__event_decode(bad, 0, &e), 0);
    weft__encode_head(bad, WEFT_EVENT_METRIC, 1, 0, 0);
    bad[0].head.count = WEFT_METRIC_MAX_VALUES + 1;
    assert_int_equal(weft__event_decode(bad, 2, &e), 0);
    assert_string_equal(weft__event_kind_name(WEFT_EVENT_ENTER), "ENTER");
    assert_string_equal(weft__event_kind_name(200), "INVALID");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_head_only_kinds),   cmocka_unit_test(test_pair_kinds),
        cmocka_unit_test(test_messages),          cmocka_unit_test(test_words_and_collective),
        cmocka_unit_test(test_metric_sizes),      cmocka_unit_test(test_sequence_and_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
/* SPDX-License-Identifier: BSD-3-Clause */
