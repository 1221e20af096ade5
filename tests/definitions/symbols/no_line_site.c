/* A call whose instruction has line 0, as clang sometimes gives a call's
 * last instruction (HPCG's OpenMP constructs through OMPT), followed by
 * the closing brace's line, 15 (test_symbols.c asserts it): the return
 * address's own line must name it. Built by clang -g (its integrated
 * assembler keeps a `.loc` of line 0; GNU as drops it); x86-64. */
void weft_symtest_no_line_site(void (*callee)(void));

void weft_symtest_no_line_site(void (*callee)(void))
{
    /* .loc 0 0: line 0 of this file from here to the compiler's next line */
    __asm__ volatile(".loc 0 0\n\tcall *%0"
                     :
                     : "r"(callee)
                     : "memory", "cc", "rax", "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11");
}
/* SPDX-License-Identifier: BSD-3-Clause */
