/* SPDX-License-Identifier: BSD-3-Clause */
/* OTF2 reports every error it meets on stderr, one line per layer it passes
 * through: a full disk made ~30 lines of them. In a traced program weft
 * says what went wrong in one line of its own (sink.c, archive.c), so OTF2's
 * lines are kept back; under WEFT_VERBOSE the first one is shown. The
 * `weft` command, which reads and converts traces, keeps OTF2's own
 * reporting (it never calls this). */
#include <otf2/otf2.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>

#include "lifecycle.h"
#include "weft/log.h"

static atomic_bool said;

static OTF2_ErrorCode keep_back(void *user_data, const char *file, uint64_t line,
                                const char *function, OTF2_ErrorCode code, const char *fmt,
                                va_list va)
{
    (void)user_data, (void)file, (void)line, (void)function;
    if (!atomic_exchange(&said, true)) {
        char text[256];
        vsnprintf(text, sizeof(text), fmt ? fmt : "", va);
        weft_log_verbose("OTF2 reports: %s: %s", OTF2_Error_GetName(code), text);
    }
    return code;
}

void weft__otf2_quiet(void)
{
    OTF2_Error_RegisterCallback(keep_back, NULL);
}
