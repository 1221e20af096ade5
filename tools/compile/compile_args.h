/* SPDX-License-Identifier: BSD-3-Clause */
/* The compiler command line of `weft compile`, classified into a plan: which
 * arguments are sources OPARI2 instruments (and in which language), which are
 * other inputs, the output, the flags every compile needs and the flags only
 * the link needs, and whether the command compiles, links, or must run
 * unchanged. Pure: nothing is run and no file is touched, so a unit test can
 * feed it any command line. Private to tools/. */
#ifndef WEFT_TOOLS_COMPILE_ARGS_H
#define WEFT_TOOLS_COMPILE_ARGS_H

#include <stdbool.h>
#include <stddef.h>

#include "weft/status.h"

/* The language of a source OPARI2 instruments; decides opari2's --c/--c++/
 * --f90 flags, its source form, and the suffix of the instrumented copy. */
typedef enum weft_compile_lang {
    WEFT_COMPILE_LANG_NONE = 0, /* not a source weft instruments */
    WEFT_COMPILE_LANG_C,
    WEFT_COMPILE_LANG_CXX,
    WEFT_COMPILE_LANG_FORTRAN_FIXED, /* .f .for .ftn .fpp, or -ffixed-form */
    WEFT_COMPILE_LANG_FORTRAN_FREE,  /* .f90 .f95 .f03 .f08, or -ffree-form */
} weft_compile_lang;

static inline bool weft__compile_is_fortran(weft_compile_lang lang)
{
    return lang == WEFT_COMPILE_LANG_FORTRAN_FIXED || lang == WEFT_COMPILE_LANG_FORTRAN_FREE;
}

/* PATH's last component (PATH itself when it has no '/'). */
const char *weft__compile_base_name(const char *path);

/* What one argument of the compiler command line is. An option that takes a
 * separate argument gives the same role to both words. */
typedef enum weft_compile_role {
    WEFT_COMPILE_ARG_FLAG,      /* an option: kept on every compile and on the link */
    WEFT_COMPILE_ARG_LINK_FLAG, /* -l, -L, -Wl,..., -Xlinker X: kept on the link only */
    WEFT_COMPILE_ARG_SOURCE,    /* a source weft instruments (plan.langs[i] says which) */
    WEFT_COMPILE_ARG_INPUT,     /* any other input: object, library, .s, .i, ... */
    WEFT_COMPILE_ARG_OUTPUT,    /* -o FILE, -oFILE */
    WEFT_COMPILE_ARG_STOP,      /* -c or -S: weft's own compile commands add theirs */
} weft_compile_role;

/* What a FLAG is read by, for the compile of preprocessed text (compile.h):
 * the preprocessor runs with every flag, the compile of its output without
 * those only the preprocessor reads (a -D applied twice is not the same as
 * once: -Dx=x+1). */
typedef enum weft_compile_use {
    WEFT_COMPILE_USE_ANY = 0,     /* every step */
    WEFT_COMPILE_USE_PREPROCESS,  /* -D -U -include -imacros -iquote -idirafter -undef
                                     -nostdinc -Wp, -Xpreprocessor -C -CC -P -H -cpp ... */
    WEFT_COMPILE_USE_INCLUDE_DIR, /* -I -isystem: the preprocessor's, and Fortran's
                                     search path for INCLUDE lines and modules */
    WEFT_COMPILE_USE_MODULE_DIR,  /* -J: where gfortran writes its .mod files */
    WEFT_COMPILE_USE_DEPEND,      /* -MD -MMD -MF -MT -MQ -MP -MG: the dependency file */
} weft_compile_use;

typedef enum weft_compile_mode {
    WEFT_COMPILE_MODE_PASS,    /* run the compiler unchanged (plan.pass_reason says why) */
    WEFT_COMPILE_MODE_COMPILE, /* -c or -S: compile each source, no link */
    WEFT_COMPILE_MODE_LINK,    /* compile the sources (if any), then link */
} weft_compile_mode;

/* The plan for one compiler command line. Strings point into the argv the
 * plan was made from, which must outlive it; the two arrays are owned. */
