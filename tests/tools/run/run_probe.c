/* A program for the tests of `weft run`: prints the environment variables
 * weft run sets and its own arguments, then exits with the status given as
 * its first argument (0 without one). It links nothing of weft or MPI. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    static const char *const names[] = {"LD_PRELOAD", "WEFT_EXPERIMENT_DIRECTORY", "WEFT_VERBOSE"};
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        const char *value = getenv(names[i]);
        printf("%s=%s\n", names[i], value ? value : "(unset)");
    }
    printf("argv:");
    for (int i = 1; i < argc; i++)
        printf(" [%s]", argv[i]);
    printf("\n");
    return argc > 1 ? atoi(argv[1]) : 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
