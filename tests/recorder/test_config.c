/* WEFT_* parsing: sizes with units, booleans, timers and durations,
 * table-driven with bad input; weft_config_load falls back to defaults on bad values; the
 * `weft info` table lists every variable. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "weft/config.h"

typedef struct size_case {
    const char *text;
    weft_status status;
    uint64_t value;
} size_case;

static void test_sizes(void **state)
{
    (void)state;
    static const size_case cases[] = {
        {"4096", WEFT_OK, 4096},
        {"64K", WEFT_OK, 65536},
        {"64k", WEFT_OK, 65536},
        {"16M", WEFT_OK, 16u << 20},
        {"16MB", WEFT_OK, 16u << 20},
        {"16MiB", WEFT_OK, 16u << 20},
        {"1G", WEFT_OK, 1u << 30},
        {"2T", WEFT_OK, UINT64_C(2) << 40},
        {" 8M ", WEFT_OK, 8u << 20},
        {"0", WEFT_OK, 0},
        {"", WEFT_ERR_INVALID, 0},
        {"abc", WEFT_ERR_INVALID, 0},
        {"-1M", WEFT_ERR_INVALID, 0},
        {"16X", WEFT_ERR_INVALID, 0},
        {"16M junk", WEFT_ERR_INVALID, 0},
        {"1.5G", WEFT_ERR_INVALID, 0},
        {"M", WEFT_ERR_INVALID, 0},
        {"99999999999999999999", WEFT_ERR_RANGE, 0},
        {"20000000000G", WEFT_ERR_RANGE, 0},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        uint64_t value = 12345;
        weft_status st = weft_config_parse_size(cases[i].text, &value);
        if (st != cases[i].status || value != cases[i].value)
            fail_msg("'%s': got status %d value %llu", cases[i].text, st,
                     (unsigned long long)value);
    }
    uint64_t value;
    assert_int_equal(weft_config_parse_size(NULL, &value), WEFT_ERR_INVALID);
}

typedef struct duration_case {
    const char *text;
    weft_status status;
    uint64_t ns;
} duration_case;

#define NS_PER_S UINT64_C(1000000000)

static void test_durations(void **state)
{
    (void)state;
    static const duration_case cases[] = {
        {"10s", WEFT_OK, 10 * NS_PER_S},
        {"500ms", WEFT_OK, 500000000},
        {"2m", WEFT_OK, 120 * NS_PER_S},
        {"2min", WEFT_OK, 120 * NS_PER_S},
        {"1.5s", WEFT_OK, 1500000000},
        {"0.25m", WEFT_OK, 15 * NS_PER_S},
        {"1h", WEFT_OK, 3600 * NS_PER_S},
        {"250us", WEFT_OK, 250000},
        {"40ns", WEFT_OK, 40},
        {"0", WEFT_OK, 0},
        {"0s", WEFT_OK, 0},
        {"30", WEFT_OK, 30 * NS_PER_S}, /* plain numbers are seconds */
        {"0.05", WEFT_OK, 50000000},
        {"50MS", WEFT_OK, 50000000}, /* any case */
        {" 10s ", WEFT_OK, 10 * NS_PER_S},
        {"1.0000000019s", WEFT_OK, NS_PER_S + 1}, /* below a nanosecond: dropped */
        {"1.5ns", WEFT_OK, 1},
        {"18446744073ms", WEFT_OK, UINT64_C(18446744073000000)},
        {"18446744073.709551615s", WEFT_OK, UINT64_C(18446744073709551615)},
        {"", WEFT_ERR_INVALID, 0},
        {" ", WEFT_ERR_INVALID, 0},
        {"s", WEFT_ERR_INVALID, 0},
        {"ten seconds", WEFT_ERR_INVALID, 0},
        {"-1s", WEFT_ERR_INVALID, 0},
        {"+1s", WEFT_ERR_INVALID, 0},
        {".5s", WEFT_ERR_INVALID, 0},
        {"1.s", WEFT_ERR_INVALID, 0},
        {"1,5s", WEFT_ERR_INVALID, 0},
        {"10 s", WEFT_ERR_INVALID, 0},
        {"10sec", WEFT_ERR_INVALID, 0},
        {"10d", WEFT_ERR_INVALID, 0},
        {"5mx", WEFT_ERR_INVALID, 0},
        {"1e3", WEFT_ERR_INVALID, 0},
        {"10s junk", WEFT_ERR_INVALID, 0},
        {"18446744074s", WEFT_ERR_RANGE, 0},
        {"18446744073.709551616s", WEFT_ERR_RANGE, 0},
        {"99999999999999999999ns", WEFT_ERR_RANGE, 0},
        {"6000000h", WEFT_ERR_RANGE, 0},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        uint64_t ns = 12345;
        weft_status st = weft_config_parse_duration(cases[i].text, &ns);
        if (st != cases[i].status || ns != cases[i].ns)
            fail_msg("'%s': got status %d value %llu", cases[i].text, st, (unsigned long long)ns);
    }
    uint64_t ns = 12345;
    assert_int_equal(weft_config_parse_duration(NULL, &ns), WEFT_ERR_INVALID);
    assert_int_equal(ns, 0);
}

