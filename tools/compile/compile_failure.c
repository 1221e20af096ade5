/* SPDX-License-Identifier: BSD-3-Clause */
/* What `weft compile` says when an instrumented compile fails: the
 * compiler's messages name the user's lines, but they may come from
 * something weft made (OPARI2's rewriting, weft's own), not from the user's
 * code. The compiler is asked quietly whether the source compiles without
 * weft; when it does, one line says so, naming the source and the file
 * kept for a look (the work directory is kept). */
#include "compile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compile_atomic.h"
#include "compile_cancel.h"
#include "compile_shield.h"
#include "compile_pretext.h"
#include "compile_split.h"
#include "compile_text.h"

/* The quiet compile of source INDEX as the user asked for it, without
 * writing anything: -fsyntax-only, no dependency file, and gfortran's .mod
 * files into the work directory (its -J replaced). */
static void plain_check_command(const weft_compile_ctx *ctx, int index, weft_compile_argv *argv)
{
    const weft_compile_plan *plan = ctx->plan;
    weft__compile_argv_push(argv, plan->argv[0]);
    weft__compile_push_weft_include(argv);
    bool fortran = weft__compile_is_fortran(plan->langs[index]);
    for (int i = 1; i < plan->argc; i++) {
        if (plan->roles[i] != WEFT_COMPILE_ARG_FLAG || plan->uses[i] == WEFT_COMPILE_USE_DEPEND)
            continue;
        if (plan->uses[i] == WEFT_COMPILE_USE_MODULE_DIR) {
            /* its modules are still found, the check's own go elsewhere */
            const char *dir = plan->argv[i] + 2;
            if (!*dir && i + 1 < plan->argc && plan->uses[i + 1] == WEFT_COMPILE_USE_MODULE_DIR)
                dir = plan->argv[++i];
            weft__compile_argv_push2(argv, "-I", dir);
            continue;
        }
        weft__compile_argv_push(argv, plan->argv[i]);
    }
    if (fortran)
        weft__compile_argv_push2(argv, "-J", ctx->work_dir);
    weft__compile_argv_push(argv, "-fsyntax-only");
    weft__compile_argv_push(argv, plan->argv[index]);
}

/* Whether SOURCE has directives or clauses OPARI2 does not know, which only
 * weft compile's preprocessing path works around (compile_shield.h,
 * compile_cancel.h, compile_split.h, compile_atomic.h). */
static bool needs_shield(const char *source, bool fortran)
{
    weft_compile_text text = {0};
    unsigned found = 0, plain = 0, cancels = 0, split = 0, atomics = 0;
    /* the split works after a line marker, as in preprocessed text */
    weft__compile_text_puts(&text, "# 1 \"source\"\n");
    size_t marker = text.len;
    weft_compile_text read = {0};
    if (weft__compile_text_read(source, &read) == WEFT_OK && read.text) {
        weft__compile_text_puts(&text, read.text);
        const char *code = text.text ? text.text + marker : "";
        free(weft__compile_shield(code, fortran, false, &found));
        free(weft__compile_plain_if(code, fortran, &plain));
        free(weft__compile_cancel_waits(code, fortran, &cancels));
        free(fortran ? weft__compile_split_fortran(text.text, false, &split)
                     : weft__compile_split_combined(text.text, &split));
        if (fortran) {
            free(weft__compile_fortran_atomics(code, &atomics));
            unsigned marks = 0;
            free(weft__compile_fortran_continuations(code, false, &marks));
            atomics += marks;
        }
    }
    weft__compile_text_free(&read);
    weft__compile_text_free(&text);
    return found + plain + cancels + split + atomics != 0;
}

/* Whether fixed-form SOURCE has clauses of a combined loop that the shield
 * would pass in free form (compile_shield.h: not in 72 columns). */
static bool needs_fixed_form_shield(const char *source)
{
    weft_compile_text text = {0};
    unsigned free_form = 0, fixed_form = 0; /* the second without those clauses */
    if (weft__compile_text_read(source, &text) == WEFT_OK && text.text) {
        free(weft__compile_shield(text.text, true, false, &free_form));
        free(weft__compile_shield(text.text, true, true, &fixed_form));
    }
    weft__compile_text_free(&text);
    return free_form > fixed_form;
}

int weft__compile_explain_failure(weft_compile_ctx *ctx, int index, int status, const char *kept,
                                  bool opari2_failed)
{
    const char *source = ctx->plan->argv[index];
    int opari2_status = ctx->opari2_status, opari2_signal = ctx->opari2_signal;
    ctx->opari2_status = ctx->opari2_signal = 0;
    if (ctx->opari1_prefix || weft__compile_signal_caught() || (opari2_failed && !opari2_status))
        return status; /* OPARI 1's own path; interrupted; opari2 could not be started */
    weft_compile_argv argv = {0};
    plain_check_command(ctx, index, &argv);
    bool compiles = weft__compile_argv_ok(&argv) &&
                    weft__compile_exit_ok(weft__compile_run_quiet(weft__compile_argv_items(&argv)));
    weft__compile_argv_free(&argv);
    bool preprocessed = !ctx->no_preprocess && weft__compile_preprocesses(ctx->plan, index);
    bool fortran = weft__compile_is_fortran(ctx->plan->langs[index]);
    const char *hint = preprocessed ? "try --no-preprocess, or report it" : "report it";
    if (preprocessed && ctx->plan->langs[index] == WEFT_COMPILE_LANG_FORTRAN_FIXED &&
        needs_fixed_form_shield(source))
        hint = "clauses of combined loops such as `parallel do simd` cannot be passed by "
               "OPARI2 in fixed form: write `!$omp parallel` and `!$omp do simd` (or the "
               "loop with its clauses) as two directives";
    char unknown[256];
    if (!preprocessed && needs_shield(source, fortran)) {
        snprintf(unknown, sizeof(unknown),
                 "OpenMP that OPARI2 does not know (doacross loops, clauses of combined loops, "
                 "if modifiers, cancel, combined master constructs, end atomic, continuation "
                 "marks) needs weft compile's "
                 "preprocessing: %s",
                 ctx->no_preprocess ? "leave out --no-preprocess" : "add -cpp");
        hint = unknown;
    }
    const char *how = opari2_signal ? "crashed" : "failed";
    char why[96];
    if (opari2_signal)
        snprintf(why, sizeof(why), "signal %d, %s", opari2_signal, strsignal(opari2_signal));
    else
        snprintf(why, sizeof(why), "exit status %d", opari2_status);
    if (opari2_failed && !compiles) {
        /* OPARI2 2.0.7 crashes on some sources the compiler rejects too
         * (a string literal left open across lines). */
        fprintf(stderr,
                "weft compile: opari2 %s on '%s' (%s), which does not compile without weft "
                "either (the compiler says why when run without weft)\n",
                how, source, why);
    } else if (opari2_failed) {
        fprintf(stderr,
                "weft compile: opari2 %s on '%s' (%s), which compiles without weft; kept what "
                "opari2 read: %s (%s)\n",
                how, source, why, kept, hint);
        ctx->keep_on_failure = true;
    } else if (compiles) {
        fprintf(stderr,
                "weft compile: the instrumented copy of '%s' failed to compile, the source "
                "itself compiles; kept the copy: %s (%s)\n",
                source, kept, hint);
        ctx->keep_on_failure = true;
    }
    return status;
}
