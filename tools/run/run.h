/* SPDX-License-Identifier: BSD-3-Clause */
/* The parts of `weft run` and what they share. run.c parses the command
 * line, decides what to preload, sets the environment and execs the program;
 * run_elf.c reads a program's ELF dynamic section to tell whether it links
 * MPI; run_libs.c finds weft's libraries and builds the LD_PRELOAD value.
 * Private to tools/. */
#ifndef WEFT_TOOLS_RUN_H
#define WEFT_TOOLS_RUN_H

#include <stdbool.h>
#include <stddef.h>

#include "cli.h"

/* ---- run_elf.c ------------------------------------------------------------ */

/* What the ELF inspection found out about a program file. */
typedef enum weft_run_elf_kind {
    WEFT_RUN_ELF_LINKS_MPI,   /* a DT_NEEDED entry names an MPI library; detail: the first */
    WEFT_RUN_ELF_NO_MPI,      /* dynamically linked, no DT_NEEDED entry names one */
    WEFT_RUN_ELF_STATIC,      /* ELF without a dynamic section (statically linked) */
    WEFT_RUN_ELF_NOT_ELF,     /* not an ELF file; detail: "a script" for "#!" */
    WEFT_RUN_ELF_UNSUPPORTED, /* an ELF file this reader does not parse; detail: why */
    WEFT_RUN_ELF_DAMAGED,     /* truncated or inconsistent ELF; detail: what is wrong */
    WEFT_RUN_ELF_UNREADABLE,  /* cannot be opened or read; detail: strerror */
} weft_run_elf_kind;

typedef struct weft_run_elf_result {
    weft_run_elf_kind kind;
    char detail[160]; /* NUL-terminated, may be empty; see the kinds */
    char openmp[64];  /* the DT_NEEDED entry naming an OpenMP runtime, or "" */
    bool fortran_mpi; /* a DT_NEEDED entry names MPI's Fortran bindings */
    bool links_weft;  /* a DT_NEEDED entry names libweft (built by weft compile) */
} weft_run_elf_result;

/* Reads the ELF file PATH (ELF64 or ELF32, in this machine's byte order) and
 * looks through the DT_NEEDED entries of its dynamic section (found through
 * the PT_DYNAMIC program header; its string table through DT_STRTAB and the
 * PT_LOAD segments) for an MPI library. Only direct dependencies count: a
 * program that links a library which links libmpi is NO_MPI. Every offset
 * and size is checked against the file, so a truncated or corrupt file gives
 * DAMAGED, never a crash; the file is read piecewise, never loaded whole.
 * Thread-safe; prints nothing. */
weft_run_elf_result weft__run_elf_inspect(const char *path);

/* True when NEEDED, a DT_NEEDED entry, names a library of an MPI (its last
 * path component, with or without a version suffix): Open MPI's libmpi.so,
 * libmpi_mpifh.so (mpif.h, use mpi), libmpi_usempi_ignore_tkr.so,
 * libmpi_usempi.so, libmpi_usempif08.so (use mpi_f08), libmpi_cxx.so;
 * MPICH's libmpich.so, libmpichfort.so, libmpichcxx.so, libmpifort.so,
 * libmpicxx.so (Intel MPI's libmpi.so.12 and libmpifort.so.12 too). A
 * program built by mpif90 may need only a Fortran one. */
bool weft__run_elf_is_mpi_library(const char *needed);

/* The MPI a library of weft__run_elf_is_mpi_library belongs to, as the name
 * of its C library: "libmpi.so" (Open MPI) or "libmpich.so" (MPICH); NULL
 * for any other library. */
const char *weft__run_elf_mpi_family(const char *needed);

/* True for the Fortran bindings among them. */
bool weft__run_elf_is_fortran_mpi(const char *needed);

/* True when NEEDED names libweft (a program built by weft compile). */
bool weft__run_elf_is_weft(const char *needed);

/* True when NEEDED names an OpenMP runtime: libomp.so* (LLVM), libgomp.so*
 * (GCC, which has no OMPT), libiomp5.so* (Intel). */
bool weft__run_elf_is_openmp_runtime(const char *needed);

/* Writes one sentence about RESULT for the program at PATH into BUF (cut at
 * SIZE bytes, always NUL-terminated), such as "'/bin/true' needs no MPI
 * library directly: not an MPI program". Every kind but LINKS_MPI ends with
 * "not an MPI program". */
