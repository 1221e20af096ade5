/* SPDX-License-Identifier: BSD-3-Clause */
/* One source through `weft compile`: opari2 writes an instrumented copy (and
 * its .opari.inc) into a subdirectory of the work directory of its own, so
 * two sources with the same name never collide, and the compiler compiles the
 * copy with the user's flags. The copy keeps the source's name, except that a
 * Fortran suffix is upper-cased (.f90 -> .F90) so the compiler preprocesses
 * the #line directives opari2 writes. `-iquote DIR` (and for Fortran `-I
 * DIR`), DIR being the source's directory, comes before the user's flags:
 * includes next to the original resolve as they did before. The #line
 * directives of the copy and the make dependency file of the compile are
 * rewritten to name the source as the user wrote it. */
#include "compile.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compile_copy.h"
#include "compile_depfile.h"
#include "compile_interface.h"
#include "compile_pretext.h"
#include "compile_text.h"

#define base_name weft__compile_base_name
#define with_suffix weft__compile_with_suffix
#define dir_name weft__compile_dir_name

/* PATH with its last suffix (if any) replaced by SUFFIX; malloc'ed. */
char *weft__compile_with_suffix(const char *path, const char *suffix)
{
    const char *name = base_name(path);
    const char *dot = strrchr(name, '.');
    size_t stem = dot && dot != name ? (size_t)(dot - path) : strlen(path);
    char *out = malloc(stem + strlen(suffix) + 1);
    if (out) {
        memcpy(out, path, stem);
        strcpy(out + stem, suffix);
    }
    return out;
}

/* The directory part of PATH ("." for a bare name, "/" for "/x"); malloc'ed. */
char *weft__compile_dir_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return strdup(".");
    size_t len = slash == path ? 1 : (size_t)(slash - path);
    char *out = malloc(len + 1);
    if (out) {
        memcpy(out, path, len);
        out[len] = '\0';
    }
    return out;
}

/* Makes work_dir/sN for the next source; malloc'ed path, NULL on failure
 * (reported). */
char *weft__compile_source_dir(weft_compile_ctx *ctx)
{
    char *dir = malloc(strlen(ctx->work_dir) + 16);
    if (!dir) {
        weft__compile_no_memory();
        return NULL;
    }
    sprintf(dir, "%s/s%u", ctx->work_dir, ++ctx->next_dir);
    if (mkdir(dir, 0700) != 0) {
        fprintf(stderr, "weft compile: cannot create the directory '%s': %s\n", dir,
                strerror(errno));
        free(dir);
        return NULL;
    }
    return dir;
}

/* DIR/NAME of the source SOURCE, a Fortran suffix upper-cased; malloc'ed. */
static char *copy_path(const char *dir, const char *source, weft_compile_lang lang)
{
    const char *name = base_name(source);
    char *copy = malloc(strlen(dir) + strlen(name) + 2);
    if (!copy)
        return NULL;
    sprintf(copy, "%s/%s", dir, name);
    char *dot = strrchr(copy + strlen(dir) + 1, '.');
    if (weft__compile_is_fortran(lang) && dot) {
        for (char *p = dot + 1; *p; p++)
            *p = (char)toupper((unsigned char)*p);
    }
    return copy;
}

/* Without the preprocessing path, OPARI2 reads the source as written and
 * misreads a loop construct over a range-based `for` whose body has no
 * braces (compile_pretext.h): the program would compute something else.
 * Says so, once per source. */
static void warn_range_for(const char *source, weft_compile_lang lang)
{
    if (lang != WEFT_COMPILE_LANG_CXX)
        return;
    weft_compile_text text = {0};
    unsigned found = weft__compile_text_read(source, &text) == WEFT_OK && text.text
                         ? weft__compile_range_for_bodies(text.text)
                         : 0;
    weft__compile_text_free(&text);
    if (found)
        fprintf(stderr,
                "weft compile: '%s' has %u OpenMP loop%s over a range-based for with an unbraced "
                "body, which OPARI2 misreads when weft compile does not preprocess (the "
                "statements after the loop run inside the construct): brace the body, or leave "
                "out --no-preprocess\n",
                source, found, found == 1 ? "" : "s");
}

