/* SPDX-License-Identifier: BSD-3-Clause */
/* Input files the trace tools read, refused unless they are regular files:
 * a named pipe given as a trace (or as one file of it) would block the
 * open, or a read, forever, and a device such as /dev/zero never ends.
 * Private to tools/. */
#ifndef WEFT_TOOLS_CLI_FILES_H
#define WEFT_TOOLS_CLI_FILES_H

#include <stdbool.h>
#include <stdint.h>

/* What PATH is when it is neither a regular file nor a directory ("a named
 * pipe (FIFO)", "a character device", ...); NULL for a regular file, a
 * directory, or a path that cannot be examined (the open that follows says
 * why). Follows symbolic links; never blocks. */
const char *weft__cli_special_file(const char *path);

/* Opens PATH for reading without ever blocking on it: -1 with errno set
 * when it cannot be opened, and -1 with *KIND saying what it is (as
 * weft__cli_special_file) when it is not a regular file. On success the
 * descriptor reads normally (blocking) and *SIZE, when not NULL, is the
 * file's size. */
int weft__cli_open_regular(const char *path, const char **kind, uint64_t *size);

#endif /* WEFT_TOOLS_CLI_FILES_H */
