/* SPDX-License-Identifier: BSD-3-Clause */
/* `weft compile [options] -- COMPILER ARGS`: a compiler wrapper that
 * instruments the OpenMP constructs of C, C++ and Fortran sources with OPARI2
 * and links libweft. This file reads weft compile's own options, runs the
 * steps the plan (compile_args.c) calls for in a private work directory, and
 * removes that directory at the end. The steps themselves are in
 * compile_source.c and compile_link.c; every child runs through
 * compile_exec.c, never through a shell. */
#include "compile.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

static void print_help(void)
{
    printf("usage: weft compile [OPTIONS] -- COMPILER [ARGS...]\n"
           "       weft compile [OPTIONS] COMPILER [ARGS...]\n"
           "\n"
           "Compiles and links like COMPILER ARGS, but runs OPARI2 on the C, C++ and Fortran\n"
           "sources first, so their OpenMP constructs call the POMP2 interface, and links\n"
           "the program with libweft (and, for MPI compiler wrappers, libweft-mpi), so\n"
           "running it records a trace. For example:\n"
           "  weft compile -- gcc -fopenmp -O2 -c solver.c\n"
           "  weft compile -- gcc -fopenmp solver.o main.o -o app\n"
           "  weft compile mpicc -fopenmp app.c -o app\n"
           "\n"
           "Sources are instrumented only when OpenMP is on (-fopenmp, -fopenmp=LIB,\n"
           "-qopenmp, ...). Each source the compiler preprocesses (C, C++, and Fortran\n"
           "such as .F90 or with -cpp) goes through the compiler's preprocessor first,\n"
           "with your flags, so OPARI2 sees what the compiler compiles: #ifdef around\n"
           "constructs, macros and _Pragma(\"omp ...\") work. Commands that neither compile\n"
           "nor link (-E, -M, -MM, --version,\n"
           "-dumpversion, -print-*, ...) and commands with -x run unchanged. The compiler's\n"
           "messages and exit status pass through as they are. opari2 and opari2-config\n"
           "must be on PATH.\n"
           "\n"
           "Options (before COMPILER):\n"
           "  --keep          keep the work directory (instrumented sources, the region\n"
           "                  initialisation unit) and print its path on stderr\n"
           "  --keep-untied   keep untied tasks untied (by default OPARI2 makes them tied);\n"
           "                  LLVM's libomp moves them between threads, which POMP2\n"
           "                  cannot follow (trace such programs with weft run)\n"
           "  --no-preprocess  let OPARI2 read the sources as they are, before the\n"
           "                  preprocessor (weft's behaviour before version 0.2)\n"
           "  --openmp-disable=LIST  do not instrument these constructs (OPARI2's\n"
           "                  --disable=omp:LIST): atomic, critical, master, flush, single,\n"
           "                  ordered, locks (the omp_*_lock calls), sync (all of those),\n"
           "                  task; comma-separated\n"
           "  --opari1[=PREFIX]  instrument with OPARI 1.1 (the POMP of 2001) instead of\n"
           "                  OPARI2: PREFIX/bin/opari, PREFIX/include/pomp_lib.h; without\n"
           "                  PREFIX, the opari on PATH. C and C++ only. As OPARI 1 does, it\n"
           "                  writes SOURCE.opari.inc beside each source and numbers the\n"
           "                  regions of a program in ./opari.rc\n"
           "  -v, --verbose   print each command weft compile runs on stderr\n"
           "  -h, --help      show this help\n"
           "  --              ends the options; COMPILER follows\n");
}

typedef struct options {
    bool keep;
    bool verbose;
    bool keep_untied;
    bool no_preprocess;
    const char *openmp_disable; /* NULL: instrument every construct */
    bool opari1;
    const char *opari1_prefix; /* NULL: from PATH */
} options;

/* The constructs OPARI2's --disable=omp: takes; "tasks" is weft's spelling
 * of its "task", as WEFT_OPENMP_EVENTS has it. */
static bool valid_disable_list(const char *list)
{
    static const char *const names[] = {"atomic",  "critical", "master", "flush", "single",
                                        "ordered", "locks",    "sync",   "task"};
    const char *at = list;
    do {
        size_t len = strcspn(at, ",");
        bool known = false;
        for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
            known = known || (strlen(names[i]) == len && strncmp(at, names[i], len) == 0);
        if (!known) {
            weft__cli_usage_error("compile",
                                  "--openmp-disable: '%.*s' is not a construct OPARI2 can leave "
                                  "out (atomic, critical, master, flush, single, ordered, locks, "
                                  "sync, task)",
                                  (int)len, at);
            return false;
        }
        at += len;
    } while (*at++ == ',');
    return true;
}

/* Reads weft compile's options; returns the index of COMPILER in ARGV, 0
 * after --help, or -1 after a usage error (reported). */
