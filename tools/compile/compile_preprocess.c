/* SPDX-License-Identifier: BSD-3-Clause */
/* One source through `weft compile` the way Score-P does it: the
 * compiler's own preprocessor first, so OPARI2 reads what the compiler will
 * compile (no `#ifdef` around or inside a construct, macros and `_Pragma`
 * expanded), then opari2 --preprocessed, then the compile. For a C or C++
 * source NAME.c in the work directory's sN/:
 *
 *   1. CC FLAGS -I WEFT -I OPARI2 -include MARKER -E SOURCE -o NAME.pre.c
 *      with every flag of the user's (the language standard, -D, -I, -U,
 *      -include, -fopenmp so that _OPENMP is set); MARKER includes
 *      pomp2_lib.h and then writes the line OPARI2 puts its include at. With
 *      -MD/-MMD this run writes the dependency file: the user's headers.
 *   2. NAME.in.c: that text with workarounds of OPARI2 2.0.7 bugs
 *      (compile_pretext.h, compile_split.h, compile_shield.h): combined
 *      master constructs split, what OPARI2 does not know hidden (doacross directives, clauses of
 * combined loops; shown again in step 3), a comma after `untied` (unless --keep-untied), braces
 * around a construct followed by `else` and around an `if` with `else` a construct (or its loops)
 * holds, and its line markers' files made absolute (OPARI2 takes them relative to the file it
 * reads, the regions would name the work directory).
 *   3. opari2 --preprocessed ... NAME.in.c NAME.c (and NAME.in.c.opari.inc),
 *      then the constructs holding a cancel directive given their barrier
 *      back (compile_cancel.h), then its line markers and `#line` directives back to the files as
 *      step 1 named them, so diagnostics name them as without weft.
 *   4. CC -E -undef -w FLAGS NAME.c -o NAME.i: expands OPARI2's macros only
 *      (the user's -D/-U/-include are not given again: -Dx=x+1 applied twice
 *      is not the same), and turns everything into line markers, which a
 *      compile of preprocessed text (.i/.ii) reads without the warnings
 *      -pedantic gives for markers in source text.
 *   5. CC FLAGS -c NAME.i -o OBJECT, FLAGS without those only the
 *      preprocessor reads.
 *
 * Fortran (a source gfortran preprocesses: .F, .F90, .fpp, ... or -cpp):
 * step 1 with -cpp and no marker (OPARI2's Fortran include is a statement
 * in each unit), step 2 without the braces, step 3 into NAME.f90 (NAME.f in
 * fixed form), and step 5 compiles that directly (gfortran reads line
 * markers without its preprocessor), with -I of the source's directory for
 * its INCLUDE lines; with -MD it runs -cpp -undef so that gfortran writes
 * the modules into the dependency file, which is then joined with the
 * headers of step 1. */
#include "compile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compile_atomic.h"
#include "compile_cancel.h"
#include "compile_copy.h"
#include "compile_interface.h"
#include "compile_depfile.h"
#include "compile_shield.h"
#include "compile_split.h"
#include "compile_pretext.h"
#include "compile_text.h"

typedef struct prep {
    weft_compile_ctx *ctx;
    int index;
    const char *source;
    weft_compile_lang lang;
    bool fortran;
    char *dir;    /* work_dir/sN */
    char *object; /* what the compile writes */
    char *pre;    /* step 1's output */
    char *in;     /* what OPARI2 reads: step 2's rewrite of it */
    char *copy;   /* OPARI2's output: the instrumented copy */
    char *final;  /* step 4's output (C, C++), or the copy (Fortran) */
    char *deps;   /* step 1's dependency file */
    char *deps2;  /* Fortran: step 5's dependency file */
} prep;

/* DIR/STEM followed by TAIL; malloc'ed. */
static char *work_file(const char *dir, const char *stem, const char *tail)
{
    char *path = malloc(strlen(dir) + strlen(stem) + strlen(tail) + 2);
    if (path)
        sprintf(path, "%s/%s%s", dir, stem, tail);
    return path;
}

