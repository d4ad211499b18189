/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Instruction-class known answers (issue 19, item 2): a freestanding
 * static x86-64 Linux program, no libc. _start runs each case once with
 * %rdi = its pass count; each case is one fesim region, slot = case
 * number. The expected counts are derived in
 * tests/fesim/test_instruction_classes.py (class InstructionClasses) from
 * docs/fesim.md, "Instruction classes";
 * case 8 also checks the per-function rows (syms= of this program's
 * `nm -n` output).
 */
#include <kfront/fesim_marker.h>

.macro BEGIN slot
	FESIM_MARK FESIM_KIND_BEGIN, \slot
.endm

.macro END slot
	FESIM_MARK FESIM_KIND_END, \slot
.endm

	.text
	.globl _start
	.type _start, @function
_start:
	mov $3, %edi
	call cc_rep_movs
	mov $2, %edi
	call cc_rep_stos
	mov $10, %edi
	call cc_div
	mov $5, %edi
	call cc_lcp
	mov $4, %edi
	call cc_calls
	mov $10, %edi
	call cc_cross
	mov $6, %edi
	call cc_unaligned
	mov $7, %edi
	call cc_attrib
	mov $60, %eax		/* exit(0) */
	xor %edi, %edi
	syscall
	.size _start, . - _start

/* 1: rep movsb of 5 bytes per pass, then one rep movsl with %rcx = 0:
 * passes + 1 executions, 5 x passes iterations. */
	.type cc_rep_movs, @function
cc_rep_movs:
	BEGIN 1
	lea buf(%rip), %r8
	mov %rdi, %r9
1:	mov %r8, %rsi
	lea 64(%r8), %rdi
	mov $5, %ecx
	rep movsb
	dec %r9
	jnz 1b
	xor %ecx, %ecx
	rep movsl
	END 1
	ret
	.size cc_rep_movs, . - cc_rep_movs

/* 2: rep stosq of 7 quadwords per pass. */
	.type cc_rep_stos, @function
cc_rep_stos:
	BEGIN 2
	mov %rdi, %r9
	xor %eax, %eax
1:	lea buf(%rip), %rdi
	mov $7, %ecx
	rep stosq
	dec %r9
	jnz 1b
	END 2
	ret
	.size cc_rep_stos, . - cc_rep_stos

/* 3: div, idiv and divb per pass: 3 x passes. */
	.type cc_div, @function
cc_div:
	BEGIN 3
	mov $3, %ecx
1:	mov $100, %eax
	xor %edx, %edx
	div %ecx
	mov $100, %eax
	cqo
	idiv %rcx
	mov $100, %eax
	divb %cl
	dec %rdi
	jnz 1b
	END 3
	ret
	.size cc_div, . - cc_div

/* 4: three length-changing prefixes per pass (imm16 under 66h); mov r16,
 * imm16 (B8+r) and an imm8 form under 66h are not counted. */
	.type cc_lcp, @function
cc_lcp:
	BEGIN 4
1:	add $0x1234, %ax		/* 66 05 iw */
	imul $0x1234, %cx, %dx		/* 66 69 /r iw */
	movw $0x1234, buf(%rip)		/* 66 c7 /0 iw */
	movw $0x1234, %cx		/* 66 b9 iw: not counted */
	add $1, %cx			/* 66 83 /0 ib: not counted */
	dec %rdi
	jnz 1b
	END 4
	ret
	.size cc_lcp, . - cc_lcp

/* 5: per pass a direct call, an indirect call (2 rets) and an indirect
 * jmp; every target is 16-byte aligned and returns do not count as
 * unaligned targets: 0 of those. */
	.type cc_calls, @function
cc_calls:
	BEGIN 5
	lea cc_leaf(%rip), %rax
	mov %rdi, %r9
	.balign 16
1:	call cc_leaf
	call *%rax
	lea 2f(%rip), %rdx
	jmp *%rdx
	.balign 16, 0xcc
2:	dec %r9
	jnz 1b
	END 5
	ret
	.size cc_calls, . - cc_calls

	.balign 16, 0xcc
	.type cc_leaf, @function
cc_leaf:
	ret
	.size cc_leaf, . - cc_leaf

/* 6: the loop body starts on a 64-byte line + 32: 14 one-byte nops
 * (32..45), a 5-byte nop across 48 (46..50), 11 nops (51..61), a 5-byte
 * nop across 64 (62..66), dec (67..69), jnz (70..71), end marker
 * (72..78). Per pass 2 instructions cross a 16-byte boundary, 1 of them
 * a 64-byte one; the markers cross none. */
	.balign 64, 0xcc
	.skip 25, 0xcc
	.type cc_cross, @function
cc_cross:
	BEGIN 6				/* 25..31 */
1:	.rept 14
	nop
	.endr
	.byte 0x0f, 0x1f, 0x44, 0x00, 0x00	/* 46..50 */
	.rept 11
	nop
	.endr
	.byte 0x0f, 0x1f, 0x44, 0x00, 0x00	/* 62..66 */
	dec %rdi
	jnz 1b
	END 6
	ret
	.size cc_cross, . - cc_cross

/* 7: a loop whose jnz lands at line + 33: passes - 1 unaligned targets. */
	.balign 64, 0xcc
	.skip 25, 0xcc
	.type cc_unaligned, @function
cc_unaligned:
	BEGIN 7				/* 25..31 */
	nop				/* 32 */
1:	nop				/* 33 */
	dec %rdi
	jnz 1b
	END 7
	ret
	.size cc_unaligned, . - cc_unaligned

/* 8: per-function rows. Per pass: cf_work runs 4 instructions, cf_div 5
 * (one div); cc_attrib runs the begin marker, mov, end marker and per
 * pass call, call, dec, jnz. */
	.balign 16, 0xcc
	.type cc_attrib, @function
cc_attrib:
	BEGIN 8
	mov %rdi, %r9
1:	call cf_work
	call cf_div
	dec %r9
	jnz 1b
	END 8
	ret
	.size cc_attrib, . - cc_attrib

	.balign 16, 0xcc
	.type cf_work, @function
cf_work:
	nop
	nop
	nop
	ret
	.size cf_work, . - cf_work

	.balign 16, 0xcc
	.type cf_div, @function
cf_div:
	mov $100, %eax
	xor %edx, %edx
	mov $7, %ecx
	div %ecx
	ret
	.size cf_div, . - cf_div

	.bss
	.balign 64
buf:	.skip 256

	.section .note.GNU-stack, "", @progbits
