/* What the fuzz targets that read a trace of several files share: a
 * private copy of a seed trace (a directory written at build time) in
 * which one file at a time is replaced by the fuzzer's bytes. Test-only. */
#ifndef WEFT_TESTS_FUZZ_SEED_H
#define WEFT_TESTS_FUZZ_SEED_H

#include <stddef.h>
#include <stdint.h>

/* Copies the directory tree SEED into a new directory under /tmp, whose
 * path (at most 63 characters) goes into WORK, removed again at exit;
 * aborts on failure. */
void fuzz_seed_copy(const char *seed, char work[64]);

/* Writes DATA into PATH, replacing it; -1 on failure. */
int fuzz_seed_write(const char *path, const uint8_t *data, size_t size);

/* Puts the seed's file NAME back into WORK, replacing what a fuzz input
 * made of it; aborts on failure. */
void fuzz_seed_restore(const char *seed, const char *work, const char *name);

/* Removes PATH and, if it is a directory, everything in it. */
void fuzz_seed_remove(const char *path);

#endif /* WEFT_TESTS_FUZZ_SEED_H */
/* SPDX-License-Identifier: BSD-3-Clause */
