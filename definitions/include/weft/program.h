/* SPDX-License-Identifier: BSD-3-Clause */
/* The program a process runs, as a trace names it: OTF2's ProgramBegin
 * record (the program's path and arguments) and the program region that
 * this record enters, which roots the call tree of each process's master
 * thread. Scalasca's analyzer finds the region by the rule written here and
 * crashes on a trace whose master thread forks outside any region (see
 * docs/dev/OTF2-CONVENTIONS.md). */
#ifndef WEFT_DEFINITIONS_PROGRAM_H
#define WEFT_DEFINITIONS_PROGRAM_H

#include <stddef.h>
#include <stdint.h>

#include "weft/compiler.h"
#include "weft/definitions.h"
#include "weft/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A program's definitions in one registry. */
typedef struct weft_program {
    weft_region region;      /* role ARTIFICIAL, paradigm MEASUREMENT_SYSTEM */
    weft_string name;        /* argv[0], as the program was started */
    uint32_t argument_count; /* argv[1..] */
    uint64_t *arguments;     /* their strings' ids, as a ProgramBegin event's
                                values (weft/event.h); owned: weft_program_free */
} weft_program;

/* Defines the program started as argv[0..argc-1] (argc >= 1; strings
 * copied) in reg: the strings of its path and arguments, and its region,
 * whose name is argv[0] without its directories and whose canonical name
 * is every argument joined by single spaces. On failure *out holds invalid
 * handles and no arguments. */
WEFT_EXPORT weft_status weft_program_define(weft_registry *reg, uint32_t argc,
                                            const char *const *argv, weft_program *out);

/* Frees what weft_program_define allocated; the handles stay defined. */
WEFT_EXPORT void weft_program_free(weft_program *program);

/* The region's name and canonical name for a program started as argv: the
 * last path component of argv[0], and argv joined by single spaces. Writes
 * at most `capacity` bytes (NUL included) into each; returns the length the
 * canonical name needs without its NUL, so a caller can size the buffer. */
WEFT_EXPORT size_t weft_program_names(uint32_t argc, const char *const *argv, char *name,
                                      size_t name_capacity, char *canonical,
                                      size_t canonical_capacity);

#ifdef __cplusplus
}
#endif

#endif /* WEFT_DEFINITIONS_PROGRAM_H */