static bool name_files(prep *p)
{
    const char *name = weft__compile_base_name(p->source);
    const char *dot = strrchr(name, '.');
    char *stem = strndup(name, dot && dot != name ? (size_t)(dot - name) : strlen(name));
    if (!stem)
        return false;
    const char *suffix = dot && dot != name ? dot : "";
    if (p->fortran) {
        const char *ext = p->lang == WEFT_COMPILE_LANG_FORTRAN_FREE ? ".f90" : ".f";
        char pre_tail[16];
        snprintf(pre_tail, sizeof(pre_tail), ".pre%s", ext);
        p->pre = work_file(p->dir, stem, pre_tail);
        snprintf(pre_tail, sizeof(pre_tail), ".in%s", ext);
        p->in = work_file(p->dir, stem, pre_tail);
        p->copy = work_file(p->dir, stem, ext);
        p->final = p->copy ? strdup(p->copy) : NULL;
        p->deps2 = work_file(p->dir, stem, ".d");
    } else {
        char pre_tail[64];
        snprintf(pre_tail, sizeof(pre_tail), ".pre%.40s", suffix);
        p->pre = work_file(p->dir, stem, pre_tail);
        snprintf(pre_tail, sizeof(pre_tail), ".in%.40s", suffix);
        p->in = work_file(p->dir, stem, pre_tail);
        p->copy = work_file(p->dir, stem, suffix);
        p->final = work_file(p->dir, stem, p->lang == WEFT_COMPILE_LANG_CXX ? ".ii" : ".i");
    }
    p->deps = work_file(p->dir, stem, ".pre.d");
    free(stem);
    return p->pre && p->in && p->copy && p->final && p->deps && (!p->fortran || p->deps2);
}

/* The header every preprocessed C/C++ source gets first: the POMP2 headers
 * (constructs, user regions), then the marker after which OPARI2 includes
 * its file of region handles. */
static int marker_header(weft_compile_ctx *ctx)
{
    if (ctx->marker_header)
        return 0;
    char *path = work_file(ctx->work_dir, "weft_pomp2_marker", ".h");
    if (!path)
        return weft__compile_no_memory();
    weft_status st = weft__compile_text_write(
        path, "/* weft compile: what OPARI2's --preprocessed mode needs first */\n"
              "#include <opari2/pomp2_lib.h>\n"
              "#include <opari2/pomp2_user_lib.h>\n"
              "___POMP2_INCLUDE___\n");
    if (st != WEFT_OK) {
        fprintf(stderr, "weft compile: cannot write '%s': %s\n", path, strerror(errno));
        free(path);
        return 1;
    }
    ctx->marker_header = path;
    return 0;
}

/* The user's dependency flags for a run writing the dependency file to
 * PATH: theirs but -MF, then -MF PATH, and -MQ OBJECT unless they named a
 * target (the compiler's own default for -c -o OBJECT). */
static void push_depend_flags(const prep *p, weft_compile_argv *argv, const char *path)
{
    const weft_compile_plan *plan = p->ctx->plan;
    for (int i = 1; i < plan->argc; i++) {
        if (plan->roles[i] != WEFT_COMPILE_ARG_FLAG || plan->uses[i] != WEFT_COMPILE_USE_DEPEND)
            continue;
        if (strncmp(plan->argv[i], "-MF", 3) == 0) {
            if (plan->argv[i][3] == '\0')
                i++; /* and its argument */
            continue;
        }
        weft__compile_argv_push(argv, plan->argv[i]);
    }
    weft__compile_argv_push(argv, "-MF");
    weft__compile_argv_push(argv, path);
    if (!plan->depfile_target) {
        weft__compile_argv_push(argv, "-MQ");
        weft__compile_argv_push(argv, p->object);
    }
}

/* Step 1: the user's preprocessor run. */
static void preprocess_command(const prep *p, weft_compile_argv *argv)
{
    const weft_compile_ctx *ctx = p->ctx;
    const weft_compile_plan *plan = ctx->plan;
    weft__compile_argv_push(argv, plan->argv[0]);
    if (p->fortran)
        weft__compile_argv_push(argv, "-cpp");
    for (int i = 1; i < plan->argc; i++) {
        if (plan->roles[i] == WEFT_COMPILE_ARG_FLAG && plan->uses[i] != WEFT_COMPILE_USE_DEPEND)
            weft__compile_argv_push(argv, plan->argv[i]);
    }
    for (size_t i = 0; i < ctx->opari2_cflags.count; i++)
        weft__compile_argv_push(argv, ctx->opari2_cflags.items[i]);
    if (!p->fortran) {
        weft__compile_argv_push(argv, "-include");
        weft__compile_argv_push(argv, ctx->marker_header);
    }
    if (plan->depfile)
        push_depend_flags(p, argv, p->deps);
    weft__compile_argv_push(argv, "-E");
    weft__compile_argv_push(argv, p->source);
    weft__compile_argv_push(argv, "-o");
    weft__compile_argv_push(argv, p->pre);
}