static void test_bools_and_timers(void **state)
{
    (void)state;
    const char *yes[] = {"true", "TRUE", "yes", "on", "1"};
    const char *no[] = {"false", "No", "off", "0"};
    const char *bad[] = {"", "2", "maybe", "truee"};
    bool b;
    for (size_t i = 0; i < 5; i++) {
        assert_int_equal(weft_config_parse_bool(yes[i], &b), WEFT_OK);
        assert_true(b);
    }
    for (size_t i = 0; i < 4; i++) {
        assert_int_equal(weft_config_parse_bool(no[i], &b), WEFT_OK);
        assert_false(b);
        assert_int_equal(weft_config_parse_bool(bad[i], &b), WEFT_ERR_INVALID);
    }
    weft_timer_kind t;
    assert_int_equal(weft_config_parse_timer("TSC", &t), WEFT_OK);
    assert_int_equal(t, WEFT_TIMER_TSC);
    assert_int_equal(weft_config_parse_timer("monotonic", &t), WEFT_OK);
    assert_int_equal(t, WEFT_TIMER_MONOTONIC);
    assert_int_equal(weft_config_parse_timer("auto", &t), WEFT_OK);
    assert_int_equal(t, WEFT_TIMER_AUTO);
    assert_int_equal(weft_config_parse_timer("rdtsc", &t), WEFT_ERR_INVALID);
}

