/* SPDX-License-Identifier: BSD-3-Clause */
/* `weft run [OPTIONS] [--] PROGRAM [ARGS...]`: traces an unmodified,
 * dynamically linked program. It decides which of weft's libraries PROGRAM
 * needs (the MPI wrappers when PROGRAM links libmpi; later the OMPT tool),
 * puts them in front of LD_PRELOAD together with libweft, sets the WEFT_*
 * variables its options stand for, and execs PROGRAM, so the exit status,
 * signals and standard streams are PROGRAM's own. No shell is involved.
 * The ELF inspection is in run_elf.c, the library search in run_libs.c. */
#include "run.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Exit statuses of a shell for a program it cannot execute or find. */
#define EXIT_CANNOT_EXECUTE 126
#define EXIT_NOT_FOUND 127

/* PATH as execvp uses it when the variable is unset (glibc). */
#define DEFAULT_PATH "/bin:/usr/bin"

typedef struct options {
    const char *output; /* -o DIR; NULL when not given */
    weft_run_mode mpi;  /* auto: preload the MPI wrappers when PROGRAM links libmpi */
    weft_run_mode openmp;
    bool llvm_runtime; /* --openmp-runtime=llvm */
    bool verbose;
    char **program_argv; /* PROGRAM [ARGS...]: the tail of argv, NULL-terminated */
} options;

static void print_help(void)
{
    printf("usage: weft run [OPTIONS] [--] PROGRAM [ARGS...]\n"
           "\n"
           "Runs PROGRAM with weft's libraries preloaded, so that an unmodified, dynamically\n"
           "linked program is traced without rebuilding it. weft run replaces itself with\n"
           "PROGRAM: the exit status, signals and standard streams are PROGRAM's own. With\n"
           "MPI, put it after the launcher, so that every rank runs it:\n"
           "  mpirun -np 4 weft run -o trace -- ./app ARGS\n"
           "\n"
           "It traces MPI calls, by preloading the MPI wrappers (libweft-mpi) into programs\n"
           "linked with an MPI library, and OpenMP constructs, by preloading the OMPT tool\n"
           "(libweft-ompt) into programs linked with an OpenMP runtime that has OMPT (LLVM's\n"
           "libomp, Intel's libiomp5). GCC's libgomp has none: --openmp-runtime=llvm runs\n"
           "a GCC-built program on LLVM's libomp, which implements libgomp's interface.\n"
           "\n"
           "Options:\n"
           "  -o DIR, --output DIR  write the trace to DIR (sets WEFT_EXPERIMENT_DIRECTORY);\n"
           "                        an existing DIR is never written into, the recorder\n"
           "                        picks DIR.1, DIR.2, ... instead and says so\n"
           "  --mpi=auto|yes|no     preload the MPI wrappers: auto (the default) when PROGRAM\n"
           "                        needs a library of an MPI directly (a DT_NEEDED entry of\n"
           "                        its ELF dynamic section: libmpi.so*, libmpich.so*, or\n"
           "                        their Fortran or C++ bindings such as libmpi_mpifh.so*,\n"
           "                        libmpi_usempif08.so*), yes always, no never\n"
           "  --openmp=auto|yes|no  preload the OMPT tool: auto (the default) when PROGRAM\n"
           "                        needs libomp.so*, libiomp5.so* (or libgomp.so* with\n"
           "                        --openmp-runtime=llvm) directly, yes always, no never\n"
           "  --openmp-runtime=llvm  preload LLVM's OpenMP runtime (the newest libomp.so.5\n"
           "                        installed) too, so that a program built by GCC, which\n"
           "                        needs libgomp, runs on libomp and is traced through OMPT\n"
           "  -v, --verbose         say what is preloaded and why, and set WEFT_VERBOSE=true\n"
           "                        so that the recorder reports on stderr too\n"
           "  -h, --help            show this help\n"
           "  --                    ends weft run's options; PROGRAM follows (needed only\n"
           "                        when PROGRAM starts with '-')\n"
           "\n"
           "Environment set for PROGRAM:\n"
           "  LD_PRELOAD            the absolute paths of the libraries to preload\n"
           "                        (libweft-mpi.so, libweft-ompt.so, libomp.so.5,\n"
           "                        libweft.so), before any libraries that\n"
           "                        LD_PRELOAD already holds\n"
           "  WEFT_EXPERIMENT_DIRECTORY  DIR, with -o\n"
           "  WEFT_VERBOSE          true, with --verbose\n"
           "Every other WEFT_* variable passes through unchanged and controls the recording\n"
           "as usual; 'weft info' lists them.\n"
           "\n"
           "PROGRAM is looked up in PATH, as a shell does, when its name has no '/'.\n"
           "--mpi=auto looks at PROGRAM's own dependencies only: a program that reaches MPI\n"
           "through another library, or a script that starts MPI programs, needs --mpi=yes.\n"
           "A program that --mpi=auto finds no use for runs untraced, with one line saying\n"
           "so on stderr.\n"
           "\n"
           "Exit status: PROGRAM's own; 2 for a bad command line, or when the MPI wrappers\n"
           "are wanted but this weft was built without them; 126 when PROGRAM cannot be\n"
           "executed, 127 when it is not found; 1 for other errors of weft run itself.\n");
}

