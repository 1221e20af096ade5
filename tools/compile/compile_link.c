/* SPDX-License-Identifier: BSD-3-Clause */
/* The link step of `weft compile`. OPARI2 gives every instrumented file a
 * function POMP2_Init_reg_<id>_<n>; the POMP2 library calls them through
 * POMP2_Init_regions(), which a generated C file defines. As OPARI2's own
 * Makefile example does, that file is made by `opari2-config --nm` (nm -B)
 * over every object and library of the link, piped into the awk script
 * `opari2-config --region-initialization` prints; here both run as argument
 * vectors, never through a shell. The unit is compiled with the user's
 * compiler (as C, with -x c, which g++, clang++ and gfortran accept too) and
 * linked together with libweft, and for MPI programs libweft-mpi (the PMPI
 * wrappers) before it. */
#include "compile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef WEFT_BUILD_LIBDIR
#error "WEFT_BUILD_LIBDIR (the build tree's directory of libweft.so) must be defined by the build"
#endif
#ifndef WEFT_INSTALL_LIBDIR_FROM_BINDIR
#error "WEFT_INSTALL_LIBDIR_FROM_BINDIR (e.g. ../lib) must be defined by the build"
#endif
#if !defined(WEFT_BUILD_INCLUDEDIR) || !defined(WEFT_INSTALL_INCLUDEDIR_FROM_BINDIR)
#error "WEFT_BUILD_INCLUDEDIR and WEFT_INSTALL_INCLUDEDIR_FROM_BINDIR must be defined by the build"
#endif
#ifndef WEFT_BUILD_MPI_LIBDIR
#error "WEFT_BUILD_MPI_LIBDIR (libweft-mpi.so's build-tree directory, or \"\") must be defined"
#endif

/* DIR/NAME.SUFFIX, malloc'ed. */
static char *join_suffix(const char *dir, const char *name, const char *suffix)
{
    char *out = malloc(strlen(dir) + strlen(name) + strlen(suffix) + 2);
    if (out)
        sprintf(out, "%s/%s%s", dir, name, suffix);
    return out;
}

static bool is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* malloc'ed "A/B". */
static char *join(const char *a, const char *b)
{
    char *out = malloc(strlen(a) + strlen(b) + 2);
    if (out)
        sprintf(out, "%s/%s", a, b);
    return out;
}

/* True when PATH is an ELF file or an ar archive: what nm can read. A linker
 * script called libc.so, or a file that does not exist, is left to the
 * linker. */
static bool nm_can_read(const char *path)
{
    unsigned char magic[8] = {0};
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    ssize_t got = read(fd, magic, sizeof(magic));
    close(fd);
    if (got >= 4 && memcmp(magic, "\177ELF", 4) == 0)
        return true;
    return got == 8 && memcmp(magic, "!<arch>\n", 8) == 0;
}

char *weft__compile_find_dir(const char *file, const char *from_bindir, const char *build_dir)
{
    char exe[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    const char *candidates[2] = {NULL, build_dir};
    char *installed = NULL;
    if (len > 0) {
        exe[len] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash)
            *slash = '\0';
        installed = join(exe, from_bindir);
        candidates[0] = installed;
    }
    char *found = NULL;
    for (size_t i = 0; i < 2 && !found; i++) {
        if (!candidates[i])
            continue;
        char *path = join(candidates[i], file);
        if (path && is_file(path))
            found = strdup(candidates[i]);
        free(path);
    }
    if (!found)
        fprintf(stderr, "weft compile: cannot find %s in %s or %s; reinstall weft or rebuild it\n",
                file, installed ? installed : "(the weft executable's directory)", build_dir);
    free(installed);
    return found;
}

void weft__compile_push_weft_include(weft_compile_argv *argv)
{
    char *dir = weft__compile_find_dir("weft/user.h", WEFT_INSTALL_INCLUDEDIR_FROM_BINDIR,
                                       WEFT_BUILD_INCLUDEDIR);
    if (dir)
        weft__compile_argv_push2(argv, "-I", dir);
    free(dir);
}

/* Where libweft.so is: next to an installed weft (the configured libdir
 * relative to the bindir), else the build tree this weft was built in.
 * Returns a malloc'ed directory, or NULL (reported). */
