/* What the MPI test programs do, in numbers both sides use: the programs
 * (mpi_*.c) make their calls with these tags, counts and roots, and the
 * checker (check_mpi_trace.c and mpi_expect_*.c) derives the expected
 * trace from the same constants. Every program needs an even number of
 * ranks (the tests run 2 and 4).
 *
 * Calls whose number the program cannot know in advance (Test loops,
 * Waitsome) are counted by the program and written to COUNTS_DIR/counts.RANK
 * as "NAME VALUE" lines (mpi_counts_write); the checker reads them back. */
#ifndef WEFT_TESTS_MPI_SCENARIOS_H
#define WEFT_TESTS_MPI_SCENARIOS_H

/* clang-format off */

/* ---- p2p (mpi_p2p.c): blocking point to point ------------------------- */

/* Ring rounds with MPI_Send/MPI_Recv to the right, from the left neighbour:
 * tag P2P_RING_TAG + round, P2P_RING_COUNTS[round] ints (the last one is
 * above Open MPI's eager limit). */
#define P2P_RING_ROUNDS 3
#define P2P_RING_TAG 10
#define P2P_RING_COUNTS {1, 100, 10000}
#define P2P_SSEND_TAG 20
#define P2P_SSEND_COUNT 10
#define P2P_BSEND_ROUNDS 2
#define P2P_BSEND_TAG 30 /* + round */
#define P2P_BSEND_COUNTS {5, 500}
#define P2P_RSEND_TAG 40 /* Irecv posted, barrier, Rsend, Wait */
#define P2P_RSEND_COUNT 64
#define P2P_SENDRECV_TAG 50
#define P2P_SENDRECV_COUNT 256
#define P2P_REPLACE_TAG 51 /* Sendrecv_replace: to the left, from the right */
#define P2P_REPLACE_COUNT 33
#define P2P_PROBE_TAG 60 /* partner rank ^ 1; Probe(ANY_SOURCE, ANY_TAG) + Recv */
#define P2P_PROBE_COUNT 77
#define P2P_MPROBE_TAG 70 /* partner rank ^ 1; Mprobe(ANY_SOURCE, tag) + Mrecv */
#define P2P_MPROBE_COUNT 55

/* ---- nonblocking (mpi_nonblocking.c) ---------------------------------- */

#define NB_WAIT_TAG 100 /* Irecv left, Isend right, Wait, Wait */
#define NB_WAIT_COUNT 10
#define NB_WAITALL_TAG 110 /* tag 110 to the right, 111 to the left; Waitall(4) */
#define NB_WAITALL_COUNTS {1000, 3}
#define NB_WAITANY_TAG 120 /* Irecv(ANY_SOURCE), Isend right; Waitany twice */
#define NB_WAITANY_COUNT 5
#define NB_WAITSOME_TAG 130 /* like Waitall, completed by Waitsome */
#define NB_WAITSOME_COUNT 7
#define NB_TEST_TAG 140 /* Irecv left, Isend right; Test loops */
#define NB_TEST_COUNT 9
#define NB_TESTALL_TAG 150 /* Irecv left, Isend right; Testall loop */
#define NB_TESTALL_COUNT 11
#define NB_PERSISTENT_TAG 160 /* Send_init right, Recv_init left */
#define NB_PERSISTENT_COUNT 20
#define NB_PERSISTENT_START_ROUNDS 3    /* Start, Start, Waitall(2) */
#define NB_PERSISTENT_STARTALL_ROUNDS 2 /* Startall(2), Waitall(2) */
#define NB_CANCEL_TAG 999               /* Irecv(ANY_SOURCE) nobody sends: Cancel, Wait */

/* ---- collectives (mpi_collectives.c) ---------------------------------- */

/* The blocking collectives, called in this order on MPI_COMM_WORLD and then
 * on the split communicator (color world_rank / 2, key size - world_rank,
 * so comm ranks run against world ranks). Counts are ints; "v" variants
 * take i + 1 elements from/for comm rank i. Roots are comm ranks. */
#define COLL_SEQUENCE(X)                                            \
    X(BARRIER)  X(BCAST)     X(GATHER)     X(GATHERV)               \
    X(SCATTER)  X(SCATTERV)  X(ALLGATHER)  X(ALLGATHERV)            \
    X(ALLTOALL) X(ALLTOALLV) X(ALLTOALLW)  X(REDUCE)                \
    X(ALLREDUCE) X(REDUCE_SCATTER) X(REDUCE_SCATTER_BLOCK)          \
    X(SCAN)     X(EXSCAN)
#define COLL_BCAST_COUNT 10
#define COLL_BCAST_ROOT(n) ((n) - 1)
#define COLL_GATHER_COUNT 3
#define COLL_GATHER_ROOT(n) 0
#define COLL_GATHERV_ROOT(n) ((n) - 1)
#define COLL_SCATTER_COUNT 2
#define COLL_SCATTER_ROOT(n) 0
#define COLL_SCATTERV_ROOT(n) ((n) - 1)
#define COLL_ALLGATHER_COUNT 4
#define COLL_ALLTOALL_COUNT 2
#define COLL_ALLTOALLW_COUNT 1
#define COLL_REDUCE_COUNT 5
#define COLL_REDUCE_ROOT(n) ((n) - 1)
#define COLL_ALLREDUCE_COUNT 6 /* doubles */
#define COLL_REDUCE_SCATTER_BLOCK_COUNT 3
#define COLL_SCAN_COUNT 2
/* Then on MPI_COMM_WORLD: Ibarrier, Ibcast (root 0, COLL_BCAST_COUNT ints),
 * Iallreduce (COLL_ALLREDUCE_COUNT doubles), each followed by MPI_Wait. */

