/* SPDX-License-Identifier: BSD-3-Clause */
/* One-line diagnostics on stderr; see log.h. */
#include "weft/log.h"

#include <errno.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Written once after the configuration is read, read by any thread: relaxed
 * is enough, a late reader at worst misses one verbose line. */
static atomic_bool verbose;

void weft_log_set_verbose(bool on)
{
    atomic_store_explicit(&verbose, on, memory_order_relaxed);
}

static void emit(const char *fmt, va_list args)
{
    int saved_errno = errno;
    char line[1024];
    int head = snprintf(line, sizeof(line), "weft: ");
    int body = vsnprintf(line + head, sizeof(line) - (size_t)head - 1, fmt, args);
    size_t len = (size_t)head + (body < 0 ? 0 : (size_t)body);
    if (len > sizeof(line) - 2)
        len = sizeof(line) - 2;
    line[len++] = '\n';
    ssize_t ignored = write(STDERR_FILENO, line, len);
    (void)ignored;
    errno = saved_errno;
}

void weft_log_error(const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    emit(fmt, args);
    va_end(args);
}

void weft_log_verbose(const char *fmt, ...)
{
    if (!atomic_load_explicit(&verbose, memory_order_relaxed))
        return;
    va_list args;
    va_start(args, fmt);
    emit(fmt, args);
    va_end(args);
}
