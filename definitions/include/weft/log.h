/* SPDX-License-Identifier: BSD-3-Clause */
/* Diagnostics on stderr, one line each, prefixed "weft: ".
 *
 * Messages are formatted into a fixed buffer and written with one write(2),
 * so lines from several threads or ranks do not interleave and errno is kept.
 * Library code never prints to stdout. */
#ifndef WEFT_DEFINITIONS_LOG_H
#define WEFT_DEFINITIONS_LOG_H

#include <stdbool.h>

#include "weft/compiler.h"
#include "weft/status.h"

/* Always printed: a problem the user must know about. */
WEFT_EXPORT void weft_log_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Printed only under WEFT_VERBOSE. */
WEFT_EXPORT void weft_log_verbose(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Switches verbose output on or off (set once the configuration is read). */
void weft_log_set_verbose(bool on);

#endif /* WEFT_DEFINITIONS_LOG_H */
