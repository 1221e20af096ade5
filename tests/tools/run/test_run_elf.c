/* Unit tests of the ELF inspection of `weft run` (tools/run_elf.c) and of the
 * LD_PRELOAD value it builds (tools/run_libs.c). Small ELF64 and ELF32 images
 * are built in memory (header, a PT_LOAD and a PT_DYNAMIC program header,
 * dynamic entries, string table), written to temporary files, and damaged in
 * one field at a time: every damaged file must come back as "not an MPI
 * program", never as a crash or a read outside the file (run this under ASan
 * and valgrind). Real programs are inspected too: this test itself (no MPI)
 * and, when MPI is built, run_mpi_hello. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <elf.h>

#include "run.h"

#define IMAGE_MAX 1024
#define BASE_ADDR 0x400000u

/* Where the parts of a built image lie. */
typedef struct image {
    unsigned char bytes[IMAGE_MAX];
    size_t size;
    size_t phdr_offset;   /* program headers: [0] PT_LOAD, [1] PT_DYNAMIC */
    size_t dyn_offset;    /* dynamic entries */
    size_t dyn_count;     /* including DT_NULL */
    size_t strtab_offset; /* string table */
    size_t strtab_size;
    bool is64;
} image;

/* This machine's byte order, the one weft run reads. */
static unsigned char host_data(void)
{
    const uint16_t probe = 1;
    unsigned char first;
    memcpy(&first, &probe, 1);
    return first == 1 ? ELFDATA2LSB : ELFDATA2MSB;
}

/* A string table "\0NAME0\0NAME1\0..." and each name's offset in it. */
static size_t build_strtab(unsigned char *out, const char *const *needed, size_t count,
                           uint64_t *offsets)
{
    size_t size = 1;
    out[0] = '\0';
    for (size_t i = 0; i < count; i++) {
        offsets[i] = size;
        size_t len = strlen(needed[i]) + 1;
        memcpy(out + size, needed[i], len);
        size += len;
    }
    return size;
}

/* An ELF64 executable image needing the libraries NEEDED. */
static void build_elf64(image *img, const char *const *needed, size_t count)
{
    memset(img, 0, sizeof(*img));
    img->is64 = true;
    img->phdr_offset = sizeof(Elf64_Ehdr);
    img->dyn_offset = img->phdr_offset + 2 * sizeof(Elf64_Phdr);
    img->dyn_count = count + 3; /* + DT_STRTAB, DT_STRSZ, DT_NULL */
    img->strtab_offset = img->dyn_offset + img->dyn_count * sizeof(Elf64_Dyn);
    uint64_t offsets[8];
    assert_true(count <= 8);
    img->strtab_size = build_strtab(img->bytes + img->strtab_offset, needed, count, offsets);
    img->size = img->strtab_offset + img->strtab_size;
    assert_true(img->size <= IMAGE_MAX);

    Elf64_Ehdr e = {0};
    memcpy(e.e_ident, ELFMAG, SELFMAG);
    e.e_ident[EI_CLASS] = ELFCLASS64;
    e.e_ident[EI_DATA] = host_data();
    e.e_ident[EI_VERSION] = EV_CURRENT;
    e.e_type = ET_DYN;
    e.e_machine = EM_X86_64;
    e.e_version = EV_CURRENT;
    e.e_phoff = img->phdr_offset;
    e.e_ehsize = sizeof(Elf64_Ehdr);
    e.e_phentsize = sizeof(Elf64_Phdr);
    e.e_phnum = 2;
    memcpy(img->bytes, &e, sizeof(e));

    Elf64_Phdr ph[2] = {{0}};
    ph[0].p_type = PT_LOAD;
    ph[0].p_vaddr = BASE_ADDR;
    ph[0].p_filesz = img->size;
    ph[1].p_type = PT_DYNAMIC;
    ph[1].p_offset = img->dyn_offset;
    ph[1].p_vaddr = BASE_ADDR + img->dyn_offset;
    ph[1].p_filesz = img->dyn_count * sizeof(Elf64_Dyn);
    memcpy(img->bytes + img->phdr_offset, ph, sizeof(ph));

    Elf64_Dyn dyn[16] = {{0}};
    for (size_t i = 0; i < count; i++) {
        dyn[i].d_tag = DT_NEEDED;
        dyn[i].d_un.d_val = offsets[i];
    }
    dyn[count].d_tag = DT_STRTAB;
    dyn[count].d_un.d_ptr = BASE_ADDR + img->strtab_offset;
    dyn[count + 1].d_tag = DT_STRSZ;
    dyn[count + 1].d_un.d_val = img->strtab_size;
    dyn[count + 2].d_tag = DT_NULL;
    memcpy(img->bytes + img->dyn_offset, dyn, img->dyn_count * sizeof(Elf64_Dyn));
}