/* ---- comms (mpi_comms.c) ---------------------------------------------- */

/* dup of MPI_COMM_WORLD; split A: color rank % 2, key rank; split B: color
 * 0, key size - rank, except the last rank on 4 or more ranks, which passes
 * MPI_UNDEFINED; a periodic 1-D Cart_create without reordering; Comm_create
 * from the group of the even world ranks in descending order. Each gets one
 * MPI_Sendrecv ring exchange (COMMS_TAG, COMMS_COUNT ints; a one-member
 * communicator sends to itself), split A also an MPI_Barrier. */
#define COMMS_TAG 7
#define COMMS_COUNT 16

/* ---- hybrid (mpi_hybrid.c): 2 ranks x HYBRID_THREADS threads ---------- */

#define HYBRID_THREADS 2
/* Inside the parallel region thread t calls MPI_Sendrecv with the same
 * thread of the other rank (tag t, HYBRID_COUNT ints), then Irecv + Isend
 * with tag HYBRID_NB_TAG + t and MPI_Waitall. */
#define HYBRID_COUNT 8
#define HYBRID_NB_TAG 20

/* ---- clock (mpi_clock.c) ---------------------------------------------- */

/* A loop, for about CLOCK_LOOP_MS and at least CLOCK_MIN_ITERATIONS times
 * (a loaded machine may run few iterations in that time, and weft checks
 * whether a sync is due only at some collectives), of: ping-pong between
 * rank pairs (r, r ^ 1) with MPI_Send/MPI_Recv (tag CLOCK_TAG, 1 int), then
 * MPI_Allreduce on MPI_COMM_WORLD of the stop flag; the iterations go to the
 * counts file as "iterations". */
#define CLOCK_LOOP_MS 500
#define CLOCK_MIN_ITERATIONS 300
#define CLOCK_TAG 3

/* ---- io (mpi_io.c, mpi_io_fortran.f90): MPI-IO on one shared file ------ */

/* Every rank opens IO_FILE_NAME in the counts directory on MPI_COMM_WORLD
 * (MPI_MODE_CREATE | MPI_MODE_RDWR, an info object with one key) and
 * writes blocks of IO_COUNT ints at explicit byte offsets, block b of rank r
 * at (b * N + r) * IO_BLOCK_BYTES: write_at (b 0), write_at_all (b 1),
 * iwrite_at + Wait (b 2), iwrite_at_all + Wait (b 3); then File_sync,
 * Barrier, File_sync. It reads its partner's (r ^ 1) blocks back:
 * read_at (b 0), read_at_all (b 1), iread_at + Wait (b 2), and with
 * File_seek to block 3 + read_all_begin/read_all_end (b 3); then a short
 * read_at of IO_COUNT ints at IO_SHORT_INTS ints before the end of the
 * file, which transfers only those; MPI_Get_count on its status; close. */
#define IO_FILE_NAME "io_shared.dat"
#define IO_COUNT 1000
#define IO_BLOCK_BYTES (IO_COUNT * 4)
#define IO_BLOCKS 4
#define IO_SHORT_INTS 3

/* ---- rma (mpi_rma.c, mpi_rma_fortran.f90): one-sided epochs ----------- */

/* One window of RMA_WIN_INTS ints per rank made by MPI_Win_create on
 * MPI_COMM_WORLD (and freed at the end), then three epochs:
 *   fence:   Win_fence, RMA_FENCE_PUTS Puts of RMA_COUNT ints to the right
 *            neighbour and one Get of RMA_COUNT ints from the left one,
 *            Win_fence;
 *   PSCW:    partners (r ^ 1): Win_post and Win_start with the partner's
 *            group, one Put and one Accumulate (MPI_SUM) of RMA_COUNT ints,
 *            Win_complete, Win_wait;
 *   passive: Win_lock (exclusive) on the right neighbour, one Put and one
 *            Fetch_and_op (1 int), Win_unlock; Win_lock_all, one Get from
 *            the left neighbour, Win_flush_all, one Compare_and_swap (1
 *            int) to the right one, Win_unlock_all; then a Barrier.
 * Each rank checks what arrived. */
#define RMA_WIN_INTS 64
#define RMA_COUNT 8
#define RMA_FENCE_PUTS 2

/* ---- topo (mpi_topo.c): communicators of the newer constructors ------- */

/* On N ranks (even): a 2 x N/2 periodic Cart_create (no reorder) and its
 * rows by Cart_sub (remain_dims {0, 1}); a ring Graph_create and a ring
 * Dist_graph_create_adjacent (no reorder); Comm_create_group of the odd
 * ranks, called by them only; Comm_idup + Wait; Comm_split into evens and
 * odds (key = rank), Intercomm_create between them (leaders: world ranks 0
 * and 1) and Intercomm_merge (evens low). One MPI_Sendrecv ring (TOPO_TAG,
 * TOPO_COUNT ints) on each intracommunicator but the split. All are freed. */
#define TOPO_TAG 9
#define TOPO_COUNT 4
/* clang-format on */

#endif
/* SPDX-License-Identifier: BSD-3-Clause */
