/* SPDX-License-Identifier: BSD-3-Clause */
/* Entry point of the `weft` command: global options (--help, --version) and
 * dispatch to a subcommand through one table. A new subcommand is one row in
 * `commands` plus its file; the usage text is generated from the table, so
 * it lists exactly the subcommands that exist. */
#include "cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef WEFT_VERSION
#error "WEFT_VERSION must be defined by the build (PROJECT_VERSION)"
#endif

typedef struct command {
    const char *name;
    const char *summary; /* one line for `weft --help` */
    weft_cli_command_fn *run;
} command;

/* clang-format off */
static const command commands[] = {
    {"check",   "check that a trace is sound; one line per problem", weft__cli_check},
    {"compile", "wrap a compiler: instrument OpenMP with OPARI2, link libweft", weft__cli_compile},
    {"convert", "convert a legacy trace (EPILOG, EPIK, OTF version 1) to OTF2",
                weft__cli_convert},
    {"info",    "show the version, what was built in, and every WEFT_* variable", weft__cli_info},
    {"recover", "make a trace of what a run that could not finish left on disk",
                weft__cli_recover},
    {"run",     "trace an unmodified program: preload weft's libraries, then run it",
                weft__cli_run},
    {"summary", "profile a trace per region: visits, inclusive and exclusive time",
                weft__cli_summary},
    {"view",    "write a trace's timeline as one HTML page for any browser, offline",
                weft__cli_view},
};
/* clang-format on */

#define COMMAND_COUNT (sizeof(commands) / sizeof(commands[0]))

static void print_usage(FILE *out)
{
    fprintf(out, "usage: weft COMMAND [ARGS]\n"
                 "       weft --help | --version\n"
                 "\n"
                 "weft records event traces of MPI+OpenMP programs as OTF2 and reads them back.\n"
                 "\n"
                 "Commands:\n");
    for (size_t i = 0; i < COMMAND_COUNT; i++)
        fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fprintf(out, "\n"
                 "Options:\n"
                 "  -h, --help   show this help\n"
                 "  --version    print the version\n"
                 "\n"
                 "Run 'weft help COMMAND' or 'weft COMMAND --help' for a command's options.\n");
}

static const command *find_command(const char *name)
{
    for (size_t i = 0; i < COMMAND_COUNT; i++) {
        if (strcmp(commands[i].name, name) == 0)
            return &commands[i];
    }
    return NULL;
}

static int unknown_command(const char *name)
{
    fprintf(stderr, "weft: '%s' is not a weft command; run 'weft --help' for the list\n", name);
    return WEFT_CLI_EXIT_USAGE;
}

/* `weft help [COMMAND]`: the global usage, or COMMAND's own --help. */
static int run_help(int argc, char **argv)
{
    if (argc < 2) {
        print_usage(stdout);
        return WEFT_CLI_EXIT_OK;
    }
    if (argc > 2)
        return weft__cli_usage_error("help", "give at most one command name");
    const command *cmd = find_command(argv[1]);
    if (!cmd)
        return unknown_command(argv[1]);
    char help_flag[] = "--help";
    char *help_argv[] = {argv[1], help_flag, NULL};
    return cmd->run(2, help_argv);
}

static int dispatch(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "weft: no command given; run 'weft --help' for the list of commands\n");
        return WEFT_CLI_EXIT_USAGE;
    }
    const char *name = argv[1];
    if (weft__cli_is_help(name)) {
        print_usage(stdout);
        return WEFT_CLI_EXIT_OK;
    }
    if (strcmp(name, "--version") == 0) {
        printf("weft %s\n", WEFT_VERSION);
        return WEFT_CLI_EXIT_OK;
    }
    if (strcmp(name, "help") == 0)
        return run_help(argc - 1, argv + 1);
    if (name[0] == '-') {
        fprintf(stderr, "weft: unknown option '%s'; run 'weft --help' for usage\n", name);
        return WEFT_CLI_EXIT_USAGE;
    }
    const command *cmd = find_command(name);
    if (!cmd)
        return unknown_command(name);
    return cmd->run(argc - 1, argv + 1);
}

int main(int argc, char **argv)
{
    int status = dispatch(argc, argv);
    /* Output that could not be written (a full disk, a closed pipe) is an error too. A
     * failed write earlier leaves only the error flag, so errno may no longer tell why. */
    errno = 0;
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "weft: cannot write the output: %s\n",
                errno ? strerror(errno) : "write error");
        return WEFT_CLI_EXIT_FAILURE;
    }
    return status;
}