/* Parses the value of --mpi or --openmp; false for anything else. */
static bool parse_mode(const char *text, weft_run_mode *out)
{
    static const struct {
        const char *name;
        weft_run_mode mode;
    } modes[] = {{"auto", WEFT_RUN_AUTO}, {"yes", WEFT_RUN_YES}, {"no", WEFT_RUN_NO}};
    for (size_t i = 0; text && i < sizeof(modes) / sizeof(modes[0]); i++) {
        if (strcmp(text, modes[i].name) == 0) {
            *out = modes[i].mode;
            return true;
        }
    }
    return false;
}

/* When ARG is the long option NAME, alone or as NAME=VALUE: returns its
 * value (the part after '=', else the next argument, advancing *I; NULL when
 * there is none) and sets *MATCHED. */
static const char *long_value(int argc, char **argv, int *i, const char *name, bool *matched)
{
    const char *arg = argv[*i];
    size_t len = strlen(name);
    *matched = strncmp(arg, name, len) == 0 && (arg[len] == '\0' || arg[len] == '=');
    if (!*matched)
        return NULL;
    if (arg[len] == '=')
        return arg + len + 1;
    return *i + 1 < argc ? argv[++*i] : NULL;
}

/* Returns -1 when the options are good, else the exit code to leave with. */
static int parse_options(int argc, char **argv, options *opt)
{
    *opt = (options){.mpi = WEFT_RUN_AUTO};
    int i = 1;
    for (; i < argc; i++) {
        const char *arg = argv[i];
        bool matched = false;
        const char *value = NULL;
        if (strcmp(arg, "--") == 0) {
            i++;
            break;
        }
        if (weft__cli_is_help(arg)) {
            print_help();
            return WEFT_CLI_EXIT_OK;
        }
        if (strcmp(arg, "-v") == 0 || strcmp(arg, "--verbose") == 0) {
            opt->verbose = true;
            continue;
        }
        if (strncmp(arg, "-o", 2) == 0) {
            value = arg[2] ? arg + 2 : (i + 1 < argc ? argv[++i] : NULL);
            matched = true;
        } else {
            value = long_value(argc, argv, &i, "--output", &matched);
        }
        if (matched) {
            if (!value || !value[0])
                return weft__cli_usage_error("run", "-o/--output needs a directory");
            opt->output = value;
            continue;
        }
        value = long_value(argc, argv, &i, "--mpi", &matched);
        if (matched) {
            if (!parse_mode(value, &opt->mpi))
                return weft__cli_usage_error("run", "--mpi takes auto, yes or no, not '%s'",
                                             value ? value : "nothing");
            continue;
        }
        value = long_value(argc, argv, &i, "--openmp", &matched);
        if (matched) {
            if (!parse_mode(value, &opt->openmp))
                return weft__cli_usage_error("run", "--openmp takes auto, yes or no, not '%s'",
                                             value ? value : "nothing");
            continue;
        }
        value = long_value(argc, argv, &i, "--openmp-runtime", &matched);
        if (matched) {
            if (!value || strcmp(value, "llvm") != 0)
                return weft__cli_usage_error("run", "--openmp-runtime takes llvm, not '%s'",
                                             value ? value : "nothing");
            opt->llvm_runtime = true;
            continue;
        }
        if (arg[0] == '-' && arg[1] != '\0')
            return weft__cli_usage_error("run",
                                         "unknown option '%s' (put '--' before a "
                                         "program whose name starts with '-')",
                                         arg);
        break; /* PROGRAM */
    }
    if (i >= argc)
        return weft__cli_usage_error("run", "give the program to run");
    opt->program_argv = argv + i;
    return -1;
}