static void test_load_defaults_and_fallbacks(void **state)
{
    (void)state;
    weft_config cfg;
    unsetenv("WEFT_BUFFER_SIZE");
    unsetenv("WEFT_EXPERIMENT_DIRECTORY");
    setenv("WEFT_TIMER", "monotonic", 1);
    weft_config_load(&cfg);
    assert_true(cfg.enable_tracing);
    assert_int_equal(cfg.buffer_size, 16u << 20);
    assert_null(cfg.experiment_directory);
    assert_int_equal(cfg.timer, WEFT_TIMER_MONOTONIC);
    assert_int_equal(cfg.clock_sync_interval_ns, 10 * NS_PER_S);
    assert_true(cfg.clock_same_machine);

    /* Bad values: each falls back to its default. */
    setenv("WEFT_BUFFER_SIZE", "lots", 1);
    setenv("WEFT_TIMER", "sundial", 1);
    setenv("WEFT_ENABLE_TRACING", "perhaps", 1);
    setenv("WEFT_EXPERIMENT_DIRECTORY", "", 1);
    setenv("WEFT_CLOCK_SYNC_INTERVAL", "often", 1);
    setenv("WEFT_CLOCK_SYNC_SAME_MACHINE", "sometimes", 1);
    weft_config_load(&cfg);
    assert_true(cfg.clock_same_machine);
    setenv("WEFT_CLOCK_SYNC_SAME_MACHINE", "no", 1);
    weft_config_load(&cfg);
    assert_false(cfg.clock_same_machine);
    unsetenv("WEFT_CLOCK_SYNC_SAME_MACHINE");
    weft_config_load(&cfg);
    assert_int_equal(cfg.clock_sync_interval_ns, 10 * NS_PER_S);
    assert_int_equal(cfg.buffer_size, 16u << 20);
    assert_int_equal(cfg.timer, WEFT_TIMER_AUTO);
    assert_true(cfg.enable_tracing);
    assert_null(cfg.experiment_directory);

    setenv("WEFT_BUFFER_SIZE", "1K", 1); /* below the minimum */
    weft_config_load(&cfg);
    assert_int_equal(cfg.buffer_size, 16u << 20);
    setenv("WEFT_BUFFER_SIZE", "1T", 1); /* more than the machine has */
    weft_config_load(&cfg);
    assert_int_equal(cfg.buffer_size, 16u << 20);

    /* Names that cannot be a new directory; the generated one is used. */
    static const char *const not_directories[] = {"/", "//", ".", "..", "a/.", "a/../", "/dev/null"};
    for (size_t i = 0; i < sizeof(not_directories) / sizeof(not_directories[0]); i++) {
        setenv("WEFT_EXPERIMENT_DIRECTORY", not_directories[i], 1);
        weft_config_load(&cfg);
        assert_null(cfg.experiment_directory);
    }
    setenv("WEFT_EXPERIMENT_DIRECTORY", "runs/today", 1);
    weft_config_load(&cfg);
    assert_string_equal(cfg.experiment_directory, "runs/today");
    unsetenv("WEFT_EXPERIMENT_DIRECTORY");
    setenv("WEFT_BUFFER_SIZE", "256K", 1);
    setenv("WEFT_ENABLE_TRACING", "off", 1);
    setenv("WEFT_CLOCK_SYNC_INTERVAL", "50ms", 1);
    weft_config_load(&cfg);
    assert_int_equal(cfg.buffer_size, 256u << 10);
    assert_false(cfg.enable_tracing);
    assert_int_equal(cfg.clock_sync_interval_ns, 50000000);
    setenv("WEFT_CLOCK_SYNC_INTERVAL", "0", 1); /* no intermediate syncs */
    weft_config_load(&cfg);
    assert_int_equal(cfg.clock_sync_interval_ns, 0);
    unsetenv("WEFT_CLOCK_SYNC_INTERVAL");
}

/* WEFT_TOTAL_MEMORY: 0 or unset is no bound; a size bounds; a bad or too
 * small one falls back to no bound. The metric lists are kept as given,
 * empty ones dropped. */
static void test_total_memory_and_metric_lists(void **state)
{
    (void)state;
    weft_config cfg;
    unsetenv("WEFT_TOTAL_MEMORY");
    unsetenv("WEFT_METRIC_RUSAGE");
    weft_config_load(&cfg);
    assert_int_equal(cfg.total_memory, 0);
    assert_null(cfg.metric_rusage);
    const struct {
        const char *text;
        uint64_t want;
    } cases[] = {{"0", 0}, {"64M", 64u << 20}, {"1G", 1u << 30}, {"lots", 0}, {"1K", 0}};
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        setenv("WEFT_TOTAL_MEMORY", cases[i].text, 1);
        weft_config_load(&cfg);
        assert_int_equal(cfg.total_memory, cases[i].want);
    }
    unsetenv("WEFT_TOTAL_MEMORY");
    setenv("WEFT_METRIC_RUSAGE", " , ", 1);
    weft_config_load(&cfg);
    assert_null(cfg.metric_rusage);
    setenv("WEFT_METRIC_RUSAGE", "ru_utime,ru_stime", 1);
    weft_config_load(&cfg);
    assert_string_equal(cfg.metric_rusage, "ru_utime,ru_stime");
    unsetenv("WEFT_METRIC_RUSAGE");
}

