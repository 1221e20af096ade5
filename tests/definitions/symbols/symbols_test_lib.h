/* What the symboliser's test libraries share: the export marker (the build
 * hides symbols by default) and an optimisation barrier. */
#ifndef WEFT_TESTS_SYMBOLS_TEST_LIB_H
#define WEFT_TESTS_SYMBOLS_TEST_LIB_H

#include <stdint.h>

#define WEFT_SYMTEST_EXPORT __attribute__((visibility("default")))

/* Makes the compiler assume v is used and changed here, so calls around it
 * are neither removed, merged nor turned into tail calls. */
#define WEFT_SYMTEST_OPAQUE(v) __asm__ volatile("" : "+r"(v) : : "memory")

#ifdef __cplusplus
extern "C" {
#endif

/* lib_debug.c (-g): the line of the function's definition; the call site
 * stores the line of its call and returns that call's return address. */
WEFT_SYMTEST_EXPORT extern const unsigned weft_symtest_debug_function_line;
WEFT_SYMTEST_EXPORT int weft_symtest_debug_function(int x);
WEFT_SYMTEST_EXPORT const void *weft_symtest_debug_call_site(unsigned *line);

/* lib_plain.c (-g0): a return address inside weft_symtest_plain_call_site,
 * and the address of a static function. */
WEFT_SYMTEST_EXPORT const void *weft_symtest_plain_call_site(void);
WEFT_SYMTEST_EXPORT uintptr_t weft_symtest_plain_local_address(void);

/* lib_stripped.c (strip --strip-all): an exported function, and the address
 * of a hidden one. */
WEFT_SYMTEST_EXPORT int weft_symtest_stripped_function(int x);
WEFT_SYMTEST_EXPORT uintptr_t weft_symtest_stripped_hidden_address(void);

/* lib_cxx.cpp: the address of weft_symtest::twice(int). */
WEFT_SYMTEST_EXPORT uintptr_t weft_symtest_cxx_twice_address(void);

#ifdef __cplusplus
}
#endif

#endif /* WEFT_TESTS_SYMBOLS_TEST_LIB_H */
/* SPDX-License-Identifier: BSD-3-Clause */
