/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fesim validation regions: code with a known footprint, one case each. */
#include <kfront/fesim_marker.h>

/*
 * Each case is a function `fv_<case>(u64 iterations)` whose body is one
 * fesim region (slot = case number); everything it runs lives in fv_*
 * symbols, so cachegrind's per-function counts for fv_* cover exactly the
 * region plus the final ret. The code is position-independent in behaviour
 * but its addresses matter: the sections are aligned so the expected
 * misses can be worked out by hand (see docs/fesim.md, "Validation").
 * Built into a static, non-PIE host program, it runs unchanged under
 * valgrind and under qemu-x86_64; a kernel test region can include this
 * file as it is (no host dependencies).
 */

/* A block of n bytes of straight-line code: 4-byte `lea 1(%rax),%rax`,
 * so 16 instructions per 64-byte line, then ret. */
.macro BLOCK name, bytes
	.balign 64
	.type \name, @function
\name:
	.rept (\bytes) / 4
	lea 1(%rax), %rax
	.endr
	ret
	.size \name, . - \name
.endm

/* A region that calls \block %rdi times. */
.macro LOOP_CASE name, slot, block
	.balign 64
	.globl \name
	.type \name, @function
\name:
	FESIM_MARK FESIM_KIND_BEGIN, \slot
1:	call \block
	dec %rdi
	jnz 1b
	FESIM_MARK FESIM_KIND_END, \slot
	ret
	.size \name, . - \name
.endm

	.text
	/* 1: one pass over 32 KiB (cold misses only: 513 lines) */
	LOOP_CASE fv_straight, 1, fv_block_32k
	/* 2: a 16 KiB loop that fits in a 32 KiB L1i */
	LOOP_CASE fv_loop_fit, 2, fv_block_16k
	/* 3: a 64 KiB loop, twice the L1i: LRU misses every line */
	LOOP_CASE fv_loop_2x, 3, fv_block_64k
	/* 6: a 1 KiB loop: 32 windows of 8 uops, fits the Skylake DSB */
	LOOP_CASE fv_dsb_fit, 6, fv_block_1k
	/* 7: 32 one-byte NOPs in one 32-byte window: 32 uops need 6 ways,
	 * more than the 3 a window may use, so it never hits the DSB */
	LOOP_CASE fv_dsb_dense, 7, fv_dense

	/* a flush marker alone (no region): every simulated cache is emptied
	 * and what runs after it starts cold, as at the start of a benchmark
	 * point in the kernel (bench/harness/harness.c) */
	.balign 64
	.globl fv_flush
	.type fv_flush, @function
fv_flush:
	FESIM_MARK FESIM_KIND_META, FESIM_META_FLUSH
	ret
	.size fv_flush, . - fv_flush

	/* 8: markers in the middle of one TB: 3 insns before the region,
	 * 7 in it (both markers included), 4 after; one region per pass */
	.balign 64
	.globl fv_split
	.type fv_split, @function
fv_split:
1:	lea 1(%rax), %rax
	lea 1(%rax), %rax
	lea 1(%rax), %rax
	FESIM_MARK FESIM_KIND_BEGIN, 8
	.rept 5
	lea 1(%rax), %rax
	.endr
	FESIM_MARK FESIM_KIND_END, 8
	lea 1(%rax), %rax
	lea 1(%rax), %rax
	dec %rdi
	jnz 1b
	ret
	.size fv_split, . - fv_split

	BLOCK fv_block_32k, 32768
	BLOCK fv_block_16k, 16384
	BLOCK fv_block_64k, 65536
	BLOCK fv_block_1k, 1024

	.balign 64
	.skip 32		/* fv_dense starts a fresh 32-byte window */
	.type fv_dense, @function
fv_dense:
	.balign 32
	.rept 32
	nop
	.endr
	ret
	.size fv_dense, . - fv_dense

/*
 * 4 and 5: conflict on one set. Chunk k sits at 4096 * k, so every chunk
 * maps to set 0 of a 64-set (32 KiB, 8-way, 64 B) cache. Chunks jump to
 * each other; the last one loops. With ways + 1 = 9 chunks true LRU misses
 * on every chunk; with 8 it misses only the first time.
 */
.macro CHUNK name, next
	.balign 4096
	.type \name, @function
\name:
	lea 1(%rax), %rax
	jmp \next
	.size \name, . - \name
.endm

.macro LAST_CHUNK name, first, done
	.balign 4096
	.type \name, @function
\name:
	dec %rdi
	jnz \first
	jmp \done
	.size \name, . - \name
.endm

	.section .text.fv_conflict, "ax", @progbits
	.balign 4096
	.skip 2048		/* the drivers live in set 32, not set 0 */
	.globl fv_conflict9
	.type fv_conflict9, @function
fv_conflict9:
	FESIM_MARK FESIM_KIND_BEGIN, 4
	jmp fv_c9_0
fv_c9_done:
	FESIM_MARK FESIM_KIND_END, 4
	ret
	.size fv_conflict9, . - fv_conflict9

	.balign 64
	.globl fv_conflict8
	.type fv_conflict8, @function
fv_conflict8:
	FESIM_MARK FESIM_KIND_BEGIN, 5
	jmp fv_c8_0
fv_c8_done:
	FESIM_MARK FESIM_KIND_END, 5
	ret
	.size fv_conflict8, . - fv_conflict8

	CHUNK fv_c9_0, fv_c9_1
	CHUNK fv_c9_1, fv_c9_2
	CHUNK fv_c9_2, fv_c9_3
	CHUNK fv_c9_3, fv_c9_4
	CHUNK fv_c9_4, fv_c9_5
	CHUNK fv_c9_5, fv_c9_6
	CHUNK fv_c9_6, fv_c9_7
	CHUNK fv_c9_7, fv_c9_8
	LAST_CHUNK fv_c9_8, fv_c9_0, fv_c9_done

	CHUNK fv_c8_0, fv_c8_1
	CHUNK fv_c8_1, fv_c8_2
	CHUNK fv_c8_2, fv_c8_3
	CHUNK fv_c8_3, fv_c8_4
	CHUNK fv_c8_4, fv_c8_5
	CHUNK fv_c8_5, fv_c8_6
	CHUNK fv_c8_6, fv_c8_7
	LAST_CHUNK fv_c8_7, fv_c8_0, fv_c8_done

	.section .note.GNU-stack, "", @progbits
