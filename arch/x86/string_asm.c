/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * memcpy and memset as Linux has them on x86-64, for a variant whose
 * flags hold -DKFRONT_ASM_STRING (docs/hybrid.md, "Linux's string
 * helpers"); without it this file is empty and lib/string.c's C loops,
 * compiled by each variant like the rest, are used.
 *
 * Linux writes both in assembly (arch/x86/lib/memcpy_64.S and
 * memset_64.S), so they are the same machine code under every -O level:
 * what -O2 or -Os decides is only which copies the compiler expands in
 * line and which it leaves to a call. The functions are naked and 16-byte
 * aligned, so neither their instructions nor their alignment depend on the
 * variant's flags (GCC puts an unreachable ud2 after each, clang does not;
 * tests/py/test_string_asm.py).
 *
 * Linux picks the body once at boot by patching its code (alternatives):
 * one rep movsb (rep stosb) on CPUs with fast rep strings (ERMS), else
 * rep movsq (stosq) for the quadwords and rep movsb (stosb) for the tail.
 * Here one byte that counters_init() sets from ERMS picks it
 * (arch/x86/rep_string.c): a load and a branch Linux does not have.
 * Linux's memcpy and memset without either feature (an unrolled loop) are
 * not modelled: every x86-64 CPU kfront runs on has at least rep movsq.
 */
#ifdef KFRONT_ASM_STRING
#include <kfront/types.h>

/* A naked function reads its arguments in its assembly only. */
#define ARG __attribute__((unused))

void *memcpy(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);

__attribute__((naked, aligned(16)))
void *memcpy(ARG void *dst, ARG const void *src, ARG size_t n)
{
	asm("movq %rdi, %rax\n\t"
	    "movq %rdx, %rcx\n\t"
	    "cmpb $0, x86_fast_rep_string(%rip)\n\t"
	    "jne 1f\n\t"
	    "shrq $3, %rcx\n\t"		/* quadwords, then the 0-7 bytes left */
	    "andl $7, %edx\n\t"
	    "rep movsq\n\t"
	    "movl %edx, %ecx\n"
	    "1:\n\t"
	    "rep movsb\n\t"
	    "ret");
}

__attribute__((naked, aligned(16)))
void *memset(ARG void *dst, ARG int c, ARG size_t n)
{
	asm("movq %rdi, %r9\n\t"		/* the return value */
	    "movzbl %sil, %eax\n\t"
	    "movq %rdx, %rcx\n\t"
	    "cmpb $0, x86_fast_rep_string(%rip)\n\t"
	    "jne 1f\n\t"
	    "movabsq $0x0101010101010101, %r8\n\t"
	    "imulq %r8, %rax\n\t"		/* the byte in all eight */
	    "shrq $3, %rcx\n\t"
	    "andl $7, %edx\n\t"
	    "rep stosq\n\t"
	    "movl %edx, %ecx\n"
	    "1:\n\t"
	    "rep stosb\n\t"
	    "movq %r9, %rax\n\t"
	    "ret");
}
#endif
