/* The hidden half of the stripped test library (see lib_stripped.c): a
 * separate file, so the linker places it after the exported function
 * whatever order the compiler emits functions in. */
#include "symbols_test_lib.h"

__attribute__((visibility("hidden"))) int weft_symtest_stripped_hidden(int x);

__attribute__((visibility("hidden"), noinline)) int weft_symtest_stripped_hidden(int x)
{
    WEFT_SYMTEST_OPAQUE(x);
    return x * 5;
}

WEFT_SYMTEST_EXPORT uintptr_t weft_symtest_stripped_hidden_address(void)
{
    return (uintptr_t)weft_symtest_stripped_hidden;
}
/* SPDX-License-Identifier: BSD-3-Clause */
