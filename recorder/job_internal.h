/* The recorder's view of an attached job (see weft/job.h), for the
 * lifecycle and the sink. */
#ifndef WEFT_RECORDER_JOB_INTERNAL_H
#define WEFT_RECORDER_JOB_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "archive.h"
#include "weft/job.h"
#include "weft/unify.h"

/* True between a successful weft_job_attach and weft_job_finalize. */
bool weft__job_attached(void);

/* At exit, a job that never reached MPI_Finalize: its collective trace
 * writing cannot happen any more. Says so in one line. */
void weft__job_abandon(void);

/* Unifies the definitions of all ranks (collective): returns on rank 0 the
 * global registry (caller destroys it), NULL elsewhere, and on every rank
 * the maps of its string, region and comm ids to global ones (caller
 * releases them with weft_id_maps_free). WEFT_OK or an error on every rank
 * alike. */
weft_status weft__job_unify(const weft_job_ops *job, weft_registry *local,
                            weft_registry **global, weft_id_maps *maps);

#endif /* WEFT_RECORDER_JOB_INTERNAL_H */
