/* SPDX-License-Identifier: BSD-3-Clause */
/* A job: several processes (MPI ranks) that write one trace together.
 *
 * The recorder knows nothing of MPI. The MPI adapter describes the job with
 * the few collective operations below, implemented with PMPI on a private
 * communicator, and the recorder uses them to agree on one experiment
 * directory, to open the OTF2 archive collectively, and at the end to unify
 * the definitions of all ranks and write the global ones on rank 0.
 *
 * Order of calls in a traced MPI program:
 *   library constructor  weft_job_expect()   the archive waits for the job
 *   MPI_Init             weft_job_attach()   collective; rank, directory, archive
 *                        weft_clock_offset_add()  clock offsets against rank 0
 *   MPI_Finalize         weft_job_finalize() collective; unify and write
 * Every operation here runs on the thread that called MPI_Init or
 * MPI_Finalize (MPI may allow no other), never on the writer thread. */
#ifndef WEFT_RECORDER_JOB_H
#define WEFT_RECORDER_JOB_H

#include <stdbool.h>
#include <stdint.h>

#include "weft/compiler.h"
#include "weft/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What the recorder needs of the job. Every function returns 0 on success
 * and is collective over all ranks unless it says otherwise; `data` is
 * passed back unchanged. */
typedef struct weft_job_ops {
    uint32_t rank; /* this process, 0 .. size-1 */
    uint32_t size; /* number of processes */
    void *data;

    /* Sets OTF2's collective callbacks on `archive` (an OTF2_Archive *). */
    int (*archive_collectives)(void *archive, void *data);
    /* Broadcasts `bytes` bytes of buf from root. */
    int (*bcast)(void *buf, uint64_t bytes, uint32_t root, void *data);
    /* Point to point, between two ranks only: sends bytes to `to`; receives
     * a message from `from` into *buf, allocated with malloc (the caller
     * frees it), its length in *bytes. */
    int (*send)(const void *buf, uint64_t bytes, uint32_t to, void *data);
    int (*recv)(void **buf, uint64_t *bytes, uint32_t from, void *data);
    /* Element-wise minimum (max false) or maximum (max true) of count
     * values over all ranks, in place on every rank. */
    int (*allreduce_u64)(uint64_t *values, uint32_t count, bool max, void *data);
} weft_job_ops;

/* Announces that a job will attach (called by the MPI adapter's library
 * constructor): events are kept in memory, and no archive is opened, until
 * weft_job_attach, or until the end of a program that never calls MPI_Init,
 * which then writes an ordinary single-process trace. */
WEFT_EXPORT void weft_job_expect(void);

/* Joins the job. Collective. Rank 0 claims the experiment directory and
 * tells the others; all open the archive with the job's collective
 * callbacks; the process's locations become location group `rank`. The ops
 * are copied. Returns WEFT_OK, or an error after which this rank records
 * nothing more (the others are told, so no rank waits for it). */
WEFT_EXPORT weft_status weft_job_attach(const weft_job_ops *ops);

/* Rank of this process in the attached job; 0 without a job. */
WEFT_EXPORT uint32_t weft_job_rank(void);

/* Ends recording for the whole job and writes the trace: every rank's
 * events and local definitions (with the mapping of its ids to the global
 * ones and its clock offsets), and on rank 0 the global definitions.
 * Collective; call it before MPI_Finalize. Without an attached job it is
 * weft_finalize. */
WEFT_EXPORT void weft_job_finalize(void);

/* MPI_Abort, before the job is torn down: this rank leaves its part of the
 * trace on disk (its events, its recovery journal) for `weft recover`, and
 * says so in one line; ERROR_CODE becomes its ProgramEnd's status. Not
 * collective. */
WEFT_EXPORT void weft_job_abort(int error_code);

/* The recorder's clock: the timestamp events get now, in ticks. */
WEFT_EXPORT uint64_t weft_clock_ticks(void);
/* True when the ticks are CLOCK_MONOTONIC nanoseconds, false for a TSC. */
WEFT_EXPORT bool weft_clock_ticks_are_ns(void);

/* Records that at local time `local_time` (ticks) the clock of rank 0 read
 * local_time + offset, measured with standard deviation `stddev` (ticks).
 * Written as OTF2 ClockOffset records of every location of this process;
 * readers interpolate linearly between them. Call in increasing time order;
 * thread-safe. */
WEFT_EXPORT void weft_clock_offset_add(uint64_t local_time, int64_t offset, double stddev);

#ifdef __cplusplus
}
#endif

#endif /* WEFT_RECORDER_JOB_H */
