/* SPDX-License-Identifier: BSD-3-Clause */
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

/* Copies up to `capacity` of the clock offsets measured so far (the first
 * and the latest when there are more); returns how many. */
size_t weft__job_offsets_copy(weft_clock_offset *out, size_t capacity);

/* The rank leaves the job before MPI_Finalize (weft__finalize_part): false
 * when it was not attached; else it is detached now and *rank is its rank. */
bool weft__job_detach(uint32_t *rank);

/* In a fork()ed child: the parent's job is not the child's. */
void weft__job_forget(void);

/* Unifies the definitions of all ranks (collective): returns on rank 0 the
 * global registry (caller destroys it), NULL elsewhere, and on every rank
 * the maps of its string, region and comm ids to global ones (caller
 * releases them with weft_id_maps_free). WEFT_OK or an error on every rank
 * alike. */
weft_status weft__job_unify(const weft_job_ops *job, weft_registry *local,
                            weft_registry **global, weft_id_maps *maps);

#endif /* WEFT_RECORDER_JOB_INTERNAL_H */