/* Step 4 (C, C++): OPARI2's macros expanded, nothing of the user's. */
static void expand_command(const prep *p, weft_compile_argv *argv)
{
    const weft_compile_plan *plan = p->ctx->plan;
    weft__compile_argv_push(argv, plan->argv[0]);
    for (int i = 1; i < plan->argc; i++) {
        if (plan->roles[i] == WEFT_COMPILE_ARG_FLAG && plan->uses[i] == WEFT_COMPILE_USE_ANY)
            weft__compile_argv_push(argv, plan->argv[i]);
    }
    weft__compile_argv_push(argv, "-undef");
    weft__compile_argv_push(argv, "-w");
    weft__compile_argv_push(argv, "-E");
    weft__compile_argv_push(argv, p->copy);
    weft__compile_argv_push(argv, "-o");
    weft__compile_argv_push(argv, p->final);
}

/* Whether COMPILER knows clang's -Wunused-command-line-argument (asked once:
 * gcc rejects it as an error). clang warns about -I given with preprocessed
 * text, and an MPI compiler wrapper adds its -I to every compile, so step 5
 * through `mpicc` on clang warned twice per file (an error under -Werror)
 * where the build without weft says nothing. */
static bool warns_of_unused_arguments(const char *compiler)
{
    static int answer = -1;
    if (answer < 0) {
        char *const argv[] = {(char *)compiler,
                              "-Werror=unused-command-line-argument",
                              "-E",
                              "-x",
                              "c",
                              "/dev/null",
                              "-o",
                              "/dev/null",
                              NULL};
        answer = weft__compile_exit_ok(weft__compile_run_quiet(argv));
    }
    return answer == 1;
}

/* Step 5: the compile of the preprocessed, instrumented text. */
static void compile_command(const prep *p, weft_compile_argv *argv)
{
    const weft_compile_plan *plan = p->ctx->plan;
    weft__compile_argv_push(argv, plan->argv[0]);
    if (p->fortran) {
        /* INCLUDE lines search the including file's directory, then -I */
        char *dir = weft__compile_dir_name(p->source);
        if (!dir) {
            argv->failed = true;
            return;
        }
        weft__compile_argv_push2(argv, "-I", dir);
        free(dir);
    }
    for (int i = 1; i < plan->argc; i++) {
        if (plan->roles[i] != WEFT_COMPILE_ARG_FLAG)
            continue;
        weft_compile_use use = plan->uses[i];
        if (use == WEFT_COMPILE_USE_ANY || use == WEFT_COMPILE_USE_MODULE_DIR ||
            (p->fortran && use == WEFT_COMPILE_USE_INCLUDE_DIR))
            weft__compile_argv_push(argv, plan->argv[i]);
    }
    if (!p->fortran && warns_of_unused_arguments(plan->argv[0]))
        weft__compile_argv_push(argv, "-Wno-unused-command-line-argument");
    const char *free_lines = p->lang == WEFT_COMPILE_LANG_FORTRAN_FREE
                                 ? weft__compile_free_line_flag(plan->argv[0])
                                 : NULL;
    if (free_lines)
        weft__compile_argv_push(argv, free_lines);
    if (p->fortran && plan->depfile) {
        weft__compile_argv_push(argv, "-cpp");
        weft__compile_argv_push(argv, "-undef");
        push_depend_flags(p, argv, p->deps2);
    }
    weft__compile_argv_push(argv, plan->stop_flag ? plan->stop_flag : "-c");
    weft__compile_argv_push(argv, p->final);
    weft__compile_argv_push(argv, "-o");
    weft__compile_argv_push(argv, p->object);
}

/* Builds a command with BUILD and runs it. */
static int run(const prep *p, void (*build)(const prep *, weft_compile_argv *))
{
    weft_compile_argv argv = {0};
    build(p, &argv);
    int status = weft__compile_argv_ok(&argv)
                     ? weft__compile_run_step(p->ctx, weft__compile_argv_items(&argv), -1, -1, NULL)
                     : weft__compile_no_memory();
    weft__compile_argv_free(&argv);
    return status;
}

/* Writes TO from the file FROM through REWRITE (a text transformation
 * returning a new text, NULL when out of memory). */
static int rewrite_file(const prep *p, const char *from, const char *to,
                        char *(*rewrite)(const prep *, const char *))
{
    weft_compile_text in = {0};
    weft_status st = weft__compile_text_read(from, &in);
    char *out = st == WEFT_OK ? rewrite(p, in.text) : NULL;
    weft__compile_text_free(&in);
    if (st == WEFT_OK && !out)
        return weft__compile_no_memory();
    if (st == WEFT_OK)
        st = weft__compile_text_write(to, out);
    free(out);
    if (st != WEFT_OK) {
        fprintf(stderr, "weft compile: cannot write '%s' from '%s': %s\n", to, from,
                strerror(errno));
        return 1;
    }
    return 0;
}

