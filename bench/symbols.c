/* What the symboliser (weft/symbols.h) costs: per object, the first lookup
 * (opens the object: symbol table, DWARF) and first lookups of new addresses
 * once it is open; then a cached lookup. Objects: libweft.so of this build
 * (-g), libc.so.6 (stripped; DWARF from libc6-dbg when installed) and
 * libbfd (no debug information). The numbers go into docs/OPENMP-OMPT.md.
 *
 *   weft_bench_symbols [ADDRESSES [REPEATS]]   (defaults 2000, 1000000) */
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "weft/recorder.h"
#include "weft/symbols.h"

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* The executable segment of the object whose file name contains `name`. */
typedef struct segment {
    const char *name;
    uintptr_t start;
    uintptr_t end;
} segment;

static int find_segment(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    segment *s = data;
    if (!info->dlpi_name || !strstr(info->dlpi_name, s->name))
        return 0;
    for (size_t i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X)) {
            s->start = (uintptr_t)info->dlpi_addr + (uintptr_t)ph->p_vaddr;
            s->end = s->start + (uintptr_t)ph->p_memsz;
            return 1;
        }
    }
    return 0;
}

/* Looks up `count` distinct addresses spread over the segment, once each;
 * returns nanoseconds per lookup and how many had a line. */
static double first_lookups(const segment *s, size_t count, size_t *with_line)
{
    uintptr_t stride = (s->end - s->start) / (count + 1);
    *with_line = 0;
    double t0 = now_ns();
    for (size_t i = 1; i <= count; i++) {
        weft_symbol sym;
        weft_symbols_lookup((const void *)(s->start + i * stride), &sym);
        *with_line += sym.line > 0;
    }
    return (now_ns() - t0) / (double)count;
}

/* Opening an object, then new addresses in it, for the object whose file
 * name contains `name` (skipped when no such object is loaded). */
static void measure_object(const char *name, size_t addresses)
{
    segment s = {.name = name};
    if (!dl_iterate_phdr(find_segment, &s))
        return;
    weft_symbol sym;
    double t0 = now_ns();
    weft_symbols_lookup((const void *)(s.start + 16), &sym);
    double open_ns = now_ns() - t0;
    size_t with_line = 0;
    double per_new = first_lookups(&s, addresses, &with_line);
    printf("%-12s first lookup (opens it) %9.1f us, new address %7.2f us, %zu of %zu with a line\n",
           name, open_ns / 1e3, per_new / 1e3, with_line, addresses);
}

int main(int argc, char **argv)
{
    size_t addresses = argc > 1 ? strtoul(argv[1], NULL, 10) : 2000;
    size_t repeats = argc > 2 ? strtoul(argv[2], NULL, 10) : 1000000;
    segment weft = {.name = "libweft.so"};
    segment libc = {.name = "libc.so"};
    /* weft_recording_is_on keeps libweft linked; it records nothing here. */
    if (weft_recording_is_on() || !dl_iterate_phdr(find_segment, &weft) ||
        !dl_iterate_phdr(find_segment, &libc) || addresses == 0 || repeats == 0) {
        fprintf(stderr, "weft_bench_symbols: libweft.so or libc.so not found\n");
        return 1;
    }
    printf("libbfd built in: %s\n", weft_symbols_have_bfd() ? "yes" : "no");
    /* libweft.so: this build's, with -g. libc.so.6: stripped, its DWARF in a
     * separate file if libc6-dbg is installed. libbfd: no debug information
     * at all (dynamic symbols only). */
    measure_object("libweft.so", addresses);
    measure_object("libc.so", addresses);
    measure_object("libbfd", addresses);

    const void *first = (const void *)(weft.start + 16);
    const void *other = (const void *)(libc.start + 16);
    weft_symbol sym;
    double t0 = now_ns();
    for (size_t i = 0; i < repeats; i++)
        weft_symbols_lookup(first, &sym);
    printf("cached lookup:                     %.1f ns\n", (now_ns() - t0) / (double)repeats);

    t0 = now_ns();
    size_t same = 0;
    for (size_t i = 0; i < repeats; i++)
        same += weft_symbols_same_object(first, other);
    printf("weft_symbols_same_object, cached:  %.1f ns%s\n", (now_ns() - t0) / (double)repeats,
           same ? " (wrong answer)" : "");
    weft_symbols_shutdown();
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
