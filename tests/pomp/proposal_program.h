/* The modes of proposal_program.c that live in files of their own. */
#ifndef WEFT_TESTS_POMP_PROPOSAL_PROGRAM_H
#define WEFT_TESTS_POMP_PROPOSAL_PROGRAM_H

/* proposal_every.c: every routine of the proposal's tables. */
int every(void);

#endif /* WEFT_TESTS_POMP_PROPOSAL_PROGRAM_H */
/* SPDX-License-Identifier: BSD-3-Clause */
