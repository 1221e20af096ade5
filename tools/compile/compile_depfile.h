/* SPDX-License-Identifier: BSD-3-Clause */
/* Make dependency files (-MD, -MMD) written while compiling an instrumented
 * copy name the copy and its OPARI2 include file, both in weft compile's work
 * directory, which is removed afterwards; make would then stop with "No rule
 * to make target". These functions point the rules back at the original
 * source and drop every other path inside the work directory. Private to
 * tools/. */
#ifndef WEFT_TOOLS_COMPILE_DEPFILE_H
#define WEFT_TOOLS_COMPILE_DEPFILE_H

#include "weft/status.h"

/* Returns TEXT (make rules as GCC, Clang and GFortran write them) with every
 * prerequisite naming COPY replaced by ORIGINAL (escaped for make: space,
 * '#', '$'), every other word inside WORK_DIR dropped, and every rule whose
 * targets all lie inside WORK_DIR (the phony rules of -MP) dropped. WORK_DIR
 * has no trailing slash. The result is malloc'ed and owned by the caller;
 * NULL when out of memory. */
char *weft__compile_depfile_rewrite(const char *text, const char *work_dir, const char *copy,
                                    const char *original);

/* Rewrites the dependency file PATH in place as above. A missing file is not
 * an error (the compiler may not have written one). Returns WEFT_OK,
 * WEFT_ERR_IO (errno tells why) or WEFT_ERR_NO_MEMORY. */
weft_status weft__compile_depfile_fix(const char *path, const char *work_dir, const char *copy,
                                      const char *original);

/* Joins two dependency texts about one target (gfortran's: headers from
 * its preprocessor, modules from its compiler): FIRST with the prerequisites
 * of SECOND's first rule that FIRST's first rule lacks added to it, then
 * SECOND's other rules (the phony ones of -MP) whose targets FIRST has no
 * rule for. Malloc'ed; NULL when out of memory. */
char *weft__compile_depfile_join(const char *first, const char *second);

#endif /* WEFT_TOOLS_COMPILE_DEPFILE_H */
