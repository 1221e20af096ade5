/* SPDX-License-Identifier: BSD-3-Clause */
/* The traced program as the trace names it: its command line, read once
 * when recording starts, defined in the process's registry
 * (weft/program.h), and the time recording started. The sink writes a
 * ProgramBegin with them first on the master thread's location and a
 * ProgramEnd last, so that the program region encloses everything the
 * master thread records, its forks and joins included (sink.c). */
#ifndef WEFT_RECORDER_PROGRAM_H
#define WEFT_RECORDER_PROGRAM_H

#include <stdbool.h>
#include <stdint.h>

#include "weft/event.h"

/* Reads the command line, defines the program and takes the start time.
 * Called once, while recording starts, before any event is recorded. A
 * command line that cannot be read is named "unknown" (one verbose line). */
void weft__program_start(void);

/* The ProgramBegin event at the start time; false before
 * weft__program_start or when defining the program failed. The event's
 * values stay valid for the process's life. */
bool weft__program_begin_event(weft_event *e);

/* The ProgramEnd event now, or at not_before if that is later; false when
 * there was no ProgramBegin. */
bool weft__program_end_event(weft_event *e, uint64_t not_before);

#endif /* WEFT_RECORDER_PROGRAM_H */
