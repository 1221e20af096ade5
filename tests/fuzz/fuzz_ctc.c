/* libFuzzer target for the CTC-string parser (both dialects): arbitrary bytes, parsed with
 * their exact length as the bound (libFuzzer's buffer has nothing after it,
 * so ASan catches any overread), then the same invariants test_ctc checks.
 * Build with -DWEFT_FUZZ=ON and clang; tests/fuzz/CMakeLists.txt says how to
 * run it. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "weft/ctc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* True when span lies inside [data, data + size) or is empty. */
static int span_inside(weft_ctc_span span, const uint8_t *data, size_t size)
{
    uintptr_t at = (uintptr_t)span.text, start = (uintptr_t)data;
    return span.text != NULL && (span.len == 0 || (at >= start && at + span.len <= start + size));
}

static void check(weft_status (*parse)(const char *, size_t, weft_ctc_region *),
                  const uint8_t *data, size_t size)
{
    weft_ctc_region r;
    weft_status st = parse((const char *)data, size, &r);
    const weft_ctc_span spans[] = {
        r.region_type,     r.file,     r.critical_name,  r.user_region_name,
        r.user_group_name, r.schedule, r.default_sharing};
    for (size_t i = 0; i < sizeof(spans) / sizeof(spans[0]); i++) {
        if (!span_inside(spans[i], data, size))
            abort();
    }
    if ((st == WEFT_OK) != (r.problem == NULL) || r.problem_offset > size || r.length > size ||
        r.construct >= WEFT_CTC_CONSTRUCT_COUNT || r.clauses >= (1u << WEFT_CTC_CLAUSE_COUNT))
        abort();

    char name[64];
    size_t want = weft_omp_region_name(name, sizeof(name), weft_ctc_construct_text(r.construct),
                                       r.file, r.begin_line);
    if (strlen(name) != (want < sizeof(name) ? want : sizeof(name) - 1))
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    check(weft_ctc_parse, data, size);          /* OPARI2's dialect */
    check(weft_ctc_parse_proposal, data, size); /* the merged POMP proposal's */
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