void weft__run_elf_describe(const char *path, const weft_run_elf_result *result, char *buf,
                            size_t size);

/* True for the kinds that say "not an MPI program" under --mpi=auto: every
 * kind but LINKS_MPI. */
bool weft__run_elf_not_mpi(weft_run_elf_kind kind);

/* ---- run_libs.c ----------------------------------------------------------- */

/* weft's shared libraries as found on this machine. Paths are absolute (the
 * directory canonical, the file name the unversioned one), malloc'ed and
 * owned by the struct; NULL when the library is not there. */
typedef struct weft_run_libraries {
    char *weft;     /* libweft.so */
    char *weft_mpi; /* libweft-mpi.so */
    char *weft_ompt; /* libweft-ompt.so */
    char *where;    /* the directories searched, for messages */
} weft_run_libraries;

/* Finds the libraries: next to an installed weft (the lib directory of the
 * weft executable's installation prefix, as `weft compile` looks for
 * libweft), else in the build tree this weft was built in. An installation
 * is used as a whole: libweft-mpi is taken from the directory that holds
 * libweft.so. Returns false only when out of memory. */
bool weft__run_libraries_find(weft_run_libraries *libs);

/* Frees what weft__run_libraries_find stored; the struct may then be reused. */
void weft__run_libraries_clear(weft_run_libraries *libs);

/* At most this many libraries are preloaded (adapters, then libweft). */
#define WEFT_RUN_PRELOAD_MAX 8

/* The libraries to preload, in order. Paths are borrowed (from a
 * weft_run_libraries), not copied. */
typedef struct weft_run_preload {
    const char *paths[WEFT_RUN_PRELOAD_MAX];
    size_t count;
} weft_run_preload;

/* Appends PATH unless it is already listed; false when the list is full. */
bool weft__run_preload_add(weft_run_preload *preload, const char *path);

/* The value LD_PRELOAD should get: the paths of PRELOAD joined by ':',
 * followed by EXISTING (the user's LD_PRELOAD, may be NULL or empty) so that
 * weft's libraries come first. Returns a malloc'ed string owned by the
 * caller, or NULL when out of memory. */
char *weft__run_preload_value(const weft_run_preload *preload, const char *existing);

/* True when PATH can stand in LD_PRELOAD: the dynamic loader splits the
 * list at ':' and at spaces, so a path holding either cannot be preloaded. */
bool weft__run_preload_path_ok(const char *path);

/* ---- run_openmp.c -------------------------------------------------------- */

typedef enum weft_run_mode { WEFT_RUN_AUTO, WEFT_RUN_YES, WEFT_RUN_NO } weft_run_mode;

/* What the command line says about OpenMP. */
typedef struct weft_run_openmp {
    weft_run_mode mode;       /* --openmp=auto|yes|no */
    const char *llvm_runtime; /* --openmp-runtime=llvm: libomp's path; else NULL */
    bool verbose;
} weft_run_openmp;

/* The newest LLVM OpenMP runtime installed (libomp.so.5), malloc'ed, or NULL. */
char *weft__run_find_llvm_openmp(void);

/* What weft__run_add_openmp did. */
typedef enum weft_run_openmp_outcome {
    WEFT_RUN_OPENMP_NONE,       /* nothing: PROGRAM needs no OpenMP, or --openmp=no */
    WEFT_RUN_OPENMP_ADDED,      /* the OMPT tool (and runtime) are preloaded */
    WEFT_RUN_OPENMP_NO_OMPT     /* PROGRAM's runtime has no OMPT; a line said so */
} weft_run_openmp_outcome;

/* Adds libweft-ompt (and the LLVM runtime, when asked for) to PRELOAD when
 * PROGRAM wants them: --openmp=yes, or auto and ELF needs an OpenMP runtime
 * with OMPT (a program on GCC's libgomp gets one line saying it is not
 * traced, unless --openmp-runtime=llvm). *OUTCOME tells which. Returns 0,
 * or an exit status after one line on stderr. */
int weft__run_add_openmp(const weft_run_openmp *o, const char *program,
                         const weft_run_elf_result *elf, const weft_run_libraries *libs,
                         weft_run_preload *preload, weft_run_openmp_outcome *outcome);

#endif /* WEFT_TOOLS_RUN_H */