static char *find_libdir(void)
{
    return weft__compile_find_dir("libweft.so", WEFT_INSTALL_LIBDIR_FROM_BINDIR, WEFT_BUILD_LIBDIR);
}

/* Where libweft-mpi.so is, for an MPI link against libweft in LIBDIR: the
 * same directory when libweft is installed (both install into one lib
 * directory), the build tree's adapters/pmpi when LIBDIR is the build tree.
 * Never an installed libweft with a build tree's libweft-mpi: the two must
 * come from one build. Returns a malloc'ed directory, or NULL when
 * libweft-mpi was not built (reported in one line; the link goes on without
 * it) or memory ran out (*no_memory set). */
static char *find_mpi_libdir(const char *libdir, bool *no_memory)
{
    const char *candidates[2] = {libdir, NULL};
    if (strcmp(libdir, WEFT_BUILD_LIBDIR) == 0 && WEFT_BUILD_MPI_LIBDIR[0] != '\0')
        candidates[1] = WEFT_BUILD_MPI_LIBDIR;
    *no_memory = false;
    for (size_t i = 0; i < 2 && candidates[i]; i++) {
        char *lib = join(candidates[i], "libweft-mpi.so");
        if (!lib) {
            *no_memory = true;
            return NULL;
        }
        bool found = is_file(lib);
        free(lib);
        if (found) {
            char *dir = strdup(candidates[i]);
            *no_memory = dir == NULL;
            return dir;
        }
    }
    if (strcmp(libdir, WEFT_BUILD_LIBDIR) == 0 && WEFT_BUILD_MPI_LIBDIR[0] == '\0')
        fprintf(stderr, "weft compile: this weft was built without MPI (no libweft-mpi); "
                        "linking without it: MPI calls will not be recorded\n");
    else
        fprintf(stderr,
                "weft compile: cannot find libweft-mpi.so in %s%s%s; linking without it: MPI "
                "calls will not be recorded\n",
                candidates[0], candidates[1] ? " or " : "", candidates[1] ? candidates[1] : "");
    return NULL;
}

/* Adds the library -lNAME (or -l:FILE) resolves to in the -L directories of
 * the command line, when it is one nm can read. The system directories are
 * not searched: libraries there are not instrumented. */
static void add_library(const weft_compile_plan *plan, const char *name, weft_compile_argv *files)
{
    for (int i = 1; i < plan->argc; i++) {
        const char *dir = NULL;
        if (plan->roles[i] != WEFT_COMPILE_ARG_LINK_FLAG)
            continue;
        if (strcmp(plan->argv[i], "-L") == 0 && i + 1 < plan->argc)
            dir = plan->argv[++i];
        else if (strncmp(plan->argv[i], "-L", 2) == 0)
            dir = plan->argv[i] + 2;
        if (!dir)
            continue;
        /* As the linker does: the first directory holding a match wins, a
         * shared library before a static one. */
        const char *forms[2][2] = {{"lib", ".so"}, {"lib", ".a"}};
        size_t form_count = name[0] == ':' ? 1 : 2;
        for (size_t f = 0; f < form_count; f++) {
            char *file = malloc(strlen(dir) + strlen(name) + 8);
            if (!file) {
                files->failed = true;
                return;
            }
            if (name[0] == ':')
                sprintf(file, "%s/%s", dir, name + 1);
            else
                sprintf(file, "%s/%s%s%s", dir, forms[f][0], name, forms[f][1]);
            bool exists = is_file(file);
            if (exists && nm_can_read(file))
                weft__compile_argv_push(files, file);
            free(file);
            if (exists)
                return;
        }
    }
}

/* Every object and library of the link that nm can read, in command-line
 * order: objects made from sources, objects and libraries named by path,
 * and -l libraries found in the -L directories. */