static const char *current_dir(char *buffer, size_t size)
{
    return getcwd(buffer, size) ? buffer : ".";
}

/* Says, once per source, what OPARI2 cannot record of its cancellation. */
static void warn_cancel_jumps(const prep *p, const char *text)
{
    unsigned jumps = weft__compile_cancel_jumps(text, p->fortran);
    if (jumps)
        fprintf(stderr,
                "weft compile: '%s' has %u cancel or cancellation point directive%s for a "
                "parallel region, sections or a taskgroup, which OPARI2 does not instrument: "
                "when cancellation is active (OMP_CANCELLATION=true), the end of a cancelled "
                "region is not recorded and the trace is broken; trace the program through "
                "OMPT (weft run) instead\n",
                p->source, jumps, jumps == 1 ? "" : "s");
}

/* TEXT through REWRITE, TEXT freed; NULL stays NULL (out of memory). */
static char *then(char *text, char *(*rewrite)(const char *, const prep *), const prep *p)
{
    char *out = text ? rewrite(text, p) : NULL;
    free(text);
    return out;
}

static bool fixed_form(const prep *p)
{
    return p->lang == WEFT_COMPILE_LANG_FORTRAN_FIXED;
}

static char *split_step(const char *text, const prep *p)
{
    return p->fortran ? weft__compile_split_fortran(text, fixed_form(p), NULL)
                      : weft__compile_split_combined(text, NULL);
}

static char *atomics_step(const char *text, const prep *p)
{
    return p->fortran ? weft__compile_fortran_atomics(text, NULL) : strdup(text);
}

static char *continuations_step(const char *text, const prep *p)
{
    return p->fortran ? weft__compile_fortran_continuations(text, fixed_form(p), NULL)
                      : strdup(text);
}

static char *plain_if_step(const char *text, const prep *p)
{
    return weft__compile_plain_if(text, p->fortran, NULL);
}

static char *shield_step(const char *text, const prep *p)
{
    return weft__compile_shield(text, p->fortran, fixed_form(p), NULL);
}

static char *untied_step(const char *text, const prep *p)
{
    return p->ctx->keep_untied ? strdup(text) : weft__compile_untied_commas(text, p->fortran, NULL);
}

static char *digit_separators_step(const char *text, const prep *p)
{
    return p->lang == WEFT_COMPILE_LANG_CXX ? weft__compile_digit_separators(text, NULL)
                                            : strdup(text);
}

/* C and C++: braces where OPARI2 misreads a construct's statement. */
static char *braces_step(const char *text, const prep *p)
{
    if (p->fortran)
        return strdup(text);
    char *outer = weft__compile_brace_else(text, NULL);
    char *bodies = outer ? weft__compile_brace_loop_bodies(outer, NULL) : NULL;
    free(outer);
    char *braced = bodies ? weft__compile_brace_if_else(bodies, NULL) : NULL;
    free(bodies);
    return braced;
}

static char *absolute_step(const char *text, const prep *p)
{
    (void)p;
    char cwd[4096];
    return weft__compile_absolute_markers(text, current_dir(cwd, sizeof(cwd)));
}

/* Step 2: OPARI2's bugs worked around, and the files of line markers
 * absolute, as OPARI2 names them relative to the file it reads. */
static char *workarounds(const prep *p, const char *text)
{
    warn_cancel_jumps(p, text);
    char *out = split_step(text, p);
    out = then(out, atomics_step, p);
    out = then(out, continuations_step, p);
    out = then(out, plain_if_step, p);
    out = then(out, shield_step, p);
    out = then(out, untied_step, p);
    out = then(out, digit_separators_step, p);
    out = then(out, braces_step, p);
    return then(out, absolute_step, p);
}

/* Step 3's line markers as step 1 named the files, the directives step 2
 * hid from OPARI2 shown again, constructs holding a cancel directive given
 * their barrier back (compile_cancel.h), OPARI2's include lines taken
 * out of Fortran interface bodies (compile_interface.h) and its C/C++ task
 * handles initialised (compile_copy.h). */