/* The OpenMP event control's settings: TAU's habit of throttling by
 * default, counts of at least 1, durations; the event list is parsed by
 * its user (weft_omp_groups_parse). */
static void test_openmp_control(void **state)
{
    (void)state;
    weft_config cfg;
    unsetenv("WEFT_OPENMP_EVENTS");
    unsetenv("WEFT_THROTTLE");
    unsetenv("WEFT_THROTTLE_NUMCALLS");
    unsetenv("WEFT_THROTTLE_PERCALL");
    weft_config_load(&cfg);
    assert_null(cfg.openmp_events);
    assert_true(cfg.throttle);
    assert_int_equal(cfg.throttle_numcalls, 10000);
    assert_int_equal(cfg.throttle_percall_ns, 10000);
    setenv("WEFT_OPENMP_EVENTS", "-flush,-atomic", 1);
    setenv("WEFT_THROTTLE", "off", 1);
    setenv("WEFT_THROTTLE_NUMCALLS", "250", 1);
    setenv("WEFT_THROTTLE_PERCALL", "2.5us", 1);
    weft_config_load(&cfg);
    assert_string_equal(cfg.openmp_events, "-flush,-atomic");
    assert_false(cfg.throttle);
    assert_int_equal(cfg.throttle_numcalls, 250);
    assert_int_equal(cfg.throttle_percall_ns, 2500);
    const char *bad_counts[] = {"0", "-3", "many", "12x", ""};
    for (size_t i = 0; i < sizeof(bad_counts) / sizeof(bad_counts[0]); i++) {
        setenv("WEFT_THROTTLE_NUMCALLS", bad_counts[i], 1);
        weft_config_load(&cfg);
        assert_int_equal(cfg.throttle_numcalls, 10000);
    }
    unsetenv("WEFT_OPENMP_EVENTS");
    unsetenv("WEFT_THROTTLE");
    unsetenv("WEFT_THROTTLE_NUMCALLS");
    unsetenv("WEFT_THROTTLE_PERCALL");
}

static void test_info_table(void **state)
{
    (void)state;
    size_t count = 0;
    const weft_config_var *vars = weft_config_vars(&count);
    const char *expected[] = {"WEFT_ENABLE_TRACING",
                              "WEFT_EXPERIMENT_DIRECTORY",
                              "WEFT_BUFFER_SIZE",
                              "WEFT_TOTAL_MEMORY",
                              "WEFT_TIMER",
                              "WEFT_CLOCK_SYNC_INTERVAL",
                              "WEFT_CLOCK_SYNC_SAME_MACHINE",
                              "WEFT_FILTERING_FILE",
                              "WEFT_OPENMP_EVENTS",
                              "WEFT_THROTTLE",
                              "WEFT_THROTTLE_NUMCALLS",
                              "WEFT_THROTTLE_PERCALL",
                              "WEFT_METRIC_RUSAGE",
                              "WEFT_METRIC_PAPI",
                              "WEFT_SIGNALS",
                              "WEFT_VERBOSE",
                              "WEFT_WRITE_EMPTY_TRACE"};
    assert_int_equal(count, sizeof(expected) / sizeof(expected[0]));
    for (size_t i = 0; i < count; i++) {
        assert_string_equal(vars[i].name, expected[i]);
        assert_true(strlen(vars[i].meaning) > 20);
        assert_non_null(vars[i].default_text);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sizes),
        cmocka_unit_test(test_durations),
        cmocka_unit_test(test_bools_and_timers),
        cmocka_unit_test(test_load_defaults_and_fallbacks),
        cmocka_unit_test(test_total_memory_and_metric_lists),
        cmocka_unit_test(test_openmp_control),
        cmocka_unit_test(test_info_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
/* SPDX-License-Identifier: BSD-3-Clause */
