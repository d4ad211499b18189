/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Replacement, prefetch and two-level iTLB known answers (issue 18): a
 * freestanding static x86-64 Linux program, no libc. _start runs every
 * case once and exits; each case is one fesim region, slot = case number.
 * Run with cold=on (every region starts from empty structures) and the
 * skylake geometry: L1i 32 KiB, 8-way, 64-byte lines = 64 sets, so lines
 * 4 KiB apart share a set; L1 iTLB 128 entries 8-way = 16 sets, STLB 1536
 * entries 12-way = 128 sets. The expected counts are derived in
 * tests/fesim/test_policies.py (class PolicyCases); the layout they rely on
 * is described at each case.
 */
#include <kfront/fesim_marker.h>

	.text
	.globl _start
	.type _start, @function
_start:
	call pc_plru
	mov $10, %edi
	call pc_prefetch
	mov $10, %edi
	call pc_itlb
	mov $60, %eax		/* exit(0) */
	xor %edi, %edi
	syscall
	.size _start, . - _start

/*
 * 1: one L1i set over capacity. Line P0 (set 0) holds the markers; lines
 * A0..A7 and B sit at offset 2048 of nine consecutive pages (set 32). The
 * path: P0, A0, A1, ..., A7 (eight cold misses fill set 32's eight ways in
 * order), A0 again (a hit), B (a miss: the set is full), A1 again, back
 * to P0. Two entry points per A line (the "a" jump runs on the first
 * visit, the "b" jump on the second).
 */
	.balign 4096
	.type pc_plru, @function
pc_plru:
	FESIM_MARK FESIM_KIND_BEGIN, 1
	jmp pa0a
pc_plru_back:
	FESIM_MARK FESIM_KIND_END, 1
	ret
	.size pc_plru, . - pc_plru

.macro SET32_LINE a, b, next_a, next_b
	.balign 4096, 0xcc
	.skip 2048, 0xcc
\a:	jmp \next_a
	.balign 16, 0xcc
\b:	jmp \next_b
.endm

	SET32_LINE pa0a, pa0b, pa1a, pb
	SET32_LINE pa1a, pa1b, pa2a, pc_plru_back
	SET32_LINE pa2a, pa2b, pa3a, pc_plru_back
	SET32_LINE pa3a, pa3b, pa4a, pc_plru_back
	SET32_LINE pa4a, pa4b, pa5a, pc_plru_back
	SET32_LINE pa5a, pa5b, pa6a, pc_plru_back
	SET32_LINE pa6a, pa6b, pa7a, pc_plru_back
	SET32_LINE pa7a, pa7b, pa0b, pc_plru_back
	SET32_LINE pb, pb_unused, pa1b, pc_plru_back

/*
 * 2: a straight-line loop just over the L1i: 576 lines (36 KiB) of code,
 * 9 lines per set, run %rdi = 10 times. Line M (page-aligned) holds the
 * begin marker and falls through into the loop's first line L0 = M + 64;
 * the loop is 36855 one-byte nops, dec %rdi (3 bytes) and jnz rel32 (6
 * bytes) = 36864 bytes, so it ends on the last byte of L575 and falls
 * through into line E = L576, which starts with the end marker.
 */
	.balign 4096, 0xcc
	.type pc_prefetch, @function
pc_prefetch:
	FESIM_MARK FESIM_KIND_BEGIN, 2
	.balign 64, 0x90
1:	.fill 36855, 1, 0x90
	dec %rdi
	.byte 0x0f, 0x85		/* jnz rel32 back to 1b */
	.long 1b - (. + 4)
	FESIM_MARK FESIM_KIND_END, 2
	ret
	.size pc_prefetch, . - pc_prefetch

/*
 * 3: 144 pages, one jmp each, run %rdi = 10 times: over the L1 iTLB (9
 * pages per set of 8 ways) but within the STLB (at most 2 per set). Page
 * M holds the begin marker and jumps to page T0 = M + 4096; T0..T142 each
 * jump to the next page; T143 holds dec/jnz back to T0, the end marker
 * and ret.
 */
	.balign 4096, 0xcc
	.type pc_itlb, @function
pc_itlb:
	FESIM_MARK FESIM_KIND_BEGIN, 3
	jmp 2f
	.balign 4096, 0xcc
2:
	.rept 143
	jmp . + 4096
	.balign 4096, 0xcc
	.endr
	dec %rdi
	jnz 2b
	FESIM_MARK FESIM_KIND_END, 3
	ret
	.size pc_itlb, . - pc_itlb