static char *line_markers(const prep *p, const char *text)
{
    char *waits = weft__compile_cancel_waits(text, p->fortran, NULL);
    if (waits) {
        char *fixed = p->fortran ? weft__compile_interface_includes(
                                       waits, p->lang == WEFT_COMPILE_LANG_FORTRAN_FIXED, NULL)
                                 : weft__compile_copy_init_task_handles(waits);
        free(waits);
        waits = fixed;
    }
    char *shown = waits ? weft__compile_unshield(waits, p->fortran) : NULL;
    free(waits);
    weft_compile_text pre = {0};
    if (!shown || weft__compile_text_read(p->pre, &pre) != WEFT_OK) {
        weft__compile_text_free(&pre);
        return shown; /* step 1's output went away: markers stay absolute */
    }
    char cwd[4096];
    char *mapped = weft__compile_map_lines(shown, pre.text, current_dir(cwd, sizeof(cwd)));
    weft__compile_text_free(&pre);
    free(shown);
    return mapped;
}

/* The dependency file the user asked for, from what the runs wrote. */
static int write_depfile(const prep *p)
{
    char *derived;
    bool wanted;
    const char *path = weft__compile_depfile_target(p->ctx->plan, p->object, &derived, &wanted);
    if (!wanted)
        return 0;
    if (!path)
        return weft__compile_no_memory();
    weft_compile_text headers = {0}, modules = {0};
    weft_status st = weft__compile_text_read(p->deps, &headers);
    if (st == WEFT_OK && p->fortran)
        st = weft__compile_text_read(p->deps2, &modules);
    char *fixed = NULL, *fixed2 = NULL, *joined = NULL;
    if (st == WEFT_OK) {
        fixed = weft__compile_depfile_rewrite(headers.text, p->ctx->work_dir, p->source, p->source);
        if (p->fortran)
            fixed2 =
                weft__compile_depfile_rewrite(modules.text, p->ctx->work_dir, p->final, p->source);
        joined = p->fortran && fixed && fixed2 ? weft__compile_depfile_join(fixed, fixed2) : NULL;
        if (!fixed || (p->fortran && !joined))
            st = WEFT_ERR_NO_MEMORY;
        else
            st = weft__compile_text_write(path, p->fortran ? joined : fixed);
    }
    if (st != WEFT_OK && path)
        fprintf(stderr, "weft compile: cannot write the dependency file '%s': %s\n", path,
                st == WEFT_ERR_NO_MEMORY ? "out of memory" : strerror(errno));
    weft__compile_text_free(&headers);
    weft__compile_text_free(&modules);
    free(fixed);
    free(fixed2);
    free(joined);
    free(derived);
    return st == WEFT_OK ? 0 : 1;
}

static int instrument_and_compile(prep *p)
{
    weft_compile_ctx *ctx = p->ctx;
    int status = run(p, preprocess_command);
    if (status) /* the preprocessor's own messages say why */
        return weft__compile_explain_failure(ctx, p->index, status, p->source, false);
    status = rewrite_file(p, p->pre, p->in, workarounds);
    if (status)
        return status;
    status = weft__compile_opari2(ctx, p->in, p->lang, p->copy, true);
    if (status)
        return weft__compile_explain_failure(ctx, p->index, status, p->in, true);
    status = rewrite_file(p, p->copy, p->copy, line_markers);
    if (status)
        return status;
    if (!p->fortran) {
        status = run(p, expand_command);
        if (status)
            return weft__compile_explain_failure(ctx, p->index, status, p->copy, false);
    }
    status = run(p, compile_command);
    if (status)
        return weft__compile_explain_failure(ctx, p->index, status, p->copy, false);
    return write_depfile(p);
}

int weft__compile_preprocessed(weft_compile_ctx *ctx, int index)
{
    prep p = {.ctx = ctx, .index = index, .source = ctx->plan->argv[index]};
    p.lang = ctx->plan->langs[index];
    p.fortran = weft__compile_is_fortran(p.lang);
    int status = weft__compile_load_cflags(ctx);
    if (!status && !p.fortran)
        status = marker_header(ctx);
    if (status)
        return status;
    p.dir = weft__compile_source_dir(ctx);
    if (!p.dir)
        return 1;
    p.object = weft__compile_object_path(ctx, index, p.dir);
    if (!p.object || !name_files(&p))
        status = weft__compile_no_memory();
    else
        status = instrument_and_compile(&p);
    if (!status) {
        ctx->objects[index] = p.object;
        p.object = NULL;
    }
    free(p.dir);
    free(p.object);
    free(p.pre);
    free(p.in);
    free(p.copy);
    free(p.final);
    free(p.deps);
    free(p.deps2);
    return status;
}
