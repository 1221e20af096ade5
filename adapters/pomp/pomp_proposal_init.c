/* SPDX-License-Identifier: BSD-3-Clause */
/* POMP_Init_<id>: the merged proposal lets each file of a program define
 * one, calling POMP_Get_handle for its constructs, and POMP_Init calls them
 * all. The proposal finds them with nm at link time; weft finds them in the
 * program's own symbol table (.symtab of /proc/self/exe) when POMP_Init
 * runs, so a program linked with `pkg-config --libs weft` needs no extra
 * step. A stripped program has no .symtab: its handles are then set by
 * their first events, from the CTC strings (see docs/OPENMP-POMP2.md). */
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pomp_proposal.h"
#include "weft/log.h"

static int executable_bias(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    *(ElfW(Addr) *)data = info->dlpi_addr; /* the first object is the program */
    return 1;
}

/* POMP_Init_<something>, but not weft's own POMP_Init_*lock_event. */
static bool is_init_function(const char *name)
{
    static const char prefix[] = "POMP_Init_";
    size_t len = strlen(name);
    return len > sizeof(prefix) - 1 && memcmp(name, prefix, sizeof(prefix) - 1) == 0 &&
           !(len > 10 && strcmp(name + len - 10, "lock_event") == 0);
}

/* Calls the init functions among the symbols of the mapped ELF file. */
static unsigned call_from_image(const unsigned char *image, size_t size, ElfW(Addr) bias)
{
    const ElfW(Ehdr) *eh = (const ElfW(Ehdr) *)image;
    if (size < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 ||
        eh->e_shentsize != sizeof(ElfW(Shdr)) || eh->e_shoff > size ||
        (size - eh->e_shoff) / sizeof(ElfW(Shdr)) < eh->e_shnum)
        return 0;
    const ElfW(Shdr) *sections = (const ElfW(Shdr) *)(image + eh->e_shoff);
    unsigned called = 0;
    for (unsigned s = 0; s < eh->e_shnum; s++) {
        const ElfW(Shdr) *symtab = &sections[s];
        if (symtab->sh_type != SHT_SYMTAB || symtab->sh_link >= eh->e_shnum ||
            symtab->sh_offset > size || symtab->sh_size > size - symtab->sh_offset)
            continue;
        const ElfW(Shdr) *strtab = &sections[symtab->sh_link];
        if (strtab->sh_offset > size || strtab->sh_size > size - strtab->sh_offset)
            continue;
        const ElfW(Sym) *symbols = (const ElfW(Sym) *)(image + symtab->sh_offset);
        const char *names = (const char *)(image + strtab->sh_offset);
        size_t count = symtab->sh_size / sizeof(ElfW(Sym));
        for (size_t i = 0; i < count; i++) {
            const ElfW(Sym) *sym = &symbols[i];
            if (ELF64_ST_TYPE(sym->st_info) != STT_FUNC || sym->st_shndx == SHN_UNDEF ||
                sym->st_name >= strtab->sh_size ||
                !memchr(names + sym->st_name, '\0', strtab->sh_size - sym->st_name) ||
                !is_init_function(names + sym->st_name))
                continue;
            void (*init)(void) = (void (*)(void))(bias + sym->st_value);
            init();
            called++;
        }
    }
    return called;
}

void weft__pomp_call_init_functions(void)
{
    int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || st.st_size <= 0) {
        if (fd >= 0)
            close(fd);
        return;
    }
    void *image = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (image == MAP_FAILED)
        return;
    ElfW(Addr) bias = 0;
    dl_iterate_phdr(executable_bias, &bias);
    unsigned called = call_from_image(image, (size_t)st.st_size, bias);
    munmap(image, (size_t)st.st_size);
    weft_log_verbose("POMP_Init called %u POMP_Init_<id> function(s) of the program", called);
}
