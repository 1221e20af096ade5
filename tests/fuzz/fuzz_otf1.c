/* libFuzzer target for weft convert on OTF version 1 input: the input's
 * first byte picks the file of a seed trace (write_otf1 hybrid) that the
 * rest replaces: 0 the master file old.otf, 1 the definitions old.0.def,
 * 2 and 3 the event streams old.1.events and old.2.events. The whole
 * conversion runs (its OTF2 output is removed again): the OTF library
 * parses, weft's handlers check what it hands them. Damage must give one
 * line of error, never a crash or an overread (ASan; the OTF library itself
 * is not instrumented). Built with -DWEFT_FUZZ=ON and clang
 * (tests/fuzz/CMakeLists.txt). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "convert_otf1.h"
#include "fuzz_seed.h"
#include "progress.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char work[64];
static const char *const files[] = {"old.otf", "old.0.def", "old.1.events", "old.2.events"};
enum { FILES = sizeof(files) / sizeof(files[0]) };

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    fuzz_seed_copy(WEFT_FUZZ_SEED_OTF1, work);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    unsigned which = data[0] % FILES;
    char path[128], master[128], output[128];
    snprintf(path, sizeof(path), "%s/%s", work, files[which]);
    snprintf(master, sizeof(master), "%s/old.otf", work);
    snprintf(output, sizeof(output), "%s.out", work);
    if (fuzz_seed_write(path, data + 1, size - 1) != 0)
        return 0;
    weft__convert_otf1(master, output, false, WEFT_PROGRESS_NEVER);
    fuzz_seed_remove(output);
    fuzz_seed_restore(WEFT_FUZZ_SEED_OTF1, work, files[which]); /* for the next input */
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