/* 0 when PATH is a regular file we may execute, else the errno execve would
 * most likely fail with. */
static int check_executable(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return errno;
    if (S_ISDIR(st.st_mode))
        return EISDIR;
    if (!S_ISREG(st.st_mode) || access(path, X_OK) != 0)
        return EACCES;
    return 0;
}

static int exit_status_for(int err)
{
    return err == ENOENT ? EXIT_NOT_FOUND : EXIT_CANNOT_EXECUTE;
}

/* Looks NAME (without '/') up in the PATH directories as execvp does: the
 * first executable regular file wins; an empty entry is the current
 * directory. Returns 0 and a malloc'ed path in *PATH, or an errno: ENOENT
 * when there is no such file, EACCES when there are only ones that cannot
 * be executed, ENOMEM. */
static int search_path(const char *name, char **path)
{
    const char *search = getenv("PATH");
    if (!search)
        search = DEFAULT_PATH;
    size_t name_len = strlen(name);
    int result = ENOENT;
    for (;;) {
        size_t dir_len = strcspn(search, ":");
        size_t size = (dir_len ? dir_len : 1) + name_len + 2;
        char *candidate = malloc(size);
        if (!candidate)
            return ENOMEM;
        snprintf(candidate, size, "%.*s/%s", dir_len ? (int)dir_len : 1, dir_len ? search : ".",
                 name);
        int err = check_executable(candidate);
        if (err == 0) {
            *path = candidate;
            return 0;
        }
        free(candidate);
        if (err != ENOENT && err != ENOTDIR)
            result = EACCES;
        if (!search[dir_len])
            return result;
        search += dir_len + 1;
    }
}

/* Finds the file NAME stands for, as execvp would: NAME itself when it holds
 * a '/', else the result of the PATH search. Returns 0 and a malloc'ed path
 * in *PATH, or 126/127 (1 when out of memory) after one line on stderr. */
static int resolve_program(const char *name, char **path)
{
    *path = NULL;
    int err = ENOENT;
    if (strchr(name, '/')) {
        err = check_executable(name);
        if (!err && !(*path = strdup(name)))
            err = ENOMEM;
    } else if (name[0]) {
        err = search_path(name, path);
    }
    if (err == ENOMEM) {
        fprintf(stderr, "weft run: out of memory\n");
        return WEFT_CLI_EXIT_FAILURE;
    }
    if (err == ENOENT && name[0] && !strchr(name, '/')) {
        fprintf(stderr, "weft run: '%s': command not found in PATH\n", name);
        return EXIT_NOT_FOUND;
    }
    if (err) {
        fprintf(stderr, "weft run: cannot run '%s': %s\n", name, strerror(err));
        return exit_status_for(err);
    }
    return 0;
}

/* Whether the MPI wrappers are wanted for the program at PATH, whose ELF
 * inspection is ELF. Under --mpi=auto the inspection decides and WHY gets
 * its finding as a sentence; otherwise WHY names the option. *UNTRACEABLE
 * tells a program that uses MPI, whose calls the wrappers cannot trace. */
