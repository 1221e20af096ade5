/* SPDX-License-Identifier: BSD-3-Clause */
/* The ELF inspection of `weft run`: does a program link MPI directly? Reads
 * the ELF header, the program headers, the dynamic section and the names of
 * the DT_NEEDED entries, with the structures of <elf.h>, through pread at
 * offsets checked against the file size. It follows the loader's view
 * (program headers, not section headers, which a stripped file may lack):
 *
 *   ELF header ── e_phoff ──> program headers
 *                               PT_DYNAMIC ── p_offset ──> dynamic entries
 *                               PT_LOAD (maps DT_STRTAB's address to a file offset)
 *   dynamic entries: DT_NEEDED (string-table offsets), DT_STRTAB (address), DT_STRSZ
 *
 * It never runs anything (no ldd, no readelf) and does not follow the
 * dependencies of the dependencies. */
#include "run.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Dynamic entries are read this many at a time. */
#define DYN_CHUNK 64
/* A dynamic section ends with DT_NULL well before this many entries (real
 * ones hold fewer than a hundred); more means a corrupt file. */
#define DYN_MAX_ENTRIES (1u << 16)
/* Longest DT_NEEDED name looked at; a longer one is not an MPI library. */
#define NEEDED_MAX 256

typedef struct elf_file {
    int fd;
    uint64_t size;
    bool is64;
} elf_file;

/* The fields of a program header this reader uses, for either class. */
typedef struct segment {
    uint32_t type;
    uint64_t offset;
    uint64_t vaddr;
    uint64_t filesz;
} segment;

/* The program-header table, for either class. */
typedef struct header {
    uint64_t phoff;
    uint32_t phentsize;
    uint32_t phnum;
} header;

/* What the dynamic section says about the string table. */
typedef struct dynamic_info {
    uint64_t strtab_addr;
    uint64_t strsz;
    bool have_strtab;
    bool have_strsz;
    bool have_needed;
} dynamic_info;

