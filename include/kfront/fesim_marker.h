/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Front-end simulator markers: multi-byte NOPs the fesim QEMU plugin sees. */
#ifndef KFRONT_FESIM_MARKER_H
#define KFRONT_FESIM_MARKER_H

/*
 * A marker is the 7-byte NOP `nopl disp32(%rax)`, encoded 0f 1f 80 <disp32>,
 * with disp32 = FESIM_MAGIC | id. A NOP with a memory operand never touches
 * memory, so the marker is harmless on hardware and costs one front-end slot.
 * The plugin recognises the exact bytes when QEMU translates the code.
 *
 * id (16 bits):  bits 15..14 kind, bits 13..0 slot.
 *   kind 1 = region begin, 2 = region end, 3 = meta (slot = FESIM_META_*).
 *
 * Regions do not nest: a begin while a region is open closes the open one
 * first (the plugin counts it in "unbalanced"); an end with no open region is
 * ignored. Both marker instructions belong to the region.
 *
 * Identity: the plugin numbers region begins in execution order (seq = 0, 1,
 * 2, ...) and also counts occurrences per slot (occ). Execution is
 * deterministic, so the kernel can key its serial records by the same
 * numbers: keep a counter of region begins (or per-slot counts) and print it
 * in each record. The slot itself is a compile-time constant (it is an
 * immediate in the instruction), so use it for the kind of region (e.g. one
 * slot per call site), not for run numbers.
 *
 * This header is included by kernel C, by the validation host program and by
 * assembly (.S) files: keep it free of C outside the __ASSEMBLER__ guard.
 */
#define FESIM_MAGIC		0x4b460000	/* "KF" in the top 16 bits */
#define FESIM_MAGIC_MASK	0xffff0000
#define FESIM_KIND_SHIFT	14
#define FESIM_KIND_BEGIN	1
#define FESIM_KIND_END		2
#define FESIM_KIND_META		3
#define FESIM_SLOT_MASK		0x3fff

/* Meta operations (slot field of a meta marker). */
#define FESIM_META_DUMP		1	/* write the output file now */
#define FESIM_META_FLUSH	2	/* empty every simulated cache: what runs
					 * next does not depend on what ran before */

#define FESIM_ID(kind, slot) \
	(((kind) << FESIM_KIND_SHIFT) | ((slot) & FESIM_SLOT_MASK))
#define FESIM_DISP(kind, slot)	(FESIM_MAGIC | FESIM_ID(kind, slot))

#ifdef __ASSEMBLER__

/* Emit a marker from assembly: FESIM_MARK FESIM_KIND_BEGIN, 3 */
.macro FESIM_MARK kind, slot
	.byte 0x0f, 0x1f, 0x80
	.long FESIM_MAGIC | ((\kind) << FESIM_KIND_SHIFT) | ((\slot) & FESIM_SLOT_MASK)
.endm

#else

/*
 * Emit a marker from C. kind and slot must be compile-time constants. The
 * bytes are spelled out rather than written as `nopl` so that no assembler
 * can pick a shorter displacement encoding. "memory" keeps the compiler from
 * moving loads and stores of the measured code across the marker.
 */
#define fesim_mark(kind, slot)						\
	__asm__ __volatile__(".byte 0x0f, 0x1f, 0x80\n\t.long %c0"	\
			     : : "i" (FESIM_DISP(kind, slot)) : "memory")

#define fesim_region_begin(slot)	fesim_mark(FESIM_KIND_BEGIN, slot)
#define fesim_region_end(slot)		fesim_mark(FESIM_KIND_END, slot)
#define fesim_dump()		fesim_mark(FESIM_KIND_META, FESIM_META_DUMP)
#define fesim_flush()		fesim_mark(FESIM_KIND_META, FESIM_META_FLUSH)

#endif /* __ASSEMBLER__ */

#endif /* KFRONT_FESIM_MARKER_H */
