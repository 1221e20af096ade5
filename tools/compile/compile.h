/* SPDX-License-Identifier: BSD-3-Clause */
/* The steps of `weft compile` and the state they share: the options, the
 * plan made from the compiler command line, the work directory, and the
 * objects made so far. compile.c drives the steps; compile_source.c
 * instruments and compiles one source; compile_link.c builds the POMP2
 * region-initialisation unit and links. Private to tools/. */
#ifndef WEFT_TOOLS_COMPILE_H
#define WEFT_TOOLS_COMPILE_H

#include <stdbool.h>

#include "compile_args.h"
#include "compile_argv.h"
#include "compile_exec.h"

typedef struct weft_compile_ctx {
    const weft_compile_plan *plan;
    bool verbose;                    /* --verbose: print each command on stderr */
    bool keep_untied;                /* --keep-untied: opari2 --omp-task-untied=keep */
    bool no_preprocess;              /* --no-preprocess: OPARI2 reads the source itself */
    const char *openmp_disable;      /* --openmp-disable=LIST: opari2 --disable=omp:LIST */
    int opari2_status;               /* the exit status of the last opari2 that failed */
    int opari2_signal;               /* the signal that ended it, 0 if none */
    bool keep_on_failure;            /* an instrumented copy failed where the source
                                        compiles: keep the work directory to show it */
    char *marker_header;             /* the work directory's header that includes
                                        pomp2_lib.h for preprocessed C/C++ (once) */
    char *work_dir;                  /* owned; created by compile.c, no trailing slash */
    unsigned next_dir;               /* the work_dir/sN subdirectories made so far */
    weft_compile_argv opari2_cflags; /* opari2-config --cflags (with --opari1:
                                        OPARI 1's), made once */
    bool have_cflags;
    char **objects; /* plan->argc entries: the object made from argv[i], owned */
    /* --opari1: OPARI 1 instead of OPARI2 (compile_opari1.c); all NULL otherwise */
    char *opari1_prefix;  /* its install prefix */
    char *opari1_program; /* PREFIX/bin/opari */
    char *opari1_include; /* PREFIX/include, for pomp_lib.h */
    char *opari1_rc;      /* opari.rc in the current directory */
} weft_compile_ctx;

/* Each step returns the exit status `weft compile` should end with: 0 when
 * the step succeeded; the child's own status when a compiler or tool failed
 * (its messages already on stderr); 1 for weft compile's own errors, already
 * reported as one line. */

/* Instruments the source plan->argv[INDEX] and compiles it: through the
 * preprocessor first (weft__compile_preprocessed) when the compiler
 * preprocesses it, else by running opari2 on the source into a copy in a new
 * subdirectory of the work directory and compiles the copy: into the object
 * the compiler would have made (-c/-S), or into the work directory when the
 * command links. Stores the object's path in ctx->objects[INDEX]. */
int weft__compile_source(weft_compile_ctx *ctx, int index);

/* The same for a source the compiler preprocesses, when --no-preprocess is
 * not given (compile_preprocess.c): the compiler's preprocessor first, with
 * the user's flags, then opari2 --preprocessed, then the compile. */
int weft__compile_preprocessed(weft_compile_ctx *ctx, int index);

/* Helpers of both paths (compile_source.c). */
/* Makes the next work_dir/sN; NULL when it cannot (reported). */
char *weft__compile_source_dir(weft_compile_ctx *ctx);
/* Where the object of source INDEX goes (see object_path); malloc'ed. */
char *weft__compile_object_path(const weft_compile_ctx *ctx, int index, const char *dir);
/* Loads `opari2-config --cflags` and weft's include directory once. */
int weft__compile_load_cflags(weft_compile_ctx *ctx);
/* Runs opari2 on INPUT into OUTPUT (with --preprocessed when PREPROCESSED);
 * when it fails, ctx->opari2_status holds its exit status for
 * weft__compile_explain_failure, which names the source. */
int weft__compile_opari2(weft_compile_ctx *ctx, const char *input, weft_compile_lang lang,
                         const char *output, bool preprocessed);