static bool wants_mpi(const options *opt, const char *path, const weft_run_elf_result *elf,
                      char *why, size_t why_size, bool *untraceable)
{
    *untraceable = false;
    if (opt->mpi != WEFT_RUN_AUTO) {
        snprintf(why, why_size, "--mpi=%s", opt->mpi == WEFT_RUN_YES ? "yes" : "no");
        return opt->mpi == WEFT_RUN_YES;
    }
    weft__run_elf_describe(path, elf, why, why_size);
    if (weft__run_elf_not_mpi(elf->kind))
        return false;
#ifdef WEFT_MPI_LIBRARY_NAME
    /* The wrappers work only with the MPI they were built against. */
    const char *family = weft__run_elf_mpi_family(elf->detail);
    if (!family || strcmp(family, WEFT_MPI_LIBRARY_NAME) != 0) {
        snprintf(why, why_size,
                 "'%s' needs %s, but this weft's MPI wrappers are built for another MPI "
                 "(" WEFT_MPI_LIBRARY_NAME "*): its MPI calls are not traced",
                 path, elf->detail);
        *untraceable = true;
        return false;
    }
#if !WEFT_MPI_FORTRAN_WRAPPERS
    if (elf->fortran_mpi)
        fprintf(stderr,
                "weft run: '%s' calls MPI from Fortran, but this weft's MPI wrappers were built "
                "without Open MPI's libmpi_mpifh: its Fortran MPI calls are not traced\n",
                path);
#endif
#endif
    return true;
}

/* Adds the MPI wrappers (libweft-mpi) to PRELOAD. WHY says why they are
 * wanted. Returns 0, or the exit status after one line on stderr. */
static int add_mpi_wrappers(const options *opt, const char *why, const weft_run_libraries *libs,
                            weft_run_preload *preload)
{
    if (!libs->weft_mpi) {
        fprintf(stderr,
                "weft run: %s, but this weft has no MPI wrappers (no libweft-mpi.so in %s); "
                "build weft with MPI, or use --mpi=no to run '%s' untraced\n",
                why, libs->where, opt->program_argv[0]);
        return WEFT_CLI_EXIT_USAGE;
    }
    if (opt->verbose)
        fprintf(stderr, "weft run: %s: preloading the MPI wrappers\n", why);
    if (!weft__run_preload_add(preload, libs->weft_mpi)) {
        fprintf(stderr, "weft run: too many libraries to preload\n");
        return WEFT_CLI_EXIT_FAILURE;
    }
    return 0;
}

/* Adds libweft, the recorder every adapter needs, after the adapters; only
 * when an adapter was added. Returns 0, or the exit status after one line
 * on stderr. */
static int add_recorder(const weft_run_libraries *libs, weft_run_preload *preload)
{
    if (preload->count == 0)
        return 0;
    if (!libs->weft) {
        fprintf(stderr, "weft run: cannot find libweft.so in %s; reinstall weft or rebuild it\n",
                libs->where);
        return WEFT_CLI_EXIT_FAILURE;
    }
    if (!weft__run_preload_add(preload, libs->weft)) {
        fprintf(stderr, "weft run: too many libraries to preload\n");
        return WEFT_CLI_EXIT_FAILURE;
    }
    return 0;
}

/* Builds the list of libraries to preload into PROGRAM: each adapter it
 * wants (the MPI wrappers, the OMPT tool), then libweft. Returns 0, or the
 * exit status after one line on stderr. A program under --mpi=auto and
 * --openmp=auto that gets nothing is run untraced, with one line saying so. */
