/* SPDX-License-Identifier: BSD-3-Clause */
/* `weft run`'s OpenMP part: whether PROGRAM gets the OMPT tool
 * (libweft-ompt) and, with --openmp-runtime=llvm, LLVM's OpenMP runtime in
 * place of GCC's (see run.h). The tool is preloaded rather than named in
 * OMP_TOOL_LIBRARIES: the runtime finds ompt_start_tool in the global
 * symbol scope first, and a preload also reaches a runtime that is itself
 * preloaded. */
#include "run.h"

#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The newest LLVM OpenMP runtime Debian installs (libomp5-NN: one per LLVM
 * version, /usr/lib/llvm-NN/lib/libomp.so.5), malloc'ed; NULL if none. */
char *weft__run_find_llvm_openmp(void)
{
    static const char *const patterns[] = {"/usr/lib/llvm-*/lib/libomp.so.5",
                                           "/usr/lib/*-linux-gnu/libomp.so.5",
                                           "/usr/local/lib/libomp.so.5"};
    for (size_t i = 0; i < sizeof(patterns) / sizeof(patterns[0]); i++) {
        glob_t found;
        if (glob(patterns[i], 0, NULL, &found) != 0)
            continue;
        /* glob sorts: llvm-14 before llvm-15; versions of equal width. */
        char *path = found.gl_pathc ? strdup(found.gl_pathv[found.gl_pathc - 1]) : NULL;
        globfree(&found);
        if (path)
            return path;
    }
    return NULL;
}

static bool is_gnu_runtime(const char *needed)
{
    const char *slash = strrchr(needed, '/');
    return strncmp(slash ? slash + 1 : needed, "libgomp.so", 10) == 0;
}

int weft__run_add_openmp(const weft_run_openmp *o, const char *program,
                         const weft_run_elf_result *elf, const weft_run_libraries *libs,
                         weft_run_preload *preload, weft_run_openmp_outcome *outcome)
{
    *outcome = WEFT_RUN_OPENMP_NONE;
    bool want = o->mode == WEFT_RUN_YES ||
                (o->mode == WEFT_RUN_AUTO && (elf->openmp[0] || o->llvm_runtime));
    if (!want)
        return 0;
    /* Built by weft compile: its constructs are recorded through POMP2, and
     * GCC's runtime needs no word about OMPT. */
    if (o->mode == WEFT_RUN_AUTO && !o->llvm_runtime && is_gnu_runtime(elf->openmp) &&
        elf->links_weft)
        return 0;
    if (o->mode == WEFT_RUN_AUTO && !o->llvm_runtime && is_gnu_runtime(elf->openmp)) {
        fprintf(stderr,
                "weft run: '%s' uses GCC's %s, which has no OMPT: its OpenMP constructs are not "
                "traced (--openmp-runtime=llvm runs it on LLVM's libomp, which has)\n",
                program, elf->openmp);
        *outcome = WEFT_RUN_OPENMP_NO_OMPT;
        return 0;
    }
    if (!libs->weft_ompt) {
        fprintf(stderr,
                "weft run: '%s' needs the OMPT tool, but this weft has none (no libweft-ompt.so "
                "in %s); build weft with clang's omp-tools.h, or use --openmp=no\n",
                program, libs->where);
        return WEFT_CLI_EXIT_USAGE;
    }
    if (!weft__run_preload_add(preload, libs->weft_ompt) ||
        (o->llvm_runtime && !weft__run_preload_add(preload, o->llvm_runtime))) {
        fprintf(stderr, "weft run: too many libraries to preload\n");
        return WEFT_CLI_EXIT_FAILURE;
    }
    if (o->verbose)
        fprintf(stderr, "weft run: preloading the OMPT tool%s%s (%s)\n",
                o->llvm_runtime ? " and " : "", o->llvm_runtime ? o->llvm_runtime : "",
                o->mode == WEFT_RUN_YES ? "--openmp=yes"
                : elf->openmp[0]        ? elf->openmp
                                        : "--openmp-runtime=llvm");
    *outcome = WEFT_RUN_OPENMP_ADDED;
    return 0;
}