static weft_run_elf_result make_result(weft_run_elf_kind kind, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static weft_run_elf_result make_result(weft_run_elf_kind kind, const char *fmt, ...)
{
    weft_run_elf_result result = {.kind = kind};
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(result.detail, sizeof(result.detail), fmt, ap);
    va_end(ap);
    return result;
}

/* A result without detail. */
static weft_run_elf_result plain_result(weft_run_elf_kind kind)
{
    weft_run_elf_result result = {.kind = kind};
    return result;
}

/* True when [OFFSET, OFFSET + LEN) lies inside the file (overflow-safe). */
static bool in_file(const elf_file *f, uint64_t offset, uint64_t len)
{
    return offset <= f->size && len <= f->size - offset;
}

/* Reads exactly LEN bytes at OFFSET; false when they are not all in the file
 * or cannot be read. */
static bool read_at(const elf_file *f, uint64_t offset, void *buf, size_t len)
{
    if (!in_file(f, offset, len))
        return false;
    unsigned char *out = buf;
    while (len > 0) {
        ssize_t got = pread(f->fd, out, len, (off_t)offset);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            return false;
        out += got;
        offset += (uint64_t)got;
        len -= (size_t)got;
    }
    return true;
}

static bool host_is_little_endian(void)
{
    const uint16_t probe = 1;
    unsigned char first;
    memcpy(&first, &probe, 1);
    return first == 1;
}

/* Checks the identification bytes and sets f->is64. Returns true to go on,
 * else false with the final result in OUT. */
static bool check_ident(elf_file *f, weft_run_elf_result *out)
{
    unsigned char ident[EI_NIDENT];
    size_t have = f->size < EI_NIDENT ? (size_t)f->size : EI_NIDENT;
    if (!read_at(f, 0, ident, have)) {
        *out = make_result(WEFT_RUN_ELF_UNREADABLE, "%s", strerror(errno ? errno : EIO));
        return false;
    }
    if (have < SELFMAG || memcmp(ident, ELFMAG, SELFMAG) != 0) {
        bool script = have >= 2 && ident[0] == '#' && ident[1] == '!';
        *out = script ? make_result(WEFT_RUN_ELF_NOT_ELF, "a script")
                      : plain_result(WEFT_RUN_ELF_NOT_ELF);
        return false;
    }
    if (have < EI_NIDENT) {
        *out = make_result(WEFT_RUN_ELF_DAMAGED, "truncated in the ELF header");
        return false;
    }
    if (ident[EI_CLASS] != ELFCLASS64 && ident[EI_CLASS] != ELFCLASS32) {
        *out = make_result(WEFT_RUN_ELF_DAMAGED, "unknown ELF class %u", ident[EI_CLASS]);
        return false;
    }
    unsigned char host_data = host_is_little_endian() ? ELFDATA2LSB : ELFDATA2MSB;
    if (ident[EI_DATA] != host_data) {
        *out = make_result(WEFT_RUN_ELF_UNSUPPORTED, "its byte order is not this machine's");
        return false;
    }
    f->is64 = ident[EI_CLASS] == ELFCLASS64;
    return true;
}

static bool read_header(const elf_file *f, header *h, weft_run_elf_result *out)
{
    bool ok;
    if (f->is64) {
        Elf64_Ehdr e;
        ok = read_at(f, 0, &e, sizeof(e));
        if (ok) {
            h->phoff = e.e_phoff;
            h->phentsize = e.e_phentsize;
            h->phnum = e.e_phnum;
        }
    } else {
        Elf32_Ehdr e;
        ok = read_at(f, 0, &e, sizeof(e));
        if (ok) {
            h->phoff = e.e_phoff;
            h->phentsize = e.e_phentsize;
            h->phnum = e.e_phnum;
        }
    }
    if (!ok) {
        *out = make_result(WEFT_RUN_ELF_DAMAGED, "truncated in the ELF header");
        return false;
    }
    if (h->phnum == PN_XNUM) {
        *out = make_result(WEFT_RUN_ELF_UNSUPPORTED, "more than %u program headers",
                           (unsigned)PN_XNUM - 1);
        return false;
    }
    size_t expected = f->is64 ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr);
    if (h->phnum > 0 && h->phentsize != expected) {
        *out = make_result(WEFT_RUN_ELF_DAMAGED, "program headers of %u bytes, not %zu",
                           h->phentsize, expected);
        return false;
    }
    if (!in_file(f, h->phoff, (uint64_t)h->phnum * h->phentsize)) {
        *out = make_result(WEFT_RUN_ELF_DAMAGED, "program headers beyond the end of the file");
        return false;
    }
    return true;
}

/* Reads program header INDEX (already bounds-checked by read_header). */
static bool read_segment(const elf_file *f, const header *h, uint32_t index, segment *s)
{
    uint64_t offset = h->phoff + (uint64_t)index * h->phentsize;
    if (f->is64) {
        Elf64_Phdr p;
        if (!read_at(f, offset, &p, sizeof(p)))
            return false;
        *s = (segment){p.p_type, p.p_offset, p.p_vaddr, p.p_filesz};
    } else {
        Elf32_Phdr p;
        if (!read_at(f, offset, &p, sizeof(p)))
            return false;
        *s = (segment){p.p_type, p.p_offset, p.p_vaddr, p.p_filesz};
    }
    return true;
}

/* Finds the first segment of TYPE; false when there is none or it cannot be
 * read (the header table itself was checked). */
static bool find_segment(const elf_file *f, const header *h, uint32_t type, segment *found)
{
    for (uint32_t i = 0; i < h->phnum; i++) {
        segment s;
        if (read_segment(f, h, i, &s) && s.type == type) {
            *found = s;
            return true;
        }
    }
    return false;
}

/* Maps the virtual address ADDR to a file offset through the PT_LOAD
 * segments, as the loader maps the file; false when no segment holds it. */