static int parse_options(int argc, char **argv, options *opts)
{
    int i = 1;
    for (; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "--") == 0) {
            i++;
            break;
        }
        if (arg[0] != '-')
            break; /* the short form: weft compile gcc ... */
        if (weft__cli_is_help(arg)) {
            print_help();
            return 0;
        }
        if (strcmp(arg, "--keep") == 0)
            opts->keep = true;
        else if (strcmp(arg, "--verbose") == 0 || strcmp(arg, "-v") == 0)
            opts->verbose = true;
        else if (strcmp(arg, "--keep-untied") == 0)
            opts->keep_untied = true;
        else if (strcmp(arg, "--no-preprocess") == 0)
            opts->no_preprocess = true;
        else if (strncmp(arg, "--openmp-disable=", 17) == 0) {
            if (!valid_disable_list(arg + 17))
                return -1;
            opts->openmp_disable = arg + 17;
        } else if (strcmp(arg, "--opari1") == 0)
            opts->opari1 = true;
        else if (strncmp(arg, "--opari1=", 9) == 0 && arg[9] != '\0') {
            opts->opari1 = true;
            opts->opari1_prefix = arg + 9;
        }
        else {
            weft__cli_usage_error("compile",
                                  "unknown option '%s' (the compiler's options go "
                                  "after --)",
                                  arg);
            return -1;
        }
    }
    if (i >= argc || argv[i][0] == '\0') {
        weft__cli_usage_error("compile", "no compiler given; write 'weft compile -- COMPILER "
                                         "ARGS'");
        return -1;
    }
    return i;
}

int weft__compile_no_memory(void)
{
    fprintf(stderr, "weft compile: out of memory\n");
    return WEFT_CLI_EXIT_FAILURE;
}

int weft__compile_exit_status(const char *program, weft_compile_exit exit, const char *hint)
{
    if (exit.start_errno) {
        fprintf(stderr, "weft compile: cannot run '%s': %s%s%s\n", program,
                strerror(exit.start_errno), hint ? "; " : "", hint ? hint : "");
        return WEFT_CLI_EXIT_FAILURE;
    }
    if (exit.signal) {
        /* A signal sent to weft went to the child too: no need to say so. */
        if (!weft__compile_signal_caught())
            fprintf(stderr, "weft compile: '%s' was killed by signal %d (%s)\n", program,
                    exit.signal, strsignal(exit.signal));
        return 128 + exit.signal;
    }
    return exit.code;
}

int weft__compile_run_step(const weft_compile_ctx *ctx, char *const *argv, int stdin_fd,
                           int stdout_fd, const char *hint)
{
    if (ctx->verbose)
        weft__compile_print_command(stderr, argv, NULL);
    weft_compile_exit exit = weft__compile_run(argv, stdin_fd, stdout_fd);
    return weft__compile_exit_status(argv[0], exit, hint);
}

/* Creates the work directory under $TMPDIR (or /tmp), private to the user. */
static int make_work_dir(weft_compile_ctx *ctx)
{
    const char *tmp = getenv("TMPDIR");
    if (!tmp || tmp[0] != '/')
        tmp = "/tmp";
    ctx->work_dir = malloc(strlen(tmp) + sizeof("/weft-compile-XXXXXX"));
    if (!ctx->work_dir)
        return weft__compile_no_memory();
    sprintf(ctx->work_dir, "%s%sweft-compile-XXXXXX", tmp, tmp[strlen(tmp) - 1] == '/' ? "" : "/");
    if (!mkdtemp(ctx->work_dir)) {
        fprintf(stderr,
                "weft compile: cannot create a work directory in '%s': %s; set TMPDIR "
                "to a writable directory\n",
                tmp, strerror(errno));
        free(ctx->work_dir);
        ctx->work_dir = NULL;
        return WEFT_CLI_EXIT_FAILURE;
    }
    return 0;
}

/* Removes PATH and, for a directory, everything in it; symbolic links are
 * removed, never followed. Failures are reported once per path. */
static void remove_tree(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return;
    if (S_ISDIR(st.st_mode)) {
        DIR *dir = opendir(path);
        struct dirent *entry;
        while (dir && (entry = readdir(dir)) != NULL) {
            if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0)
                continue;
            char child[PATH_MAX];
            if (snprintf(child, sizeof(child), "%s/%s", path, entry->d_name) < (int)sizeof(child))
                remove_tree(child);
        }
        if (dir)
            closedir(dir);
    }
    if (remove(path) != 0)
        fprintf(stderr, "weft compile: cannot remove '%s': %s\n", path, strerror(errno));
}

/* Under -c/-S, inputs weft does not instrument (.s, .i, ...) still need the
 * compiler: it runs once more on the command line without the sources. */
