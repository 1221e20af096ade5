/* SPDX-License-Identifier: BSD-3-Clause */
/* `weft convert` for OTF version 1 (VampirTrace 5.x, Scalasca 1.x's
 * elg2otf), read through the OTF library (libopen-trace-format):
 * docs/dev/LEGACY-FORMATS.md section 2 describes the records and the
 * mapping. Private to tools/. */
#ifndef WEFT_TOOLS_CONVERT_OTF1_H
#define WEFT_TOOLS_CONVERT_OTF1_H

#include <stdbool.h>

/* Whether PATH is an OTF version 1 master control file ("<name>.otf"), or
 * the name stub of one. */
bool weft__convert_is_otf1(const char *path);

/* Converts; returns the exit status (0, or 1 after one line on stderr). */
int weft__convert_otf1(const char *input, const char *output, bool keep_partial, int progress);

#endif /* WEFT_TOOLS_CONVERT_OTF1_H */
