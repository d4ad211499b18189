/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One segment run through one model's front end: the L1i with its
 * prefetch, the uop cache by the rules docs/fesim.md lists, the two-level
 * iTLB; and what the run's replay memo records (memo.c replays it).
 */
#include "fesim.h"

/* Set stamps (struct model): the set of @blk changed under the current
 * generation (called after the gen_bump() of the change). */
static void stamp_set(u64 *stamp, u32 sets, u64 blk, const struct model *m)
{
	stamp[blk & (sets - 1)] = m->gen;
}

static void l1i_changed(struct model *m, u64 line)
{
	stamp_set(m->l1i_stamp, m->l1i.sets, line, m);
}

static void uop_changed(struct model *m, u64 win)
{
	stamp_set(m->uop_stamp, m->uop.sets, win, m);
}

static void itlb_changed(struct model *m, u64 page)
{
	stamp_set(m->itlb_stamp, m->itlb.sets, page, m);
}

/* Invalidate the uop-cache windows of an evicted L1i line. */
static void evict_windows(struct model *m, u64 line)
{
	u64 lo = (line << m->line_shift) >> m->win_shift;
	u64 hi = (((line + 1) << m->line_shift) - 1) >> m->win_shift;

	for (; lo <= hi; lo++) {
		uop_invalidate(&m->uop, lo);
		uop_changed(m, lo);
	}
}

/*
 * Tagged next-line prefetch (docs/fesim.md, "Replacement and prefetch"):
 * a demand miss on @line, or the first use of a line a prefetch brought
 * in, prefetches line + 1 unless it is present. A prefetched line is not
 * a demand miss: its first use is a hit that prefetches the next one.
 */
static void prefetch_next(struct model *m, u64 line, struct model_ctr *d)
{
	u64 victim = FESIM_NO_TAG;

	if (!sa_prefetch(&m->l1i, line + 1, &victim))
		return;
	l1i_changed(m, line + 1);
	d->l1i_prefetches++;
	if (m->cfg.uop_inclusive && victim != FESIM_NO_TAG)
		evict_windows(m, victim);
}

static void run_l1i(struct model *m, const struct blk *b, u32 n, bool taken,
		    struct model_ctr *d)
{
	bool prev_missed = false;
	u64 victim = FESIM_NO_TAG;
	u32 j;
	int r;

	for (j = 0; j < n; j++) {
		/* still in the line the last fetch used: no new access */
		if (!j && !taken && b[0].id == m->rs.line)
			continue;
		d->l1i_accesses++;
		m->rs.line = b[j].id;
		if (sa_is_mru(&m->l1i, b[j].id)) {
			prev_missed = false;
			continue;
		}
		r = sa_access(&m->l1i, b[j].id, &victim);
		if (r != SA_HIT || sa_hit_changes(&m->l1i)) {
			gen_bump(m);
			l1i_changed(m, b[j].id);
		}
		if (r != SA_MISS) {
			prev_missed = false;
			if (r == SA_HIT_PF && m->cfg.l1i_prefetch)
				prefetch_next(m, b[j].id, d);
			continue;
		}
		d->l1i_misses++;
		/* one instruction missing in both its lines is one
		 * instruction miss, as cachegrind counts it */
		if (!(b[j].cont && prev_missed))
			d->l1i_insn_misses++;
		prev_missed = true;
		if (m->cfg.uop_inclusive && victim != FESIM_NO_TAG)
			evict_windows(m, victim);
		if (m->cfg.l1i_prefetch)
			prefetch_next(m, b[j].id, d);
	}
}

/* Uops of instructions @k.. of window block @b (all of them: the sum the
 * translation stored, without a loop over the instructions). */
static u32 uins_uops(const struct blk *b, const struct uinsn *in, u32 k)
{
	u32 uops = 0, n = b->ins_n;

	if (!k)
		return b->uops;
	for (; k < n; k++)
		uops += in[k].uops;
	return uops;
}

static void uop_deliver(struct model_ctr *d, bool hit, u32 uops)
{
	if (hit)
		d->uop_hit_uops += uops;
	else
		d->uop_miss_uops += uops;
}

/*
 * The entry being filled was dropped: it needs more ways than a window may
 * use. Such an entry is never cached, and if nothing else changed since its
 * lookup (no eviction it forced, no other lookup that was not an MRU hit)
 * the caches are exactly as they were before it: the generation goes back
 * to the one they had then, so the replay memos recorded under it stay
 * usable. Without this every lookup of a window that can never be cached
 * would end the memo of all the code around it.
 */
