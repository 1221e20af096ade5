// Test library for test_symbols in C++: the function's name must come back
// demangled ("weft_symtest::twice(int)").
#include "symbols_test_lib.h"

namespace weft_symtest
{
__attribute__((noinline)) int twice(int x)
{
    WEFT_SYMTEST_OPAQUE(x);
    return 2 * x;
}
} // namespace weft_symtest

extern "C" WEFT_SYMTEST_EXPORT uintptr_t weft_symtest_cxx_twice_address(void)
{
    return reinterpret_cast<uintptr_t>(&weft_symtest::twice);
}
/* SPDX-License-Identifier: BSD-3-Clause */
