/* Scopes across a pause of recording (recorder/pause.c): which events of a
 * thread are recorded while recording is paused and after it resumes, so
 * that every location's trace stays balanced, and what the thread keeps
 * meanwhile. Each scenario is a table of events, each with the pause state
 * it comes in, whether it must be recorded and how many scopes the thread
 * must be tracking after it; a scenario starts from an empty stack. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "event_codec.h"
#include "pause.h"
#include "weft/alloc.h"

typedef struct step {
    uint8_t kind;
    uint32_t ref;
    bool paused;
    bool recorded;  /* expected */
    uint32_t depth; /* expected scopes tracked after it */
} step;

enum { P = true, R = true, _ = false };

#define E(kind) WEFT_EVENT_##kind

static void play(const char *name, const step *steps, size_t count)
{
    weft_pause_stack stack = {0};
    for (size_t i = 0; i < count; i++) {
        const step *s = &steps[i];
        bool recorded = weft__pause_admit(&stack, s->kind, s->ref, s->paused);
        if (recorded != s->recorded || stack.depth != s->depth)
            fail_msg("%s, step %zu (%s %u%s): recorded %d (want %d), tracking %u (want %u)", name,
                     i + 1, weft__event_kind_name(s->kind), s->ref, s->paused ? ", paused" : "",
                     recorded, s->recorded, stack.depth, s->depth);
    }
    weft__pause_free(&stack);
    assert_null(stack.items);
    assert_int_equal(stack.depth, 0);
}

#define PLAY(steps) play(#steps, steps, sizeof(steps) / sizeof(steps[0]))

/* clang-format off */

/* Without a pause nothing is tracked and everything is recorded. */
static const step unpaused[] = {
    {E(ENTER), 1, _, R, 0},        {E(LOCK_ACQUIRE), 7, _, R, 0},
    {E(TASK_CREATE), 2, _, R, 0},  {E(MPI_SEND), 0, _, R, 0},
    {E(LOCK_RELEASE), 7, _, R, 0}, {E(LEAVE), 1, _, R, 0},
};

/* Entered before the pause, left during it: the leave is recorded; what is
 * entered and left within the pause is not, nor are other events. */
static const step closed_during_pause[] = {
    {E(ENTER), 1, _, R, 0},
    {E(ENTER), 2, P, _, 1},
    {E(MPI_SEND), 0, P, _, 1},
    {E(LEAVE), 2, P, _, 0},
    {E(LEAVE), 1, P, R, 0},
    {E(TASK_CREATE), 0, P, _, 0},
};

/* Entered during the pause, left after it: neither is recorded; what is
 * entered after the pause meanwhile is recorded, both ways, and tracked. */
static const step opened_during_pause[] = {
    {E(ENTER), 3, P, _, 1},
    {E(ENTER), 4, _, R, 2},
    {E(MPI_SEND), 0, _, R, 2},
    {E(LEAVE), 4, _, R, 1},
    {E(LEAVE), 3, _, _, 0},
    {E(ENTER), 5, _, R, 0}, /* nothing pending: no longer tracked */
    {E(LEAVE), 5, _, R, 0},
};

/* The same region nested: a leave closes the innermost one. */
static const step recursion[] = {
    {E(ENTER), 1, _, R, 0},
    {E(ENTER), 1, P, _, 1},
    {E(LEAVE), 1, P, _, 0},
    {E(LEAVE), 1, P, R, 0},
    {E(ENTER), 1, P, _, 1},
    {E(ENTER), 1, _, R, 2},
    {E(LEAVE), 1, _, R, 1},
    {E(LEAVE), 1, _, _, 0},
};

/* Locks are released in any order and matched by lock id. */
static const step locks[] = {
    {E(LOCK_ACQUIRE), 9, _, R, 0},
    {E(LOCK_ACQUIRE), 7, P, _, 1},
    {E(LOCK_RELEASE), 9, P, R, 1},
    {E(LOCK_ACQUIRE), 8, _, R, 2},
    {E(LOCK_RELEASE), 7, _, _, 1},
    {E(LOCK_RELEASE), 8, _, R, 0},
};

/* Teams are matched by team, forks by kind alone (a join names no team),
 * and a closing never matches a scope of another kind. */
static const step teams_and_forks[] = {
    {E(THREAD_FORK), 4, P, _, 1},
    {E(THREAD_TEAM_BEGIN), 11, P, _, 2},
    {E(THREAD_TEAM_BEGIN), 12, _, R, 3},
    {E(THREAD_TEAM_END), 12, _, R, 2},
    {E(THREAD_TEAM_END), 11, _, _, 1},
    {E(THREAD_JOIN), 0, _, _, 0},
    {E(ENTER), 5, P, _, 1},
    {E(THREAD_TEAM_END), 5, P, R, 1}, /* a team begun before the pause */
    {E(LEAVE), 5, _, _, 0},
};

/* An MPI collective (begin, end; the end names the communicator, the begin
 * none) is a scope too: begun before a pause another thread started, its
 * end is recorded; begun during one, its end is not. */
static const step collectives[] = {
    {E(ENTER), 20, _, R, 0},
    {E(MPI_COLLECTIVE_BEGIN), 0, _, R, 0},
    {E(MPI_COLLECTIVE_END), 3, P, R, 0},
    {E(LEAVE), 20, P, R, 0},
    {E(ENTER), 20, P, _, 1},
    {E(MPI_COLLECTIVE_BEGIN), 0, P, _, 2},
    {E(MPI_COLLECTIVE_END), 3, _, _, 1},
    {E(LEAVE), 20, _, _, 0},
};

/* clang-format on */

static void test_scenarios(void **state)
{
    (void)state;
    PLAY(unpaused);
    PLAY(closed_during_pause);
    PLAY(opened_during_pause);
    PLAY(recursion);
    PLAY(locks);
    PLAY(teams_and_forks);
    PLAY(collectives);
}

/* Deep nesting grows the stack; when it cannot grow, the opening is
 * recorded although paused, and so is its closing: still balanced. */
static void test_growth_and_out_of_memory(void **state)
{
    (void)state;
    weft_pause_stack stack = {0};
    for (uint32_t i = 0; i < 40; i++)
        assert_false(weft__pause_admit(&stack, WEFT_EVENT_ENTER, i, true));
    assert_int_equal(stack.depth, 40);
    for (uint32_t i = 40; i-- > 0;)
        assert_false(weft__pause_admit(&stack, WEFT_EVENT_LEAVE, i, false));
    assert_int_equal(stack.depth, 0);
    uint32_t capacity = stack.capacity;
    weft__pause_free(&stack);

    for (uint32_t i = 0; i < capacity; i++)
        assert_false(weft__pause_admit(&stack, WEFT_EVENT_ENTER, i, true));
    weft_alloc_fail_after(0);
    assert_true(weft__pause_admit(&stack, WEFT_EVENT_ENTER, 100, true));
    weft_alloc_fail_after(-1);
    assert_int_equal(stack.depth, capacity); /* the items are kept */
    assert_true(weft__pause_admit(&stack, WEFT_EVENT_LEAVE, 100, true));
    assert_false(weft__pause_admit(&stack, WEFT_EVENT_LEAVE, capacity - 1, true));
    assert_int_equal(stack.depth, capacity - 1);
    weft__pause_free(&stack);
    weft__pause_free(&stack); /* twice is harmless */
    assert_int_equal(stack.capacity, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scenarios),
        cmocka_unit_test(test_growth_and_out_of_memory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
/* SPDX-License-Identifier: BSD-3-Clause */