/* PATH with its last suffix replaced by SUFFIX; the directory of PATH.
 * Both malloc'ed; NULL when out of memory. (PATH's last component:
 * weft__compile_base_name, compile_args.h.) */
char *weft__compile_with_suffix(const char *path, const char *suffix);
char *weft__compile_dir_name(const char *path);
/* After step STATUS failed for source INDEX: when the source compiles
 * without weft (the compiler asked quietly), says so in one line naming the
 * file KEPT (the instrumented copy, or what opari2 read) and keeps the work
 * directory. Returns STATUS. */
int weft__compile_explain_failure(weft_compile_ctx *ctx, int index, int status, const char *kept,
                                  bool opari2_failed);

/* Links: the command line with each instrumented source replaced by its
 * object, plus the region-initialisation unit made from `nm` over every
 * object and library of the link, plus libweft. */
int weft__compile_link(weft_compile_ctx *ctx);

/* Runs ARGV (printing it first under --verbose) with standard input and
 * output as given (-1: weft's own) and turns how it ended into an exit status:
 * 0, the child's status, 128+N for a child killed by signal N (reported), or
 * 1 when it could not be started (reported, naming argv[0] and adding HINT
 * when HINT is not NULL). */
int weft__compile_run_step(const weft_compile_ctx *ctx, char *const *argv, int stdin_fd,
                           int stdout_fd, const char *hint);

/* Reports how a child that did not succeed ended, as above, and returns the
 * exit status. For exit.code the child spoke for itself: nothing is printed. */
int weft__compile_exit_status(const char *program, weft_compile_exit exit, const char *hint);

/* The directory that holds FILE (a path relative to it, "libweft.so" or
 * "weft/user.h") for this weft: FROM_BINDIR relative to the directory of
 * the running weft executable (an installed weft), else BUILD_DIR (the build
 * tree it was built in). Returns a malloc'ed directory, or NULL (reported). */
char *weft__compile_find_dir(const char *file, const char *from_bindir, const char *build_dir);

/* Adds -I with weft's own headers (weft/user.h) from wherever this weft is
 * installed, so that a program recording user regions builds through weft
 * compile from any install prefix; when they cannot be found, one line says
 * so and nothing is added. */
void weft__compile_push_weft_include(weft_compile_argv *argv);

/* Reports that the argument vector could not be built (out of memory);
 * returns 1. */
int weft__compile_no_memory(void);

/* Where the dependency file the user asked for (-MD, -MMD) goes for a
 * compile into OBJECT: -MF's path, or OBJECT with .d (allocated into
 * *DERIVED, which the caller frees; NULL otherwise). NULL when none is
 * asked for (*WANTED false) or out of memory (*WANTED true). */
const char *weft__compile_depfile_target(const weft_compile_plan *plan, const char *object,
                                         char **derived, bool *wanted);

/* --opari1: finds OPARI 1 (under GIVEN_PREFIX, or from `opari` on PATH
 * when NULL) and checks it has bin/opari and include/pomp_lib.h; reported
 * when not. weft__compile_opari1_clear frees what it set. */
int weft__compile_opari1_setup(weft_compile_ctx *ctx, const char *given_prefix);
void weft__compile_opari1_clear(weft_compile_ctx *ctx);

/* Runs OPARI 1 on SOURCE (C or C++; Fortran is refused with one line) into
 * COPY, with OPARI 1's files (SOURCE.opari.inc, ./opari.rc) where it keeps
 * them. */
int weft__compile_opari1_instrument(weft_compile_ctx *ctx, const char *source,
                                    weft_compile_lang lang, const char *copy);

/* Writes OPARI 1's descriptor table of this directory's opari.rc into
 * TABLE_SOURCE; -1 (nothing written, nothing said) when there is no
 * opari.rc. */
int weft__compile_opari1_table(weft_compile_ctx *ctx, const char *table_source);

/* What to say when OPARI2's programs cannot be started. */
#define WEFT_COMPILE_OPARI2_HINT                                                                   \
    "install OPARI2 (Debian: apt install opari2) or put its bin directory on PATH"

#endif /* WEFT_TOOLS_COMPILE_H */
