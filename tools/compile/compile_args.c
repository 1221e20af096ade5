/* SPDX-License-Identifier: BSD-3-Clause */
/* Classifies a compiler command line for `weft compile` (see compile_args.h).
 * The tables below follow GCC's driver, which Clang, GFortran and the MPI
 * wrappers share: which options take a separate argument, which only matter
 * to the linker, which stop the compiler before it compiles anything. The
 * classification never looks at the file system. */
#include "compile_args.h"

#include <stdlib.h>
#include <string.h>

/* clang-format off */
/* Options whose argument may be the next word; both words are flags that every
 * compile command keeps. (-o, -x, -MF, -l, -L, -Xlinker, ... are handled apart.) */
static const char *const separate_arg_flags[] = {
    "-I", "-D", "-U", "-include", "-imacros", "-isystem", "-iquote", "-idirafter",
    "-iprefix", "-iwithprefix", "-iwithprefixbefore", "-isysroot", "-imultilib",
    "-Xpreprocessor", "-Xassembler", "-Xclang", "-Xopenmp-target", "-mllvm", "-J", "-aux-info",
    "--param", "-A", "-target", "--sysroot", "-MT", "-MQ",
};

/* Linker options taking the next word as their argument: link command only. */
static const char *const separate_arg_link_flags[] = {"-L", "-l", "-Xlinker", "-u", "-T", "-z"};

/* Options after which the compiler neither compiles nor links (or that only
 * ask a question): the command runs unchanged. */
static const char *const pass_flags[] = {
    "-E", "-M", "-MM", "--version", "-dumpversion", "-dumpmachine", "-dumpfullversion",
    "-dumpspecs", "--help", "--target-help", "-###", "-fsyntax-only",
    /* MPI compiler wrappers (Open MPI, MPICH) showing their command line */
    "-showme", "-show", "-compile-info", "-link-info", "-compile_info", "-link_info",
};
static const char *const pass_prefixes[] = {"-print-", "--print-", "--help=", "-showme:",
                                            "--showme"};

static const char *const openmp_on_flags[] = {"-fopenmp", "-qopenmp", "-fiopenmp", "-mp", "-openmp",
                                              "-homp"};
static const char *const openmp_on_prefixes[] = {"-fopenmp=", "-mp="};
static const char *const openmp_off_flags[] = {"-fno-openmp", "-qno-openmp", "-hnoomp", "-nomp"};

typedef struct suffix_lang {
    const char *suffix; /* after the last '.', case-sensitive as in GCC */
    weft_compile_lang lang;
} suffix_lang;

static const suffix_lang suffix_langs[] = {
    {"c",   WEFT_COMPILE_LANG_C},
    {"C",   WEFT_COMPILE_LANG_CXX}, {"cc",  WEFT_COMPILE_LANG_CXX}, {"cp",  WEFT_COMPILE_LANG_CXX},
    {"cpp", WEFT_COMPILE_LANG_CXX}, {"CPP", WEFT_COMPILE_LANG_CXX}, {"cxx", WEFT_COMPILE_LANG_CXX},
    {"c++", WEFT_COMPILE_LANG_CXX},
    {"f",   WEFT_COMPILE_LANG_FORTRAN_FIXED}, {"F",   WEFT_COMPILE_LANG_FORTRAN_FIXED},
    {"for", WEFT_COMPILE_LANG_FORTRAN_FIXED}, {"FOR", WEFT_COMPILE_LANG_FORTRAN_FIXED},
    {"ftn", WEFT_COMPILE_LANG_FORTRAN_FIXED}, {"FTN", WEFT_COMPILE_LANG_FORTRAN_FIXED},
    {"fpp", WEFT_COMPILE_LANG_FORTRAN_FIXED}, {"FPP", WEFT_COMPILE_LANG_FORTRAN_FIXED},
    {"f90", WEFT_COMPILE_LANG_FORTRAN_FREE},  {"F90", WEFT_COMPILE_LANG_FORTRAN_FREE},
    {"f95", WEFT_COMPILE_LANG_FORTRAN_FREE},  {"F95", WEFT_COMPILE_LANG_FORTRAN_FREE},
    {"f03", WEFT_COMPILE_LANG_FORTRAN_FREE},  {"F03", WEFT_COMPILE_LANG_FORTRAN_FREE},
    {"f08", WEFT_COMPILE_LANG_FORTRAN_FREE},  {"F08", WEFT_COMPILE_LANG_FORTRAN_FREE},
};

