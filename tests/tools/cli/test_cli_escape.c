/* Unit tests of the escaping of text from a trace (tools/cli/escape.h):
 * what is escaped and how, what stays, and cutting to a buffer's size,
 * which never splits an escape or a UTF-8 character. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "escape.h"

static void assert_escaped(const char *text, const char *expected)
{
    char buf[256];
    assert_string_equal(weft__cli_escape(text, buf, sizeof(buf)), expected);
}

static void test_controls(void **state)
{
    (void)state;
    assert_escaped("plain name", "plain name");
    assert_escaped("\x1b[2Jclear", "\\x1b[2Jclear");
    assert_escaped("bell\a tab\t cr\r nl\n del\x7f", "bell\\x07 tab\\x09 cr\\x0d nl\\x0a del\\x7f");
    assert_escaped("C1 CSI \xc2\x9b"
                   "31m, NEL \xc2\x85",
                   "C1 CSI \\u009b31m, NEL \\u0085");
    assert_escaped("lone \x9b byte", "lone \\x9b byte");
    assert_escaped("cut \xe2\x82", "cut \\xe2\\x82");
    assert_escaped("back\\slash", "back\\slash");
    assert_escaped(NULL, "");
}

static void test_utf8_stays(void **state)
{
    (void)state;
    assert_escaped("r\xc3\xa9gion \xe2\x82\xac \xf0\x9f\x98\x80 \xc2\xa0nbsp",
                   "r\xc3\xa9gion \xe2\x82\xac \xf0\x9f\x98\x80 \xc2\xa0nbsp");
}

static void test_cut(void **state)
{
    (void)state;
    char buf[12];
    /* "abcdef\x1b..." escapes to "abcdef\x1bgh": 12 bytes; 11 fit */
    assert_string_equal(weft__cli_escape("abcdefghij", buf, sizeof(buf)), "abcdefghij");
    assert_string_equal(weft__cli_escape("abcdefghijkl", buf, sizeof(buf)), "abcdefgh...");
    assert_string_equal(weft__cli_escape("abcdef\x1bgh", buf, sizeof(buf)), "abcdef...");
    assert_string_equal(weft__cli_escape("abcdefg\xe2\x82\xac", buf, sizeof(buf)),
                        "abcdefg\xe2\x82\xac");
    assert_string_equal(weft__cli_escape("abcdefgh\xe2\x82\xacx", buf, sizeof(buf)), "abcdefgh...");
    char tiny[3];
    assert_string_equal(weft__cli_escape("abcdef", tiny, sizeof(tiny)), "");
    assert_string_equal(weft__cli_escape("ab", tiny, sizeof(tiny)), "ab");
}

static void test_line(void **state)
{
    (void)state;
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    assert_non_null(out);
    char long_name[2000];
    memset(long_name, 'x', sizeof(long_name) - 2);
    long_name[0] = '\x1b';
    long_name[sizeof(long_name) - 2] = '\n';
    long_name[sizeof(long_name) - 1] = '\0';
    weft__cli_line(out, "weft x: '%s' and %d", long_name, 42);
    fclose(out);
    /* one line, whole, with every control escaped */
    assert_int_equal(size, strlen("weft x: '") + 4 + 1997 + 4 + strlen("' and 42") + 1);
    assert_int_equal(strncmp(text, "weft x: '\\x1bxxx", 16), 0);
    assert_string_equal(text + size - 14, "x\\x0a' and 42\n");
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_controls),
        cmocka_unit_test(test_utf8_stays),
        cmocka_unit_test(test_cut),
        cmocka_unit_test(test_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
/* SPDX-License-Identifier: BSD-3-Clause */
