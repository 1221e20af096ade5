/* MPI ranks that end badly (docs/FAULTS.md, run_mpi_fault_test.sh):
 *
 *   mpi_faults MODE WORKDIR SEED
 *
 * Every rank writes its pid to WORKDIR/pid.<rank>, then loops: a "work"
 * region holding 1000 "inner" ones, a ring exchange (MPI_Sendrecv to the
 * next rank, from the previous one) and an MPI_Allreduce, writing the
 * number of "work" regions it has entered to WORKDIR/count.<rank> as it
 * enters one. MODE:
 *   abort        rank 1 calls MPI_Abort after a number of iterations drawn
 *                from SEED; mpirun then ends the others
 *   no-finalize  rank 1 returns from main after that many, without
 *                MPI_Finalize; mpirun then ends the others
 *   loop         no rank ends by itself (the test kills one, or signals
 *                the launcher)
 *   io-rma-abort as abort, and every iteration also writes the rank's
 *                value into a file opened on MPI_COMM_WORLD (MPI-IO) and
 *                puts it into the next rank's window between two fences
 *                (one-sided), so that weft recover has MPI-IO and RMA
 *                records to carry over. */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <weft/user.h>

static void write_number(const char *dir, const char *what, int rank, long value)
{
    char path[4200], tmp[4300];
    snprintf(path, sizeof(path), "%s/%s.%d", dir, what, rank);
    snprintf(tmp, sizeof(tmp), "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f)
        return;
    fprintf(f, "%ld\n", value);
    fclose(f);
    rename(tmp, path); /* a reader sees the old value or the new one */
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: mpi_faults abort|no-finalize|loop|io-rma-abort WORKDIR SEED\n");
        return 2;
    }
    const char *mode = argv[1], *dir = argv[2];
    /* A signal from outside comes between iterations' counts, never between
     * the enter of "work" and the count that says it happened: the threads
     * MPI starts inherit this mask (so the signal can only reach this
     * thread), and this thread takes it only outside that window. */
    sigset_t ending;
    sigemptyset(&ending);
    sigaddset(&ending, SIGTERM);
    sigaddset(&ending, SIGINT);
    pthread_sigmask(SIG_BLOCK, &ending, NULL);
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    write_number(dir, "pid", rank, (long)getpid());
    srand((unsigned)strtoul(argv[3], NULL, 10));
    long last = 20 + rand() % 300;
    bool ends = strcmp(mode, "loop") != 0;
    bool io_rma = strcmp(mode, "io-rma-abort") == 0;
    double value = 1.0, received = 0.0, sum = 0.0, window_memory = 0.0;
    MPI_File file = MPI_FILE_NULL;
    MPI_Win window = MPI_WIN_NULL;
    if (io_rma) {
        char path[4200];
        snprintf(path, sizeof(path), "%s/io_rma.dat", dir);
        MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL,
                      &file);
        MPI_Win_create(&window_memory, sizeof(double), sizeof(double), MPI_INFO_NULL,
                       MPI_COMM_WORLD, &window);
    }
    for (long it = 0;; it++) {
        pthread_sigmask(SIG_BLOCK, &ending, NULL);
        WEFT_USER_REGION_BEGIN("work");
        write_number(dir, "count", rank, it + 1);
        pthread_sigmask(SIG_UNBLOCK, &ending, NULL);
        for (int i = 0; i < 1000; i++) { /* events enough to reach the disk soon */
            WEFT_USER_REGION_BEGIN("inner");
            value = value * 1.0001 + (double)rank;
            WEFT_USER_REGION_END("inner");
        }
        WEFT_USER_REGION_END("work");
        MPI_Sendrecv(&value, 1, MPI_DOUBLE, (rank + 1) % size, 7, &received, 1, MPI_DOUBLE,
                     (rank + size - 1) % size, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Allreduce(&received, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        if (io_rma) {
            MPI_File_write_at(file, (MPI_Offset)((it * size + rank) * (long)sizeof(double)),
                              &value, 1, MPI_DOUBLE, MPI_STATUS_IGNORE);
            MPI_Win_fence(0, window);
            MPI_Put(&value, 1, MPI_DOUBLE, (rank + 1) % size, 0, 1, MPI_DOUBLE, window);
            MPI_Win_fence(0, window);
        }
        if (ends && rank == 1 && it + 1 == last) {
            if (strcmp(mode, "abort") == 0 || io_rma)
                MPI_Abort(MPI_COMM_WORLD, 3);
            return 0; /* no-finalize */
        }
    }
}
/* SPDX-License-Identifier: BSD-3-Clause */
