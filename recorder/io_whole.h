/* SPDX-License-Identifier: BSD-3-Clause */
/* Reading or writing a whole buffer at an offset of a file, going on after
 * short transfers and interruptions (the spill file, the journal, a filter
 * file). */
#ifndef WEFT_RECORDER_IO_WHOLE_H
#define WEFT_RECORDER_IO_WHOLE_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <unistd.h>

/* pwrite (WRITING) or pread BYTES of DATA at OFFSET of FD; DATA is only
 * read when writing. Returns the bytes transferred: BYTES, or fewer at the
 * end of the file or on an error (errno set then). */
static inline size_t weft__io_whole(int fd, bool writing, void *data, size_t bytes, uint64_t offset)
{
    char *p = data;
    size_t done = 0;
    while (done < bytes) {
        ssize_t n = writing ? pwrite(fd, p + done, bytes - done, (off_t)(offset + done))
                            : pread(fd, p + done, bytes - done, (off_t)(offset + done));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        done += (size_t)n;
    }
    return done;
}

#endif /* WEFT_RECORDER_IO_WHOLE_H */