int weft__compile_opari2(weft_compile_ctx *ctx, const char *input, weft_compile_lang lang,
                         const char *output, bool preprocessed)
{
    weft_compile_argv argv = {0};
    weft__compile_argv_push(&argv, "opari2");
    if (preprocessed)
        weft__compile_argv_push(&argv, "--preprocessed");
    if (ctx->openmp_disable)
        weft__compile_argv_push2(&argv, "--disable=omp:", ctx->openmp_disable);
    /* OPARI2 makes untied tasks tied and warns; --keep-untied keeps them. */
    weft__compile_argv_push(&argv, ctx->keep_untied ? "--omp-task-untied=keep"
                                                    : "--omp-task-untied=no-warn");
    /* The language is given, not guessed: opari2 refuses suffixes it does
     * not know (.F08, .FTN, ...) with a puzzling "Directive token mismatch". */
    if (lang == WEFT_COMPILE_LANG_C)
        weft__compile_argv_push(&argv, "--c");
    else if (lang == WEFT_COMPILE_LANG_CXX)
        weft__compile_argv_push(&argv, "--c++");
    else {
        weft__compile_argv_push(&argv, "--f90");
        weft__compile_argv_push(&argv, lang == WEFT_COMPILE_LANG_FORTRAN_FREE ? "--free-form"
                                                                              : "--fix-form");
    }
    weft__compile_argv_push(&argv, input);
    weft__compile_argv_push(&argv, output);
    if (!weft__compile_argv_ok(&argv)) {
        weft__compile_argv_free(&argv);
        return weft__compile_no_memory();
    }
    char **items = weft__compile_argv_items(&argv);
    if (ctx->verbose)
        weft__compile_print_command(stderr, items, NULL);
    weft_compile_exit exit = weft__compile_run(items, -1, -1);
    weft__compile_argv_free(&argv);
    /* opari2's own messages do not always name the file, and a crash has
     * none: weft__compile_explain_failure names it. */
    if (exit.code)
        ctx->opari2_status = exit.code;
    if (exit.signal && !weft__compile_signal_caught()) {
        ctx->opari2_status = 128 + exit.signal;
        ctx->opari2_signal = exit.signal;
        return 128 + exit.signal;
    }
    return weft__compile_exit_status("opari2", exit, WEFT_COMPILE_OPARI2_HINT);
}

/* The words of `opari2-config --cflags` (the POMP2 header's directory), read
 * on first use, and weft's own include directory. */
int weft__compile_load_cflags(weft_compile_ctx *ctx)
{
    if (ctx->have_cflags)
        return 0;
    weft__compile_push_weft_include(&ctx->opari2_cflags);
    if (ctx->opari1_prefix) {
        /* OPARI 1: its pomp_lib.h, and the current directory, where the
         * .opari.inc files are named from (their names as opari was given). */
        char cwd[4096];
        weft__compile_argv_push2(&ctx->opari2_cflags, "-I", ctx->opari1_include);
        weft__compile_argv_push(&ctx->opari2_cflags, "-iquote");
        weft__compile_argv_push(&ctx->opari2_cflags, getcwd(cwd, sizeof(cwd)) ? cwd : ".");
        if (!weft__compile_argv_ok(&ctx->opari2_cflags))
            return weft__compile_no_memory();
        ctx->have_cflags = true;
        return 0;
    }
    char *argv[] = {"opari2-config", "--cflags", NULL};
    if (ctx->verbose)
        weft__compile_print_command(stderr, argv, NULL);
    char *text = NULL;
    weft_compile_exit exit = weft__compile_capture(argv, &text);
    if (!weft__compile_exit_ok(exit)) {
        free(text);
        return weft__compile_exit_status(argv[0], exit, WEFT_COMPILE_OPARI2_HINT);
    }
    weft__compile_argv_split(&ctx->opari2_cflags, text);
    free(text);
    if (!weft__compile_argv_ok(&ctx->opari2_cflags))
        return weft__compile_no_memory();
    ctx->have_cflags = true;
    return 0;
}

/* The compile command of the copy COPY into OBJECT. */
static void compile_command(const weft_compile_ctx *ctx, int index, const char *copy,
                            const char *object, weft_compile_argv *argv)
{
    const weft_compile_plan *plan = ctx->plan;
    char *dir = dir_name(plan->argv[index]);
    if (!dir) {
        argv->failed = true;
        return;
    }
    weft__compile_argv_push(argv, plan->argv[0]);
    weft__compile_argv_push(argv, "-iquote");
    weft__compile_argv_push(argv, dir);
    if (weft__compile_is_fortran(plan->langs[index])) {
        /* Fortran INCLUDE lines search the including file's directory, then -I. */
        weft__compile_argv_push(argv, "-I");
        weft__compile_argv_push(argv, dir);
    }
    free(dir);
    for (int i = 1; i < plan->argc; i++) {
        if (plan->roles[i] == WEFT_COMPILE_ARG_FLAG)
            weft__compile_argv_push(argv, plan->argv[i]);
    }
    for (size_t i = 0; i < ctx->opari2_cflags.count; i++)
        weft__compile_argv_push(argv, ctx->opari2_cflags.items[i]);
    const char *free_lines = plan->langs[index] == WEFT_COMPILE_LANG_FORTRAN_FREE
                                 ? weft__compile_free_line_flag(plan->argv[0])
                                 : NULL;
    if (free_lines)
        weft__compile_argv_push(argv, free_lines);
    weft__compile_argv_push(argv, plan->stop_flag ? plan->stop_flag : "-c");
    weft__compile_argv_push(argv, copy);
    weft__compile_argv_push(argv, "-o");
    weft__compile_argv_push(argv, object);
}

/* Where the object of source INDEX goes: the -o file, or the source's name
 * with the object suffix in the current directory, as the compiler would
 * name it; in the work directory DIR when the command links. */
