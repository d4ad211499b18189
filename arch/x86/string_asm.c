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
 * variant's flags (GCC puts an unreachable ud2 or nop after each, clang nothing;
 * tests/py/test_string_asm.py).
 *
 * Linux picks the body once at boot by patching its code (alternatives):
 * memcpy is one rep movsb on CPUs with fast short rep movsb (FSRM), memset
 * one rep stosb on CPUs with fast short rep stosb (FSRS); otherwise each
 * is a loop of quadword moves. Here a byte that counters_init() sets from
 * CPUID picks it (arch/x86/rep_string.c): a load and a branch Linux does
 * not have. The loops are this file's own, of the same kind as Linux's
 * (32 bytes an iteration, the tail with overlapping moves) but not its
 * bytes; Linux's memcpy loop also copies backwards when the low address
 * bytes suggest 4 KiB aliasing, which this one does not.
 */
#ifdef KFRONT_ASM_STRING
#include <kfront/types.h>

/* A naked function reads its arguments in its assembly only. */
#define ARG __attribute__((unused))

void *memcpy(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);

/* rdi = dst, rsi = src, rdx = n; returns dst in rax. */
__attribute__((naked, aligned(16)))
void *memcpy(ARG void *dst, ARG const void *src, ARG size_t n)
{
	asm("movq %rdi, %rax\n\t"
	    "cmpb $0, x86_fast_rep_movsb(%rip)\n\t"
	    "jne .Lkf_memcpy_rep\n\t"
	    "cmpq $32, %rdx\n\t"
	    "jb .Lkf_memcpy_tail\n"
	".Lkf_memcpy_loop:\n\t"		/* 32 bytes an iteration */
	    "movq (%rsi), %r8\n\t"
	    "movq 8(%rsi), %r9\n\t"
	    "movq 16(%rsi), %r10\n\t"
	    "movq 24(%rsi), %r11\n\t"
	    "movq %r8, (%rdi)\n\t"
	    "movq %r9, 8(%rdi)\n\t"
	    "movq %r10, 16(%rdi)\n\t"
	    "movq %r11, 24(%rdi)\n\t"
	    "addq $32, %rsi\n\t"
	    "addq $32, %rdi\n\t"
	    "subq $32, %rdx\n\t"
	    "cmpq $32, %rdx\n\t"
	    "jae .Lkf_memcpy_loop\n"
	".Lkf_memcpy_tail:\n\t"		/* 0-31 bytes: head and end moves overlap */
	    "cmpl $16, %edx\n\t"
	    "jb .Lkf_memcpy_15\n\t"
	    "movq (%rsi), %r8\n\t"
	    "movq 8(%rsi), %r9\n\t"
	    "movq -16(%rsi,%rdx), %r10\n\t"
	    "movq -8(%rsi,%rdx), %r11\n\t"
	    "movq %r8, (%rdi)\n\t"
	    "movq %r9, 8(%rdi)\n\t"
	    "movq %r10, -16(%rdi,%rdx)\n\t"
	    "movq %r11, -8(%rdi,%rdx)\n\t"
	    "ret\n"
	".Lkf_memcpy_15:\n\t"
	    "cmpl $8, %edx\n\t"
	    "jb .Lkf_memcpy_7\n\t"
	    "movq (%rsi), %r8\n\t"
	    "movq -8(%rsi,%rdx), %r9\n\t"
	    "movq %r8, (%rdi)\n\t"
	    "movq %r9, -8(%rdi,%rdx)\n\t"
	    "ret\n"
	".Lkf_memcpy_7:\n\t"
	    "cmpl $4, %edx\n\t"
	    "jb .Lkf_memcpy_3\n\t"
	    "movl (%rsi), %r8d\n\t"
	    "movl -4(%rsi,%rdx), %r9d\n\t"
	    "movl %r8d, (%rdi)\n\t"
	    "movl %r9d, -4(%rdi,%rdx)\n\t"
	    "ret\n"
	".Lkf_memcpy_3:\n\t"		/* 0-3: first, last, and the middle of 3 */
	    "testl %edx, %edx\n\t"
	    "je .Lkf_memcpy_done\n\t"
	    "movzbl (%rsi), %r8d\n\t"
	    "movzbl -1(%rsi,%rdx), %r9d\n\t"
	    "cmpl $3, %edx\n\t"
	    "jb .Lkf_memcpy_2\n\t"
	    "movzbl 1(%rsi), %r10d\n\t"
	    "movb %r10b, 1(%rdi)\n"
	".Lkf_memcpy_2:\n\t"
	    "movb %r8b, (%rdi)\n\t"
	    "movb %r9b, -1(%rdi,%rdx)\n"
	".Lkf_memcpy_done:\n\t"
	    "ret\n"
	".Lkf_memcpy_rep:\n\t"
	    "movq %rdx, %rcx\n\t"
	    "rep movsb\n\t"
	    "ret");
}

