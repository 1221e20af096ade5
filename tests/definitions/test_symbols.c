/* The symboliser (weft/symbols.h) on real objects: this executable (built
 * with -g; once as PIE, once with -no-pie as test_symbols_nopie), and
 * libraries built next to it and dlopen'ed here: with -g, without -g, one
 * stripped with strip --strip-all, one in C++. Each lookup is checked for
 * function, file (basename), line, object and offsets. Also: addresses in no
 * object, weft_symbols_same_object, four threads looking up at once, an
 * object that cannot be read, and lookups after weft_symbols_shutdown. */
#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>

#include "symbols/symbols_test_lib.h"
#include "weft/log.h"
#include "weft/symbols.h"

#if !defined(WEFT_SYMTEST_LIB_DEBUG) || !defined(WEFT_SYMTEST_LIB_PLAIN) ||                        \
    !defined(WEFT_SYMTEST_LIB_STRIPPED) || !defined(WEFT_SYMTEST_LIB_CXX)
#error "the build passes the test libraries' paths"
#endif

/* ---- code in this executable whose addresses are looked up ---- */

/* clang-format off */
static const unsigned exe_function_line = __LINE__ + 1;
static __attribute__((noinline)) int exe_function(int x) { WEFT_SYMTEST_OPAQUE(x); return x - 1; }
/* clang-format on */

static __attribute__((noinline)) const void *return_address(void)
{
    const void *ra = __builtin_return_address(0);
    WEFT_SYMTEST_OPAQUE(ra);
    return ra;
}

static __attribute__((noinline)) const void *exe_call_site(unsigned *line)
{
    *line = __LINE__ + 1;
    const void *ra = return_address();
    WEFT_SYMTEST_OPAQUE(ra); /* keeps the call from becoming a tail call */
    return ra;
}

/* Called through volatile pointers, so the compiler cannot clone them under
 * other names (exe_call_site.constprop.0) for direct calls. */
static int (*volatile exe_function_ptr)(int) = exe_function;
static const void *(*volatile exe_call_site_ptr)(unsigned *) = exe_call_site;

/* ---- helpers ---- */

static const void *code_address(uintptr_t address)
{
    return (const void *)address;
}

static const void *exe_function_address(void)
{
    return code_address((uintptr_t)exe_function_ptr);
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

static void *open_library(const char *path)
{
    void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!handle)
        fail_msg("dlopen %s: %s", path, dlerror());
    return handle;
}

/* A function of a dlopen'ed library, as an address. */
static uintptr_t library_symbol(void *handle, const char *name)
{
    void *p = dlsym(handle, name);
    if (!p)
        fail_msg("dlsym %s: %s", name, dlerror());
    return (uintptr_t)p;
}

/* Calls a library's `const void *f(unsigned *)`, `const void *f(void)` or
 * `uintptr_t f(void)`. */
static const void *call_site(void *handle, const char *name, unsigned *line)
{
    const void *(*fn)(unsigned *);
    void *p = (void *)library_symbol(handle, name);
    memcpy(&fn, &p, sizeof(p));
    return fn(line);
}

static const void *plain_call_site(void *handle)
{
    const void *(*fn)(void);
    void *p = (void *)library_symbol(handle, "weft_symtest_plain_call_site");
    memcpy(&fn, &p, sizeof(p));
    return fn();
}

static uintptr_t call_address_getter(void *handle, const char *name)
{
    uintptr_t (*fn)(void);
    void *p = (void *)library_symbol(handle, name);
    memcpy(&fn, &p, sizeof(p));
    return fn();
}

/* The load bias of the executable (the first object dl_iterate_phdr lists). */
static int first_bias(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    *(uintptr_t *)data = (uintptr_t)info->dlpi_addr;
    return 1;
}

static uintptr_t exe_bias(void)
{
    uintptr_t bias = 0;
    dl_iterate_phdr(first_bias, &bias);
    return bias;
}

/* The load base of the library holding address. */
static uintptr_t library_base(const void *address)
{
    Dl_info info;
    assert_true(dladdr(address, &info) != 0);
    return (uintptr_t)info.dli_fbase;
}

