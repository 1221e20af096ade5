/* SPDX-License-Identifier: BSD-3-Clause */
/* The experiment directory and the OTF2 archive in it.
 *
 * The directory is claimed with mkdir, so an existing one is never written
 * into: when the chosen name exists, NAME.1, NAME.2, ... are tried and the
 * user is told. The archive is <dir>/traces.otf2 + traces.def + traces/. */
#ifndef WEFT_RECORDER_ARCHIVE_H
#define WEFT_RECORDER_ARCHIVE_H

#include <otf2/otf2.h>

#include "weft/config.h"
#include "weft/definitions_otf2.h"

/* Claims the experiment directory (WEFT_EXPERIMENT_DIRECTORY or a generated
 * name). Reports failures in one line naming the directory and the reason. */
/* Fixes the directory's name (see archive.c); once, when recording starts. */
void weft__archive_prepare_name(const weft_config *cfg);
/* That name, before any ".N" the claim adds; "" before it was prepared. */
const char *weft__archive_base_name(void);

weft_status weft__archive_claim(const weft_config *cfg);

/* Uses a directory another process of the job has claimed. */
void weft__archive_adopt(const char *claimed);

/* Sets OTF2's collective callbacks on an archive (an MPI job's); 0 on
 * success. */
typedef int (*weft_archive_collectives)(void *archive, void *data);

/* Opens the OTF2 archive in the claimed directory, with the job's
 * collective callbacks or (NULL) OTF2's serial ones. Then
 * weft__archive_open_events opens the event files (collective in a job). */
weft_status weft__archive_create(weft_archive_collectives collectives, void *data);
weft_status weft__archive_open_events(void);

/* The three steps above for a single process. */
weft_status weft__archive_open(const weft_config *cfg);

/* The open archive, or NULL. */
OTF2_Archive *weft__archive_get(void);

/* Drops the archive without closing it (a job that could not open it on
 * every rank: closing would wait for the others). Leaks it on purpose. */
void weft__archive_forget(void);

/* In a fork()ed child: neither the archive nor the directory is its own. */
void weft__archive_forget_all(void);

/* The experiment directory in use, or NULL before it was created. */
const char *weft__archive_directory(void);

/* A measured offset of this process's clock to the job's reference clock. */
typedef struct weft_clock_offset {
    uint64_t time;  /* local timestamp */
    int64_t offset; /* reference clock minus local clock, in ticks */
    double stddev;
} weft_clock_offset;

/* What the local definition files of a job's process hold: maps from this
 * process's string, region and comm ids to the global ones (NULL: the
 * identity; strings appear in events as attribute values) and its clock
 * offsets. */
typedef struct weft_local_defs {
    const uint32_t *string_map;
    uint32_t string_count;
    const uint32_t *region_map;
    uint32_t region_count;
    const uint32_t *metric_map;
    uint32_t metric_count;
    const uint32_t *comm_map;
    uint32_t comm_count;
    const uint32_t *object_map; /* object id -> OTF2 IoHandle/RmaWin ref */
    uint32_t object_count;
    const uint32_t *group_map; /* comm id -> OTF2 ref of its group (RmaGroupSync) */
    uint32_t group_count;
    const weft_clock_offset *offsets;
    size_t offset_count;
} weft_local_defs;

/* Closes the event files, writes a local definition file for every location
 * of `reg` (with `local`'s contents, or empty when NULL), the global
 * definitions of `global` if not NULL (a single process passes reg; in a
 * job only rank 0 passes the unified registry), and closes the archive.
 * Event writers must be closed already. In a job every rank calls it: its
 * OTF2 steps are collective. */
weft_status weft__archive_close(weft_registry *reg, weft_registry *global,
                                const weft_clock_properties *clock, const weft_local_defs *local);

#endif /* WEFT_RECORDER_ARCHIVE_H */
