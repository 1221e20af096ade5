/* SPDX-License-Identifier: BSD-3-Clause */
/* Regular input files only; see files.h. */
#include "files.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *kind_of(mode_t mode)
{
    if (S_ISREG(mode) || S_ISDIR(mode))
        return NULL;
    if (S_ISFIFO(mode))
        return "a named pipe (FIFO)";
    if (S_ISCHR(mode))
        return "a character device";
    if (S_ISBLK(mode))
        return "a block device";
    if (S_ISSOCK(mode))
        return "a socket";
    return "not a regular file";
}

const char *weft__cli_special_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? kind_of(st.st_mode) : NULL;
}

int weft__cli_open_regular(const char *path, const char **kind, uint64_t *size)
{
    *kind = NULL;
    /* O_NONBLOCK: opening a FIFO for reading would wait for a writer. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return -1;
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        *kind = S_ISDIR(st.st_mode) ? "a directory" : kind_of(st.st_mode);
        close(fd);
        errno = EINVAL;
        return -1;
    }
    int flags = fcntl(fd, F_GETFL);
    if (flags >= 0)
        fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    if (size)
        *size = (uint64_t)st.st_size;
    return fd;
}