/* The same as an ELF32 image. */
static void build_elf32(image *img, const char *const *needed, size_t count)
{
    memset(img, 0, sizeof(*img));
    img->phdr_offset = sizeof(Elf32_Ehdr);
    img->dyn_offset = img->phdr_offset + 2 * sizeof(Elf32_Phdr);
    img->dyn_count = count + 3;
    img->strtab_offset = img->dyn_offset + img->dyn_count * sizeof(Elf32_Dyn);
    uint64_t offsets[8];
    assert_true(count <= 8);
    img->strtab_size = build_strtab(img->bytes + img->strtab_offset, needed, count, offsets);
    img->size = img->strtab_offset + img->strtab_size;

    Elf32_Ehdr e = {0};
    memcpy(e.e_ident, ELFMAG, SELFMAG);
    e.e_ident[EI_CLASS] = ELFCLASS32;
    e.e_ident[EI_DATA] = host_data();
    e.e_ident[EI_VERSION] = EV_CURRENT;
    e.e_type = ET_EXEC;
    e.e_machine = EM_386;
    e.e_version = EV_CURRENT;
    e.e_phoff = (Elf32_Off)img->phdr_offset;
    e.e_ehsize = sizeof(Elf32_Ehdr);
    e.e_phentsize = sizeof(Elf32_Phdr);
    e.e_phnum = 2;
    memcpy(img->bytes, &e, sizeof(e));

    Elf32_Phdr ph[2] = {{0}};
    ph[0].p_type = PT_LOAD;
    ph[0].p_vaddr = BASE_ADDR;
    ph[0].p_filesz = (Elf32_Word)img->size;
    ph[1].p_type = PT_DYNAMIC;
    ph[1].p_offset = (Elf32_Off)img->dyn_offset;
    ph[1].p_vaddr = (Elf32_Addr)(BASE_ADDR + img->dyn_offset);
    ph[1].p_filesz = (Elf32_Word)(img->dyn_count * sizeof(Elf32_Dyn));
    memcpy(img->bytes + img->phdr_offset, ph, sizeof(ph));

    Elf32_Dyn dyn[16] = {{0}};
    for (size_t i = 0; i < count; i++) {
        dyn[i].d_tag = DT_NEEDED;
        dyn[i].d_un.d_val = (Elf32_Word)offsets[i];
    }
    dyn[count].d_tag = DT_STRTAB;
    dyn[count].d_un.d_ptr = (Elf32_Addr)(BASE_ADDR + img->strtab_offset);
    dyn[count + 1].d_tag = DT_STRSZ;
    dyn[count + 1].d_un.d_val = (Elf32_Word)img->strtab_size;
    dyn[count + 2].d_tag = DT_NULL;
    memcpy(img->bytes + img->dyn_offset, dyn, img->dyn_count * sizeof(Elf32_Dyn));
}

/* Writes SIZE bytes to a new temporary file; returns its malloc'ed path. */
static char *write_temp(const void *bytes, size_t size)
{
    const char *dir = getenv("TMPDIR");
    char *path = malloc(4096);
    assert_non_null(path);
    snprintf(path, 4096, "%s/weft_run_elf_XXXXXX", dir && dir[0] ? dir : "/tmp");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, bytes, size), (ssize_t)size);
    close(fd);
    return path;
}

static weft_run_elf_result inspect_bytes(const void *bytes, size_t size)
{
    char *path = write_temp(bytes, size);
    weft_run_elf_result result = weft__run_elf_inspect(path);
    unlink(path);
    free(path);
    return result;
}

/* Patches the 64-bit field at OFFSET of IMG. */
static void put64(image *img, size_t offset, uint64_t value)
{
    memcpy(img->bytes + offset, &value, sizeof(value));
}

static void put16(image *img, size_t offset, uint16_t value)
{
    memcpy(img->bytes + offset, &value, sizeof(value));
}

