/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Translation time: turn a TB into segments of lines, windows and pages. */
#include <stdlib.h>
#include <string.h>

#include "fesim.h"
#include "qemu_plugin_api.h"
#include <kfront/fesim_marker.h>

/* Marker id (non-zero) if the instruction is `nopl FESIM_MAGIC+id(%rax)`. */
static u16 marker_id(const u8 *d, size_t size)
{
	u32 disp;

	if (size != 7 || d[0] != 0x0f || d[1] != 0x1f || d[2] != 0x80)
		return 0;
	disp = d[3] | d[4] << 8 | d[5] << 16 | (u32)d[6] << 24;
	if ((disp & FESIM_MAGIC_MASK) != FESIM_MAGIC)
		return 0;
	if (!(disp >> FESIM_KIND_SHIFT & 3))
		return 0;	/* kind 0 is not a marker */
	return disp & 0xffff;
}

/*
 * Uops per instruction: 1, except that `movabs $imm64, %reg` (REX.W B8+r,
 * 10 bytes) takes two uop-cache slots [IOM, Decoded ICache rules]. Real uop
 * counts need a decoder table per CPU; one per instruction is the usual
 * approximation and it is the same for every compiler variant.
 */
static u32 insn_uops(const u8 *d, size_t size)
{
	if (size == 10 && (d[0] & 0xf8) == 0x48 && (d[1] & 0xf8) == 0xb8)
		return 2;
	return 1;
}

struct builder {
	struct tb_info *ti;
	u32 cap_blk;		/* blocks reserved per granularity */
	struct seg *seg;	/* the segment being filled */
	bool opened[FESIM_MAX_GRAN];	/* this insn's first block was new */
};

static void seg_start(struct builder *b, u16 action)
{
	struct tb_info *ti = b->ti;
	struct seg *s = b->seg;
	int g;

	if (s && !s->n_insns && !s->action) {
		s->action = action;
		return;
	}
	s = &ti->segs[ti->n_segs++];
	memset(s, 0, sizeof(*s));
	s->action = action;
	for (g = 0; g < fs.n_gran; g++) {
		s->blk_first[g] = b->seg ? b->seg->blk_first[g] + b->seg->blk_n[g]
					 : g * b->cap_blk;
	}
	s->fp_first = b->seg ? b->seg->fp_first + b->seg->fp_n : 0;
	b->seg = s;
	memset(b->opened, 0, sizeof(b->opened));
}

/* Append block @id at granularity @g unless it continues the last one. */
static void add_blk(struct builder *b, int g, u64 id, bool first_half,
		    u32 uops)
{
	struct seg *s = b->seg;
	struct blk *last = s->blk_n[g] ?
		&b->ti->blks[s->blk_first[g] + s->blk_n[g] - 1] : NULL;

	if (last && last->id == id) {
		last->uops += uops;
		if (first_half)
			b->opened[g] = false;
		return;
	}
	last = &b->ti->blks[s->blk_first[g] + s->blk_n[g]++];
	last->id = id;
	last->uops = uops;
	last->cont = !first_half && b->opened[g];
	if (first_half)
		b->opened[g] = true;
}

static void add_insn(struct builder *b, u64 va, u32 size, u32 uops)
{
	struct seg *s = b->seg;
	u64 end = va + size - 1, id, a;
	int g;

	s->n_insns++;
	s->n_bytes += size;
	for (g = 0; g < fs.n_gran; g++) {
		u32 sh = fs.gran_shift[g];

		if (fs.gran_is_win[g]) {
			/* an instruction belongs to the window it starts in */
			add_blk(b, g, va >> sh, true, uops);
			continue;
		}
		for (id = va >> sh; id <= end >> sh; id++)
			add_blk(b, g, id, id == va >> sh, 0);
	}
	/* footprint: byte mask per 64-byte line */
	for (a = va; a <= end; a = (a | 63) + 1) {
		u64 line = a >> FESIM_FP_SHIFT;
		u64 last = (end >> FESIM_FP_SHIFT) == line ? end : (a | 63);
		u32 lo = a & 63, hi = last & 63;
		u64 mask = (hi == 63 ? ~0ULL : (1ULL << (hi + 1)) - 1) &
			   ~((1ULL << lo) - 1);
		struct fp_ref *r = s->fp_n ? &b->ti->fps[s->fp_first +
							 s->fp_n - 1] : NULL;

		if (r && r->rec->line == line) {
			r->mask |= mask;
			continue;
		}
		r = &b->ti->fps[s->fp_first + s->fp_n++];
		r->rec = fp_lookup(line);
		r->mask = mask;
	}
}

struct tb_info *tb_analyse(struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb), i;
	struct builder b = { 0 };
	struct tb_info *ti;
	u64 va = 0;
	u32 size = 0;

	ti = calloc(1, sizeof(*ti));
	if (!ti)
		abort();	/* a TB callback has no way to report it */
	b.ti = ti;
	/* an instruction touches at most two blocks at any granularity
	 * (x86 instructions are <= 15 bytes, blocks >= 32) */
	b.cap_blk = 2 * n + 2;
	ti->segs = malloc(sizeof(*ti->segs) * (n + 2));
	ti->blks = malloc(sizeof(*ti->blks) * b.cap_blk * (fs.n_gran ? fs.n_gran : 1));
	ti->fps = malloc(sizeof(*ti->fps) * b.cap_blk);
	if (!ti->segs || !ti->blks || !ti->fps)
		abort();
	ti->vaddr = qemu_plugin_tb_vaddr(tb);
	seg_start(&b, 0);
	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		const u8 *d = qemu_plugin_insn_data(insn);
		u16 id;

		va = qemu_plugin_insn_vaddr(insn);
		size = qemu_plugin_insn_size(insn);
		id = marker_id(d, size);
		/* both markers belong to their region: split before a begin,
		 * after an end or meta marker */
		if (id >> FESIM_KIND_SHIFT == FESIM_KIND_BEGIN)
			seg_start(&b, id);
		add_insn(&b, va, size, insn_uops(d, size));
		if (id && id >> FESIM_KIND_SHIFT != FESIM_KIND_BEGIN)
			seg_start(&b, id);
	}
	ti->end = n ? va + size : ti->vaddr;
	ti->memos = calloc((size_t)ti->n_segs * fs.n_models, sizeof(*ti->memos));
	if (!ti->memos)
		abort();
	fs.n_translations++;
	return ti;
}
