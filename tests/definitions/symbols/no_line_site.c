/* A call whose instructions have line 0, as clang gives a call's
 * instructions at times (HPCG's OpenMP constructs through OMPT), after an
 * instruction of the asm statement's line, 13, and before the closing
 * brace's, 17 (test_symbols.c asserts 13: the line that set the call up).
 * Built by clang -g (its integrated assembler keeps a `.loc` of line 0;
 * GNU as drops it); x86-64. */
void weft_symtest_no_line_site(void (*callee)(void));

void weft_symtest_no_line_site(void (*callee)(void))
{
    /* nop: line 13; .loc 0 0: line 0 for the call, until the compiler's
     * next line (the closing brace) */
    __asm__ volatile("nop\n\t.loc 0 0\n\tcall *%0"
                     :
                     : "r"(callee)
                     : "memory", "cc", "rax", "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11");
}
/* SPDX-License-Identifier: BSD-3-Clause */
