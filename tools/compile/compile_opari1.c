/* SPDX-License-Identifier: BSD-3-Clause */
/* OPARI 1 in `weft compile --opari1[=PREFIX]` (see compile.h).
 *
 * OPARI 1.1 works differently from OPARI2 in three ways that matter here,
 * and weft compile keeps OPARI 1's own conventions for them:
 * - it writes each construct's descriptor into "<source>.opari.inc" next
 *   to the source, which the instrumented copy includes (the compile's
 *   -iquote of the source's directory finds it); the descriptors name the
 *   source as given, so weft sets that to its absolute path, as OPARI2
 *   names it;
 * - the descriptors are global variables omp_rd_<N>, numbered across all
 *   files of a program through a resource file, opari.rc in the current
 *   directory, keyed by the source's path: sources compiled separately get
 *   distinct numbers, and a source instrumented again keeps one entry;
 * - the link takes a table of all descriptors (`opari -table`), which
 *   libweft reads at pomp_init to define every region up front. */
#include "compile.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "compile_copy.h"

#define OPARI1_HINT                                                                                \
    "give OPARI 1's install prefix with --opari1=PREFIX (Debian: unpack the opari and "            \
    "libpomp-dev packages)"

static char *join(const char *a, const char *b)
{
    char *out = malloc(strlen(a) + strlen(b) + 2);
    if (out)
        sprintf(out, "%s/%s", a, b);
    return out;
}

static bool is_executable(const char *path)
{
    return access(path, X_OK) == 0;
}

/* The prefix of the `opari` found on PATH (.../bin/opari -> ...). */
static char *prefix_from_path(void)
{
    const char *path = getenv("PATH");
    for (const char *at = path; at && *at;) {
        size_t len = strcspn(at, ":");
        char dir[PATH_MAX];
        if (len > 0 && len < sizeof(dir) - 8) {
            snprintf(dir, sizeof(dir), "%.*s/opari", (int)len, at);
            if (is_executable(dir)) {
                dir[len] = '\0';
                char *slash = strrchr(dir, '/');
                if (slash && strcmp(slash, "/bin") == 0) {
                    *slash = '\0';
                    return strdup(dir[0] ? dir : "/");
                }
            }
        }
        at += len + (at[len] == ':');
    }
    return NULL;
}

int weft__compile_opari1_setup(weft_compile_ctx *ctx, const char *given_prefix)
{
    ctx->opari1_prefix = given_prefix ? strdup(given_prefix) : prefix_from_path();
    if (!ctx->opari1_prefix) {
        fprintf(stderr, "weft compile: --opari1: no 'opari' on PATH; %s\n", OPARI1_HINT);
        return WEFT_CLI_EXIT_FAILURE;
    }
    ctx->opari1_program = join(ctx->opari1_prefix, "bin/opari");
    char *header = join(ctx->opari1_prefix, "include/pomp_lib.h");
    char cwd[PATH_MAX];
    ctx->opari1_rc = getcwd(cwd, sizeof(cwd)) ? join(cwd, "opari.rc") : NULL;
    ctx->opari1_include = join(ctx->opari1_prefix, "include");
    int status = 0;
    if (!ctx->opari1_program || !header || !ctx->opari1_rc || !ctx->opari1_include) {
        status = weft__compile_no_memory();
    } else if (!is_executable(ctx->opari1_program) || access(header, R_OK) != 0) {
        fprintf(stderr,
                "weft compile: --opari1: '%s' has no bin/opari and include/pomp_lib.h; %s\n",
                ctx->opari1_prefix, OPARI1_HINT);
        status = WEFT_CLI_EXIT_FAILURE;
    }
    free(header);
    return status;
}

void weft__compile_opari1_clear(weft_compile_ctx *ctx)
{
    free(ctx->opari1_prefix);
    free(ctx->opari1_program);
    free(ctx->opari1_rc);
    free(ctx->opari1_include);
}

/* The source's path as OPARI2 would name it: joined to the current
 * directory when relative. Malloc'ed. */
static char *absolute(const char *source)
{
    char cwd[PATH_MAX];
    if (source[0] == '/' || !getcwd(cwd, sizeof(cwd)))
        return strdup(source);
    return join(cwd, source);
}

static int run_opari(const weft_compile_ctx *ctx, const char *lang_flag, const char *in,
                     const char *out, const char *source)
{
    char *argv[] = {ctx->opari1_program, "-rcfile", ctx->opari1_rc, (char *)lang_flag, (char *)in,
                    (char *)out,         NULL};
    int status = weft__compile_run_step(ctx, argv, -1, -1, OPARI1_HINT);
    if (status)
        fprintf(stderr, "weft compile: opari failed on '%s' (exit status %d)\n", source, status);
    return status;
}

int weft__compile_opari1_instrument(weft_compile_ctx *ctx, const char *source,
                                    weft_compile_lang lang, const char *copy)
{
    if (lang != WEFT_COMPILE_LANG_C && lang != WEFT_COMPILE_LANG_CXX) {
        fprintf(stderr,
                "weft compile: --opari1: '%s' is Fortran; weft traces OPARI 1's C and C++ "
                "instrumentation only (use OPARI2 for Fortran)\n",
                source);
        return WEFT_CLI_EXIT_FAILURE;
    }
    int status = run_opari(ctx, lang == WEFT_COMPILE_LANG_C ? "-c" : "-c++", source, copy, source);
    if (status)
        return status;
    char *inc = malloc(strlen(source) + sizeof(".opari.inc"));
    char *source_path = absolute(source);
    weft_status st = WEFT_ERR_NO_MEMORY;
    if (inc && source_path) {
        sprintf(inc, "%s.opari.inc", source);
        st = weft__compile_copy_replace_literal(inc, source, source_path);
    }
    if (st != WEFT_OK) {
        fprintf(stderr, "weft compile: cannot rewrite '%s' that opari wrote: %s\n",
                inc ? inc : source, st == WEFT_ERR_NO_MEMORY ? "out of memory" : strerror(errno));
        status = WEFT_CLI_EXIT_FAILURE;
    }
    free(inc);
    free(source_path);
    return status;
}

int weft__compile_opari1_table(weft_compile_ctx *ctx, const char *table_source)
{
    if (access(ctx->opari1_rc, R_OK) != 0)
        return -1; /* nothing was instrumented by OPARI 1 here: no table */
    char *argv[] = {ctx->opari1_program,  "-rcfile", ctx->opari1_rc, "-table",
                    (char *)table_source, NULL};
    return weft__compile_run_step(ctx, argv, -1, -1, OPARI1_HINT);
}