static const char *const mpi_needs[] = {"libm.so.6", "libmpi.so.40", "libc.so.6"};
static const char *const plain_needs[] = {"libm.so.6", "libc.so.6"};

/* Field offsets in the ELF64 image (dynamic entry I's tag or value). */
#define PH_FIELD(index, field)                                                                     \
    (sizeof(Elf64_Ehdr) + (index) * sizeof(Elf64_Phdr) + offsetof(Elf64_Phdr, field))
#define DYN_VALUE(img, index) ((img)->dyn_offset + (index) * sizeof(Elf64_Dyn) + 8)
#define DYN_TAG(img, index) ((img)->dyn_offset + (index) * sizeof(Elf64_Dyn))

/* How one case damages the MPI image (3 DT_NEEDED entries, then DT_STRTAB at
 * index 3, DT_STRSZ at 4, DT_NULL at 5). */
typedef enum damage {
    CUT_IN_IDENT,
    CUT_IN_HEADER,
    CUT_IN_PROGRAM_HEADERS,
    CUT_IN_DYNAMIC,
    CUT_IN_STRING_TABLE,
    PHOFF_HUGE,
    PHOFF_PAST_END,
    PHENTSIZE_WRONG,
    PHNUM_XNUM,
    PHNUM_TOO_MANY,
    DYNAMIC_OFFSET_PAST_END,
    DYNAMIC_OFFSET_HUGE,
    DYNAMIC_SIZE_HUGE,
    DYNAMIC_WITHOUT_NULL,
    DYNAMIC_EMPTY,
    NEEDED_PAST_STRSZ,
    NEEDED_HUGE,
    STRTAB_NOT_LOADED,
    STRTAB_MISSING,
    STRSZ_PAST_END,
    STRSZ_CUTS_NAME,
    LOAD_OFFSET_HUGE,
    CLASS_UNKNOWN,
    OTHER_BYTE_ORDER,
} damage;

typedef struct damage_case {
    damage what;
    weft_run_elf_kind kind;
    const char *detail; /* a substring of the detail; NULL: not checked */
} damage_case;

/* clang-format off */
static const damage_case damage_cases[] = {
    {CUT_IN_IDENT,            WEFT_RUN_ELF_DAMAGED,     "ELF header"},
    {CUT_IN_HEADER,           WEFT_RUN_ELF_DAMAGED,     "ELF header"},
    {CUT_IN_PROGRAM_HEADERS,  WEFT_RUN_ELF_DAMAGED,     "program headers"},
    {CUT_IN_DYNAMIC,          WEFT_RUN_ELF_DAMAGED,     "dynamic section"},
    {CUT_IN_STRING_TABLE,     WEFT_RUN_ELF_DAMAGED,     NULL},
    {PHOFF_HUGE,              WEFT_RUN_ELF_DAMAGED,     "program headers"},
    {PHOFF_PAST_END,          WEFT_RUN_ELF_DAMAGED,     "program headers"},
    {PHENTSIZE_WRONG,         WEFT_RUN_ELF_DAMAGED,     "program headers of"},
    {PHNUM_XNUM,              WEFT_RUN_ELF_UNSUPPORTED, "program headers"},
    {PHNUM_TOO_MANY,          WEFT_RUN_ELF_DAMAGED,     "program headers"},
    {DYNAMIC_OFFSET_PAST_END, WEFT_RUN_ELF_DAMAGED,     "dynamic section"},
    {DYNAMIC_OFFSET_HUGE,     WEFT_RUN_ELF_DAMAGED,     "dynamic section"},
    {DYNAMIC_SIZE_HUGE,       WEFT_RUN_ELF_DAMAGED,     "dynamic section"},
    {DYNAMIC_WITHOUT_NULL,    WEFT_RUN_ELF_DAMAGED,     "without an end"},
    {DYNAMIC_EMPTY,           WEFT_RUN_ELF_DAMAGED,     "without an end"},
    {NEEDED_PAST_STRSZ,       WEFT_RUN_ELF_DAMAGED,     "outside the string table"},
    {NEEDED_HUGE,             WEFT_RUN_ELF_DAMAGED,     "outside the string table"},
    {STRTAB_NOT_LOADED,       WEFT_RUN_ELF_DAMAGED,     "no string table"},
    {STRTAB_MISSING,          WEFT_RUN_ELF_DAMAGED,     "no string table"},
    {STRSZ_PAST_END,          WEFT_RUN_ELF_DAMAGED,     "string table beyond"},
    {STRSZ_CUTS_NAME,         WEFT_RUN_ELF_DAMAGED,     "runs past the string table"},
    {LOAD_OFFSET_HUGE,        WEFT_RUN_ELF_DAMAGED,     NULL},
    {CLASS_UNKNOWN,           WEFT_RUN_ELF_DAMAGED,     "class"},
    {OTHER_BYTE_ORDER,        WEFT_RUN_ELF_UNSUPPORTED, "byte order"},
};
/* clang-format on */

