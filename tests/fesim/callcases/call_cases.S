/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Call-graph known answers (issue 21, pgo-layout): a freestanding static
 * x86-64 Linux program, no libc. In one region (slot 1) cg_main calls
 * cg_f once; cg_f calls cg_g 10 times directly and cg_h 3 times through
 * a register; each cg_g call calls cg_k. Expected "call" records:
 * main->f 1, f->g 10, f->h 3, g->k 10 (tests/fesim/test_call_graph.py, class
 * CallGraph). The calls before the region (_start->cg_outside->cg_g)
 * must not count.
 */
#include <kfront/fesim_marker.h>

	.text
	.globl _start
	.type _start, @function
_start:
	call cg_outside
	call cg_main
	mov $60, %eax		/* exit(0) */
	xor %edi, %edi
	syscall
	.size _start, . - _start

	.type cg_outside, @function
cg_outside:
	call cg_g
	ret
	.size cg_outside, . - cg_outside

	.type cg_main, @function
cg_main:
	FESIM_MARK FESIM_KIND_BEGIN, 1
	call cg_f
	FESIM_MARK FESIM_KIND_END, 1
	ret
	.size cg_main, . - cg_main

	.type cg_f, @function
cg_f:
	push %rbx
	mov $10, %ebx
1:	call cg_g		/* direct */
	dec %ebx
	jnz 1b
	mov $3, %ebx
	lea cg_h(%rip), %rax
2:	call *%rax		/* indirect */
	lea cg_h(%rip), %rax
	dec %ebx
	jnz 2b
	pop %rbx
	ret
	.size cg_f, . - cg_f

	.type cg_g, @function
cg_g:
	add $1, %rcx
	call cg_k
	ret
	.size cg_g, . - cg_g

	.type cg_h, @function
cg_h:
	add $2, %rcx
	ret
	.size cg_h, . - cg_h

	.type cg_k, @function
cg_k:
	add $3, %rcx
	ret
	.size cg_k, . - cg_k

	.section .note.GNU-stack, "", @progbits