static void assert_file(const weft_symbol *s, const char *expected_base)
{
    assert_non_null(s->file);
    assert_string_equal(base_name(s->file), expected_base);
}

/* One line holding every field, for comparing lookups. */
static void summarise(const weft_symbol *s, char *buffer, size_t size)
{
    snprintf(buffer, size, "%s|%zx|%s|%zx|%s|%u", s->object ? s->object : "-",
             (size_t)s->object_offset, s->function ? s->function : "-", (size_t)s->function_offset,
             s->file ? s->file : "-", s->line);
}

/* ---- the executable ---- */

static void test_executable_function(void **state)
{
    (void)state;
    const void *address = exe_function_address();
    weft_symbol s;
    assert_int_equal(weft_symbols_lookup_instruction(address, &s), WEFT_OK);
    if (weft_symbols_have_bfd()) {
        assert_non_null(s.function);
        assert_string_equal(s.function, "exe_function");
        assert_int_equal(s.function_offset, 0);
        assert_file(&s, "test_symbols.c");
        assert_int_equal(s.line, exe_function_line);
    } else {
        /* Without libbfd only exported functions have names. */
        assert_null(s.function);
        assert_null(s.file);
    }
    char exe[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    assert_true(len > 0);
    exe[len] = '\0';
    assert_non_null(s.object);
    assert_string_equal(s.object, exe);
    uintptr_t bias = exe_bias();
    assert_int_equal(s.object_offset, (uintptr_t)address - bias);
#ifdef WEFT_SYMTEST_NO_PIE
    assert_int_equal(bias, 0); /* really built without PIE */
#else
    assert_int_not_equal(bias, 0);
#endif
}

static void test_executable_return_address(void **state)
{
    (void)state;
    unsigned line = 0;
    const void *ra = exe_call_site_ptr(&line);
    weft_symbol s;
    assert_int_equal(weft_symbols_lookup(ra, &s), WEFT_OK);
    if (!weft_symbols_have_bfd()) {
        assert_non_null(s.object);
        return;
    }
    assert_non_null(s.function);
    assert_string_equal(s.function, "exe_call_site");
    assert_file(&s, "test_symbols.c");
    assert_int_equal(s.line, line);

    /* The offset is that of the return address itself. */
    weft_symbol entry;
    assert_int_equal(
        weft_symbols_lookup_instruction(code_address((uintptr_t)exe_call_site_ptr), &entry),
        WEFT_OK);
    assert_int_equal(entry.function_offset, 0);
    assert_int_equal((uintptr_t)exe_call_site_ptr + s.function_offset, (uintptr_t)ra);
    assert_true(s.function_offset > 0);
}

#ifdef WEFT_SYMTEST_NO_LINE_SITE
/* symbols/no_line_site.c: a call at line 0 after an instruction of line 13. */
enum { NO_LINE_SITE_ASM = 13 };
void weft_symtest_no_line_site(void (*callee)(void));
static const void *no_line_return;
static __attribute__((noinline)) void note_return(void)
{
    no_line_return = __builtin_return_address(0);
}

/* The call before the return address has line 0: the nearest line before
 * it in the function (the asm statement's) names it, not "function+offset"
 * nor the line after the call. */
static void test_return_address_after_a_call_without_line(void **state)
{
    (void)state;
    weft_symtest_no_line_site(note_return);
    weft_symbol s;
    assert_int_equal(weft_symbols_lookup(no_line_return, &s), WEFT_OK);
    if (!weft_symbols_have_bfd())
        skip();
    assert_non_null(s.function);
    assert_string_equal(s.function, "weft_symtest_no_line_site");
    assert_true(s.function_offset > 0);
    assert_file(&s, "no_line_site.c");
    assert_int_equal(s.line, NO_LINE_SITE_ASM);
}
#endif

/* ---- shared libraries ---- */

static void test_debug_library_loaded_later(void **state)
{
    (void)state;
    assert_null(dlopen(WEFT_SYMTEST_LIB_DEBUG, RTLD_NOW | RTLD_NOLOAD));
    weft_symbols_shutdown();
    weft_symbol s;
    assert_int_equal(weft_symbols_lookup_instruction(exe_function_address(), &s), WEFT_OK);

    void *lib = open_library(WEFT_SYMTEST_LIB_DEBUG);
    const void *function = code_address(library_symbol(lib, "weft_symtest_debug_function"));
    assert_int_equal(weft_symbols_lookup_instruction(function, &s), WEFT_OK);
    assert_non_null(s.object);
    assert_string_equal(s.object, WEFT_SYMTEST_LIB_DEBUG);
    assert_int_equal(s.object_offset, (uintptr_t)function - library_base(function));
    assert_string_equal(s.function, "weft_symtest_debug_function");
    assert_int_equal(s.function_offset, 0);
    if (weft_symbols_have_bfd()) {
        const unsigned *expected =
            (const unsigned *)library_symbol(lib, "weft_symtest_debug_function_line");
        assert_file(&s, "lib_debug.c");
        assert_int_equal(s.line, *expected);
    }

    unsigned line = 0;
    const void *ra = call_site(lib, "weft_symtest_debug_call_site", &line);
    assert_int_equal(weft_symbols_lookup(ra, &s), WEFT_OK);
    assert_string_equal(s.function, "weft_symtest_debug_call_site");
    assert_true(s.function_offset > 0);
    if (weft_symbols_have_bfd()) {
        assert_file(&s, "lib_debug.c");
        assert_int_equal(s.line, line);
    }
}

static void test_library_without_debug_information(void **state)
{
    (void)state;
    void *lib = open_library(WEFT_SYMTEST_LIB_PLAIN);
    const void *ra = plain_call_site(lib);
    weft_symbol s;
    assert_int_equal(weft_symbols_lookup(ra, &s), WEFT_OK);
    assert_string_equal(s.object, WEFT_SYMTEST_LIB_PLAIN);
    assert_string_equal(s.function, "weft_symtest_plain_call_site");
    uintptr_t start = library_symbol(lib, "weft_symtest_plain_call_site");
    assert_int_equal(s.function_offset, (uintptr_t)ra - start);
    assert_true(s.function_offset > 0);
    assert_null(s.file);
    assert_int_equal(s.line, 0);

    char name[256];
    char expected[256];
    snprintf(expected, sizeof(expected), "weft_symtest_plain_call_site+0x%zx",
             (size_t)s.function_offset);
    int len = weft_symbols_format_fallback(&s, ra, name, sizeof(name));
    assert_string_equal(name, expected);
    assert_int_equal(len, (int)strlen(expected));

    /* A static function: only the static symbol table (libbfd) names it. */
    const void *local = code_address(call_address_getter(lib, "weft_symtest_plain_local_address"));
    assert_int_equal(weft_symbols_lookup_instruction(local, &s), WEFT_OK);
    assert_null(s.file);
    if (weft_symbols_have_bfd()) {
        assert_string_equal(s.function, "plain_local");
        assert_int_equal(s.function_offset, 0);
    } else {
        assert_null(s.function);
    }
}

static void test_stripped_library(void **state)
{
    (void)state;
    void *lib = open_library(WEFT_SYMTEST_LIB_STRIPPED);
    /* Exported: the dynamic symbols still name it. */
    const void *exported = code_address(library_symbol(lib, "weft_symtest_stripped_function"));
    weft_symbol s;
    assert_int_equal(weft_symbols_lookup_instruction(exported, &s), WEFT_OK);
    assert_string_equal(s.function, "weft_symtest_stripped_function");
    assert_int_equal(s.function_offset, 0);
    assert_null(s.file);

    /* Hidden: in no symbol table; object and offset only. As a return
     * address too (the byte before it is the exported function's padding
     * or end, never named as it). */
    const void *hidden =
        code_address(call_address_getter(lib, "weft_symtest_stripped_hidden_address"));
    assert_true(hidden > exported); /* so the exported symbol comes first */
    assert_int_equal(weft_symbols_lookup_instruction(hidden, &s), WEFT_OK);
    assert_null(s.function);
    assert_null(s.file);
    assert_int_equal(s.line, 0);
    assert_string_equal(s.object, WEFT_SYMTEST_LIB_STRIPPED);
    uintptr_t offset = (uintptr_t)hidden - library_base(hidden);
    assert_int_equal(s.object_offset, offset);

    char name[256];
    char expected[256];
    snprintf(expected, sizeof(expected), "%s+0x%zx", base_name(WEFT_SYMTEST_LIB_STRIPPED),
             (size_t)offset);
    weft_symbols_format_fallback(&s, hidden, name, sizeof(name));
    assert_string_equal(name, expected);
}

static void test_cxx_names_demangled(void **state)
{
    (void)state;
    void *lib = open_library(WEFT_SYMTEST_LIB_CXX);
    const void *twice = code_address(call_address_getter(lib, "weft_symtest_cxx_twice_address"));
    weft_symbol s;
    assert_int_equal(weft_symbols_lookup_instruction(twice, &s), WEFT_OK);
    assert_non_null(s.function);
    if (weft_symbols_have_bfd())
        assert_string_equal(s.function, "weft_symtest::twice(int)");
    else
        assert_string_equal(s.function, "_ZN12weft_symtest5twiceEi");
}

/* The vDSO has no file: it is named, not read. */
static void test_vdso(void **state)
{
    (void)state;
    const void *vdso = (const void *)(uintptr_t)getauxval(AT_SYSINFO_EHDR);
    if (!vdso)
        skip();
    weft_symbol s;
    assert_int_equal(weft_symbols_lookup_instruction(vdso, &s), WEFT_OK);
    assert_non_null(s.object);
    assert_string_equal(s.object, "[vdso]");
    assert_null(s.file);
}

/* ---- no object, same object ---- */

static void test_address_in_no_object(void **state)
{
    (void)state;
    void *page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    assert_true(page != MAP_FAILED);
    weft_symbol s = {.function = "junk", .line = 7};
    assert_int_equal(weft_symbols_lookup(page, &s), WEFT_ERR_NOT_FOUND);
    assert_null(s.object);
    assert_null(s.function);
    assert_null(s.file);
    assert_int_equal(s.line, 0);
    assert_int_equal(s.object_offset, 0);
    assert_int_equal(weft_symbols_lookup_instruction(page, &s), WEFT_ERR_NOT_FOUND);
    assert_int_equal(weft_symbols_lookup(NULL, &s), WEFT_ERR_NOT_FOUND);
    assert_int_equal(weft_symbols_lookup(exe_function_address(), NULL), WEFT_ERR_INVALID);
    assert_false(weft_symbols_same_object(page, page));
    assert_false(weft_symbols_same_object(page, exe_function_address()));
    assert_false(weft_symbols_same_object(NULL, NULL));

    char name[64];
    char expected[64];
    snprintf(expected, sizeof(expected), "0x%zx", (size_t)(uintptr_t)page);
    weft_symbols_format_fallback(&s, page, name, sizeof(name));
    assert_string_equal(name, expected);
    munmap(page, 4096);
}

static void test_same_object(void **state)
{
    (void)state;
    void *debug = open_library(WEFT_SYMTEST_LIB_DEBUG);
    void *plain = open_library(WEFT_SYMTEST_LIB_PLAIN);
    unsigned line;
    const void *exe_a = exe_function_address();
    const void *exe_b = exe_call_site_ptr(&line);
    const void *debug_a = code_address(library_symbol(debug, "weft_symtest_debug_function"));
    const void *debug_b = call_site(debug, "weft_symtest_debug_call_site", &line);
    const void *plain_a = plain_call_site(plain);
    assert_true(weft_symbols_same_object(exe_a, exe_b));
    assert_true(weft_symbols_same_object(debug_a, debug_b));
    assert_true(weft_symbols_same_object(debug_b, debug_a));
    assert_false(weft_symbols_same_object(exe_a, debug_a));
    assert_false(weft_symbols_same_object(debug_a, plain_a));
    /* Before any lookup fills the cache, too. */
    weft_symbols_shutdown();
    assert_true(weft_symbols_same_object(plain_a, plain_a));
    assert_false(weft_symbols_same_object(plain_a, exe_b));
}

/* ---- threads, shutdown ---- */

#define PROBE_COUNT 7
#define THREAD_COUNT 4
#define ROUNDS 200

typedef struct probe {
    const void *address;
    bool as_return;
    char expected[512];
} probe;

typedef struct probes {
    probe items[PROBE_COUNT];
    pthread_barrier_t start;
} probes;

typedef struct worker {
    probes *probes;
    unsigned index;
    unsigned mismatches;
} worker;

static void describe_probe(const probe *p, char *buffer, size_t size)
{
    weft_symbol s;
    weft_status status = p->as_return ? weft_symbols_lookup(p->address, &s)
                                      : weft_symbols_lookup_instruction(p->address, &s);
    if (status != WEFT_OK)
        snprintf(buffer, size, "status %d", (int)status);
    else
        summarise(&s, buffer, size);
}

static void fill_probes(probes *ps)
{
    void *debug = open_library(WEFT_SYMTEST_LIB_DEBUG);
    void *plain = open_library(WEFT_SYMTEST_LIB_PLAIN);
    void *stripped = open_library(WEFT_SYMTEST_LIB_STRIPPED);
    unsigned line;
    const probe items[PROBE_COUNT] = {
        {exe_function_address(), false, ""},
        {exe_call_site_ptr(&line), true, ""},
        {code_address(library_symbol(debug, "weft_symtest_debug_function")), false, ""},
        {call_site(debug, "weft_symtest_debug_call_site", &line), true, ""},
        {plain_call_site(plain), true, ""},
        {code_address(call_address_getter(stripped, "weft_symtest_stripped_hidden_address")), false,
         ""},
        {code_address(library_symbol(stripped, "weft_symtest_stripped_function")), false, ""},
    };
    memcpy(ps->items, items, sizeof(items));
    for (size_t i = 0; i < PROBE_COUNT; i++)
        describe_probe(&ps->items[i], ps->items[i].expected, sizeof(ps->items[i].expected));
}

static void *look_up_all(void *arg)
{
    worker *w = arg;
    pthread_barrier_wait(&w->probes->start);
    char got[512];
    for (unsigned round = 0; round < ROUNDS; round++) {
        for (unsigned i = 0; i < PROBE_COUNT; i++) {
            /* Each thread walks the probes from a different one. */
            const probe *p = &w->probes->items[(i + w->index + round) % PROBE_COUNT];
            describe_probe(p, got, sizeof(got));
            w->mismatches += strcmp(got, p->expected) != 0;
        }
    }
    return NULL;
}

static void test_threads_agree(void **state)
{
    (void)state;
    static probes ps;
    fill_probes(&ps);
    /* Start from empty caches, so the threads race for the first lookups. */
    weft_symbols_shutdown();
    assert_int_equal(pthread_barrier_init(&ps.start, NULL, THREAD_COUNT), 0);
    pthread_t threads[THREAD_COUNT];
    worker workers[THREAD_COUNT];
    for (unsigned t = 0; t < THREAD_COUNT; t++) {
        workers[t] = (worker){.probes = &ps, .index = t};
        assert_int_equal(pthread_create(&threads[t], NULL, look_up_all, &workers[t]), 0);
    }
    for (unsigned t = 0; t < THREAD_COUNT; t++) {
        assert_int_equal(pthread_join(threads[t], NULL), 0);
        assert_int_equal(workers[t].mismatches, 0);
    }
    pthread_barrier_destroy(&ps.start);
}

static void test_lookup_after_shutdown(void **state)
{
    (void)state;
    probes ps;
    fill_probes(&ps);
    weft_symbols_shutdown();
    weft_symbols_shutdown(); /* twice is harmless */
    char again[512];
    for (size_t i = 0; i < PROBE_COUNT; i++) {
        describe_probe(&ps.items[i], again, sizeof(again));
        assert_string_equal(again, ps.items[i].expected);
    }
}

/* ---- an object that cannot be read ---- */

static void copy_file(const char *from, const char *to)
{
    FILE *in = fopen(from, "rb");
    FILE *out = fopen(to, "wb");
    assert_non_null(in);
    assert_non_null(out);
    char buffer[8192];
    size_t n;
    while ((n = fread(buffer, 1, sizeof(buffer), in)) > 0)
        assert_int_equal(fwrite(buffer, 1, n, out), n);
    fclose(in);
    assert_int_equal(fclose(out), 0);
}

/* Loads a copy of the plain library, then replaces the file on disk with
 * junk (the loaded mapping keeps the old contents): the symboliser cannot
 * read it, says so once under WEFT_VERBOSE, and names by object+offset. */
static void test_unreadable_object(void **state)
{
    (void)state;
    char dir[] = "/tmp/weft-symtest-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[PATH_MAX];
    char log_path[PATH_MAX];
    snprintf(path, sizeof(path), "%s/libcopy.so", dir);
    snprintf(log_path, sizeof(log_path), "%s/stderr.txt", dir);
    copy_file(WEFT_SYMTEST_LIB_PLAIN, path);
    void *lib = open_library(path);
    assert_int_equal(unlink(path), 0);
    FILE *junk = fopen(path, "wb");
    assert_non_null(junk);
    fputs("not an object file\n", junk);
    fclose(junk);

    /* Capture stderr while looking up. */
    fflush(stderr);
    int saved = dup(STDERR_FILENO);
    int log_fd = open(log_path, O_CREAT | O_TRUNC | O_WRONLY, 0600);
    assert_true(saved >= 0 && log_fd >= 0);
    dup2(log_fd, STDERR_FILENO);
    weft_log_set_verbose(true);

    const void *local = code_address(call_address_getter(lib, "weft_symtest_plain_local_address"));
    const void *ra = plain_call_site(lib);
    weft_symbol s_local;
    weft_symbol s_ra;
    weft_status status_local = weft_symbols_lookup_instruction(local, &s_local);
    weft_status status_ra = weft_symbols_lookup(ra, &s_ra);

    weft_log_set_verbose(false);
    dup2(saved, STDERR_FILENO);
    close(saved);
    close(log_fd);

    assert_int_equal(status_local, WEFT_OK);
    assert_int_equal(status_ra, WEFT_OK);
    assert_string_equal(s_local.object, path);
    assert_int_equal(s_local.object_offset, (uintptr_t)local - library_base(local));
    assert_null(s_local.function); /* static: named by no table left in reach */
    assert_null(s_local.file);
    /* Exported: the loader's dynamic symbols still name it. */
    assert_string_equal(s_ra.function, "weft_symtest_plain_call_site");

    FILE *log = fopen(log_path, "r");
    assert_non_null(log);
    char line[1024];
    unsigned lines = 0;
    bool names_path = false;
    while (fgets(line, sizeof(line), log)) {
        lines++;
        names_path = names_path || strstr(line, path) != NULL;
    }
    fclose(log);
    if (weft_symbols_have_bfd()) {
        assert_int_equal(lines, 1);
        assert_true(names_path);
    } else {
        assert_int_equal(lines, 0); /* dladdr reads nothing from the file */
    }
    unlink(path);
    unlink(log_path);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_debug_library_loaded_later), /* first: nothing dlopen'ed yet */
        cmocka_unit_test(test_executable_function),
        cmocka_unit_test(test_executable_return_address),
        cmocka_unit_test(test_library_without_debug_information),
        cmocka_unit_test(test_stripped_library),
        cmocka_unit_test(test_cxx_names_demangled),
        cmocka_unit_test(test_vdso),
        cmocka_unit_test(test_address_in_no_object),
        cmocka_unit_test(test_same_object),
        cmocka_unit_test(test_threads_agree),
        cmocka_unit_test(test_lookup_after_shutdown),
        cmocka_unit_test(test_unreadable_object),
#ifdef WEFT_SYMTEST_NO_LINE_SITE
        cmocka_unit_test(test_return_address_after_a_call_without_line),
#endif
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    weft_symbols_shutdown();
    return failed;
}
/* SPDX-License-Identifier: BSD-3-Clause */