static void apply_damage(image *img, damage what)
{
    size_t needed_count = 3;
    switch (what) {
    case CUT_IN_IDENT:
        img->size = 7;
        break;
    case CUT_IN_HEADER:
        img->size = 40;
        break;
    case CUT_IN_PROGRAM_HEADERS:
        img->size = img->phdr_offset + sizeof(Elf64_Phdr) + 10;
        break;
    case CUT_IN_DYNAMIC:
        img->size = img->dyn_offset + 20;
        break;
    case CUT_IN_STRING_TABLE:
        img->size = img->strtab_offset + 5;
        break;
    case PHOFF_HUGE:
        put64(img, offsetof(Elf64_Ehdr, e_phoff), UINT64_MAX - 8);
        break;
    case PHOFF_PAST_END:
        put64(img, offsetof(Elf64_Ehdr, e_phoff), img->size - 8);
        break;
    case PHENTSIZE_WRONG:
        put16(img, offsetof(Elf64_Ehdr, e_phentsize), 12);
        break;
    case PHNUM_XNUM:
        put16(img, offsetof(Elf64_Ehdr, e_phnum), PN_XNUM);
        break;
    case PHNUM_TOO_MANY:
        put16(img, offsetof(Elf64_Ehdr, e_phnum), 1000);
        break;
    case DYNAMIC_OFFSET_PAST_END:
        put64(img, PH_FIELD(1, p_offset), img->size + 100);
        break;
    case DYNAMIC_OFFSET_HUGE:
        put64(img, PH_FIELD(1, p_offset), UINT64_MAX - 16);
        break;
    case DYNAMIC_SIZE_HUGE:
        put64(img, PH_FIELD(1, p_filesz), UINT64_MAX);
        break;
    case DYNAMIC_WITHOUT_NULL:
        put64(img, PH_FIELD(1, p_filesz), (img->dyn_count - 1) * sizeof(Elf64_Dyn));
        break;
    case DYNAMIC_EMPTY:
        put64(img, PH_FIELD(1, p_filesz), 0);
        break;
    case NEEDED_PAST_STRSZ:
        put64(img, DYN_VALUE(img, 1), img->strtab_size);
        break;
    case NEEDED_HUGE:
        put64(img, DYN_VALUE(img, 0), UINT64_MAX);
        break;
    case STRTAB_NOT_LOADED:
        put64(img, DYN_VALUE(img, needed_count), 0x10);
        break;
    case STRTAB_MISSING:
        put64(img, DYN_TAG(img, needed_count), DT_DEBUG);
        break;
    case STRSZ_PAST_END:
        put64(img, DYN_VALUE(img, needed_count + 1), img->strtab_size + 1000);
        break;
    case STRSZ_CUTS_NAME:
        /* The table ends inside "libmpi.so.40" (offset 11 in it), before its NUL:
         * the first name is complete, the second runs past the end. */
        put64(img, DYN_VALUE(img, needed_count + 1), 15);
        break;
    case LOAD_OFFSET_HUGE:
        put64(img, PH_FIELD(0, p_offset), UINT64_MAX - 4);
        break;
    case CLASS_UNKNOWN:
        img->bytes[EI_CLASS] = 7;
        break;
    case OTHER_BYTE_ORDER:
        img->bytes[EI_DATA] = host_data() == ELFDATA2LSB ? ELFDATA2MSB : ELFDATA2LSB;
        break;
    }
}