/* What the compile of preprocessed text leaves out (compile_args.h): options
 * read by the preprocessor only, alone or with their argument glued on or in
 * the next word, by prefix. */
typedef struct flag_use {
    const char *prefix;
    bool exact; /* the whole word, not a prefix */
    weft_compile_use use;
} flag_use;

#define P(text) {text, false, WEFT_COMPILE_USE_PREPROCESS}
#define PX(text) {text, true, WEFT_COMPILE_USE_PREPROCESS}
static const flag_use flag_uses[] = {
    P("-D"), P("-U"), PX("-include"), PX("-imacros"), P("-iquote"), P("-idirafter"),
    P("-iprefix"), P("-iwithprefix"), P("-imultilib"), P("-isysroot"), PX("-Xpreprocessor"),
    P("-Wp,"), PX("-A"), PX("-undef"), PX("-nostdinc"), PX("-nostdinc++"), PX("-C"), PX("-CC"),
    PX("-P"), PX("-H"), PX("-trigraphs"), PX("-traditional-cpp"), PX("-cpp"), PX("-nocpp"),
    PX("-fdirectives-only"), PX("-fworking-directory"), PX("-fno-working-directory"),
    {"-I", false, WEFT_COMPILE_USE_INCLUDE_DIR}, {"-isystem", false, WEFT_COMPILE_USE_INCLUDE_DIR},
    {"-J", false, WEFT_COMPILE_USE_MODULE_DIR},
    {"-MD", true, WEFT_COMPILE_USE_DEPEND}, {"-MMD", true, WEFT_COMPILE_USE_DEPEND},
    {"-MP", true, WEFT_COMPILE_USE_DEPEND}, {"-MG", true, WEFT_COMPILE_USE_DEPEND},
    {"-MF", false, WEFT_COMPILE_USE_DEPEND}, {"-MT", false, WEFT_COMPILE_USE_DEPEND},
    {"-MQ", false, WEFT_COMPILE_USE_DEPEND},
};
#undef P
#undef PX

static const char *const mpi_wrappers[] = {
    "mpicc", "mpicxx", "mpic++", "mpiCC", "mpif77", "mpif90", "mpifort",
    "mpiicc", "mpiicpc", "mpiifort", "mpiicx", "mpiicpx", "mpiifx", /* Intel MPI */
};
/* clang-format on */

#define COUNT(array) (sizeof(array) / sizeof((array)[0]))

static bool in_list(const char *arg, const char *const *list, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        if (strcmp(arg, list[i]) == 0)
            return true;
    }
    return false;
}

static bool has_prefix(const char *arg, const char *prefix)
{
    return strncmp(arg, prefix, strlen(prefix)) == 0;
}

static bool has_any_prefix(const char *arg, const char *const *list, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        if (has_prefix(arg, list[i]))
            return true;
    }
    return false;
}

const char *weft__compile_base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

weft_compile_lang weft__compile_lang_of(const char *path)
{
    const char *dot = strrchr(weft__compile_base_name(path), '.');
    if (!dot || dot == weft__compile_base_name(path))
        return WEFT_COMPILE_LANG_NONE;
    for (size_t i = 0; i < COUNT(suffix_langs); i++) {
        if (strcmp(dot + 1, suffix_langs[i].suffix) == 0)
            return suffix_langs[i].lang;
    }
    return WEFT_COMPILE_LANG_NONE;
}

bool weft__compile_is_object(const char *path)
{
    const char *name = weft__compile_base_name(path);
    const char *dot = strrchr(name, '.');
    if (!dot || dot == name)
        return false;
    if (strcmp(dot, ".o") == 0 || strcmp(dot, ".obj") == 0 || strcmp(dot, ".a") == 0 ||
        strcmp(dot, ".so") == 0)
        return true;
    /* libfoo.so.1.2: ".so." followed by version numbers only */
    const char *so = strstr(name, ".so.");
    if (!so || so == name)
        return false;
    for (const char *p = so + 4; *p; p++) {
        if ((*p < '0' || *p > '9') && *p != '.')
            return false;
    }
    return so[4] != '\0';
}

