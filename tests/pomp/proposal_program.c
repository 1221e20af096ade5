/* Programs instrumented by hand with the merged POMP proposal (pomplib.h),
 * chosen by argv[1]; test_pomp_proposal.c runs them and reads the traces.
 *
 *   example            the proposal's "hello from thread N" example in its
 *                      standard instrumentation
 *   example-optimised  the same in its optimised form: the handle is set by
 *                      POMP_Init_demo() (which POMP_Init finds) and the event
 *                      passes no CTC string
 *   every              every routine of the proposal's tables, called as the
 *                      tables write them (proposal_every.c)
 *   errors             calls with no handle, no lock and bad CTC strings;
 *                      prints each return code, one per line */
#include <omp.h>
#include <stdio.h>
#include <string.h>

#include <pomplib.h>

#include "proposal_program.h"

/* ---- the proposal's example ---------------------------------------------- */

static char demo_ctc[] = "51*type=preregion*file=demo.c*slines=7,8*elines=12,12**";

static int example(void)
{
    POMP_Handle_t pomp_hd1 = 0;
    int32_t pomp_tid = omp_get_thread_num();
    POMP_Init();
    POMP_Parallel_enter(&pomp_hd1, pomp_tid, -1, 1, demo_ctc);
#pragma omp parallel
    {
        int32_t pomp_thread = omp_get_thread_num();
        POMP_Parallel_begin(pomp_hd1, pomp_thread);
        printf("hello from thread %d\n", omp_get_thread_num() >= 0 ? 0 : 1);
        POMP_Parallel_end(pomp_hd1, pomp_thread);
    }
    POMP_Parallel_exit(pomp_hd1, pomp_tid);
    POMP_Finalize();
    return 0;
}

static POMP_Handle_t pomp_hd_demo = 0;

/* The per-file initialisation function of the optimised form. */
void POMP_Init_demo(void);
void POMP_Init_demo(void)
{
    POMP_Get_handle(&pomp_hd_demo, demo_ctc);
}

static int example_optimised(void)
{
    int32_t pomp_tid = omp_get_thread_num();
    POMP_Init();
    if (POMP_Parallel_enter(&pomp_hd_demo, pomp_tid, -1, 1, NULL) != POMP_SUCCESS)
        fprintf(stderr, "the handle was not set by POMP_Init_demo\n");
#pragma omp parallel
    {
        int32_t pomp_thread = omp_get_thread_num();
        POMP_Parallel_begin(pomp_hd_demo, pomp_thread);
        printf("hello from thread %d\n", omp_get_thread_num() >= 0 ? 0 : 1);
        POMP_Parallel_end(pomp_hd_demo, pomp_thread);
    }
    POMP_Parallel_exit(pomp_hd_demo, pomp_tid);
    POMP_Finalize();
    return 0;
}

/* ---- errors: return codes, one per line ------------------------------------- */

static int errors(void)
{
    POMP_Handle_t unset = 0, bad1 = 0, bad2 = 0, bad3 = 0, fine = 0, preset = 0, lock_call = 0;
    omp_lock_t lock;
    omp_init_lock(&lock);
    POMP_Init();
    printf("%d\n", POMP_Parallel_begin(NULL, 0));                    /* no handle */
    printf("%d\n", POMP_Barrier_enter(&unset, 0, NULL));             /* unset, no CTC */
    printf("%d\n", POMP_Barrier_enter(NULL, 0, "0*type=barrier**")); /* no handle at all */
    /* No lock: only weft's entry point behind the macro can be given none. */
    printf("%d\n", weft_pomp_set_lock_event_at(&lock_call, 0, NULL, 0, "0*type=omp_set_lock**"));
    printf("%d\n", POMP_User_region_begin(&bad1, 0, "garbage")); /* no '*' pairs */
    printf("%d\n", POMP_User_region_end(bad1, 0));
    printf("%d\n", POMP_User_region_begin(&bad2, 0, "19*type=nosuch**")); /* unknown type */
    printf("%d\n", POMP_User_region_end(bad2, 0));
    printf("%d\n", POMP_Barrier_enter(&bad3, 0, "2**")); /* the shortest string: no type */
    printf("%d\n", POMP_Barrier_exit(bad3, 0));
    /* A wrong length, as in the proposal's own example (51 for 53): fine. */
    printf("%d\n", POMP_Barrier_enter(&fine, 0, "42*type=barrier*file=errors.c*lines=9,9**"));
    printf("%d\n", POMP_Barrier_exit(fine, 0));
    /* A set handle needs no CTC string. */
    printf("%d\n", POMP_Get_handle(&preset, "0*type=barrier*file=errors.c*lines=5,5**"));
    printf("%d\n", POMP_Barrier_enter(&preset, 0, NULL));
    printf("%d\n", POMP_Barrier_exit(preset, 0));
    /* A lock event without a handle still takes and gives back the lock
     * (its events stay paired), but records no visit. */
    omp_set_lock(&lock);
    printf("%d\n", POMP_Set_lock_event(NULL, 0, lock, "0*type=omp_set_lock**"));
    printf("%d\n", POMP_Unset_lock_event(&unset, 0, lock, NULL));
    omp_unset_lock(&lock);
    POMP_Finalize();
    omp_destroy_lock(&lock);
    return 0;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    if (strcmp(mode, "example") == 0)
        return example();
    if (strcmp(mode, "example-optimised") == 0)
        return example_optimised();
    if (strcmp(mode, "every") == 0)
        return every();
    if (strcmp(mode, "errors") == 0)
        return errors();
    fprintf(stderr, "unknown mode '%s'\n", mode);
    return 2;
}
/* SPDX-License-Identifier: BSD-3-Clause */
