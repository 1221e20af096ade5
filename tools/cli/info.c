/* SPDX-License-Identifier: BSD-3-Clause */
/* `weft info`: the version, the optional parts this build has (each one a
 * WEFT_HAVE_* compile definition set by tools/CMakeLists.txt), and every
 * WEFT_* environment variable with its default and meaning. The variables
 * come from the recorder's own table, weft_config_vars(), so this listing
 * cannot drift from what the recorder reads. */
#include "cli.h"

#include <stdio.h>
#include <string.h>

#include <otf2/OTF2_GeneralDefinitions.h>

#include "weft/config.h"

#if WEFT_HAVE_MPI
/* Generated from adapters/pmpi/mpi_functions.spec and the build's mpi.h. */
#include "weft_mpi_families.h"
#endif

#if !defined(WEFT_VERSION) || !defined(WEFT_HAVE_MPI) || !defined(WEFT_HAVE_OMPT) ||               \
    !defined(WEFT_HAVE_POMP2) || !defined(WEFT_HAVE_PAPI) || !defined(WEFT_HAVE_BFD)
#error "WEFT_VERSION and the WEFT_HAVE_* feature flags must be defined by the build"
#endif

#define WRAP_COLUMNS 78
#define WRAP_INDENT 4

typedef struct feature {
    const char *label;
    int built_in;
    const char *detail; /* printed in parentheses after "yes"; NULL for none */
} feature;

/* clang-format off */
static const feature features[] = {
    {"OTF2",          1,               OTF2_VERSION},
    {"MPI wrappers",  WEFT_HAVE_MPI,   NULL},
    {"OMPT tool",     WEFT_HAVE_OMPT,  NULL},
    {"POMP2 adapter", WEFT_HAVE_POMP2, NULL},
    {"PAPI",          WEFT_HAVE_PAPI,  NULL},
    {"libbfd",        WEFT_HAVE_BFD,   NULL},
};
/* clang-format on */

static void print_help(void)
{
    printf("usage: weft info\n"
           "\n"
           "Prints the weft version, which optional parts this build has (OTF2, MPI\n"
           "wrappers, OMPT tool, POMP2 adapter, PAPI, libbfd), and every WEFT_* environment\n"
           "variable the recorder reads, with its default and meaning. With the MPI\n"
           "wrappers, the families of MPI functions they wrap and how many of each.\n"
           "\n"
           "Options:\n"
           "  -h, --help   show this help\n");
}

/* Prints TEXT word-wrapped to WRAP_COLUMNS, each line indented by WRAP_INDENT
 * spaces. A word longer than a line is printed whole on its own line. */
static void print_wrapped(const char *text)
{
    const size_t width = WRAP_COLUMNS - WRAP_INDENT;
    size_t line_len = 0;
    const char *p = text;
    while (*p) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        size_t word_len = strcspn(p, " ");
        if (line_len > 0 && line_len + 1 + word_len > width) {
            putchar('\n');
            line_len = 0;
        }
        if (line_len == 0)
            printf("%*s", WRAP_INDENT, "");
        else
            putchar(' ');
        fwrite(p, 1, word_len, stdout);
        line_len += (line_len ? 1 : 0) + word_len;
        p += word_len;
    }
    if (line_len > 0)
        putchar('\n');
}

int weft__cli_info(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (weft__cli_is_help(argv[i])) {
            print_help();
            return WEFT_CLI_EXIT_OK;
        }
    }
    if (argc > 1)
        return weft__cli_usage_error("info", "unexpected argument '%s'", argv[1]);

    printf("weft %s\n\nBuilt in:\n", WEFT_VERSION);
    for (size_t i = 0; i < sizeof(features) / sizeof(features[0]); i++) {
        const feature *f = &features[i];
        int pad = (int)(15 - strlen(f->label));
        printf("  %s:%*s%s", f->label, pad > 0 ? pad : 1, "", f->built_in ? "yes" : "no");
        if (f->built_in && f->detail)
            printf(" (%s)", f->detail);
        putchar('\n');
    }
#if WEFT_HAVE_MPI
    printf("\nMPI functions wrapped: %d (Fortran: %d for mpif.h and `use mpi`, %d for "
           "`use mpi_f08`), by family:\n%s",
           WEFT_MPI_WRAPPED_COUNT, WEFT_MPI_FORTRAN_WRAPPED_COUNT, WEFT_MPI_F08_WRAPPED_COUNT,
           WEFT_MPI_FAMILIES);
#endif

    size_t count = 0;
    const weft_config_var *vars = weft_config_vars(&count);
    printf("\nEnvironment variables (read once, when recording starts):\n");
    for (size_t i = 0; i < count; i++) {
        const char *def = vars[i].default_text;
        if (def && def[0])
            printf("\n%s (default: %s)\n", vars[i].name, def);
        else
            printf("\n%s (default: not set)\n", vars[i].name);
        print_wrapped(vars[i].meaning ? vars[i].meaning : "");
    }
    return WEFT_CLI_EXIT_OK;
}