static void fill_dropped(struct model *m)
{
	if (m->fill_pure && m->gen == m->fill_gen &&
	    m->uop.changes == m->fill_changes)
		m->gen = m->fill_base;
}

/*
 * Fill mode: the legacy decoders deliver instructions @k.. and the uop
 * cache stores them in the entry the stream started, way by way. A jump
 * the JCC erratum hits makes the whole window uncacheable; an entry that
 * needs more ways than a window may use is dropped. Either way the rest of
 * the stream comes from the legacy decoders (legacy mode).
 */
static void uop_fill(struct model *m, u64 win, const struct uinsn *in,
		     u32 k, u32 n)
{
	u32 ways = m->pack.ways, grown = ways, end = 0;

	if (m->rs.uop_mode != UOP_FILL)
		return;
	/*
	 * The entry is grown only when the packing opens a way (the one
	 * step that can evict or fail) and its end is set once after the
	 * block: the same state as growing it instruction by instruction,
	 * without a set search per instruction (the hot spot of fills).
	 */
	for (; k < n; k++) {
		if (m->cfg.uop_jcc_erratum && in[k].flags & UI_JCC_ERRATUM) {
			uop_nocache_add(&m->uop, win);
			m->rs.uop_mode = UOP_LEGACY;
			return;
		}
		ways = uop_pack(&m->pack, &in[k], m->cfg.uop_per_way);
		end = in[k].end;
		if (ways != grown) {
			grown = ways;
			if (!uop_grow(&m->uop, win, m->rs.uop_entry, ways,
				      end)) {
				m->rs.uop_mode = UOP_LEGACY;
				fill_dropped(m);
				return;
			}
		}
	}
	if (end && !uop_grow(&m->uop, win, m->rs.uop_entry, ways, end)) {
		m->rs.uop_mode = UOP_LEGACY;
		fill_dropped(m);
	}
}

/*
 * A lookup at instruction @k of a window block: the stream enters the window
 * there (a taken branch landed, the fetch moved into a new window, or the
 * stream went past what its cached entry holds). Returns the index of the
 * first instruction it does not deliver (n, or where a shorter cached entry
 * ends and the next lookup starts).
 */
static u32 uop_enter(struct model *m, const struct blk *b,
		     const struct uinsn *in, u32 k, struct model_ctr *d)
{
	u32 off = in[k].off, n = b->ins_n, j, others;
	struct uop_entry *e;
	u64 gen;

	d->uop_lookups++;
	m->rs.win = b->id;
	m->rs.uop_entry = off;
	if (uop_is_mru(&m->uop, b->id, off, in[n - 1].end)) {
		/* changes no state: no gen bump */
		m->rs.uop_mode = UOP_HIT;
		uop_deliver(d, true, uins_uops(b, in, k));
		m->rs.uop_end = uop_mru_entry(&m->uop, b->id)->end;
		return n;
	}
	if (m->cfg.uop_jcc_erratum && uop_nocache_has(&m->uop, b->id)) {
		m->rs.uop_mode = UOP_LEGACY;
		d->uop_misses++;
		uop_deliver(d, false, uins_uops(b, in, k));
		return n;
	}
	gen = m->gen;
	e = uop_lookup(&m->uop, b->id, off, &others);
	if (e && e->end > off) {
		if (uop_hit_changes(&m->uop)) {
			gen_bump(m);
			uop_changed(m, b->id);
		}
		m->rs.uop_mode = UOP_HIT;
		m->rs.uop_end = e->end;
		/* the usual case: the entry holds the rest of the block */
		if (in[n - 1].off < e->end) {
			d->uop_hit_uops += uins_uops(b, in, k);
			return n;
		}
		for (j = k; j < n && in[j].off < e->end; j++)
			d->uop_hit_uops += in[j].uops;
		return j;
	}
	gen_bump(m);
	uop_changed(m, b->id);
	d->uop_misses++;
	uop_deliver(d, false, uins_uops(b, in, k));
	/* a lookup that found nothing changed nothing (fill_dropped()) */
	m->fill_pure = !e;
	m->fill_base = gen;
	m->fill_gen = m->gen;
	m->fill_changes = m->uop.changes;
	m->rs.uop_mode = uop_insert(&m->uop, b->id, off, e ? NULL : &others) ?
			 UOP_FILL : UOP_LEGACY;
	uop_pack_start(&m->pack);
	uop_fill(m, b->id, in, k, n);
	return n;
}

/*
 * Fall-through within the window of the running stream: a hit stream
 * delivers from its entry as far as the entry reaches (then a lookup where
 * it ends), a filling stream keeps filling (a not-taken branch does not stop
 * it), a legacy one stays legacy until the next lookup.
 */
