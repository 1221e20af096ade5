/* SPDX-License-Identifier: BSD-3-Clause */
/* Ranks of one node waiting for each other's parts (part_gate.h). */
#include "part_gate.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "weft/journal.h"

#define WRITTEN_SUFFIX ".written"

/* Polled this often: a few dozen directory reads while ranks finish. */
#define POLL_NS 10000000L

static void host_name(char *host, size_t size)
{
    if (gethostname(host, size) != 0)
        snprintf(host, size, "unknown");
    host[size - 1] = '\0';
}

void weft__part_written(const char *dir, uint32_t rank)
{
    if (!dir)
        return;
    char host[256], path[4600];
    host_name(host, sizeof(host));
    snprintf(path, sizeof(path), "%s/%s/%s.%u%s", dir, WEFT_JOURNAL_DIR, host, rank,
             WRITTEN_SUFFIX);
    int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
    if (fd >= 0)
        close(fd);
}

/* The marks of this node's ranks in DIR/journal. */
static unsigned marks_of_node(const char *journal, const char *host)
{
    DIR *d = opendir(journal);
    if (!d)
        return 0;
    unsigned count = 0;
    size_t host_len = strlen(host), suffix_len = strlen(WRITTEN_SUFFIX);
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        size_t len = strlen(e->d_name);
        count += len > host_len + 1 + suffix_len && strncmp(e->d_name, host, host_len) == 0 &&
                 e->d_name[host_len] == '.' &&
                 strcmp(e->d_name + len - suffix_len, WRITTEN_SUFFIX) == 0;
    }
    closedir(d);
    return count;
}

void weft__parts_wait(const char *dir, uint64_t deadline_ns)
{
    const char *local = getenv("OMPI_COMM_WORLD_LOCAL_SIZE");
    long ranks = local ? strtol(local, NULL, 10) : 0;
    if (!dir || ranks < 2)
        return;
    int saved_errno = errno;
    char host[256], journal[4400];
    host_name(host, sizeof(host));
    snprintf(journal, sizeof(journal), "%s/%s", dir, WEFT_JOURNAL_DIR);
    while (marks_of_node(journal, host) < (unsigned long)ranks &&
           weft__monotonic_ns() < deadline_ns) {
        struct timespec pause = {0, POLL_NS};
        nanosleep(&pause, NULL);
    }
    errno = saved_errno;
}