/* rdi = dst, esi = c, rdx = n; returns dst in rax. */
__attribute__((naked, aligned(16)))
void *memset(ARG void *dst, ARG int c, ARG size_t n)
{
	asm("movq %rdi, %r9\n\t"			/* the return value */
	    "movzbl %sil, %eax\n\t"
	    "cmpb $0, x86_fast_rep_stosb(%rip)\n\t"
	    "jne .Lkf_memset_rep\n\t"
	    "movabsq $0x0101010101010101, %r8\n\t"
	    "imulq %r8, %rax\n\t"			/* the byte in all eight */
	    "cmpq $32, %rdx\n\t"
	    "jb .Lkf_memset_31\n"
	".Lkf_memset_loop:\n\t"			/* 32 bytes an iteration */
	    "movq %rax, (%rdi)\n\t"
	    "movq %rax, 8(%rdi)\n\t"
	    "movq %rax, 16(%rdi)\n\t"
	    "movq %rax, 24(%rdi)\n\t"
	    "addq $32, %rdi\n\t"
	    "subq $32, %rdx\n\t"
	    "cmpq $32, %rdx\n\t"
	    "jae .Lkf_memset_loop\n\t"
	    "testq %rdx, %rdx\n\t"			/* the rest: the last 32 bytes again */
	    "je .Lkf_memset_done\n\t"
	    "movq %rax, -32(%rdi,%rdx)\n\t"
	    "movq %rax, -24(%rdi,%rdx)\n\t"
	    "movq %rax, -16(%rdi,%rdx)\n\t"
	    "movq %rax, -8(%rdi,%rdx)\n\t"
	    "jmp .Lkf_memset_done\n"
	".Lkf_memset_31:\n\t"			/* under 32 bytes: overlapping stores */
	    "cmpl $16, %edx\n\t"
	    "jb .Lkf_memset_15\n\t"
	    "movq %rax, (%rdi)\n\t"
	    "movq %rax, 8(%rdi)\n\t"
	    "movq %rax, -16(%rdi,%rdx)\n\t"
	    "movq %rax, -8(%rdi,%rdx)\n\t"
	    "jmp .Lkf_memset_done\n"
	".Lkf_memset_15:\n\t"
	    "cmpl $8, %edx\n\t"
	    "jb .Lkf_memset_7\n\t"
	    "movq %rax, (%rdi)\n\t"
	    "movq %rax, -8(%rdi,%rdx)\n\t"
	    "jmp .Lkf_memset_done\n"
	".Lkf_memset_7:\n\t"
	    "cmpl $4, %edx\n\t"
	    "jb .Lkf_memset_3\n\t"
	    "movl %eax, (%rdi)\n\t"
	    "movl %eax, -4(%rdi,%rdx)\n\t"
	    "jmp .Lkf_memset_done\n"
	".Lkf_memset_3:\n\t"
	    "testl %edx, %edx\n\t"
	    "je .Lkf_memset_done\n\t"
	    "movb %al, (%rdi)\n\t"
	    "movb %al, -1(%rdi,%rdx)\n\t"
	    "cmpl $3, %edx\n\t"
	    "jb .Lkf_memset_done\n\t"
	    "movb %al, 1(%rdi)\n"
	".Lkf_memset_done:\n\t"
	    "movq %r9, %rax\n\t"
	    "ret\n"
	".Lkf_memset_rep:\n\t"
	    "movq %rdx, %rcx\n\t"
	    "rep stosb\n\t"
	    "movq %r9, %rax\n\t"
	    "ret");
}
#endif