static bool address_to_offset(const elf_file *f, const header *h, uint64_t addr, uint64_t *offset)
{
    for (uint32_t i = 0; i < h->phnum; i++) {
        segment s;
        if (!read_segment(f, h, i, &s) || s.type != PT_LOAD)
            continue;
        if (addr >= s.vaddr && addr - s.vaddr < s.filesz) {
            uint64_t delta = addr - s.vaddr;
            if (s.offset > UINT64_MAX - delta)
                return false;
            *offset = s.offset + delta;
            return true;
        }
    }
    return false;
}

/* Visits the dynamic entries of DYN in order up to DT_NULL, calling VISIT
 * with each tag and value until it returns false. Returns false when the
 * section has no DT_NULL within its size (or DYN_MAX_ENTRIES). */
typedef bool dyn_visit_fn(int64_t tag, uint64_t value, void *arg);

static bool walk_dynamic(const elf_file *f, const segment *dyn, dyn_visit_fn *visit, void *arg)
{
    size_t entry_size = f->is64 ? sizeof(Elf64_Dyn) : sizeof(Elf32_Dyn);
    uint64_t count = dyn->filesz / entry_size;
    if (count > DYN_MAX_ENTRIES)
        count = DYN_MAX_ENTRIES;
    for (uint64_t first = 0; first < count; first += DYN_CHUNK) {
        size_t n = count - first < DYN_CHUNK ? (size_t)(count - first) : DYN_CHUNK;
        uint64_t offset = dyn->offset + first * entry_size;
        Elf64_Dyn d64[DYN_CHUNK];
        Elf32_Dyn d32[DYN_CHUNK];
        if (!read_at(f, offset, f->is64 ? (void *)d64 : (void *)d32, n * entry_size))
            return false;
        for (size_t i = 0; i < n; i++) {
            int64_t tag = f->is64 ? d64[i].d_tag : d32[i].d_tag;
            uint64_t value = f->is64 ? d64[i].d_un.d_val : d32[i].d_un.d_val;
            if (tag == DT_NULL)
                return true;
            if (!visit(tag, value, arg))
                return true;
        }
    }
    return false;
}

static bool collect_string_table(int64_t tag, uint64_t value, void *arg)
{
    dynamic_info *info = arg;
    if (tag == DT_STRTAB) {
        info->strtab_addr = value;
        info->have_strtab = true;
    } else if (tag == DT_STRSZ) {
        info->strsz = value;
        info->have_strsz = true;
    } else if (tag == DT_NEEDED) {
        info->have_needed = true;
    }
    return true;
}

/* State of the DT_NEEDED pass. */
typedef struct needed_scan {
    const elf_file *f;
    uint64_t strtab_offset;
    uint64_t strsz;
    weft_run_elf_result *result; /* set when the scan stops early */
} needed_scan;

static bool check_needed(int64_t tag, uint64_t value, void *arg)
{
    needed_scan *scan = arg;
    if (tag != DT_NEEDED)
        return true;
    if (value >= scan->strsz) {
        *scan->result =
            make_result(WEFT_RUN_ELF_DAMAGED, "a DT_NEEDED name lies outside the string table");
        return false;
    }
    char name[NEEDED_MAX + 1];
    uint64_t room = scan->strsz - value;
    size_t len = room < NEEDED_MAX ? (size_t)room : NEEDED_MAX;
    /* The string table's end was checked against the file size. */
    if (!read_at(scan->f, scan->strtab_offset + value, name, len)) {
        *scan->result = make_result(WEFT_RUN_ELF_DAMAGED, "cannot read a DT_NEEDED name");
        return false;
    }
    name[len] = '\0';
    if (strlen(name) == len && room <= NEEDED_MAX) {
        *scan->result =
            make_result(WEFT_RUN_ELF_DAMAGED, "a DT_NEEDED name runs past the string table");
        return false;
    }
    /* Keep scanning after a find: a program may need MPI and OpenMP both. */
    if (strlen(name) < len && weft__run_elf_is_mpi_library(name) &&
        scan->result->kind != WEFT_RUN_ELF_LINKS_MPI) {
        weft_run_elf_result found = make_result(WEFT_RUN_ELF_LINKS_MPI, "%s", name);
        memcpy(found.openmp, scan->result->openmp, sizeof(found.openmp));
        found.fortran_mpi = scan->result->fortran_mpi;
        found.links_weft = scan->result->links_weft;
        *scan->result = found;
    }
    if (strlen(name) < len && weft__run_elf_is_weft(name))
        scan->result->links_weft = true;
    if (strlen(name) < len && weft__run_elf_is_fortran_mpi(name))
        scan->result->fortran_mpi = true;
    if (strlen(name) < len && weft__run_elf_is_openmp_runtime(name) && !scan->result->openmp[0])
        snprintf(scan->result->openmp, sizeof(scan->result->openmp), "%s", name);
    return true;
}

