/* SPDX-License-Identifier: BSD-3-Clause */
/* The traced program's command line and start time; see program.h. */
#include "program.h"

#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "weft/alloc.h"
#include "weft/log.h"
#include "weft/program.h"

/* Longest command line read; the arguments past it are left out. */
#define CMDLINE_MAX_BYTES (256u * 1024)

/* Written once by weft__program_start, during the recorder's init once,
 * before any location exists; read afterwards by the sink only. */
static weft_program program;
static bool defined;
static uint64_t start_time;

/* Reads /proc/self/cmdline into a NUL-terminated buffer; NULL when it cannot. */
static char *read_cmdline(size_t *length)
{
    int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    char *text = weft_alloc(CMDLINE_MAX_BYTES + 1);
    size_t used = 0;
    while (text && used < CMDLINE_MAX_BYTES) {
        ssize_t got = read(fd, text + used, CMDLINE_MAX_BYTES - used);
        if (got <= 0)
            break;
        used += (size_t)got;
    }
    close(fd);
    if (text && used == 0) {
        weft_free(text);
        text = NULL;
    }
    if (text)
        text[used] = '\0';
    *length = used;
    return text;
}

/* Splits the NUL-separated arguments; a cut last argument is dropped. */
static uint32_t split(char *text, size_t length, const char ***argv_out)
{
    uint32_t count = 0;
    for (size_t i = 0; i < length; i++)
        count += text[i] == '\0';
    if (length > 0 && text[length - 1] != '\0')
        count += count == 0; /* one argument without its NUL: keep it */
    const char **argv = weft_calloc(count ? count : 1, sizeof(*argv));
    if (!argv)
        return 0;
    size_t at = 0;
    for (uint32_t i = 0; i < count; i++) {
        argv[i] = text + at;
        at += strlen(text + at) + 1;
    }
    *argv_out = argv;
    return count;
}

void weft__program_start(void)
{
    start_time = weft_clock_now();
    size_t length = 0;
    char *text = read_cmdline(&length);
    const char **argv = NULL;
    uint32_t argc = text ? split(text, length, &argv) : 0;
    static const char *unknown[] = {"unknown"};
    if (argc == 0) {
        weft_log_verbose("cannot read the program's command line; the program is named 'unknown'");
        defined = weft_program_define(weft_defs_global(), 1, unknown, &program) == WEFT_OK;
    } else {
        defined = weft_program_define(weft_defs_global(), argc, argv, &program) == WEFT_OK;
    }
    weft_free(argv);
    weft_free(text);
}

bool weft__program_begin_event(weft_event *e)
{
    if (!defined)
        return false;
    *e = (weft_event){.kind = WEFT_EVENT_PROGRAM_BEGIN,
                      .time = start_time,
                      .ref = program.name.id,
                      .value_count = program.argument_count,
                      .values = program.arguments};
    return true;
}

bool weft__program_end_event(weft_event *e, uint64_t not_before)
{
    if (!defined)
        return false;
    uint64_t now = weft_clock_now();
    *e = (weft_event){.kind = WEFT_EVENT_PROGRAM_END,
                      .time = now > not_before ? now : not_before,
                      .bytes = WEFT_EXIT_STATUS_UNKNOWN};
    return true;
}
