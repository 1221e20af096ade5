/* SPDX-License-Identifier: BSD-3-Clause */
/* Opening and closing a trace for reading, finding its anchor file, and
 * reporting failures: errors of the OTF2 library are captured and folded
 * into the single line this file prints when reading fails. */
#include "trace_reader.h"

#include "escape.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>

char weft__trace_otf2_message[256];

static OTF2_ErrorCode capture_otf2_error(void *user_data, const char *file, uint64_t line,
                                         const char *function, OTF2_ErrorCode code,
                                         const char *format, va_list va)
{
    (void)user_data;
    (void)file;
    (void)line;
    (void)function;
    char *message = weft__trace_otf2_message;
    if (message[0] == '\0') {
        char text[200] = "";
        if (format)
            vsnprintf(text, sizeof(text), format, va);
        const char *description = OTF2_Error_GetDescription(code);
        if (!description)
            description = "unknown OTF2 error";
        if (text[0])
            snprintf(message, sizeof(weft__trace_otf2_message), "%s (%s)", text, description);
        else
            snprintf(message, sizeof(weft__trace_otf2_message), "%s", description);
        /* Keep the report to one line. */
        for (char *p = message; *p; p++) {
            if (*p == '\n' || *p == '\r')
                *p = ' ';
        }
    }
    return code;
}

void weft__trace_report(const weft_trace_reader *st, OTF2_ErrorCode code, const char *hint,
                          const char *fmt, ...)
{
    char what[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof(what), fmt, ap);
    va_end(ap);
    const char *why = weft__trace_otf2_message[0] ? weft__trace_otf2_message
                      : code != OTF2_SUCCESS        ? OTF2_Error_GetDescription(code)
                                                    : NULL;
    weft__cli_line(stderr, "%s: %s '%s'%s%s%s%s", st->command ? st->command : "weft", what,
                   st->path, why ? ": " : "", why ? why : "", hint ? "; " : "", hint ? hint : "");
}

bool weft__trace_otf2_ok(const weft_trace_reader *st, OTF2_ErrorCode code, const char *what)
{
    if (code == OTF2_SUCCESS)
        return true;
    weft__trace_report(st, code, NULL, "%s", what);
    return false;
}

OTF2_CallbackCode weft__trace_interrupt(weft_trace_reader *st, weft_status why)
{
    st->failure = why;
    return OTF2_CALLBACK_INTERRUPT;
}

static OTF2_ErrorCallback previous_error_callback;

OTF2_Reader *weft__trace_open(weft_trace_reader *st)
{
    if (weft__trace_validate_archive(st) != WEFT_OK)
        return NULL;
    weft__trace_otf2_message[0] = '\0';
    previous_error_callback = OTF2_Error_RegisterCallback(capture_otf2_error, NULL);
    OTF2_Reader *reader = OTF2_Reader_Open(st->path);
    if (!reader) {
        weft__trace_report(st, OTF2_SUCCESS,
                             "give an experiment directory or its .otf2 anchor file",
                             "cannot open the OTF2 archive");
        return NULL;
    }
    OTF2_ErrorCode code = OTF2_Reader_SetSerialCollectiveCallbacks(reader);
    if (code != OTF2_SUCCESS) {
        weft__trace_report(st, code, NULL, "cannot set up reading");
        OTF2_Reader_Close(reader);
        return NULL;
    }
    return reader;
}

weft_status weft__trace_close(weft_trace_reader *st, OTF2_Reader *reader, weft_status status)
{
    if (reader) {
        OTF2_ErrorCode code = OTF2_Reader_Close(reader);
        if (code != OTF2_SUCCESS && status == WEFT_OK) {
            weft__trace_report(st, code, DAMAGED, "cannot close");
            status = WEFT_ERR_OTF2;
        }
    }
    OTF2_Error_RegisterCallback(previous_error_callback, NULL);
    return status;
}

char *weft__trace_find_anchor(const char *command, const char *trace)
{
    struct stat st;
    if (stat(trace, &st) != 0) {
        weft__cli_line(stderr, "%s: cannot open '%s': %s", command, trace, strerror(errno));
        return NULL;
    }
    if (!S_ISDIR(st.st_mode)) {
        char *copy = strdup(trace);
        if (!copy)
            fprintf(stderr, "%s: out of memory\n", command);
        return copy;
    }
    size_t len = strlen(trace);
    bool slash = len > 0 && trace[len - 1] == '/';
    size_t size = len + (slash ? 0 : 1) + sizeof(WEFT_TRACE_ANCHOR_NAME);
    char *anchor = malloc(size);
    if (!anchor) {
        fprintf(stderr, "%s: out of memory\n", command);
        return NULL;
    }
    snprintf(anchor, size, "%s%s" WEFT_TRACE_ANCHOR_NAME, trace, slash ? "" : "/");
    if (stat(anchor, &st) != 0) {
        weft__cli_line(stderr,
                       "%s: '%s' is a directory without " WEFT_TRACE_ANCHOR_NAME
                       " (%s); give an experiment directory or an .otf2 anchor file",
                       command, trace, strerror(errno));
        free(anchor);
        return NULL;
    }
    return anchor;
}
