/* Test library for test_symbols, stripped after the build (strip
 * --strip-all): only the dynamic symbols of its exported functions remain.
 * stripped_hidden (lib_stripped_hidden.c, linked after this file) lies
 * behind the exported function, in no symbol table, and must be named by
 * object and offset, not after its neighbour. */
#include "symbols_test_lib.h"

WEFT_SYMTEST_EXPORT __attribute__((noinline)) int weft_symtest_stripped_function(int x)
{
    WEFT_SYMTEST_OPAQUE(x);
    return x + 7;
}
/* SPDX-License-Identifier: BSD-3-Clause */