typedef struct weft_compile_plan {
    weft_compile_mode mode;
    const char *pass_reason;   /* static text when mode is PASS, else NULL */
    int argc;                  /* argv[0] is the compiler */
    char **argv;               /* borrowed */
    weft_compile_role *roles;  /* argc entries; roles[0] is FLAG (the compiler) */
    weft_compile_lang *langs;  /* argc entries; NONE unless roles[i] is SOURCE */
    weft_compile_use *uses;    /* argc entries; what each FLAG is read by (ANY otherwise) */
    size_t source_count;       /* arguments whose role is SOURCE */
    size_t input_count;        /* arguments whose role is INPUT */
    const char *output;        /* the -o file, or NULL */
    const char *stop_flag;     /* "-c" or "-S" in COMPILE mode, else NULL */
    const char *object_suffix; /* ".o" for -c, ".s" for -S, NULL when linking */
    bool openmp;               /* OpenMP is on (-fopenmp, -fopenmp=LIB, -qopenmp, ...) */
    bool shared;               /* -shared: the link makes a shared library */
    bool mpi;                  /* an MPI program: the compiler is an MPI wrapper or the
                                  command names an MPI library (-lmpi*) */
    int mpi_library;           /* index of the first -lmpi* (or of the -l of "-l mpi*"),
                                  0 when there is none */
    bool depfile;              /* -MD or -MMD: each compile writes a make dependency file */
    const char *depfile_path;  /* the -MF file, or NULL (then OBJECT with .d) */
    bool depfile_target;       /* -MT or -MQ: the dependency file's target is given */
    int fortran_cpp;           /* -cpp (1), -nocpp (0), neither (-1): whether gfortran
                                  preprocesses every Fortran source, none, or by suffix */
} weft_compile_plan;

/* Classifies ARGV (ARGC words, argv[0] the compiler) into PLAN.
 *
 * Sources are instrumented only when OpenMP is on; without an OpenMP flag they
 * count as other inputs, a -c/-S command runs unchanged, and a link only gains
 * the region-initialisation unit and libweft. Commands that neither compile
 * nor link (-E, -M, -MM, --version, -dumpversion, -print-*, ...), commands
 * with -x, no input at all, a missing option argument, or -o with several
 * outputs run unchanged so the compiler itself answers or complains.
 *
 * Returns WEFT_OK, or WEFT_ERR_NO_MEMORY (PLAN then holds no arrays). */
weft_status weft__compile_plan_make(int argc, char **argv, weft_compile_plan *plan);

/* Frees the arrays PLAN owns and zeroes it; NULL is a no-op. */
void weft__compile_plan_clear(weft_compile_plan *plan);

/* The language weft instruments a file called PATH in, from its suffix, or
 * NONE. -ffree-form/-ffixed-form are not looked at here. */
weft_compile_lang weft__compile_lang_of(const char *path);

/* True for a path OPARI2's region initialisation must scan with nm: an
 * object (.o, .obj), a static library (.a) or a shared one (.so, .so.N). */
bool weft__compile_is_object(const char *path);

/* True when the compiler runs its preprocessor over source INDEX of PLAN:
 * C and C++ always; Fortran when -cpp is given, or by its suffix (.F .FOR
 * .FTN .fpp .FPP .F90 .F95 .F03 .F08) unless -nocpp is. */
bool weft__compile_preprocesses(const weft_compile_plan *plan, int index);

/* True when COMPILER (a path or a name) is an MPI compiler wrapper: its base
 * name is mpicc, mpicxx, mpic++, mpiCC, mpif77, mpif90, mpifort or one of
 * Intel MPI's (mpiicc, mpiicpc, mpiifort, mpiicx, mpiicpx, mpiifx), alone or
 * followed by a version or flavour suffix (mpicc.openmpi, mpicc-4.1,
 * mpif90.mpich, mpicc12). */
bool weft__compile_is_mpi_wrapper(const char *compiler);

#endif /* WEFT_TOOLS_COMPILE_ARGS_H */
