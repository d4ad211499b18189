/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * An instruction across a 4 KiB page boundary in the middle of a TB: a
 * freestanding static x86-64 Linux program, no libc, run under the
 * plugin by tests/fesim/test_page_boundary.py. QEMU 7.2 ends the TB
 * before such an instruction and lists the bytes it had read of it as
 * the TB's last instruction anyway; the plugin must count it once
 * (tools/fesim/translate.c, rolled_back()).
 *
 * Both regions run the same loop, passes = %rdi: 13 one-byte nops, a
 * 10-byte movl to memory, dec, jnz: 16 instructions and 20 bytes a pass,
 * plus the begin marker, a jmp into the loop and the end marker. In
 * region 1 the movl starts 3 bytes before a page boundary (it spans
 * 0x...ffd to 0x...006); in region 2 the loop starts 3 bytes later, so
 * the movl starts on the boundary and nothing crosses it. The loops touch
 * the same two 64-byte lines, 32-byte windows and pages, so every count
 * but the boundary-crossing classes must be the same in both.
 */
#include <kfront/fesim_marker.h>

	.text
	.globl _start
	.type _start, @function
_start:
	mov $10, %edi
	call pc_across
	mov $10, %edi
	call pc_on_boundary
	mov $60, %eax		/* exit(0) */
	xor %edi, %edi
	syscall
	.size _start, . - _start

.macro LOOP
1:	.rept 13
	nop
	.endr
	movl $0, buf(%rip)	/* c7 05 disp32 imm32: 10 bytes */
	dec %rdi
	jnz 1b
.endm

/* 1: the loop at page end - 16: the movl at page end - 3 */
	.type pc_across, @function
pc_across:
	FESIM_MARK FESIM_KIND_BEGIN, 1
	jmp 1f
	.balign 4096, 0xcc
	.skip 4096 - 16, 0xcc
	LOOP
	FESIM_MARK FESIM_KIND_END, 1
	ret
	.size pc_across, . - pc_across

/* 2: the loop at page end - 13: the movl on the page boundary */
	.type pc_on_boundary, @function
pc_on_boundary:
	FESIM_MARK FESIM_KIND_BEGIN, 2
	jmp 1f
	.balign 4096, 0xcc
	.skip 4096 - 13, 0xcc
	LOOP
	FESIM_MARK FESIM_KIND_END, 2
	ret
	.size pc_on_boundary, . - pc_on_boundary

	.bss
	.balign 64
buf:	.skip 64

	.section .note.GNU-stack, "", @progbits
