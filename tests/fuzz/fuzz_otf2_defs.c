/* libFuzzer target for the trace tools' reading of OTF2 definitions: the
 * input is the global definition file (traces.def) of a seed trace whose
 * anchor and event files stay as write_broken_trace wrote them; the shared
 * reader then checks it (trace_validate.c) and, when it passes, lets the
 * OTF2 library read the definitions and the events. Whatever the bytes, the
 * result is a read trace or one line of error, never a crash or an
 * overread (ASan; the OTF2 library itself is not instrumented, but its
 * memcpy and memchr are intercepted). The seed trace's directory is given
 * at build time (WEFT_FUZZ_SEED_TRACE); each fuzzing process works in a
 * copy of it. Built with -DWEFT_FUZZ=ON and clang (tests/fuzz/CMakeLists.txt). */
#include <stdint.h>
#include <stdio.h>

#include "fuzz_seed.h"
#include "trace_reader.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char work[64], anchor[128], definitions[128];

/* The seed trace into a directory of our own. */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    fuzz_seed_copy(WEFT_FUZZ_SEED_TRACE, work);
    snprintf(anchor, sizeof(anchor), "%s/traces.otf2", work);
    snprintf(definitions, sizeof(definitions), "%s/traces.def", work);
    return 0;
}

static weft_status count_events(weft_trace_reader *reader, const weft_trace_event *e)
{
    (void)reader, (void)e;
    return WEFT_OK;
}

static weft_status count_differs(weft_trace_reader *reader, uint64_t read, uint64_t promised)
{
    (void)reader, (void)read, (void)promised;
    return WEFT_OK;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (fuzz_seed_write(definitions, data, size) != 0)
        return 0;
    weft_trace_reader reader = {.command = "fuzz",
                                .path = anchor,
                                .progress = WEFT_PROGRESS_NEVER,
                                .failure = WEFT_OK,
                                .count_differs = count_differs};
    OTF2_Reader *otf2 = weft__trace_open(&reader);
    weft_status status = otf2 ? WEFT_OK : WEFT_ERR_OTF2;
    if (status == WEFT_OK)
        status = weft__trace_read_defs(&reader, otf2);
    if (status == WEFT_OK)
        status = weft__trace_read_events(&reader, otf2, count_events, NULL);
    weft__trace_close(&reader, otf2, status);
    weft__trace_free(&reader);
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
