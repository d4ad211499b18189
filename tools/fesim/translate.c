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
 * What the uop cache needs to know of an instruction (docs/fesim.md, "Uop
 * cache"): its slots, whether it is a branch, an unconditional one, or
 * microcoded, and whether it can be the first half of a macro-fused pair.
 * Real uop counts need a decoder table per CPU; we count one slot per
 * instruction, two for `movabs $imm64` (a 64-bit immediate takes two slots
 * [IOM, Decoded ICache]), one for a fused pair, a whole way for the
 * microcoded instructions listed in insn_is_msrom().
 */
enum fuse_kind { FUSE_NONE, FUSE_ALL, FUSE_ARITH, FUSE_INCDEC };

struct insn_class {
	u8 uops, flags;
	u8 fuse;		/* enum fuse_kind as the first of a pair */
	int jcc;		/* condition code 0..15 of a jcc, else -1 */
};

/* Past the legacy and REX prefixes; *@rep set by F2/F3. */
static size_t skip_prefixes(const u8 *d, size_t size, bool *rep, bool *rexw)
{
	size_t i = 0;

	*rep = *rexw = false;
	while (i < size) {
		u8 b = d[i];

		if (b == 0xf2 || b == 0xf3)
			*rep = true;
		else if (b != 0x66 && b != 0x67 && b != 0xf0 && b != 0x2e &&
			 b != 0x36 && b != 0x3e && b != 0x26 && b != 0x64 &&
			 b != 0x65 && (b & 0xf0) != 0x40)
			break;
		if ((b & 0xf0) == 0x40)
			*rexw = b & 8;
		else
			*rexw = false;	/* REX counts only right before */
		i++;
	}
	return i;
}

/*
 * Microcoded (MSROM) instructions, from Agner Fog's instruction tables and
 * uops.info for Skylake (more than 4 uops): rep string operations, cpuid,
 * rdtsc(p), rdpmc, rd/wrmsr, mov to a control register, 32/64-bit div and
 * idiv, in/out, int, iret, popf. Anything else counts as one slot.
 */
static bool insn_is_msrom(const u8 *op, size_t n, bool rep)
{
	u8 b = op[0];
	u8 reg = n > 1 ? op[1] >> 3 & 7 : 0;

	if (rep && ((b >= 0xa4 && b <= 0xa7) || (b >= 0xaa && b <= 0xaf) ||
		    (b >= 0x6c && b <= 0x6f)))
		return true;
	if (b == 0x0f && n > 1)
		return op[1] == 0xa2 || op[1] == 0x31 || op[1] == 0x32 ||
		       op[1] == 0x33 || op[1] == 0x30 || op[1] == 0x22 ||
		       (op[1] == 0x01 && n > 2 && op[2] == 0xf9);
	if (b == 0xf7 && (reg == 6 || reg == 7))
		return true;
	return (b >= 0xe4 && b <= 0xe7) || (b >= 0xec && b <= 0xef) ||
	       b == 0xcd || b == 0xcf || b == 0x9d;
}

/* The macro-fusion class of an instruction as the first of a pair [IOM,
 * "Macro-fusion" table for Sandy Bridge and later]: TEST/AND fuse with
 * every jcc, CMP/ADD/SUB with all but jo/jno/js/jns/jp/jnp, INC/DEC with
 * je/jne/jl/jge/jle/jg. Not with a memory operand and an immediate, nor
 * ADD/SUB/AND/INC/DEC with a memory destination. */
static u8 insn_fuse_kind(const u8 *op, size_t n)
{
	u8 b = op[0], mod = n > 1 ? op[1] >> 6 : 0, reg = n > 1 ? op[1] >> 3 & 7 : 0;
	bool regop = mod == 3;

	if (b == 0xa8 || b == 0xa9 || b == 0x24 || b == 0x25)
		return FUSE_ALL;			/* test/and al/eax, imm */
	if (b == 0x3c || b == 0x3d || b == 0x04 || b == 0x05 || b == 0x2c ||
	    b == 0x2d)
		return FUSE_ARITH;			/* cmp/add/sub al/eax, imm */
	if (n < 2)
		return FUSE_NONE;
	if (b == 0x84 || b == 0x85)
		return FUSE_ALL;			/* test r/m, r */
	if (b >= 0x38 && b <= 0x3b)
		return FUSE_ARITH;			/* cmp r/m, r and r, r/m */
	if ((b == 0x20 || b == 0x21 || b == 0x22 || b == 0x23) &&
	    (regop || b >= 0x22))
		return FUSE_ALL;			/* and */
	if ((b <= 0x03 || (b >= 0x28 && b <= 0x2b)) &&
	    (regop || (b & 2)))
		return FUSE_ARITH;			/* add, sub */
	if ((b == 0xf6 || b == 0xf7) && reg == 0 && regop)
		return FUSE_ALL;			/* test r, imm */
	if ((b == 0x80 || b == 0x81 || b == 0x83) && regop) {
		if (reg == 4)
			return FUSE_ALL;		/* and r, imm */
		if (reg == 7 || reg == 0 || reg == 5)
			return FUSE_ARITH;		/* cmp/add/sub r, imm */
	}
	if ((b == 0xfe || b == 0xff) && reg <= 1 && regop)
		return FUSE_INCDEC;
	return FUSE_NONE;
}

static bool fuses_with(u8 kind, int cc)
{
	switch (kind) {
	case FUSE_ALL:
		return true;
	case FUSE_ARITH:	/* not o/no (0,1), s/ns (8,9), p/np (a,b) */
		return cc >= 2 && cc != 8 && cc != 9 && cc != 10 && cc != 11;
	case FUSE_INCDEC:	/* e/ne, l/ge/le/g */
		return cc == 4 || cc == 5 || cc >= 12;
	}
	return false;
}

static struct insn_class classify(const u8 *d, size_t size)
{
	struct insn_class c = { .uops = 1, .jcc = -1 };
	bool rep, rexw;
	size_t p = skip_prefixes(d, size, &rep, &rexw);
	const u8 *op = d + p;
	size_t n = size - p;
	u8 b, reg;

	if (!n)
		return c;
	b = op[0];
	reg = n > 1 ? op[1] >> 3 & 7 : 0;
	if (rexw && (b & 0xf8) == 0xb8)
		c.uops = 2;			/* movabs $imm64 */
	if ((b >= 0x70 && b <= 0x7f) ||
	    (b == 0x0f && n > 1 && op[1] >= 0x80 && op[1] <= 0x8f)) {
		c.flags = UI_BRANCH;
		c.jcc = (b == 0x0f ? op[1] : b) & 0xf;
	} else if (b >= 0xe0 && b <= 0xe3) {
		c.flags = UI_BRANCH;		/* loop*, jrcxz */
	} else if (b == 0xe8 || b == 0xe9 || b == 0xeb || b == 0xc3 ||
		   b == 0xc2 || b == 0xca || b == 0xcb ||
		   (b == 0xff && n > 1 && reg >= 2 && reg <= 5)) {
		c.flags = UI_BRANCH | UI_UNCOND;	/* call, jmp, ret */
	} else if (b == 0xcf || (b == 0x0f && n > 1 &&
				 (op[1] == 0x05 || op[1] == 0x07))) {
		c.flags = UI_BRANCH | UI_UNCOND | UI_MSROM;	/* iret, sys* */
	}
	if (insn_is_msrom(op, n, rep))
		c.flags |= UI_MSROM;
	c.fuse = c.flags ? FUSE_NONE : insn_fuse_kind(op, n);
	return c;
}

/* A jump touching a 32-byte boundary [Intel, JCC erratum white paper]:
 * it crosses one, or its last byte is the last byte of a 32-byte block. */
static bool touches_32b_boundary(u64 start, u64 end)
{
	return start >> 5 != (end - 1) >> 5 || !(end & 31);
}

struct builder {
	struct tb_info *ti;
	u32 cap_blk;		/* blocks reserved per granularity */
	struct seg *seg;	/* the segment being filled */
	bool opened[FESIM_MAX_GRAN];	/* this insn's first block was new */
	u32 n_uins[FESIM_MAX_GRAN];	/* descriptors per window granularity */
	u32 cap_uins;		/* descriptors reserved per granularity */
};

/* One instruction of the TB before it is added: address and uop class. */
struct tb_insn {
	u64 va;
	u32 size;
	u16 marker;
	struct insn_class cls;
	struct insn_info info;	/* classes counted per execution */
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
static struct blk *add_blk(struct builder *b, int g, u64 id,
			   bool first_half, u32 uops)
{
	struct seg *s = b->seg;
	struct blk *last = s->blk_n[g] ?
		&b->ti->blks[s->blk_first[g] + s->blk_n[g] - 1] : NULL;

	if (last && last->id == id) {
		last->uops += uops;
		if (first_half)
			b->opened[g] = false;
		return last;
	}
	last = &b->ti->blks[s->blk_first[g] + s->blk_n[g]++];
	last->id = id;
	last->uops = uops;
	last->cont = !first_half && b->opened[g];
	last->ins_n = 0;
	last->ins_first = g * b->cap_uins + b->n_uins[g];
	if (first_half)
		b->opened[g] = true;
	return last;
}

/* The instruction as the uop cache of window granularity @g sees it. */
static void add_uinsn(struct builder *b, int g, struct blk *blk, u64 va,
		      u32 size, const struct insn_class *c)
{
	struct uinsn *u = &b->ti->uins[g * b->cap_uins + b->n_uins[g]++];
	u32 off = va & ((1u << fs.gran_shift[g]) - 1);

	u->off = off;
	u->end = off + size;
	u->uops = c->uops;
	u->flags = c->flags;
	blk->ins_n++;
}

static void add_insn(struct builder *b, u64 va, u32 size,
		     const struct insn_class *c)
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
			add_uinsn(b, g, add_blk(b, g, va >> sh, true, c->uops),
				  va, size, c);
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

/* A segment lies in one function (attrib.c): start a new one where the
 * function changes (a TB that falls through into the next symbol). */
static void seg_set_fn(struct builder *b, u64 va)
{
	u32 fn;

	if (!attrib_on())
		return;
	fn = attrib_fn_of(va);
	if (b->seg->n_insns && b->seg->fn != fn)
		seg_start(b, 0);
	b->seg->fn = fn;
}

/* The static instruction classes of one instruction, added to its run. */
static void seg_add_classes(struct seg *s, const struct insn_info *info)
{
	u32 m = info->mask;

	s->cls_mask |= m;
	for (; m; m &= m - 1)
		s->cls[__builtin_ctz(m)]++;
}

/*
 * Macro-fusion and the JCC erratum look at pairs: a fusible instruction
 * followed by a jcc it fuses with, both in one 64-byte line (Intel: no
 * fusion across a cache line), becomes one slot carrying the branch; the
 * erratum applies to the whole pair.
 */
static void resolve_pairs(struct tb_insn *in, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		struct insn_class *c = &in[i].cls;
		u64 start = in[i].va, end = in[i].va + in[i].size;
		struct insn_class *carrier = c;

		if (!(c->flags & UI_BRANCH))
			continue;
		if (c->jcc >= 0 && i && fuses_with(in[i - 1].cls.fuse, c->jcc) &&
		    in[i - 1].va >> 6 == (end - 1) >> 6) {
			carrier = &in[i - 1].cls;
			carrier->flags |= UI_BRANCH;
			start = in[i - 1].va;
			c->uops = 0;
			c->flags = 0;
		}
		if (touches_32b_boundary(start, end))
			carrier->flags |= UI_JCC_ERRATUM;
	}
}

static size_t align8(size_t x)
{
	return (x + 7) & ~(size_t)7;
}

/*
 * Move what the builder made into one allocation holding only what is
 * used: the TB info, its segments, their memos, then each granularity's
 * blocks, the footprint records and the uop descriptors, back to back.
 * tb_exec() reads all of them on every run of the TB; the builder's arrays
 * are sized for the worst case (mostly empty) and spread over many cache
 * lines, which made the exec callback wait on memory.
 */
static struct tb_info *tb_pack(struct builder *b)
{
	struct tb_info *old = b->ti, *ti;
	struct seg *last = &old->segs[old->n_segs - 1];
	u32 n_blk[FESIM_MAX_GRAN], blk_base[FESIM_MAX_GRAN];
	u32 uin_base[FESIM_MAX_GRAN];
	u32 tot_blk = 0, tot_uins = 0, n_fp = last->fp_first + last->fp_n;
	size_t n_memo = (size_t)old->n_segs * fs.n_models;
	size_t o_segs, o_memos, o_blks, o_fps, o_uins, size;
	u32 i, j;
	int g;
	char *mem;

	for (g = 0; g < fs.n_gran; g++) {
		n_blk[g] = last->blk_first[g] + last->blk_n[g] - g * b->cap_blk;
		blk_base[g] = tot_blk;
		tot_blk += n_blk[g];
		uin_base[g] = tot_uins;
		tot_uins += b->n_uins[g];
	}
	o_segs = align8(sizeof(*ti));
	o_memos = align8(o_segs + sizeof(struct seg) * old->n_segs);
	o_blks = align8(o_memos + sizeof(struct memo) * n_memo);
	o_fps = align8(o_blks + sizeof(struct blk) * tot_blk);
	o_uins = align8(o_fps + sizeof(struct fp_ref) * n_fp);
	size = o_uins + sizeof(struct uinsn) * (tot_uins ? tot_uins : 1);
	mem = calloc(1, size);
	if (!mem)
		abort();
	fs.st.tb_bytes += size;
	ti = (struct tb_info *)mem;
	*ti = *old;
	ti->segs = (struct seg *)(mem + o_segs);
	ti->memos = (struct memo *)(mem + o_memos);
	ti->blks = (struct blk *)(mem + o_blks);
	ti->fps = (struct fp_ref *)(mem + o_fps);
	ti->uins = (struct uinsn *)(mem + o_uins);
	memcpy(ti->segs, old->segs, sizeof(struct seg) * old->n_segs);
	memcpy(ti->fps, old->fps, sizeof(struct fp_ref) * n_fp);
	for (g = 0; g < fs.n_gran; g++) {
		u32 from = g * b->cap_blk;

		for (j = 0; j < n_blk[g]; j++) {
			struct blk *d = &ti->blks[blk_base[g] + j];

			*d = old->blks[from + j];
			if (fs.gran_is_win[g])
				d->ins_first = d->ins_first - g * b->cap_uins +
					       uin_base[g];
		}
		memcpy(ti->uins + uin_base[g], old->uins + g * b->cap_uins,
		       sizeof(struct uinsn) * b->n_uins[g]);
		for (i = 0; i < ti->n_segs; i++)
			ti->segs[i].blk_first[g] = ti->segs[i].blk_first[g] -
						   from + blk_base[g];
	}
	free(old->segs);
	free(old->blks);
	free(old->fps);
	free(old->uins);
	free(old);
	return ti;
}

/* QEMU's TARGET_PAGE_SIZE for x86: the page a TB may not leave, whatever
 * the guest's own page size. */
#define TB_PAGE_SIZE 4096u

/*
 * QEMU 7.2 does not let an instruction other than a TB's first reach
 * into a second page: when decoding one would read a byte past the TB's
 * first page, it drops the instruction and ends the TB before it, and the
 * next TB starts with it. But the plugin API still lists what it had read
 * of that instruction as the TB's last. That instruction does not run
 * there: counted, it would run twice per pass, the next TB's start would
 * look like a branch back to it, and the windows it lies in would be
 * entered twice. It is known by its bytes: the last of two or more, they
 * end within 7 bytes of the page's end (the read that stopped QEMU is at
 * most 8 bytes long) and are not a whole instruction (insn_length()).
 * A QEMU that drops it from the list itself never shows one.
 */
static bool rolled_back(u64 tb_va, u64 va, size_t size, const u8 *d)
{
	u64 page_end = (tb_va & ~(u64)(TB_PAGE_SIZE - 1)) + TB_PAGE_SIZE;

	return va + size <= page_end && va + size + 8 > page_end &&
	       insn_length(d, size) == 0;
}

struct tb_info *tb_analyse(struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb), i;
	struct builder b = { 0 };
	struct tb_info *ti;
	struct tb_insn *in;

	ti = calloc(1, sizeof(*ti));
	if (!ti)
		abort();	/* a TB callback has no way to report it */
	in = calloc(n ? n : 1, sizeof(*in));
	b.ti = ti;
	/* an instruction touches at most two blocks at any granularity
	 * (x86 instructions are <= 15 bytes, blocks >= 32) */
	b.cap_blk = 2 * n + 2;
	b.cap_uins = n ? n : 1;
	/* segments index blocks in 16 bits (QEMU's TBs hold at most 512
	 * instructions: 6156 blocks at six granularities) */
	if ((u64)b.cap_blk * (fs.n_gran ? fs.n_gran : 1) > 0xffff)
		abort();
	ti->segs = malloc(sizeof(*ti->segs) * (n + 2));
	ti->blks = malloc(sizeof(*ti->blks) * b.cap_blk * (fs.n_gran ? fs.n_gran : 1));
	ti->fps = malloc(sizeof(*ti->fps) * b.cap_blk);
	ti->uins = malloc(sizeof(*ti->uins) * b.cap_uins *
			  (fs.n_gran ? fs.n_gran : 1));
	if (!ti || !in || !ti->segs || !ti->blks || !ti->fps || !ti->uins)
		abort();
	ti->vaddr = qemu_plugin_tb_vaddr(tb);
	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		const u8 *d = qemu_plugin_insn_data(insn);

		in[i].va = qemu_plugin_insn_vaddr(insn);
		in[i].size = qemu_plugin_insn_size(insn);
		if (i && i == n - 1 &&
		    rolled_back(ti->vaddr, in[i].va, in[i].size, d)) {
			fs.st.rolled_back++;
			n--;
			break;
		}
		in[i].marker = marker_id(d, in[i].size);
		in[i].cls = classify(d, in[i].size);
		insn_classes(d, in[i].size, in[i].va, &in[i].info);
	}
	resolve_pairs(in, n);
	seg_start(&b, 0);
	for (i = 0; i < n; i++) {
		u16 id = in[i].marker;

		/* both markers belong to their region: split before a begin,
		 * after an end or meta marker */
		if (id >> FESIM_KIND_SHIFT == FESIM_KIND_BEGIN)
			seg_start(&b, id);
		seg_set_fn(&b, in[i].va);
		add_insn(&b, in[i].va, in[i].size, &in[i].cls);
		seg_add_classes(b.seg, &in[i].info);
		if (id && id >> FESIM_KIND_SHIFT != FESIM_KIND_BEGIN)
			seg_start(&b, id);
	}
	ti->end = n ? in[n - 1].va + in[n - 1].size : ti->vaddr;
	if (n) {
		/* QEMU ends a TB after a rep string op, one pass per run */
		ti->rep = in[n - 1].info.rep;
		ti->rep_va = in[n - 1].va;
		ti->last_branch = in[n - 1].info.branch;
	}
	free(in);
	fs.n_translations++;
	return tb_pack(&b);
}