char *weft__compile_object_path(const weft_compile_ctx *ctx, int index, const char *dir)
{
    const weft_compile_plan *plan = ctx->plan;
    if (plan->mode == WEFT_COMPILE_MODE_COMPILE && plan->output)
        return strdup(plan->output);
    if (plan->mode == WEFT_COMPILE_MODE_COMPILE)
        return with_suffix(base_name(plan->argv[index]), plan->object_suffix);
    char *in_dir = malloc(strlen(dir) + strlen(base_name(plan->argv[index])) + 2);
    if (!in_dir)
        return NULL;
    sprintf(in_dir, "%s/%s", dir, base_name(plan->argv[index]));
    char *object = with_suffix(in_dir, ".o");
    free(in_dir);
    return object;
}

/* Names the source in COPY's #line directives as the user wrote it. */
/* The #line directives of COPY name SOURCE; in Fortran, OPARI2's include
 * lines leave interface bodies (compile_interface.h), in C/C++ its task
 * handles are initialised (compile_copy.h). */
static int fix_lines(const char *copy, const char *source, weft_compile_lang lang)
{
    weft_status status = weft__compile_copy_fix_lines(copy, source);
    if (status == WEFT_OK) {
        weft_compile_text text = {0};
        status = weft__compile_text_read(copy, &text);
        bool fixed_form = lang == WEFT_COMPILE_LANG_FORTRAN_FIXED;
        char *fixed = status != WEFT_OK || !text.text ? NULL
                      : weft__compile_is_fortran(lang)
                          ? weft__compile_interface_includes(text.text, fixed_form, NULL)
                          : weft__compile_copy_init_task_handles(text.text);
        if (status == WEFT_OK)
            status = fixed ? weft__compile_text_write(copy, fixed) : WEFT_ERR_NO_MEMORY;
        free(fixed);
        weft__compile_text_free(&text);
    }
    if (status == WEFT_OK)
        return 0;
    fprintf(stderr, "weft compile: cannot rewrite the instrumented copy '%s': %s\n", copy,
            status == WEFT_ERR_NO_MEMORY ? "out of memory" : strerror(errno));
    return 1;
}

const char *weft__compile_depfile_target(const weft_compile_plan *plan, const char *object,
                                         char **derived, bool *wanted)
{
    *derived = NULL;
    *wanted = plan->depfile && (plan->mode != WEFT_COMPILE_MODE_LINK || plan->depfile_path);
    if (!*wanted)
        return NULL;
    if (plan->depfile_path)
        return plan->depfile_path;
    *derived = with_suffix(object, ".d");
    return *derived;
}

/* Points the dependency file of the compile (if any) at the original source. */
static int fix_depfile(const weft_compile_ctx *ctx, int index, const char *copy, const char *object)
{
    const weft_compile_plan *plan = ctx->plan;
    char *derived;
    bool wanted;
    const char *path = weft__compile_depfile_target(plan, object, &derived, &wanted);
    if (!wanted)
        return 0;
    if (!path)
        return weft__compile_no_memory();
    weft_status status = weft__compile_depfile_fix(path, ctx->work_dir, copy, plan->argv[index]);
    if (status != WEFT_OK)
        fprintf(stderr, "weft compile: cannot rewrite the dependency file '%s': %s\n", path,
                status == WEFT_ERR_IO ? strerror(errno) : "out of memory");
    free(derived);
    return status == WEFT_OK ? 0 : 1;
}

int weft__compile_source(weft_compile_ctx *ctx, int index)
{
    if (!ctx->opari1_prefix && !ctx->no_preprocess && weft__compile_preprocesses(ctx->plan, index))
        return weft__compile_preprocessed(ctx, index);
    const char *source = ctx->plan->argv[index];
    weft_compile_lang lang = ctx->plan->langs[index];
    int status = weft__compile_load_cflags(ctx);
    if (status)
        return status;
    char *dir = weft__compile_source_dir(ctx);
    if (!dir)
        return 1;
    char *copy = copy_path(dir, source, lang);
    char *object = weft__compile_object_path(ctx, index, dir);
    weft_compile_argv argv = {0};
    if (!copy || !object) {
        status = weft__compile_no_memory();
        goto fail;
    }
    warn_range_for(source, lang);
    status = ctx->opari1_prefix ? weft__compile_opari1_instrument(ctx, source, lang, copy)
                                : weft__compile_opari2(ctx, source, lang, copy, false);
    if (status) {
        status = weft__compile_explain_failure(ctx, index, status, source, true);
        goto fail;
    }
    status = fix_lines(copy, source, lang);
    if (status)
        goto fail;
    compile_command(ctx, index, copy, object, &argv);
    if (!weft__compile_argv_ok(&argv)) {
        status = weft__compile_no_memory();
        goto fail;
    }
    status = weft__compile_run_step(ctx, weft__compile_argv_items(&argv), -1, -1, NULL);
    if (status) {
        status = weft__compile_explain_failure(ctx, index, status, copy, false);
        goto fail;
    }
    status = fix_depfile(ctx, index, copy, object);
    if (status)
        goto fail;
    ctx->objects[index] = object;
    object = NULL;
fail:
    weft__compile_argv_free(&argv);
    free(object);
    free(copy);
    free(dir);
    return status;
}