static void nm_inputs(const weft_compile_ctx *ctx, weft_compile_argv *files)
{
    const weft_compile_plan *plan = ctx->plan;
    for (int i = 1; i < plan->argc; i++) {
        const char *arg = plan->argv[i];
        if (ctx->objects[i])
            weft__compile_argv_push(files, ctx->objects[i]);
        else if (plan->roles[i] == WEFT_COMPILE_ARG_INPUT && weft__compile_is_object(arg) &&
                 nm_can_read(arg))
            weft__compile_argv_push(files, arg);
        else if (plan->roles[i] == WEFT_COMPILE_ARG_LINK_FLAG && strcmp(arg, "-l") == 0 &&
                 i + 1 < plan->argc)
            add_library(plan, plan->argv[++i], files);
        else if (plan->roles[i] == WEFT_COMPILE_ARG_LINK_FLAG && strncmp(arg, "-l", 2) == 0)
            add_library(plan, arg + 2, files);
    }
}

/* Asks opari2-config for one value (--nm, --region-initialization) and adds
 * its blank-separated words to ARGV. */
static int opari2_config(const weft_compile_ctx *ctx, const char *query, weft_compile_argv *argv)
{
    char *query_argv[] = {"opari2-config", (char *)query, NULL};
    if (ctx->verbose)
        weft__compile_print_command(stderr, query_argv, NULL);
    char *text = NULL;
    weft_compile_exit exit = weft__compile_capture(query_argv, &text);
    if (!weft__compile_exit_ok(exit)) {
        free(text);
        return weft__compile_exit_status("opari2-config", exit, WEFT_COMPILE_OPARI2_HINT);
    }
    size_t before = argv->count;
    weft__compile_argv_split(argv, text);
    free(text);
    if (!weft__compile_argv_ok(argv))
        return weft__compile_no_memory();
    if (argv->count == before) {
        fprintf(stderr, "weft compile: 'opari2-config %s' printed nothing; reinstall OPARI2\n",
                query);
        return 1;
    }
    return 0;
}

/* Reports how the nm | awk pipeline ended; returns the exit status. */
static int pipeline_status(char **nm, char **awk, const weft_compile_exit results[2])
{
    char *const *argvs[2] = {nm, awk};
    /* A script that could not start leaves nm writing into a closed pipe:
     * report the script, not nm's SIGPIPE. */
    if (results[1].start_errno)
        return weft__compile_exit_status(awk[0], results[1], WEFT_COMPILE_OPARI2_HINT);
    for (size_t i = 0; i < 2; i++) {
        if (weft__compile_exit_ok(results[i]))
            continue;
        int status = weft__compile_exit_status(argvs[i][0], results[i],
                                               i == 0 ? NULL : WEFT_COMPILE_OPARI2_HINT);
        if (results[i].code)
            fprintf(stderr,
                    "weft compile: '%s' failed (exit status %d) while listing the OpenMP "
                    "regions of the link\n",
                    argvs[i][0], results[i].code);
        return status;
    }
    return 0;
}

/* Writes work_dir/pomp2_init_regions.c: nm over FILES, piped into the
 * region-initialisation script (or the script alone on an empty input). */
static int write_init_source(const weft_compile_ctx *ctx, const weft_compile_argv *files,
                             const char *path)
{
    weft_compile_argv nm = {0}, awk = {0};
    int fd = -1;
    int status = opari2_config(ctx, "--nm", &nm);
    if (!status)
        status = opari2_config(ctx, "--region-initialization", &awk);
    if (status)
        goto fail;
    for (size_t i = 0; i < files->count; i++)
        weft__compile_argv_push(&nm, files->items[i]);
    if (!weft__compile_argv_ok(&nm)) {
        status = weft__compile_no_memory();
        goto fail;
    }
    fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0) {
        fprintf(stderr, "weft compile: cannot create '%s': %s\n", path, strerror(errno));
        status = 1;
        goto fail;
    }
    char tail[PATH_MAX + 8];
    snprintf(tail, sizeof(tail), " > %s", path);
    if (files->count == 0) {
        /* nm without a file would read a.out; the script alone still writes
         * a unit with no regions. */
        int null_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
        if (ctx->verbose)
            weft__compile_print_command(stderr, weft__compile_argv_items(&awk), tail);
        weft_compile_exit exit = weft__compile_run(weft__compile_argv_items(&awk), null_fd, fd);
        if (null_fd >= 0)
            close(null_fd);
        status = weft__compile_exit_ok(exit)
                     ? 0
                     : weft__compile_exit_status(awk.items[0], exit, WEFT_COMPILE_OPARI2_HINT);
        goto fail;
    }
    if (ctx->verbose) {
        char *const *awk_items = weft__compile_argv_items(&awk);
        char pipe_tail[PATH_MAX * 2 + 16];
        snprintf(pipe_tail, sizeof(pipe_tail), " | %s%s", awk_items[0], tail);
        weft__compile_print_command(stderr, weft__compile_argv_items(&nm), pipe_tail);
    }
    weft_compile_exit results[2];
    weft__compile_run_pipe(weft__compile_argv_items(&nm), weft__compile_argv_items(&awk), fd,
                           results);
    status = pipeline_status(nm.items, awk.items, results);
