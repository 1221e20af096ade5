/* libFuzzer target for the EPILOG reader and weft convert's first pass
 * (definitions, event decoding, fork counting): arbitrary bytes as an
 * EPILOG file, read through an in-memory file so that the zlib reader sees
 * it as it sees any file. Damage must give an error message, never a crash
 * or an overread (ASan). Built with -DWEFT_FUZZ=ON and clang; seeds are
 * write_epilog's traces (tests/fuzz/CMakeLists.txt). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "convert_epilog.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int fd = memfd_create("epilog", 0);
    if (fd < 0 || write(fd, data, size) != (ssize_t)size) {
        if (fd >= 0)
            close(fd);
        return 0;
    }
    char path[64];
    snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
    elg_convert c = {0};
    uint64_t events = 0;
    int status = weft__elg_scan(&c, path, &events);
    if (status < 0 && c.err[0] == '\0')
        abort(); /* every failure says why */
    weft__epilog_close(c.reader);
    weft__elg_events_free(&c);
    weft__elg_defs_free(&c.defs);
    close(fd);
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
