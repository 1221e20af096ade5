/* check_converted --same: two conversions of one run (check_same.c). */
#ifndef WEFT_TESTS_TOOLS_CHECK_SAME_H
#define WEFT_TESTS_TOOLS_CHECK_SAME_H

/* 0 when the OTF2 traces at the two anchors agree, 1 (each difference on
 * stdout) when not or when one cannot be read. */
int check_same(const char *anchor_a, const char *anchor_b);

#endif /* WEFT_TESTS_TOOLS_CHECK_SAME_H */
/* SPDX-License-Identifier: BSD-3-Clause */