fail:
    if (fd >= 0)
        close(fd);
    weft__compile_argv_free(&nm);
    weft__compile_argv_free(&awk);
    return status;
}

/* True for the link options the region-initialisation unit must be compiled
 * with too: the target machine and ABI (-m32, -march=..., --target=...,
 * --sysroot=...) and position independence. */
static bool is_machine_flag(const char *arg)
{
    static const char *const prefixes[] = {"-m",    "--target=", "--sysroot=", "-fPIC",   "-fpic",
                                           "-fPIE", "-fpie",     "-fno-pic",   "-fno-PIC"};
    if (strcmp(arg, "-mllvm") == 0) /* an LLVM option, with its argument next */
        return false;
    for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
        if (strncmp(arg, prefixes[i], strlen(prefixes[i])) == 0)
            return true;
    }
    return false;
}

/* The same, for options whose argument is the next word. */
static bool is_separate_machine_flag(const char *arg)
{
    return strcmp(arg, "-target") == 0 || strcmp(arg, "--sysroot") == 0;
}

static int compile_init_unit(const weft_compile_ctx *ctx, const char *source, const char *object)
{
    const weft_compile_plan *plan = ctx->plan;
    weft_compile_argv argv = {0};
    weft__compile_argv_push(&argv, plan->argv[0]);
    for (int i = 1; i < plan->argc; i++) {
        if (plan->roles[i] != WEFT_COMPILE_ARG_FLAG)
            continue;
        if (is_separate_machine_flag(plan->argv[i]) && i + 1 < plan->argc) {
            weft__compile_argv_push(&argv, plan->argv[i]);
            weft__compile_argv_push(&argv, plan->argv[++i]);
        } else if (is_machine_flag(plan->argv[i])) {
            weft__compile_argv_push(&argv, plan->argv[i]);
        } else if (strcmp(plan->argv[i], "-mllvm") == 0) {
            i++; /* its argument is not a machine flag either */
        }
    }
    if (plan->shared)
        weft__compile_argv_push(&argv, "-fPIC");
    if (ctx->opari1_include) /* OPARI 1's table includes its pomp_lib.h */
        weft__compile_argv_push2(&argv, "-I", ctx->opari1_include);
    weft__compile_argv_push(&argv, "-x");
    weft__compile_argv_push(&argv, "c");
    weft__compile_argv_push(&argv, "-c");
    weft__compile_argv_push(&argv, source);
    weft__compile_argv_push(&argv, "-o");
    weft__compile_argv_push(&argv, object);
    int status = weft__compile_argv_ok(&argv)
                     ? weft__compile_run_step(ctx, weft__compile_argv_items(&argv), -1, -1, NULL)
                     : weft__compile_no_memory();
    weft__compile_argv_free(&argv);
    return status;
}

/* The libraries weft adds to a link: the region-initialisation object,
 * libweft-mpi (when MPI_LIBDIR is set) and libweft, each directory with -L. */
static void push_weft_libraries(weft_compile_argv *argv, const char *init_object,
                                const char *libdir, const char *mpi_libdir)
{
    if (init_object)
        weft__compile_argv_push(argv, init_object);
    weft__compile_argv_push2(argv, "-L", libdir);
    if (mpi_libdir && strcmp(mpi_libdir, libdir) != 0)
        weft__compile_argv_push2(argv, "-L", mpi_libdir);
    /* Loaded even when the program calls nothing in them directly (a linker
     * that defaults to --as-needed would drop them), without changing the
     * --as-needed state for the libraries the driver adds after us. */
    weft__compile_argv_push(argv, "-Wl,--push-state,--no-as-needed");
    if (mpi_libdir)
        weft__compile_argv_push(argv, "-lweft-mpi");
    weft__compile_argv_push(argv, "-lweft");
    weft__compile_argv_push(argv, "-Wl,--pop-state");
}