static int choose_preload(const options *opt, const char *program, const weft_run_libraries *libs,
                          weft_run_preload *preload, char **llvm_runtime)
{
    weft_run_elf_result elf = weft__run_elf_inspect(program);
    char mpi_why[320];
    bool untraceable = false;
    bool mpi = wants_mpi(opt, program, &elf, mpi_why, sizeof(mpi_why), &untraceable);
    int status = mpi ? add_mpi_wrappers(opt, mpi_why, libs, preload) : 0;
    if (untraceable) /* said whatever else is preloaded */
        fprintf(stderr, "weft run: %s\n", mpi_why);
    if (!status && opt->llvm_runtime && !(*llvm_runtime = weft__run_find_llvm_openmp())) {
        fprintf(stderr, "weft run: --openmp-runtime=llvm: LLVM's OpenMP runtime (libomp.so.5) "
                        "is not installed (Debian: libomp5)\n");
        status = WEFT_CLI_EXIT_FAILURE;
    }
    weft_run_openmp_outcome openmp = WEFT_RUN_OPENMP_NONE;
    if (!status) {
        weft_run_openmp o = {
            .mode = opt->openmp, .llvm_runtime = *llvm_runtime, .verbose = opt->verbose};
        status = weft__run_add_openmp(&o, program, &elf, libs, preload, &openmp);
    }
    if (!status)
        status = add_recorder(libs, preload);
    if (status)
        return status;

    /* A program built by weft compile records itself (POMP2, libweft linked). */
    if (preload->count == 0 && opt->mpi == WEFT_RUN_AUTO && opt->openmp == WEFT_RUN_AUTO &&
        openmp != WEFT_RUN_OPENMP_NO_OMPT && !untraceable &&
        !elf.links_weft) /* those cases had their line */
        fprintf(stderr,
                "weft run: %s; nothing to trace, running it untraced (--mpi=yes or "
                "--openmp=yes preloads the adapter anyway)\n",
                mpi_why);
    else if (preload->count == 0 && opt->verbose)
        fprintf(stderr, "weft run: %s: nothing to preload\n", mpi_why);
    else if (!mpi && opt->verbose)
        fprintf(stderr, "weft run: %s: the MPI wrappers are not preloaded\n", mpi_why);

    for (size_t i = 0; i < preload->count; i++) {
        if (!weft__run_preload_path_ok(preload->paths[i])) {
            fprintf(stderr,
                    "weft run: cannot preload '%s': LD_PRELOAD cannot hold a path with ':' or "
                    "a space; install weft in another directory\n",
                    preload->paths[i]);
            return WEFT_CLI_EXIT_FAILURE;
        }
    }
    return 0;
}

/* Sets one variable for PROGRAM, saying so under --verbose. */
static int set_variable(const options *opt, const char *name, const char *value)
{
    if (setenv(name, value, 1) != 0) {
        fprintf(stderr, "weft run: cannot set %s: %s\n", name, strerror(errno));
        return WEFT_CLI_EXIT_FAILURE;
    }
    if (opt->verbose)
        fprintf(stderr, "weft run: %s=%s\n", name, value);
    return 0;
}

static int set_environment(const options *opt, const weft_run_preload *preload)
{
    int status = 0;
    if (opt->output)
        status = set_variable(opt, "WEFT_EXPERIMENT_DIRECTORY", opt->output);
    if (!status && opt->verbose)
        status = set_variable(opt, "WEFT_VERBOSE", "true");
    if (!status && preload->count > 0) {
        char *value = weft__run_preload_value(preload, getenv("LD_PRELOAD"));
        if (!value) {
            fprintf(stderr, "weft run: out of memory\n");
            return WEFT_CLI_EXIT_FAILURE;
        }
        status = set_variable(opt, "LD_PRELOAD", value);
        free(value);
    }
    return status;
}

int weft__cli_run(int argc, char **argv)
{
    options opt;
    int status = parse_options(argc, argv, &opt);
    if (status >= 0)
        return status;

    char *program = NULL, *llvm_runtime = NULL;
    weft_run_libraries libs = {0};
    weft_run_preload preload = {0};
    status = resolve_program(opt.program_argv[0], &program);
    if (status)
        goto fail;
    if (!weft__run_libraries_find(&libs)) {
        fprintf(stderr, "weft run: out of memory\n");
        status = WEFT_CLI_EXIT_FAILURE;
        goto fail;
    }
    status = choose_preload(&opt, program, &libs, &preload, &llvm_runtime);
    if (!status)
        status = set_environment(&opt, &preload);
    if (status)
        goto fail;
    if (opt.verbose)
        fprintf(stderr, "weft run: running %s\n", program);

    /* Output written so far must not be lost (or written twice) by exec. */
    fflush(stdout);
    fflush(stderr);
    /* PROGRAM is already resolved; execvp (rather than execv) keeps the C
     * library's handling of a script without "#!", as a shell would run it.
     * argv[0] stays the name the user gave. */
    execvp(program, opt.program_argv);
    int err = errno;
    fprintf(stderr, "weft run: cannot run '%s': %s\n", opt.program_argv[0], strerror(err));
    status = exit_status_for(err);
fail:
    weft__run_libraries_clear(&libs);
    free(llvm_runtime);
    free(program);
    return status;
}