/* The part after the header: dynamic section, string table, DT_NEEDED. */
static weft_run_elf_result inspect_dynamic(const elf_file *f, const header *h)
{
    segment dyn;
    if (!find_segment(f, h, PT_DYNAMIC, &dyn))
        return plain_result(WEFT_RUN_ELF_STATIC);
    if (!in_file(f, dyn.offset, dyn.filesz))
        return make_result(WEFT_RUN_ELF_DAMAGED, "dynamic section beyond the end of the file");

    dynamic_info info = {0};
    if (!walk_dynamic(f, &dyn, collect_string_table, &info))
        return make_result(WEFT_RUN_ELF_DAMAGED, "dynamic section without an end");
    if (!info.have_needed)
        return plain_result(WEFT_RUN_ELF_NO_MPI);
    uint64_t strtab_offset = 0;
    if (!info.have_strtab || !address_to_offset(f, h, info.strtab_addr, &strtab_offset) ||
        strtab_offset >= f->size)
        return make_result(WEFT_RUN_ELF_DAMAGED, "no string table for the DT_NEEDED names");
    uint64_t strsz = f->size - strtab_offset;
    if (info.have_strsz) {
        if (!in_file(f, strtab_offset, info.strsz))
            return make_result(WEFT_RUN_ELF_DAMAGED, "string table beyond the end of the file");
        strsz = info.strsz;
    }

    weft_run_elf_result result = plain_result(WEFT_RUN_ELF_NO_MPI);
    needed_scan scan = {f, strtab_offset, strsz, &result};
    walk_dynamic(f, &dyn, check_needed, &scan);
    return result;
}

weft_run_elf_result weft__run_elf_inspect(const char *path)
{
    elf_file f = {.fd = open(path, O_RDONLY | O_CLOEXEC)};
    if (f.fd < 0)
        return make_result(WEFT_RUN_ELF_UNREADABLE, "%s", strerror(errno));
    weft_run_elf_result result;
    struct stat st;
    header h;
    if (fstat(f.fd, &st) != 0) {
        result = make_result(WEFT_RUN_ELF_UNREADABLE, "%s", strerror(errno));
    } else if (!S_ISREG(st.st_mode)) {
        result = make_result(WEFT_RUN_ELF_UNREADABLE, "not a regular file");
    } else {
        f.size = (uint64_t)st.st_size;
        errno = 0;
        if (check_ident(&f, &result) && read_header(&f, &h, &result))
            result = inspect_dynamic(&f, &h);
    }
    close(f.fd);
    return result;
}

/* True when NEEDED's last path component is PREFIX ("libmpi.so") itself or
 * PREFIX with a version suffix ("libmpi.so.40", not "libmpi.sox"). */
static bool names_library(const char *needed, const char *prefix)
{
    const char *slash = strrchr(needed, '/');
    const char *base = slash ? slash + 1 : needed;
    size_t len = strlen(prefix);
    if (strncmp(base, prefix, len) != 0)
        return false;
    return base[len] == '\0' || base[len] == '.';
}

/* Every library of an MPI that a program's MPI calls can go to directly,
 * with the MPI it belongs to: the C library (Open MPI's and Intel MPI's
 * libmpi.so.N, Debian's MPICH libmpich.so.12) and the Fortran and C++
 * bindings, which a program built by mpif90 or mpicxx may need without the
 * C library (linked --as-needed, a Fortran program needs only
 * libmpi_mpifh.so.40 or libmpi_usempif08.so.40). */