static void push_rpath(weft_compile_argv *argv, const char *dir)
{
    /* -Xlinker, not -Wl,: a comma in the directory must not split it. */
    weft__compile_argv_push(argv, "-Xlinker");
    weft__compile_argv_push(argv, "-rpath");
    weft__compile_argv_push(argv, "-Xlinker");
    weft__compile_argv_push(argv, dir);
}

/* The link command: the user's, each instrumented source replaced by its
 * object, with weft's libraries added (push_weft_libraries).
 *
 * With MPI, libweft-mpi must come before the MPI library on the link line:
 * the dynamic linker binds the program's MPI_Send to the first library in
 * the program's DT_NEEDED order that defines it, and that must be
 * libweft-mpi, whose MPI_Send calls the library's PMPI_Send. An MPI wrapper
 * (mpicc) appends -lmpi after all the user's arguments, so weft's libraries
 * go at the end of those; a -lmpi* among them moves weft's libraries just
 * before it. */
static void link_command(const weft_compile_ctx *ctx, const char *init_object, const char *libdir,
                         const char *mpi_libdir, weft_compile_argv *argv)
{
    const weft_compile_plan *plan = ctx->plan;
    weft__compile_argv_push(argv, plan->argv[0]);
    weft__compile_push_weft_include(argv); /* for sources compiled by this command */
    for (int i = 1; i < plan->argc; i++) {
        if (i == plan->mpi_library)
            push_weft_libraries(argv, init_object, libdir, mpi_libdir);
        weft__compile_argv_push(argv, ctx->objects[i] ? ctx->objects[i] : plan->argv[i]);
    }
    if (!plan->mpi_library)
        push_weft_libraries(argv, init_object, libdir, mpi_libdir);
    push_rpath(argv, libdir);
    if (mpi_libdir && strcmp(mpi_libdir, libdir) != 0)
        push_rpath(argv, mpi_libdir);
}

int weft__compile_link(weft_compile_ctx *ctx)
{
    weft_compile_argv files = {0}, argv = {0};
    /* POMP2's region-initialisation unit, or OPARI 1's descriptor table. */
    const char *unit = ctx->opari1_prefix ? "opari_tab" : "pomp2_init_regions";
    char *init_source = join_suffix(ctx->work_dir, unit, ".c");
    char *init_object = join_suffix(ctx->work_dir, unit, ".o");
    char *libdir = find_libdir();
    char *mpi_libdir = NULL;
    int status = 1;
    if (!libdir)
        goto fail;
    if (ctx->plan->mpi) {
        bool no_memory = false;
        mpi_libdir = find_mpi_libdir(libdir, &no_memory);
        if (no_memory) {
            status = weft__compile_no_memory();
            goto fail;
        }
    }
    if (!init_source || !init_object) {
        status = weft__compile_no_memory();
        goto fail;
    }
    if (ctx->opari1_prefix) {
        /* OPARI 1's descriptor table instead of POMP2's initialisation unit. */
        status = weft__compile_opari1_table(ctx, init_source);
        if (status == -1) {
            status = 0;
            free(init_object);
            init_object = NULL;
        }
    } else {
        nm_inputs(ctx, &files);
        status = weft__compile_argv_ok(&files) ? write_init_source(ctx, &files, init_source)
                                               : weft__compile_no_memory();
    }
    if (!status && init_object)
        status = compile_init_unit(ctx, init_source, init_object);
    if (status)
        goto fail;
    link_command(ctx, init_object, libdir, mpi_libdir, &argv);
    status = weft__compile_argv_ok(&argv)
                 ? weft__compile_run_step(ctx, weft__compile_argv_items(&argv), -1, -1, NULL)
                 : weft__compile_no_memory();
fail:
    weft__compile_argv_free(&argv);
    weft__compile_argv_free(&files);
    free(mpi_libdir);
    free(libdir);
    free(init_object);
    free(init_source);
    return status;
}
