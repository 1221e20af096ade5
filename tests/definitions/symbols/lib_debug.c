/* Test library for test_symbols, built with -g: a function whose entry and
 * a call site whose return address must resolve to this file and the lines
 * recorded here. */
#include "symbols_test_lib.h"

/* The whole definition sits on one line, so every instruction is on it. */
/* clang-format off */
WEFT_SYMTEST_EXPORT const unsigned weft_symtest_debug_function_line = __LINE__ + 1;
WEFT_SYMTEST_EXPORT __attribute__((noinline)) int weft_symtest_debug_function(int x) { WEFT_SYMTEST_OPAQUE(x); return x + 1; }
/* clang-format on */

static __attribute__((noinline)) const void *return_address(void)
{
    const void *ra = __builtin_return_address(0);
    WEFT_SYMTEST_OPAQUE(ra);
    return ra;
}

WEFT_SYMTEST_EXPORT __attribute__((noinline)) const void *
weft_symtest_debug_call_site(unsigned *line)
{
    *line = __LINE__ + 1;
    const void *ra = return_address();
    WEFT_SYMTEST_OPAQUE(ra); /* keeps the call from becoming a tail call */
    return ra;
}
/* SPDX-License-Identifier: BSD-3-Clause */
