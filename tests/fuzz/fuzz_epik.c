/* libFuzzer target for EPIK archives in weft convert's first pass: the
 * input's first byte picks the file of a seed archive (write_epilog hybrid
 * --archive) that the rest replaces: 0 epik.esd (definitions, ids and their
 * bounds), 1 epik.map (rank sections, id maps, clock offsets), 2 the events
 * of rank 1 (ELG/00001, plain instead of gzip-compressed). Damage must give
 * an error message, never a crash, an overread (ASan) or a table sized by a
 * damaged id. Built with -DWEFT_FUZZ=ON and clang (tests/fuzz/CMakeLists.txt). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "convert_epilog.h"
#include "fuzz_seed.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char work[64];
static const char *const files[] = {"epik.esd", "epik.map", "ELG/00001"};
enum { FILES = sizeof(files) / sizeof(files[0]) };

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    fuzz_seed_copy(WEFT_FUZZ_SEED_ARCHIVE, work);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    unsigned which = data[0] % FILES;
    char path[128];
    snprintf(path, sizeof(path), "%s/%s", work, files[which]);
    if (fuzz_seed_write(path, data + 1, size - 1) != 0)
        return 0;
    elg_convert c = {0};
    uint64_t events = 0;
    int status = weft__elg_scan(&c, work, &events);
    if (status < 0 && c.err[0] == '\0')
        abort(); /* every failure says why */
    if (!c.archive)
        weft__epilog_close(c.reader);
    weft__elg_archive_free(&c);
    weft__elg_events_free(&c);
    weft__elg_defs_free(&c.defs);
    fuzz_seed_restore(WEFT_FUZZ_SEED_ARCHIVE, work, files[which]); /* for the next input */
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