static void test_damaged_images(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof(damage_cases) / sizeof(damage_cases[0]); i++) {
        const damage_case *c = &damage_cases[i];
        image img;
        build_elf64(&img, mpi_needs, 3);
        apply_damage(&img, c->what);
        weft_run_elf_result r = inspect_bytes(img.bytes, img.size);
        if (r.kind != c->kind || (c->detail && !strstr(r.detail, c->detail)))
            fail_msg("damage case %zu: kind %d detail '%s', expected kind %d detail '%s'", i,
                     (int)r.kind, r.detail, (int)c->kind, c->detail ? c->detail : "(any)");
        assert_true(weft__run_elf_not_mpi(r.kind));
        char sentence[512];
        weft__run_elf_describe("/x/app", &r, sentence, sizeof(sentence));
        assert_non_null(strstr(sentence, "not an MPI program"));
    }
}

static void test_good_images(void **state)
{
    (void)state;
    image img;
    build_elf64(&img, mpi_needs, 3);
    weft_run_elf_result r = inspect_bytes(img.bytes, img.size);
    assert_int_equal(r.kind, WEFT_RUN_ELF_LINKS_MPI);
    assert_string_equal(r.detail, "libmpi.so.40");
    assert_false(weft__run_elf_not_mpi(r.kind));
    char sentence[512];
    weft__run_elf_describe("/x/app", &r, sentence, sizeof(sentence));
    assert_string_equal(sentence, "'/x/app' needs libmpi.so.40: an MPI program");

    build_elf64(&img, plain_needs, 2);
    r = inspect_bytes(img.bytes, img.size);
    assert_int_equal(r.kind, WEFT_RUN_ELF_NO_MPI);
    weft__run_elf_describe("/x/app", &r, sentence, sizeof(sentence));
    assert_string_equal(sentence, "'/x/app' needs no MPI library directly: not an MPI program");
    assert_false(r.fortran_mpi);

    /* A Fortran program of mpif90 needs only the Fortran bindings (issue 19):
     * an MPI program all the same, and one calling MPI from Fortran. */
    static const char *const fortran[] = {"libgfortran.so.5", "libmpi_mpifh.so.40"};
    build_elf64(&img, fortran, 2);
    r = inspect_bytes(img.bytes, img.size);
    assert_int_equal(r.kind, WEFT_RUN_ELF_LINKS_MPI);
    assert_string_equal(r.detail, "libmpi_mpifh.so.40");
    assert_true(r.fortran_mpi);
    static const char *const f08[] = {"libmpi_usempif08.so.40", "libgomp.so.1"};
    build_elf64(&img, f08, 2);
    r = inspect_bytes(img.bytes, img.size);
    assert_int_equal(r.kind, WEFT_RUN_ELF_LINKS_MPI);
    assert_string_equal(r.openmp, "libgomp.so.1");
    assert_true(r.fortran_mpi);

    /* No DT_NEEDED at all: not MPI, and no string table needed. */
    build_elf64(&img, NULL, 0);
    assert_int_equal(inspect_bytes(img.bytes, img.size).kind, WEFT_RUN_ELF_NO_MPI);

    /* No PT_DYNAMIC: statically linked. */
    build_elf64(&img, mpi_needs, 3);
    put16(&img, offsetof(Elf64_Ehdr, e_phnum), 1);
    r = inspect_bytes(img.bytes, img.size);
    assert_int_equal(r.kind, WEFT_RUN_ELF_STATIC);
    weft__run_elf_describe("/x/app", &r, sentence, sizeof(sentence));
    assert_non_null(strstr(sentence, "not an MPI program"));

    /* A DT_STRSZ beyond a name's NUL is fine; without DT_STRSZ the file's end bounds it. */
    build_elf64(&img, mpi_needs, 3);
    put64(&img, DYN_TAG(&img, 4), DT_DEBUG);
    assert_int_equal(inspect_bytes(img.bytes, img.size).kind, WEFT_RUN_ELF_LINKS_MPI);

    /* ELF32. */
    build_elf32(&img, mpi_needs, 3);
    r = inspect_bytes(img.bytes, img.size);
    assert_int_equal(r.kind, WEFT_RUN_ELF_LINKS_MPI);
    assert_string_equal(r.detail, "libmpi.so.40");
    build_elf32(&img, plain_needs, 2);
    assert_int_equal(inspect_bytes(img.bytes, img.size).kind, WEFT_RUN_ELF_NO_MPI);
}

/* Every prefix of a good image, and every single-byte change to it, gives an
 * answer without crashing; a shortened file is never MPI unless all the names up
 * to libmpi's are in it. */
