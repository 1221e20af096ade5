/* SPDX-License-Identifier: BSD-3-Clause */
/* The helpers every subcommand parses its command line with, and its one
 * line for a usage error; see cli.h. */
#include "cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool weft__cli_is_help(const char *arg)
{
    return strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0;
}

int weft__cli_parse_line(int argc, char **argv, const char *cmd, weft_cli_option_fn *option,
                         void *options, void (*help)(void), const char **operand)
{
    bool only_operands = false;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (!only_operands && weft__cli_is_help(arg)) {
            help();
            return WEFT_CLI_EXIT_OK;
        }
        if (!only_operands && strcmp(arg, "--") == 0) {
            only_operands = true;
        } else if (!only_operands && arg[0] == '-' && arg[1] != '\0') {
            int code = option(argc, argv, &i, options);
            if (code >= 0)
                return code;
        } else if (*operand) {
            return weft__cli_usage_error(cmd, "give one trace, not also '%s'", arg);
        } else {
            *operand = arg;
        }
    }
    return -1;
}

/* Parses a non-negative decimal count; false for anything else. */
bool weft__cli_parse_count(const char *text, size_t *out)
{
    if (!text || *text < '0' || *text > '9')
        return false;
    errno = 0;
    char *end = NULL;
    unsigned long long value = strtoull(text, &end, 10);
    if (errno != 0 || *end != '\0' || value > SIZE_MAX)
        return false;
    *out = (size_t)value;
    return true;
}

/* Matches ARG against "--NAME" and "--NAME=VALUE". Sets *VALUE to the text
 * after '=', else to the next argument (consuming it) when TAKES_NEXT, else
 * to NULL. */
bool weft__cli_option_value(int argc, char **argv, int *i, const char *name, bool takes_next,
                            const char **value)
{
    const char *arg = argv[*i];
    size_t len = strlen(name);
    if (strncmp(arg, name, len) != 0 || (arg[len] != '\0' && arg[len] != '='))
        return false;
    if (arg[len] == '=')
        *value = arg + len + 1;
    else if (takes_next && *i + 1 < argc)
        *value = argv[++*i];
    else
        *value = NULL;
    return true;
}

int weft__cli_usage_error(const char *cmd, const char *fmt, ...)
{
    char message[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof(message), fmt, ap);
    va_end(ap);
    fprintf(stderr, "weft %s: %s; run 'weft %s --help' for usage\n", cmd, message, cmd);
    return WEFT_CLI_EXIT_USAGE;
}
