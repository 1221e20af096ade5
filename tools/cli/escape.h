/* SPDX-License-Identifier: BSD-3-Clause */
/* Text from a trace (region, location and communicator names, file names,
 * records quoted in an error) printed so that a terminal shows it rather
 * than obeys it: a name holding an escape sequence must not move the cursor,
 * retitle the window or clear the screen of whoever runs `weft check` on a
 * trace from elsewhere. Every command that prints such text prints it
 * through these. Private to tools/.
 *
 * What is escaped: the C0 control characters and DEL (bytes 0x00-0x1f, 0x7f)
 * as \xNN, the C1 control characters U+0080-U+009F (which some terminals
 * obey as UTF-8 too) as \u00NN, and bytes that are not UTF-8 as \xNN (a
 * lone 0x9b is CSI to an 8-bit terminal). Printable text, UTF-8 included,
 * stays as it is. */
#ifndef WEFT_TOOLS_CLI_ESCAPE_H
#define WEFT_TOOLS_CLI_ESCAPE_H

#include <stddef.h>
#include <stdio.h>

/* TEXT with its control characters escaped into BUF of SIZE bytes (cut to
 * fit, ending "..." then); returns BUF. NULL TEXT gives "". */
const char *weft__cli_escape(const char *text, char *buf, size_t size);

/* Length of the valid UTF-8 sequence at P: 1 for ASCII, 2-4, or 0 when P
 * does not start one (overlong forms and surrogates are not UTF-8 either).
 * P is NUL-terminated: a sequence cut by the end is invalid. */
int weft__cli_utf8_length(const unsigned char *p);

/* Writes TEXT to OUT with its control characters escaped. */
void weft__cli_put_escaped(FILE *out, const char *text);

/* printf of one line to OUT: the formatted text with every control
 * character escaped, then one newline. FMT has no newline of its own; the
 * line may be of any length. */
void weft__cli_line(FILE *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif /* WEFT_TOOLS_CLI_ESCAPE_H */