static void test_every_cut_and_flip(void **state)
{
    (void)state;
    image img;
    build_elf64(&img, mpi_needs, 3);
    for (size_t size = 0; size < img.size; size++) {
        weft_run_elf_result r = inspect_bytes(img.bytes, size);
        if (size < img.strtab_offset)
            assert_true(weft__run_elf_not_mpi(r.kind));
    }
    build_elf32(&img, mpi_needs, 3);
    for (size_t size = 0; size < img.size; size++) {
        weft_run_elf_result r = inspect_bytes(img.bytes, size);
        if (size < img.strtab_offset)
            assert_true(weft__run_elf_not_mpi(r.kind));
    }
    build_elf64(&img, mpi_needs, 3);
    static const unsigned char values[] = {0x00, 0x01, 0x7f, 0x80, 0xff};
    for (size_t at = 0; at < img.strtab_offset; at++) {
        for (size_t v = 0; v < sizeof(values); v++) {
            image bad = img;
            bad.bytes[at] = values[v];
            weft_run_elf_result r = inspect_bytes(bad.bytes, bad.size);
            assert_true(r.kind <= WEFT_RUN_ELF_UNREADABLE);
            assert_non_null(memchr(r.detail, '\0', sizeof(r.detail)));
        }
    }
}

static void test_not_elf(void **state)
{
    (void)state;
    static const char script[] = "#!/bin/sh\nexit 0\n";
    weft_run_elf_result r = inspect_bytes(script, sizeof(script) - 1);
    assert_int_equal(r.kind, WEFT_RUN_ELF_NOT_ELF);
    assert_string_equal(r.detail, "a script");
    char sentence[512];
    weft__run_elf_describe("/x/run.sh", &r, sentence, sizeof(sentence));
    assert_string_equal(sentence, "'/x/run.sh' is not an ELF file (a script): not an MPI program");

    r = inspect_bytes("", 0);
    assert_int_equal(r.kind, WEFT_RUN_ELF_NOT_ELF);
    assert_string_equal(r.detail, "");
    r = inspect_bytes("\177EL", 3);
    assert_int_equal(r.kind, WEFT_RUN_ELF_NOT_ELF);
    r = inspect_bytes("hello, world\n", 13);
    assert_int_equal(r.kind, WEFT_RUN_ELF_NOT_ELF);
    weft__run_elf_describe("/x/t", &r, sentence, sizeof(sentence));
    assert_string_equal(sentence, "'/x/t' is not an ELF file: not an MPI program");

    r = weft__run_elf_inspect("/nonexistent/weft/program");
    assert_int_equal(r.kind, WEFT_RUN_ELF_UNREADABLE);
    assert_non_null(strstr(r.detail, "No such file"));
    r = weft__run_elf_inspect("/");
    assert_int_equal(r.kind, WEFT_RUN_ELF_UNREADABLE);
}

static void test_real_programs(void **state)
{
    (void)state;
    weft_run_elf_result r = weft__run_elf_inspect("/proc/self/exe");
    assert_int_equal(r.kind, WEFT_RUN_ELF_NO_MPI);
#ifdef RUN_MPI_HELLO
    r = weft__run_elf_inspect(RUN_MPI_HELLO);
    assert_int_equal(r.kind, WEFT_RUN_ELF_LINKS_MPI);
    assert_true(weft__run_elf_is_mpi_library(r.detail));
#endif
}

