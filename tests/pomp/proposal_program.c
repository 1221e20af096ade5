/* Programs instrumented by hand with the merged POMP proposal (pomplib.h),
 * chosen by argv[1]; test_pomp_proposal.c runs them and reads the traces.
 *
 *   example            the proposal's "hello from thread N" example in its
 *                      standard instrumentation
 *   example-optimised  the same in its optimised form: the handle is set by
 *                      POMP_Init_demo() (which POMP_Init finds) and the event
 *                      passes no CTC string
 *   every              every event of the proposal's tables once or a few
 *                      times, on the main thread (the parallel region with
 *                      two threads); prints nothing
 *   errors             calls with no handle, no lock and bad CTC strings;
 *                      prints each return code, one per line
 *
 * The CTC strings name file every.c and distinct lines, so that the test
 * knows every region's name. */
#include <omp.h>
#include <stdio.h>
#include <string.h>

#include <pomplib.h>

/* ---- the proposal's example ---------------------------------------------- */

static const char demo_ctc[] = "51*type=preregion*file=demo.c*slines=7,8*elines=12,12**";

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

/* ---- every event ----------------------------------------------------------- */

static void constructs(void)
{
    POMP_Handle_t hp = 0, hl = 0, hw = 0, hs = 0, hsg = 0, hc = 0, ho = 0, hm = 0, hb = 0, ha = 0,
                  hf = 0;
    POMP_Parallel_enter(&hp, 0, 2, 1, "0*type=preregion*file=every.c*slines=10,10*elines=11,11**");
#pragma omp parallel num_threads(2)
    {
        int32_t tid = omp_get_thread_num();
        POMP_Parallel_begin(hp, tid);
        POMP_Implicit_barrier_enter(hp, tid);
#pragma omp barrier
        POMP_Implicit_barrier_exit(hp, tid);
        POMP_Parallel_end(hp, tid);
    }
    POMP_Parallel_exit(hp, 0);

    POMP_Loop_enter(&hl, 0, 4, 0, 7, 1, "0*type=loop*file=every.c*slines=20,20*elines=21,21**");
    POMP_Loop_chunk_begin(hl, 0, 0, 3);
    for (int64_t i = 0; i < 4; i++) {
        POMP_Loop_iter_begin(hl, 0, i);
        POMP_Loop_iter_end(hl, 0);
    }
    POMP_Loop_chunk_end(hl, 0);
    POMP_Loop_chunk_begin(hl, 0, 4, 7);
    for (int64_t i = 4; i < 8; i++)
        POMP_Loop_iter_event(hl, 0, i);
    POMP_Loop_chunk_end(hl, 0);
    POMP_Implicit_barrier_enter(hl, 0);
    POMP_Implicit_barrier_exit(hl, 0);
    POMP_Loop_exit(hl, 0);

    POMP_Workshare_enter(&hw, 0, "0*type=workshare*file=every.c*slines=30,30*elines=31,31**");
    POMP_Workshare_exit(hw, 0);
    POMP_Sections_enter(&hs, 0, "0*type=sections*file=every.c*slines=40,40*elines=41,41**");
    for (int32_t s = 1; s <= 2; s++) {
        POMP_Section_begin(hs, 0, s);
        POMP_Section_end(hs, 0);
    }
    POMP_Sections_exit(hs, 0);
    POMP_Single_enter(&hsg, 0, "0*type=single*file=every.c*slines=50,50*elines=51,51**");
    POMP_Single_begin(hsg, 0);
    POMP_Single_end(hsg, 0);
    POMP_Single_exit(hsg, 0);

    POMP_Critical_enter(&hc, 0, "0*type=critical*name=one*file=every.c*lines=60,61**");
    POMP_Critical_begin(hc, 0);
    POMP_Critical_end(hc, 0);
    POMP_Critical_exit(hc, 0);
    POMP_Ordered_enter(&ho, 0, "0*type=ordered*file=every.c*lines=70,71**");
    POMP_Ordered_begin(ho, 0);
    POMP_Ordered_end(ho, 0);
    POMP_Ordered_exit(ho, 0);
    POMP_Master_begin(&hm, 0, "0*type=master*file=every.c*lines=80,81**");
    POMP_Master_end(hm, 0);
    POMP_Barrier_enter(&hb, 0, "0*type=barrier*file=every.c*lines=90,90**");
    POMP_Barrier_exit(hb, 0);
    POMP_Atomic_event(&ha, 0, "0*type=atomic*file=every.c*lines=100,100**");
    POMP_Flush_event(&hf, 0, "0*type=flush*file=every.c*lines=110,110**");
}

