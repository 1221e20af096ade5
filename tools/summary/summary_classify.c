/* SPDX-License-Identifier: BSD-3-Clause */
/* Which paradigm a region belongs to and whether it is an OpenMP waiting
 * region, for `weft summary`. The region definition's paradigm decides; the
 * name and source-file rules Scalasca applies (docs/dev/OTF2-CONVENTIONS.md section 4)
 * cover traces that leave the paradigm UNKNOWN. Also the names of OTF2's
 * collective operations. Pure functions, no state. */
#include "summary.h"

#include <string.h>

#include <otf2/otf2.h>

static bool equal(const char *text, const char *literal)
{
    return text && strcmp(text, literal) == 0;
}

static bool starts_with(const char *text, const char *prefix)
{
    return text && strncmp(text, prefix, strlen(prefix)) == 0;
}

static weft_summary_class class_of(uint8_t paradigm, uint8_t role, const char *name,
                                   const char *file)
{
    /* Artificial regions (MEASUREMENT OFF, TRACE BUFFER FLUSH, weft clock
     * synchronisation) are the measurement's, whatever paradigm they name. */
    if (paradigm == OTF2_PARADIGM_MEASUREMENT_SYSTEM || role == OTF2_REGION_ROLE_ARTIFICIAL ||
        equal(file, "EPIK"))
        return WEFT_SUMMARY_CLASS_MEASUREMENT;
    if (paradigm == OTF2_PARADIGM_MPI)
        return WEFT_SUMMARY_CLASS_MPI;
    if (paradigm == OTF2_PARADIGM_OPENMP)
        return WEFT_SUMMARY_CLASS_OPENMP;
    switch (paradigm) {
    case OTF2_PARADIGM_UNKNOWN:
    case OTF2_PARADIGM_NONE:
        if (equal(file, "MPI"))
            return WEFT_SUMMARY_CLASS_MPI;
        if (equal(file, "OMP") || starts_with(name, "!$omp"))
            return WEFT_SUMMARY_CLASS_OPENMP;
        return WEFT_SUMMARY_CLASS_USER;
    case OTF2_PARADIGM_USER:
    case OTF2_PARADIGM_COMPILER:
    case OTF2_PARADIGM_SAMPLING:
        return WEFT_SUMMARY_CLASS_USER;
    default:
        return WEFT_SUMMARY_CLASS_OTHER;
    }
}

/* Barriers by role; by name ("!$omp barrier @f.c:3") when the role is not
 * one of the two. Lock waiting: a critical construct, or the OpenMP lock
 * routines that block until the lock is free (omp_test_lock does not). */
static weft_summary_wait wait_of(uint8_t role, const char *name)
{
    if (role == OTF2_REGION_ROLE_BARRIER)
        return WEFT_SUMMARY_WAIT_EXPLICIT_BARRIER;
    if (role == OTF2_REGION_ROLE_IMPLICIT_BARRIER)
        return WEFT_SUMMARY_WAIT_IMPLICIT_BARRIER;
    if (role == OTF2_REGION_ROLE_CRITICAL || equal(name, "omp_set_lock") ||
        equal(name, "omp_set_nest_lock"))
        return WEFT_SUMMARY_WAIT_LOCK;
    if (starts_with(name, "!$omp barrier ") || equal(name, "!$omp barrier"))
        return WEFT_SUMMARY_WAIT_EXPLICIT_BARRIER;
    if (starts_with(name, "!$omp implicit barrier") || starts_with(name, "!$omp ibarrier"))
        return WEFT_SUMMARY_WAIT_IMPLICIT_BARRIER;
    if (starts_with(name, "!$omp critical ") && !starts_with(name, "!$omp critical sblock"))
        return WEFT_SUMMARY_WAIT_LOCK;
    return WEFT_SUMMARY_WAIT_NONE;
}

weft_summary_kind weft__summary_classify(uint8_t paradigm, uint8_t role, const char *name,
                                         const char *file)
{
    weft_summary_kind kind = {class_of(paradigm, role, name, file), WEFT_SUMMARY_WAIT_NONE};
    if (kind.paradigm == WEFT_SUMMARY_CLASS_OPENMP)
        kind.wait = wait_of(role, name);
    return kind;
}

const char *weft__summary_class_name(weft_summary_class paradigm)
{
    static const char *const names[WEFT_SUMMARY_CLASS_COUNT] = {
        [WEFT_SUMMARY_CLASS_USER] = "user",   [WEFT_SUMMARY_CLASS_OPENMP] = "openmp",
        [WEFT_SUMMARY_CLASS_MPI] = "mpi",     [WEFT_SUMMARY_CLASS_MEASUREMENT] = "measurement",
        [WEFT_SUMMARY_CLASS_OTHER] = "other",
    };
    return (unsigned)paradigm < WEFT_SUMMARY_CLASS_COUNT ? names[paradigm] : "other";
}

const char *weft__summary_collective_name(uint8_t op)
{
    /* clang-format off */
    static const char *const names[] = {
        [OTF2_COLLECTIVE_OP_BARRIER] = "barrier",
        [OTF2_COLLECTIVE_OP_BCAST] = "bcast",
        [OTF2_COLLECTIVE_OP_GATHER] = "gather",
        [OTF2_COLLECTIVE_OP_GATHERV] = "gatherv",
        [OTF2_COLLECTIVE_OP_SCATTER] = "scatter",
        [OTF2_COLLECTIVE_OP_SCATTERV] = "scatterv",
        [OTF2_COLLECTIVE_OP_ALLGATHER] = "allgather",
        [OTF2_COLLECTIVE_OP_ALLGATHERV] = "allgatherv",
        [OTF2_COLLECTIVE_OP_ALLTOALL] = "alltoall",
        [OTF2_COLLECTIVE_OP_ALLTOALLV] = "alltoallv",
        [OTF2_COLLECTIVE_OP_ALLTOALLW] = "alltoallw",
        [OTF2_COLLECTIVE_OP_ALLREDUCE] = "allreduce",
        [OTF2_COLLECTIVE_OP_REDUCE] = "reduce",
        [OTF2_COLLECTIVE_OP_REDUCE_SCATTER] = "reduce_scatter",
        [OTF2_COLLECTIVE_OP_SCAN] = "scan",
        [OTF2_COLLECTIVE_OP_EXSCAN] = "exscan",
        [OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK] = "reduce_scatter_block",
        [OTF2_COLLECTIVE_OP_CREATE_HANDLE] = "create_handle",
        [OTF2_COLLECTIVE_OP_DESTROY_HANDLE] = "destroy_handle",
        [OTF2_COLLECTIVE_OP_ALLOCATE] = "allocate",
        [OTF2_COLLECTIVE_OP_DEALLOCATE] = "deallocate",
        [OTF2_COLLECTIVE_OP_CREATE_HANDLE_AND_ALLOCATE] = "create_handle_and_allocate",
        [OTF2_COLLECTIVE_OP_DESTROY_HANDLE_AND_DEALLOCATE] = "destroy_handle_and_deallocate",
    };
    /* clang-format on */
    return op < sizeof(names) / sizeof(names[0]) ? names[op] : NULL;
}