bool weft__compile_is_mpi_wrapper(const char *compiler)
{
    const char *name = weft__compile_base_name(compiler);
    for (size_t i = 0; i < COUNT(mpi_wrappers); i++) {
        size_t len = strlen(mpi_wrappers[i]);
        if (strncmp(name, mpi_wrappers[i], len) != 0)
            continue;
        /* A suffix only after a separator or as a version number: mpicc.openmpi,
         * mpicc-4.1, mpicc12, but not mpiccache. */
        char next = name[len];
        if (next == '\0' || next == '.' || next == '-' || next == '_' ||
            (next >= '0' && next <= '9'))
            return true;
    }
    return false;
}

static weft_compile_use use_of(const char *arg)
{
    for (size_t i = 0; i < COUNT(flag_uses); i++) {
        const flag_use *u = &flag_uses[i];
        if (u->exact ? strcmp(arg, u->prefix) == 0 : has_prefix(arg, u->prefix))
            return u->use;
    }
    return WEFT_COMPILE_USE_ANY;
}

bool weft__compile_preprocesses(const weft_compile_plan *plan, int index)
{
    weft_compile_lang lang = plan->langs[index];
    if (lang == WEFT_COMPILE_LANG_C || lang == WEFT_COMPILE_LANG_CXX)
        return true;
    if (lang == WEFT_COMPILE_LANG_NONE)
        return false;
    if (plan->fortran_cpp >= 0)
        return plan->fortran_cpp == 1;
    /* gfortran preprocesses the upper-case suffixes, and .fpp */
    const char *dot = strrchr(weft__compile_base_name(plan->argv[index]), '.');
    if (!dot)
        return false;
    static const char *const preprocessed[] = {"F",   "FOR", "FTN", "fpp", "FPP",
                                               "F90", "F95", "F03", "F08"};
    return in_list(dot + 1, preprocessed, COUNT(preprocessed));
}

void weft__compile_plan_clear(weft_compile_plan *plan)
{
    if (!plan)
        return;
    free(plan->roles);
    free(plan->langs);
    free(plan->uses);
    memset(plan, 0, sizeof(*plan));
}

/* The state of one pass over the arguments, before the mode is decided. */
typedef struct scan {
    const char *pass_reason;
    int output_count;
    bool fortran_free;  /* -ffree-form seen last */
    bool fortran_fixed; /* -ffixed-form seen last */
} scan;

static void set_pass(scan *s, const char *reason)
{
    if (!s->pass_reason)
        s->pass_reason = reason;
}

/* Gives argument I and, when the option takes the next word, I+1 the role
 * ROLE; returns the index of the last word used. */
static int take(weft_compile_plan *plan, scan *s, int i, bool separate, weft_compile_role role)
{
    plan->roles[i] = role;
    if (!separate)
        return i;
    if (i + 1 >= plan->argc) {
        set_pass(s, "an option lacks its argument");
        return i;
    }
    plan->roles[i + 1] = role;
    return i + 1;
}

