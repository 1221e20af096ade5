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

/* Creates the experiment directory and opens the archive for writing.
 * Reports failures in one line (naming the directory and the reason). */
weft_status weft__archive_open(const weft_config *cfg);

/* The open archive, or NULL. */
OTF2_Archive *weft__archive_get(void);

/* The experiment directory in use, or NULL before it was created. */
const char *weft__archive_directory(void);

/* Writes the (empty) local definition files and the global definitions,
 * and closes the archive. Event writers must be closed already. */
weft_status weft__archive_close(weft_registry *reg, const weft_clock_properties *clock);

#endif /* WEFT_RECORDER_ARCHIVE_H */
