/* Test library for test_symbols, built without debug information (-g0) but
 * with its symbol table: functions resolve to names and offsets, no line. */
#include "symbols_test_lib.h"

static __attribute__((noinline)) const void *return_address(void)
{
    const void *ra = __builtin_return_address(0);
    WEFT_SYMTEST_OPAQUE(ra);
    return ra;
}

WEFT_SYMTEST_EXPORT __attribute__((noinline)) const void *weft_symtest_plain_call_site(void)
{
    const void *ra = return_address();
    WEFT_SYMTEST_OPAQUE(ra);
    return ra;
}

/* A function only the static symbol table names. */
static __attribute__((noinline)) int plain_local(int x)
{
    WEFT_SYMTEST_OPAQUE(x);
    return x * 3;
}

WEFT_SYMTEST_EXPORT uintptr_t weft_symtest_plain_local_address(void)
{
    return (uintptr_t)plain_local;
}
/* SPDX-License-Identifier: BSD-3-Clause */