static void test_mpi_library_names(void **state)
{
    (void)state;
    /* clang-format off */
    static const struct { const char *name; bool mpi; } names[] = {
        {"libmpi.so.40", true}, {"libmpi.so.12", true}, {"libmpi.so", true},
        {"/opt/openmpi/lib/libmpi.so.40", true}, {"libmpi.so.12.1.8", true},
        {"libmpi_mpifh.so.40", true}, {"libmpi_cxx.so.40", true}, {"libmpich.so.12", true},
        {"libmpichfort.so.12", true}, {"libmpi_usempif08.so.40", true},
        {"libmpi_usempi_ignore_tkr.so.40", true}, {"libmpi_usempi.so.20", true},
        {"libmpifort.so.12", true}, {"libmpichcxx.so.12", true}, {"libmpi_java.so.40", false},
        {"libmpi_mpifhx.so", false},
        {"libmpi.sox", false}, {"libmpi.a", false}, {"/lib/libmpi.so/libc.so.6", false},
        {"xlibmpi.so.40", false}, {"", false}, {"libweft-mpi.so", false},
    };
    /* clang-format on */
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        if (weft__run_elf_is_mpi_library(names[i].name) != names[i].mpi)
            fail_msg("'%s' should %sbe the MPI library", names[i].name, names[i].mpi ? "" : "not ");
    }
    /* Which MPI each belongs to (weft run matches it with its wrappers'). */
    assert_string_equal(weft__run_elf_mpi_family("libmpi_usempif08.so.40"), "libmpi.so");
    assert_string_equal(weft__run_elf_mpi_family("/usr/lib/libmpichfort.so.12"), "libmpich.so");
    assert_null(weft__run_elf_mpi_family("libgfortran.so.5"));
    assert_true(weft__run_elf_is_fortran_mpi("libmpi_mpifh.so.40"));
    assert_false(weft__run_elf_is_fortran_mpi("libmpi.so.40"));
}

static void test_preload_value(void **state)
{
    (void)state;
    weft_run_preload preload = {0};
    char *value = weft__run_preload_value(&preload, NULL);
    assert_string_equal(value, "");
    free(value);

    assert_true(weft__run_preload_add(&preload, "/l/libweft-mpi.so"));
    assert_true(weft__run_preload_add(&preload, "/l/libweft.so"));
    assert_true(weft__run_preload_add(&preload, "/l/libweft-mpi.so")); /* listed once */
    assert_int_equal(preload.count, 2);
    value = weft__run_preload_value(&preload, NULL);
    assert_string_equal(value, "/l/libweft-mpi.so:/l/libweft.so");
    free(value);
    value = weft__run_preload_value(&preload, "");
    assert_string_equal(value, "/l/libweft-mpi.so:/l/libweft.so");
    free(value);
    value = weft__run_preload_value(&preload, "libm.so.6 /x/liby.so");
    assert_string_equal(value, "/l/libweft-mpi.so:/l/libweft.so:libm.so.6 /x/liby.so");
    free(value);

    weft_run_preload full = {0};
    char names[WEFT_RUN_PRELOAD_MAX + 1][16];
    for (size_t i = 0; i < WEFT_RUN_PRELOAD_MAX; i++) {
        snprintf(names[i], sizeof(names[i]), "/l/%zu.so", i);
        assert_true(weft__run_preload_add(&full, names[i]));
    }
    snprintf(names[WEFT_RUN_PRELOAD_MAX], sizeof(names[0]), "/l/last.so");
    assert_false(weft__run_preload_add(&full, names[WEFT_RUN_PRELOAD_MAX]));

    assert_true(weft__run_preload_path_ok("/usr/lib/libweft.so"));
    assert_false(weft__run_preload_path_ok("/my dir/libweft.so"));
    assert_false(weft__run_preload_path_ok("/a:b/libweft.so"));
    assert_false(weft__run_preload_path_ok("lib/libweft.so"));
}

/* Run from the build tree, the libraries are found where CMake built them. */
static void test_find_libraries(void **state)
{
    (void)state;
    weft_run_libraries libs;
    assert_true(weft__run_libraries_find(&libs));
    assert_non_null(libs.weft);
    assert_non_null(libs.where);
    assert_true(libs.weft[0] == '/');
    size_t len = strlen(libs.weft);
    assert_true(len > 11 && strcmp(libs.weft + len - 11, "/libweft.so") == 0);
#ifdef RUN_HAVE_WEFT_MPI
    assert_non_null(libs.weft_mpi);
    len = strlen(libs.weft_mpi);
    assert_true(len > 15 && strcmp(libs.weft_mpi + len - 15, "/libweft-mpi.so") == 0);
#endif
    weft__run_libraries_clear(&libs);
    assert_null(libs.weft);
    weft__run_libraries_clear(&libs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_good_images),        cmocka_unit_test(test_damaged_images),
        cmocka_unit_test(test_every_cut_and_flip), cmocka_unit_test(test_not_elf),
        cmocka_unit_test(test_real_programs),      cmocka_unit_test(test_mpi_library_names),
        cmocka_unit_test(test_preload_value),      cmocka_unit_test(test_find_libraries),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
/* SPDX-License-Identifier: BSD-3-Clause */
