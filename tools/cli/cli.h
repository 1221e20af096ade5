/* SPDX-License-Identifier: BSD-3-Clause */
/* Shared pieces of the `weft` command: exit codes, the subcommand entry
 * points that main.c's dispatch table lists, and the helpers every subcommand
 * uses to report a usage error. Private to tools/. */
#ifndef WEFT_TOOLS_CLI_H
#define WEFT_TOOLS_CLI_H

#include <stdbool.h>
#include <stddef.h>

/* Exit codes of every subcommand. */
enum {
    WEFT_CLI_EXIT_OK = 0,
    WEFT_CLI_EXIT_FAILURE = 1, /* runtime error: unreadable trace, out of memory */
    WEFT_CLI_EXIT_USAGE = 2,   /* bad command line */
};

/* A subcommand. argv[0] is the subcommand's name; returns an exit code.
 * Every subcommand accepts --help and -h, printing its usage to stdout. */
typedef int weft_cli_command_fn(int argc, char **argv);

weft_cli_command_fn weft__cli_check;
weft_cli_command_fn weft__cli_compile;
weft_cli_command_fn weft__cli_convert;
weft_cli_command_fn weft__cli_info;
weft_cli_command_fn weft__cli_recover;
weft_cli_command_fn weft__cli_summary;
weft_cli_command_fn weft__cli_run; /* returns only on error: the process becomes PROGRAM */
weft_cli_command_fn weft__cli_view;

/* Prints "weft CMD: <message>; run 'weft CMD --help' for usage" on stderr, as
 * one line, and returns WEFT_CLI_EXIT_USAGE. The message is formatted from FMT
 * and cut at 511 bytes. */
int weft__cli_usage_error(const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Parses a non-negative decimal count; false for anything else. */
bool weft__cli_parse_count(const char *text, size_t *out);

/* Matches argv[*i] against "--NAME" and "--NAME=VALUE". Sets *VALUE to the
 * text after '=', else to the next argument (consuming it) when TAKES_NEXT,
 * else to NULL. */
bool weft__cli_option_value(int argc, char **argv, int *i, const char *name, bool takes_next,
                            const char **value);

/* True when ARG asks for help (--help or -h). */
bool weft__cli_is_help(const char *arg);

/* One option of a command, argv[*i] (it may consume the next argument):
 * returns -1 when it took it, else the exit code to end the command with
 * (a usage error for an option it does not know). */
typedef int weft_cli_option_fn(int argc, char **argv, int *i, void *options);

/* The command line of a command that takes options and one operand (a
 * trace): --help or -h prints HELP; "--" ends the options; any other
 * argument that starts with '-' goes to OPTION; the one operand is stored
 * in *OPERAND, a second is a usage error, none leaves it NULL (the command
 * says what it wanted). Returns -1 when the command goes on, else its exit
 * code. */
int weft__cli_parse_line(int argc, char **argv, const char *cmd, weft_cli_option_fn *option,
                         void *options, void (*help)(void), const char **operand);

#endif /* WEFT_TOOLS_CLI_H */