static const struct {
    const char *name;
    const char *family; /* the C library's name, as WEFT_MPI_LIBRARY_NAME */
    bool fortran;       /* Fortran bindings */
} mpi_libraries[] = {
    {"libmpi.so", "libmpi.so", false},
    {"libmpi_mpifh.so", "libmpi.so", true},             /* Open MPI: mpif.h, use mpi */
    {"libmpi_usempi_ignore_tkr.so", "libmpi.so", true}, /* use mpi */
    {"libmpi_usempi.so", "libmpi.so", true},            /* use mpi, older Open MPI */
    {"libmpi_usempif08.so", "libmpi.so", true},         /* use mpi_f08 */
    {"libmpi_cxx.so", "libmpi.so", false},              /* the C++ bindings */
    {"libmpich.so", "libmpich.so", false},
    {"libmpichfort.so", "libmpich.so", true}, /* MPICH's Fortran bindings */
    {"libmpichcxx.so", "libmpich.so", false},
    {"libmpifort.so", "libmpich.so", true}, /* MPICH 3.1 on, Intel MPI */
    {"libmpicxx.so", "libmpich.so", false},
};

/* The entry of mpi_libraries NEEDED names, or -1. */
static int mpi_library(const char *needed)
{
    for (size_t i = 0; i < sizeof(mpi_libraries) / sizeof(mpi_libraries[0]); i++) {
        if (names_library(needed, mpi_libraries[i].name))
            return (int)i;
    }
    return -1;
}

const char *weft__run_elf_mpi_family(const char *needed)
{
    int i = mpi_library(needed);
    return i < 0 ? NULL : mpi_libraries[i].family;
}

bool weft__run_elf_is_mpi_library(const char *needed)
{
    return mpi_library(needed) >= 0;
}

bool weft__run_elf_is_fortran_mpi(const char *needed)
{
    int i = mpi_library(needed);
    return i >= 0 && mpi_libraries[i].fortran;
}

bool weft__run_elf_is_weft(const char *needed)
{
    return names_library(needed, "libweft.so");
}

bool weft__run_elf_is_openmp_runtime(const char *needed)
{
    return names_library(needed, "libomp.so") || names_library(needed, "libgomp.so") ||
           names_library(needed, "libiomp5.so");
}

void weft__run_elf_describe(const char *path, const weft_run_elf_result *result, char *buf,
                            size_t size)
{
    const char *detail = result->detail;
    switch (result->kind) {
    case WEFT_RUN_ELF_LINKS_MPI:
        snprintf(buf, size, "'%s' needs %s: an MPI program", path, detail);
        return;
    case WEFT_RUN_ELF_NO_MPI:
        snprintf(buf, size, "'%s' needs no MPI library directly: not an MPI program", path);
        return;
    case WEFT_RUN_ELF_STATIC:
        snprintf(buf, size, "'%s' is statically linked: not an MPI program", path);
        return;
    case WEFT_RUN_ELF_NOT_ELF:
        snprintf(buf, size, "'%s' is not an ELF file%s%s%s: not an MPI program", path,
                 detail[0] ? " (" : "", detail, detail[0] ? ")" : "");
        return;
    case WEFT_RUN_ELF_UNSUPPORTED:
        snprintf(buf, size, "'%s' is an ELF file weft run cannot inspect (%s): not an MPI program",
                 path, detail);
        return;
    case WEFT_RUN_ELF_DAMAGED:
        snprintf(buf, size, "'%s' is a damaged ELF file (%s): not an MPI program", path, detail);
        return;
    case WEFT_RUN_ELF_UNREADABLE:
        snprintf(buf, size, "cannot read '%s' (%s): not an MPI program", path, detail);
        return;
    }
    snprintf(buf, size, "'%s': not an MPI program", path);
}

bool weft__run_elf_not_mpi(weft_run_elf_kind kind)
{
    return kind != WEFT_RUN_ELF_LINKS_MPI;
}