static void functions_and_user_regions(void)
{
    POMP_Handle_t hfn = 0, hfb = 0, hfe = 0, hu = 0, hue = 0;
    POMP_Function_enter(&hfn, 0, "0*type=function*name=compute*group=app*file=every.c**");
    POMP_Function_exit(hfn, 0);
    POMP_Function_begin(&hfb, 0, "0*type=function*name=solve*file=every.c**");
    POMP_Function_end(hfb, 0);
    POMP_Function_event(&hfe, 0, "0*type=function*name=tick*file=every.c**");
    POMP_User_region_begin(&hu, 0, "0*type=region*name=phase*file=every.c*lines=120,130**");
    POMP_User_region_end(hu, 0);
    POMP_User_event(&hue, 0, "0*type=region*name=mark*file=every.c**");
}

static void runtime_library(void)
{
    omp_lock_t lock;
    omp_nest_lock_t nest;
    POMP_Init_lock_event(0, &lock);
    POMP_Set_lock_enter(0, &lock);
    POMP_Set_lock_exit(0, &lock);
    POMP_Unset_lock_event(0, &lock);
    POMP_Set_lock_event(0, &lock);
    POMP_Unset_lock_event(0, &lock);
    POMP_Test_lock_event(0, &lock, 1);
    POMP_Unset_lock_event(0, &lock);
    POMP_Test_lock_event(0, &lock, 0);
    POMP_Destroy_lock_event(0, &lock);

    POMP_Init_nest_lock_event(0, &nest);
    POMP_Set_nest_lock_event(0, &nest);
    POMP_Set_nest_lock_enter(0, &nest); /* a second level: no acquisition */
    POMP_Set_nest_lock_exit(0, &nest);
    POMP_Unset_nest_lock_event(0, &nest);
    POMP_Unset_nest_lock_event(0, &nest);
    POMP_Test_nest_lock_event(0, &nest, 1);
    POMP_Unset_nest_lock_event(0, &nest);
    POMP_Destroy_nest_lock_event(0, &nest);

    POMP_Set_num_threads_event(0, 2);
    POMP_Get_num_threads_event(0, 1);
    POMP_Get_max_threads_event(0, 2);
    POMP_Get_thread_num_event(0, 0);
    POMP_Get_num_procs_event(0, 2);
    POMP_In_parallel_event(0, 0);
    POMP_Set_dynamic_event(0, 0);
    POMP_Get_dynamic_event(0, 0);
    POMP_Set_nested_event(0, 1);
    POMP_Get_nested_event(0, 1);
}

static int every(void)
{
    POMP_Init();
    constructs();
    functions_and_user_regions();
    runtime_library();
    POMP_Finalize();
    return 0;
}

/* ---- errors: return codes, one per line ------------------------------------- */

static int errors(void)
{
    POMP_Handle_t unset = 0, bad1 = 0, bad2 = 0, bad3 = 0, fine = 0, preset = 0;
    POMP_Init();
    printf("%d\n", POMP_Parallel_begin(NULL, 0));                    /* no handle */
    printf("%d\n", POMP_Barrier_enter(&unset, 0, NULL));             /* unset, no CTC */
    printf("%d\n", POMP_Barrier_enter(NULL, 0, "0*type=barrier**")); /* no handle at all */
    printf("%d\n", POMP_Set_lock_event(0, NULL));                    /* no lock */
    printf("%d\n", POMP_User_region_begin(&bad1, 0, "garbage"));     /* no '*' pairs */
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
    POMP_Finalize();
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