static u32 uop_continue(struct model *m, const struct blk *b,
			const struct uinsn *in, struct model_ctr *d)
{
	u32 n = b->ins_n, j;

	switch (m->rs.uop_mode) {
	case UOP_HIT:
		/* the usual case: the entry holds the whole block */
		if (in[n - 1].off < m->rs.uop_end) {
			d->uop_hit_uops += b->uops;
			return n;
		}
		for (j = 0; j < n && in[j].off < m->rs.uop_end; j++)
			d->uop_hit_uops += in[j].uops;
		return j;
	case UOP_FILL:
		/* a generation the fill did not set: something else changed */
		if (m->gen != m->fill_gen)
			m->fill_pure = false;
		gen_bump(m);
		uop_changed(m, b->id);
		m->fill_gen = m->gen;
		uop_deliver(d, false, b->uops);
		uop_fill(m, b->id, in, 0, n);
		return n;
	default:
		uop_deliver(d, false, b->uops);
		return n;
	}
}

static void run_uop(struct model *m, const struct tb_info *ti,
		    const struct blk *b, u32 n, bool taken,
		    struct model_ctr *d)
{
	u32 j, k;

	for (j = 0; j < n; j++) {
		const struct uinsn *in = ti->uins + b[j].ins_first;

		if (!b[j].ins_n)
			continue;
		if (!j && !taken && b[0].id == m->rs.win)
			k = uop_continue(m, &b[j], in, d);
		else
			k = uop_enter(m, &b[j], in, 0, d);
		while (k < b[j].ins_n)
			k = uop_enter(m, &b[j], in, k, d);
	}
}

/*
 * Two-level iTLB: an L1 iTLB miss looks the page up in the second-level
 * TLB (both fill on a miss); a miss there too is a page walk, the
 * itlb_misses counter. Without an STLB every L1 miss is a walk.
 */
static void run_itlb(struct model *m, const struct blk *b, u32 n,
		     struct model_ctr *d)
{
	u64 victim;
	u32 j;
	int r;

	for (j = 0; j < n; j++) {
		if (b[j].id == m->rs.page)
			continue;
		d->itlb_accesses++;
		m->rs.page = b[j].id;
		if (sa_is_mru(&m->itlb, b[j].id))
			continue;
		r = sa_access(&m->itlb, b[j].id, &victim);
		if (r != SA_HIT || sa_hit_changes(&m->itlb)) {
			gen_bump(m);
			itlb_changed(m, b[j].id);
		}
		if (r != SA_MISS)
			continue;
		d->itlb_l1_misses++;
		if (!m->stlb.tags ||
		    sa_access(&m->stlb, b[j].id, &victim) == SA_MISS)
			d->itlb_misses++;
	}
}

__attribute__((noinline)) void
run_model(const struct tb_info *ti, const struct seg *s, struct model *m,
	  struct memo *mo, bool taken, struct model_ctr *d)
{
	/* what the memo records, before the run */
	u64 l1i_accesses = d->l1i_accesses, uop_lookups = d->uop_lookups;
	u64 uop_misses = d->uop_misses, uop_hit_uops = d->uop_hit_uops;
	u64 uop_miss_uops = d->uop_miss_uops;
	u64 itlb_accesses = d->itlb_accesses;
	u64 gen = m->gen;

	run_state_save(m, &mo->pre);
	run_l1i(m, ti->blks + s->blk_first[m->g_line], s->blk_n[m->g_line],
		taken, d);
	run_uop(m, ti, ti->blks + s->blk_first[m->g_win], s->blk_n[m->g_win],
		taken, d);
	run_itlb(m, ti->blks + s->blk_first[m->g_page], s->blk_n[m->g_page],
		 d);
	mo->valid = m->gen == gen;
	if (!mo->valid)
		return;
	mo->gen = gen;
	mo->taken = taken;
	mo->l1i_accesses = d->l1i_accesses - l1i_accesses;
	mo->uop_lookups = d->uop_lookups - uop_lookups;
	/* lookups of a window the JCC erratum keeps out of the cache miss
	 * without changing any state */
	mo->uop_misses = d->uop_misses - uop_misses;
	mo->uop_hit_uops = d->uop_hit_uops - uop_hit_uops;
	mo->uop_miss_uops = d->uop_miss_uops - uop_miss_uops;
	mo->itlb_accesses = d->itlb_accesses - itlb_accesses;
	run_state_save(m, &mo->post);
}
