/* MPI test program "rma": one window, and fence, post-start-complete-wait
 * and passive-target (lock/unlock, lock_all/unlock_all with a flush)
 * epochs with Put, Get, Accumulate, Fetch_and_op and Compare_and_swap (see
 * mpi_scenarios.h). Every rank checks what arrived in its window and its
 * buffers.
 *
 *   mpirun -np N mpi_rma     (N even) */
#include <mpi.h>

#include "mpi_program.h"
#include "mpi_scenarios.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    mpi_program_require_even(rank, size);
    int right = (rank + 1) % size, left = (rank + size - 1) % size, partner = rank ^ 1;

    int mem[RMA_WIN_INTS] = {0};
    MPI_Win win;
    MPI_Win_create(mem, sizeof mem, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);

    /* fence epoch: the right neighbour's ints [p * RMA_COUNT, ...) get the
     * put number p + 100 * rank; then one get of the left's ints 40.. */
    int out[RMA_FENCE_PUTS][RMA_COUNT], got[RMA_COUNT];
    for (int p = 0; p < RMA_FENCE_PUTS; p++)
        for (int i = 0; i < RMA_COUNT; i++)
            out[p][i] = p + 100 * rank;
    for (int i = 0; i < RMA_COUNT; i++)
        mem[40 + i] = 7 * rank + i;
    MPI_Win_fence(0, win);
    for (int p = 0; p < RMA_FENCE_PUTS; p++)
        MPI_Put(out[p], RMA_COUNT, MPI_INT, right, p * RMA_COUNT, RMA_COUNT, MPI_INT, win);
    MPI_Get(got, RMA_COUNT, MPI_INT, left, 40, RMA_COUNT, MPI_INT, win);
    MPI_Win_fence(0, win);
    for (int p = 0; p < RMA_FENCE_PUTS; p++)
        mpi_program_require(mem[p * RMA_COUNT] == p + 100 * left, rank, "fence: put");
    mpi_program_require(got[RMA_COUNT - 1] == 7 * left + RMA_COUNT - 1, rank, "fence: get");

    /* PSCW with the partner: a put to ints 16.., an accumulate to ints 24.. */
    MPI_Group world, pair;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_incl(world, 1, &partner, &pair);
    int ones[RMA_COUNT];
    for (int i = 0; i < RMA_COUNT; i++) {
        ones[i] = rank + 1;
        mem[24 + i] = 1000;
    }
    MPI_Barrier(MPI_COMM_WORLD); /* the partner's ints 24.. are set */
    MPI_Win_post(pair, 0, win);
    MPI_Win_start(pair, 0, win);
    MPI_Put(ones, RMA_COUNT, MPI_INT, partner, 16, RMA_COUNT, MPI_INT, win);
    MPI_Accumulate(ones, RMA_COUNT, MPI_INT, partner, 24, RMA_COUNT, MPI_INT, MPI_SUM, win);
    MPI_Win_complete(win);
    MPI_Win_wait(win);
    mpi_program_require(mem[16] == partner + 1 && mem[24] == 1000 + partner + 1, rank,
                        "PSCW: put and accumulate");
    MPI_Group_free(&pair);
    MPI_Group_free(&world);

    /* passive target: an exclusive lock on the right neighbour (put to int
     * 32, fetch-and-op on int 33), then lock_all: a get from the left, a
     * flush, a compare-and-swap on the right's int 34 */
    MPI_Barrier(MPI_COMM_WORLD);
    int value = rank + 5, one = 1, fetched = -1;
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, win);
    MPI_Put(&value, 1, MPI_INT, right, 32, 1, MPI_INT, win);
    MPI_Fetch_and_op(&one, &fetched, MPI_INT, right, 33, MPI_SUM, win);
    MPI_Win_unlock(right, win);
    MPI_Barrier(MPI_COMM_WORLD);
    int compare = 1, swap = 50 + rank, old = -1, peek = -1;
    MPI_Win_lock_all(0, win);
    MPI_Get(&peek, 1, MPI_INT, left, 32, 1, MPI_INT, win);
    MPI_Win_flush_all(win);
    MPI_Compare_and_swap(&swap, &compare, &old, MPI_INT, right, 33, win);
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
    mpi_program_require(fetched == 0 && old == 1 && peek == (left + size - 1) % size + 5 &&
                            mem[32] == left + 5 && mem[33] == 50 + left,
                        rank, "passive target");
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