/* Classifies the option ARGV[I]; returns the index of the last word it used. */
static int classify_option(weft_compile_plan *plan, scan *s, int i)
{
    const char *arg = plan->argv[i];
    if (in_list(arg, pass_flags, COUNT(pass_flags)) ||
        has_any_prefix(arg, pass_prefixes, COUNT(pass_prefixes))) {
        set_pass(s, "the command neither compiles nor links");
        return take(plan, s, i, false, WEFT_COMPILE_ARG_FLAG);
    }
    if (has_prefix(arg, "-x")) {
        set_pass(s, "-x sets the language");
        return take(plan, s, i, arg[2] == '\0', WEFT_COMPILE_ARG_FLAG);
    }
    /* Before -o: "-openmp" is not an output named "penmp". */
    if (in_list(arg, openmp_on_flags, COUNT(openmp_on_flags)) ||
        has_any_prefix(arg, openmp_on_prefixes, COUNT(openmp_on_prefixes))) {
        plan->openmp = true;
        return take(plan, s, i, false, WEFT_COMPILE_ARG_FLAG);
    }
    if (in_list(arg, openmp_off_flags, COUNT(openmp_off_flags))) {
        plan->openmp = false;
        return take(plan, s, i, false, WEFT_COMPILE_ARG_FLAG);
    }
    if (has_prefix(arg, "-o")) {
        s->output_count++;
        int last = take(plan, s, i, arg[2] == '\0', WEFT_COMPILE_ARG_OUTPUT);
        if (last > i)
            plan->output = plan->argv[last];
        else if (arg[2] != '\0')
            plan->output = arg + 2;
        return last;
    }
    if (strcmp(arg, "-c") == 0 || strcmp(arg, "-S") == 0) {
        /* With both, the compiler stops at the earlier stage: assembly. */
        if (!plan->stop_flag || arg[1] == 'S')
            plan->stop_flag = arg;
        return take(plan, s, i, false, WEFT_COMPILE_ARG_STOP);
    }
    if (has_prefix(arg, "-MF")) {
        int last = take(plan, s, i, arg[3] == '\0', WEFT_COMPILE_ARG_FLAG);
        plan->depfile_path = last > i ? plan->argv[last] : arg + 3;
        for (int k = i; k <= last; k++)
            plan->uses[k] = WEFT_COMPILE_USE_DEPEND;
        return last;
    }
    /* An MPI library named with -l (-lmpi, -lmpich, -lmpi_cxx, -l mpifort):
     * libweft-mpi must come before it on the link line. */
    if (!plan->mpi_library &&
        ((strcmp(arg, "-l") == 0 && i + 1 < plan->argc && has_prefix(plan->argv[i + 1], "mpi")) ||
         has_prefix(arg, "-lmpi")))
        plan->mpi_library = i;
    if (in_list(arg, separate_arg_link_flags, COUNT(separate_arg_link_flags)))
        return take(plan, s, i, true, WEFT_COMPILE_ARG_LINK_FLAG);
    if (has_prefix(arg, "-l") || has_prefix(arg, "-L") || has_prefix(arg, "-Wl,") ||
        has_prefix(arg, "-T"))
        return take(plan, s, i, false, WEFT_COMPILE_ARG_LINK_FLAG);
    if (strcmp(arg, "-ffree-form") == 0) {
        s->fortran_free = true;
        s->fortran_fixed = false;
    } else if (strcmp(arg, "-ffixed-form") == 0) {
        s->fortran_fixed = true;
        s->fortran_free = false;
    } else if (strcmp(arg, "-shared") == 0) {
        plan->shared = true;
    } else if (strcmp(arg, "-MD") == 0 || strcmp(arg, "-MMD") == 0) {
        plan->depfile = true;
    } else if (has_prefix(arg, "-MT") || has_prefix(arg, "-MQ")) {
        plan->depfile_target = true;
    } else if (strcmp(arg, "-cpp") == 0 || strcmp(arg, "-nocpp") == 0) {
        plan->fortran_cpp = arg[1] == 'c';
    }
    int last = take(plan, s, i, in_list(arg, separate_arg_flags, COUNT(separate_arg_flags)),
                    WEFT_COMPILE_ARG_FLAG);
    for (int k = i; k <= last; k++)
        plan->uses[k] = use_of(arg);
    return last;
}

static void classify_operand(weft_compile_plan *plan, scan *s, int i)
{
    const char *arg = plan->argv[i];
    if (arg[0] == '@') {
        /* A response file: its contents are not read, it goes to every command. */
        plan->roles[i] = WEFT_COMPILE_ARG_FLAG;
        return;
    }
    if (strcmp(arg, "-") == 0)
        set_pass(s, "the source is read from standard input");
    weft_compile_lang lang =
        strcmp(arg, "-") == 0 ? WEFT_COMPILE_LANG_NONE : weft__compile_lang_of(arg);
    if (lang == WEFT_COMPILE_LANG_NONE) {
        plan->roles[i] = WEFT_COMPILE_ARG_INPUT;
        plan->input_count++;
        return;
    }
    plan->roles[i] = WEFT_COMPILE_ARG_SOURCE;
    plan->langs[i] = lang;
    plan->source_count++;
}

