/* SPDX-License-Identifier: BSD-3-Clause */
/* Compiler attributes, spelled once for all of weft: what a library
 * exports (everything else is hidden: CMAKE_C_VISIBILITY_PRESET), and the
 * branch hints of the hot paths. Installed with weft/user.h and pomplib.h,
 * which use WEFT_EXPORT too. */
#ifndef WEFT_DEFINITIONS_COMPILER_H
#define WEFT_DEFINITIONS_COMPILER_H

#if defined(__GNUC__)
#define WEFT_EXPORT __attribute__((visibility("default")))
#define WEFT_LIKELY(x) __builtin_expect(!!(x), 1)
#define WEFT_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define WEFT_EXPORT
#define WEFT_LIKELY(x) (x)
#define WEFT_UNLIKELY(x) (x)
#endif

#endif /* WEFT_DEFINITIONS_COMPILER_H */