static int compile_rest(weft_compile_ctx *ctx)
{
    const weft_compile_plan *plan = ctx->plan;
    bool needed = false;
    for (int i = 1; i < plan->argc; i++) {
        if (plan->roles[i] == WEFT_COMPILE_ARG_INPUT && !weft__compile_is_object(plan->argv[i]))
            needed = true;
    }
    if (!needed)
        return 0;
    weft_compile_argv argv = {0};
    weft__compile_argv_push(&argv, plan->argv[0]);
    weft__compile_push_weft_include(&argv);
    for (int i = 1; i < plan->argc; i++) {
        if (plan->roles[i] != WEFT_COMPILE_ARG_SOURCE)
            weft__compile_argv_push(&argv, plan->argv[i]);
    }
    int status = weft__compile_argv_ok(&argv)
                     ? weft__compile_run_step(ctx, weft__compile_argv_items(&argv), -1, -1, NULL)
                     : weft__compile_no_memory();
    weft__compile_argv_free(&argv);
    return status;
}

/* Compiles every source, then links or compiles the rest. */
static int run_steps(weft_compile_ctx *ctx)
{
    const weft_compile_plan *plan = ctx->plan;
    for (int i = 1; i < plan->argc; i++) {
        if (plan->roles[i] != WEFT_COMPILE_ARG_SOURCE)
            continue;
        int status = weft__compile_source(ctx, i);
        if (status || weft__compile_signal_caught())
            return status ? status : WEFT_CLI_EXIT_FAILURE;
    }
    if (plan->mode == WEFT_COMPILE_MODE_COMPILE)
        return compile_rest(ctx);
    return weft__compile_link(ctx);
}

static int run_plan(weft_compile_ctx *ctx, bool keep)
{
    ctx->objects = calloc((size_t)ctx->plan->argc, sizeof(*ctx->objects));
    if (!ctx->objects)
        return weft__compile_no_memory();
    int status = make_work_dir(ctx);
    if (!status) {
        status = run_steps(ctx);
        /* A failure kept for a look was named in the line that explained it. */
        bool kept = (keep || ctx->keep_on_failure) && !weft__compile_signal_caught();
        if (!kept)
            remove_tree(ctx->work_dir);
        else if (!ctx->keep_on_failure)
            fprintf(stderr, "weft compile: kept the work directory %s\n", ctx->work_dir);
    }
    for (int i = 0; i < ctx->plan->argc; i++)
        free(ctx->objects[i]);
    free(ctx->objects);
    free(ctx->work_dir);
    free(ctx->marker_header);
    weft__compile_argv_free(&ctx->opari2_cflags);
    return status;
}

static bool unreadable_source(const weft_compile_plan *plan)
{
    for (int i = 1; i < plan->argc; i++) {
        if (plan->roles[i] == WEFT_COMPILE_ARG_SOURCE && access(plan->argv[i], R_OK) != 0)
            return true;
    }
    return false;
}

int weft__cli_compile(int argc, char **argv)
{
    options opts = {0};
    int first = parse_options(argc, argv, &opts);
    if (first <= 0)
        return first == 0 ? WEFT_CLI_EXIT_OK : WEFT_CLI_EXIT_USAGE;

    weft_compile_plan plan;
    if (weft__compile_plan_make(argc - first, argv + first, &plan) != WEFT_OK)
        return weft__compile_no_memory();
    weft_compile_ctx ctx;
    memset(&ctx, 0, sizeof(ctx));
    ctx.plan = &plan;
    ctx.verbose = opts.verbose;
    ctx.keep_untied = opts.keep_untied;
    ctx.no_preprocess = opts.no_preprocess;
    ctx.openmp_disable = opts.openmp_disable;
    if (opts.opari1 && opts.openmp_disable) {
        weft__cli_usage_error("compile", "--openmp-disable is an option of OPARI2, not of "
                                         "OPARI 1 (--opari1)");
        weft__compile_plan_clear(&plan);
        return WEFT_CLI_EXIT_USAGE;
    }
    weft__compile_signals_catch();

    /* A source that cannot be read is the compiler's to report, in its words. */
    if (plan.mode != WEFT_COMPILE_MODE_PASS && unreadable_source(&plan)) {
        plan.mode = WEFT_COMPILE_MODE_PASS;
        plan.pass_reason = "a source cannot be read";
    }
    int status;
    if (plan.mode == WEFT_COMPILE_MODE_PASS) {
        if (ctx.verbose)
            fprintf(stderr, "weft compile: %s; running the command unchanged\n", plan.pass_reason);
        status = weft__compile_run_step(&ctx, plan.argv, -1, -1, NULL);
    } else {
        status = opts.opari1 ? weft__compile_opari1_setup(&ctx, opts.opari1_prefix) : 0;
        if (!status)
            status = run_plan(&ctx, opts.keep);
    }
    weft__compile_opari1_clear(&ctx);
    weft__compile_plan_clear(&plan);
    /* Interrupted: the work directory is gone; die of the same signal. */
    weft__compile_signal_reraise();
    return status;
}
