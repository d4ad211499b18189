/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Uop-cache known answers (issue 18): a freestanding static x86-64 Linux
 * program, no libc. _start runs every case once (100 passes each) and
 * exits; each case is one fesim region, slot = case number. The expected
 * counts are derived in tests/fesim/test_uop_rules.py (class UopCacheRules)
 * from the rules in docs/fesim.md, "Uop cache".
 *
 * Layout shared by the cases: a 64-byte aligned block whose first window
 * (W-1, bytes 0..31) holds only the begin marker in bytes 25..31, the case
 * function's entry; the measured window W is bytes 32..63 and falls
 * through into W+1 (bytes 64..), which holds the end marker and ret. So
 * the code around W costs exactly two cold misses: W-1 entered at 25 and
 * W+1 entered at 0, once each. Padding that never runs is int3 (0xcc).
 * Loop count: %rdi = passes; W is entered 100 times for %rdi = 100.
 */
#include <kfront/fesim_marker.h>

.macro CASE_HEAD name, slot
	.balign 64
	.skip 25, 0xcc
	.type \name, @function
\name:
	FESIM_MARK FESIM_KIND_BEGIN, \slot	/* bytes 25..31 of W-1 */
.endm

.macro CASE_TAIL name, slot
	.balign 32, 0x90	/* the rest of W: nops, run after the last pass */
	FESIM_MARK FESIM_KIND_END, \slot	/* W+1 */
	ret
	.size \name, . - \name
.endm

	.text
	.globl _start
	.type _start, @function
_start:
	xor %eax, %eax		/* case 4: test %eax,%eax never jumps */
	xor %ecx, %ecx		/* case 5: rep stosb with %rcx = 0 stores nothing */
	mov $100, %edi
	call uc_notaken
	mov $100, %edi
	call uc_jmp31
	mov $100, %edi
	call uc_twoentry
	mov $100, %edi
	call uc_fused
	mov $100, %edi
	call uc_msrom
	mov $100, %edi
	call uc_fused_cross
	mov $60, %eax		/* exit(0) */
	xor %edi, %edi
	syscall
	.size _start, . - _start

/* 1: a 21-uop window split by two not-taken jc: clc, 9 nops, jc, 8 nops,
 * jc, dec+jnz (one fused slot) = 21 slots in bytes 0..26 of W. */
	CASE_HEAD uc_notaken, 1
1:	clc
	.rept 9
	nop
	.endr
	jc 9f
	.rept 8
	nop
	.endr
	jc 9f
	dec %rdi
	jnz 1b
	CASE_TAIL uc_notaken, 1
9:	ud2			/* jc target: never reached (CF = 0) */

/* 2: a jmp ending on byte 31 of W: dec+jz (fused, bytes 0..4), five 5-byte
 * nops (5..29), jmp back to W's start (30..31). 7 slots, 2 ways. */
	CASE_HEAD uc_jmp31, 2
1:	dec %rdi
	jz 2f
	.rept 5
	.byte 0x0f, 0x1f, 0x44, 0x00, 0x00	/* nopl 0(%rax,%rax,1) */
	.endr
	jmp 1b
2:	FESIM_MARK FESIM_KIND_END, 2	/* W+1 */
	ret
	.size uc_jmp31, . - uc_jmp31

/* 3: five windows W0..W4, each entered at two points: A (offset 0) runs
 * 7 nops and jumps to B (offset 16) of the same window; B runs 13 nops and
 * jumps to the next window's A; W4's B is 7 nops and dec+jnz (rel32, ends
 * on byte 31) back to W0's A. Entry A: 8 slots = 2 ways; entry B: 14
 * slots = 3 ways (W4: 8 slots, 2 ways). */
.macro TWO_ENTRY_WINDOW here, next
	.balign 32, 0xcc
\here:
	.rept 7
	nop
	.endr
	jmp 1f
	.balign 16, 0xcc
1:	.rept 13
	nop
	.endr
	jmp \next
.endm

	CASE_HEAD uc_twoentry, 3
	TWO_ENTRY_WINDOW uc2_w0, uc2_w1
	TWO_ENTRY_WINDOW uc2_w1, uc2_w2
	TWO_ENTRY_WINDOW uc2_w2, uc2_w3
	TWO_ENTRY_WINDOW uc2_w3, uc2_w4
	.balign 32, 0xcc		/* W4: B ends with the loop branch */
uc2_w4:
	.rept 7
	nop
	.endr
	jmp 1f
	.balign 16, 0xcc
1:	.rept 7
	nop
	.endr
	dec %rdi		/* bytes 23..25 */
	jnz uc2_w0		/* rel32, bytes 26..31 */
	CASE_TAIL uc_twoentry, 3

/* 4: macro-fused pairs: two test+jnz pairs, 14 nops, dec+jnz = 17 slots
 * fused (3 ways), 20 unfused (4 ways: not cacheable). */
	CASE_HEAD uc_fused, 4
1:	test %eax, %eax
	jnz 9f
	test %eax, %eax
	jnz 9f
	.rept 14
	nop
	.endr
	dec %rdi
	jnz 1b
	CASE_TAIL uc_fused, 4
9:	ud2

/* 5: microcoded instructions: 3 nops, rep stosb, 3 nops, rep stosb,
 * dec+jnz. 9 slots (2 ways) if each took one slot; each rep stosb takes a
 * whole way: 5 ways, not cacheable. */
	CASE_HEAD uc_msrom, 5
1:	.rept 3
	nop
	.endr
	rep stosb
	.rept 3
	nop
	.endr
	rep stosb
	dec %rdi
	jnz 1b
	CASE_TAIL uc_msrom, 5

/* 6: JCC erratum on a macro-fused pair only: five 5-byte nops and a
 * 4-byte nop (bytes 0..28 of W), dec (29..31), jnz (bytes 0..1 of W+1).
 * The jnz alone touches no boundary; the fused pair crosses one. W is the
 * first half of a 64-byte line, so the pair stays in one line and fuses. */
	.balign 64
	.skip 57, 0xcc
	.type uc_fused_cross, @function
uc_fused_cross:
	FESIM_MARK FESIM_KIND_BEGIN, 6		/* bytes 25..31 of W-1 */
1:	.rept 5
	.byte 0x0f, 0x1f, 0x44, 0x00, 0x00	/* nopl 0(%rax,%rax,1) */
	.endr
	.byte 0x0f, 0x1f, 0x40, 0x00		/* nopl 0(%rax) */
	dec %rdi
	jnz 1b
	FESIM_MARK FESIM_KIND_END, 6
	ret
	.size uc_fused_cross, . - uc_fused_cross

	.section .note.GNU-stack, "", @progbits