/* Applies what only the whole command line tells: OpenMP off turns sources
 * into plain inputs; -ffree-form/-ffixed-form set every Fortran source's form. */
static void settle_sources(weft_compile_plan *plan, const scan *s)
{
    for (int i = 1; i < plan->argc; i++) {
        if (plan->roles[i] != WEFT_COMPILE_ARG_SOURCE)
            continue;
        if (!plan->openmp) {
            plan->roles[i] = WEFT_COMPILE_ARG_INPUT;
            plan->langs[i] = WEFT_COMPILE_LANG_NONE;
            plan->source_count--;
            plan->input_count++;
            continue;
        }
        bool fortran = weft__compile_is_fortran(plan->langs[i]);
        if (fortran && s->fortran_free)
            plan->langs[i] = WEFT_COMPILE_LANG_FORTRAN_FREE;
        else if (fortran && s->fortran_fixed)
            plan->langs[i] = WEFT_COMPILE_LANG_FORTRAN_FIXED;
    }
}

/* Inputs that make an output of their own under -c/-S: sources, and any
 * input but objects and libraries (which the compiler ignores there). */
static size_t compiled_input_count(const weft_compile_plan *plan)
{
    size_t count = 0;
    for (int i = 1; i < plan->argc; i++) {
        if (plan->roles[i] == WEFT_COMPILE_ARG_SOURCE ||
            (plan->roles[i] == WEFT_COMPILE_ARG_INPUT && !weft__compile_is_object(plan->argv[i])))
            count++;
    }
    return count;
}

static void decide_mode(weft_compile_plan *plan, scan *s)
{
    if (plan->source_count + plan->input_count == 0)
        set_pass(s, "no input files");
    if (s->output_count > 1)
        set_pass(s, "-o is given more than once");
    if (plan->stop_flag && plan->output && compiled_input_count(plan) > 1)
        set_pass(s, "-o names one output for several inputs");
    if (plan->stop_flag && plan->source_count == 0)
        set_pass(s, plan->openmp ? "no source to instrument" : "OpenMP is not on (no -fopenmp)");

    if (s->pass_reason) {
        plan->mode = WEFT_COMPILE_MODE_PASS;
        plan->pass_reason = s->pass_reason;
    } else if (plan->stop_flag) {
        plan->mode = WEFT_COMPILE_MODE_COMPILE;
        plan->object_suffix = plan->stop_flag[1] == 'S' ? ".s" : ".o";
    } else {
        plan->mode = WEFT_COMPILE_MODE_LINK;
        plan->stop_flag = NULL;
    }
    if (plan->mode != WEFT_COMPILE_MODE_COMPILE)
        plan->stop_flag = NULL;
}

weft_status weft__compile_plan_make(int argc, char **argv, weft_compile_plan *plan)
{
    memset(plan, 0, sizeof(*plan));
    size_t n = argc > 0 ? (size_t)argc : 1;
    plan->roles = calloc(n, sizeof(*plan->roles));
    plan->langs = calloc(n, sizeof(*plan->langs));
    plan->uses = calloc(n, sizeof(*plan->uses));
    plan->fortran_cpp = -1;
    if (!plan->roles || !plan->langs || !plan->uses) {
        weft__compile_plan_clear(plan);
        return WEFT_ERR_NO_MEMORY;
    }
    plan->argc = argc;
    plan->argv = argv;

    scan s = {0};
    for (int i = 1; i < argc; i++) {
        if (argv[i][0] == '-' && argv[i][1] != '\0')
            i = classify_option(plan, &s, i);
        else
            classify_operand(plan, &s, i);
    }
    settle_sources(plan, &s);
    decide_mode(plan, &s);
    plan->mpi = plan->mpi_library > 0 || (argc > 0 && weft__compile_is_mpi_wrapper(argv[0]));
    return WEFT_OK;
}
