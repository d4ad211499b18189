/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Execution time: replay a TB's precomputed blocks through every model. */
#include <stdlib.h>
#include <string.h>

#include "fesim.h"
#include <kfront/fesim_marker.h>

struct fesim fs;

static u32 ilog2(u32 x)
{
	u32 r = 0;

	while (x >>= 1)
		r++;
	return r;
}

static int gran_index(u32 shift, bool is_win)
{
	int g;

	for (g = 0; g < fs.n_gran; g++)
		if (fs.gran_shift[g] == shift && fs.gran_is_win[g] == is_win)
			return g;
	if (fs.n_gran == FESIM_MAX_GRAN)
		return -1;
	fs.gran_shift[fs.n_gran] = shift;
	fs.gran_is_win[fs.n_gran] = is_win;
	return fs.n_gran++;
}

/*
 * A fresh generation (struct model.gen): no memo was ever recorded under
 * it. Values are never reused, so a generation names one cache state; only
 * fill_dropped() goes back to an older one, and only when the caches are
 * again exactly in that state.
 */
static void gen_bump(struct model *m)
{
	m->gen = ++m->gen_seq;
}

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

static void model_reset_last(struct model *m)
{
	m->rs.line = m->rs.win = m->rs.page = FESIM_NO_TAG;
	m->rs.uop_mode = UOP_LEGACY;
	m->rs.uop_entry = m->rs.uop_end = 0;
}

int models_init(void)
{
	int i;

	for (i = 0; i < fs.n_models; i++) {
		struct model *m = &fs.models[i];
		struct model_cfg *c = &m->cfg;
		u32 ents = fs.page_shift == 12 ? c->itlb4k_entries
					       : c->itlb2m_entries;
		u32 assoc = fs.page_shift == 12 ? c->itlb4k_assoc
						: c->itlb2m_assoc;

		if (!c->l1i_line || c->l1i_line & (c->l1i_line - 1) ||
		    c->l1i_line < 32 || !c->l1i_assoc ||
		    (c->uop_window != 32 && c->uop_window != 64) || !assoc ||
		    ents % assoc ||
		    (c->stlb_entries && (!c->stlb_assoc ||
					 c->stlb_entries % c->stlb_assoc)))
			return -1;
		/* each structure its own random stream, the same every run */
		if (sa_init(&m->l1i, c->l1i_size / (c->l1i_assoc * c->l1i_line),
			    c->l1i_assoc, c->l1i_policy, c->seed * 4 + 1) ||
		    sa_init(&m->itlb, ents / assoc, assoc, c->itlb_policy,
			    c->seed * 4 + 2) ||
		    uop_init(&m->uop, c->uop_sets, c->uop_ways, c->uop_per_way,
			     c->uop_max_ways, c->uop_policy, c->seed * 4 + 3))
			return -1;
		if (c->stlb_entries &&
		    sa_init(&m->stlb, c->stlb_entries / c->stlb_assoc,
			    c->stlb_assoc, c->itlb_policy, c->seed * 4 + 4))
			return -1;
		m->l1i_stamp = calloc(m->l1i.sets, sizeof(u64));
		m->uop_stamp = calloc(m->uop.sets, sizeof(u64));
		m->itlb_stamp = calloc(m->itlb.sets, sizeof(u64));
		if (!m->l1i_stamp || !m->uop_stamp || !m->itlb_stamp)
			return -1;
		m->line_shift = ilog2(c->l1i_line);
		m->win_shift = ilog2(c->uop_window);
		m->g_line = gran_index(m->line_shift, false);
		m->g_win = gran_index(m->win_shift, true);
		m->g_page = gran_index(fs.page_shift, false);
		if (m->g_line < 0 || m->g_win < 0 || m->g_page < 0)
			return -1;	/* too many distinct geometries */
		model_reset_last(m);
	}
	return 0;
}

void models_free(void)
{
	int i;

	for (i = 0; i < fs.n_models; i++) {
		sa_free(&fs.models[i].l1i);
		sa_free(&fs.models[i].itlb);
		if (fs.models[i].stlb.tags)
			sa_free(&fs.models[i].stlb);
		uop_free(&fs.models[i].uop);
		free(fs.models[i].l1i_stamp);
		free(fs.models[i].uop_stamp);
		free(fs.models[i].itlb_stamp);
	}
}

static void models_flush(void)
{
	int i;

	for (i = 0; i < fs.n_models; i++) {
		sa_flush(&fs.models[i].l1i);
		sa_flush(&fs.models[i].itlb);
		if (fs.models[i].stlb.tags)
			sa_flush(&fs.models[i].stlb);
		uop_flush(&fs.models[i].uop);
		model_reset_last(&fs.models[i]);
		gen_bump(&fs.models[i]);
		fs.models[i].flush_gen = fs.models[i].gen;
	}
}

static void region_begin(u32 slot)
{
	struct region *r;

	if (fs.n_regions == fs.cap_regions) {
		fs.cap_regions = fs.cap_regions ? fs.cap_regions * 2 : 256;
		fs.regions = realloc(fs.regions,
				     fs.cap_regions * sizeof(*fs.regions));
		if (!fs.regions)
			abort();
	}
	r = &fs.regions[fs.n_regions];
	memset(r, 0, sizeof(*r));
	r->seq = fs.n_regions++;
	r->slot = slot;
	r->occ = fs.slot_occ[slot]++;
	fs.cur = r;
	if (fs.cold)
		models_flush();
}

static void apply_marker(u16 id)
{
	u32 slot = id & FESIM_SLOT_MASK;

	switch (id >> FESIM_KIND_SHIFT) {
	case FESIM_KIND_BEGIN:
		tally_settle();
		if (fs.cur)
			fs.unbalanced++;	/* regions do not nest */
		region_begin(slot);
		break;
	case FESIM_KIND_END:
		if (!fs.cur) {
			fs.stray_ends++;
			break;
		}
		tally_settle();
		if (fs.cur->slot != slot)
			fs.mismatched_ends++;
		fs.cur->closed = 1;
		fs.cur = NULL;
		break;
	case FESIM_KIND_META:
		if (slot == FESIM_META_DUMP) {
			fs.dumps++;
			tally_settle();
			output_write(fs.out_path);
		} else if (slot == FESIM_META_FLUSH && fs.flush) {
			fs.flushes++;
			models_flush();
		}
		break;
	}
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

/* The counters that code running now is charged to. */
static struct counters *target(void)
{
	return fs.cur ? &fs.cur->ctr : &fs.outside;
}

struct counters *exec_target(void)
{
	return target();
}

/* Footprint epoch: 1 outside regions, seq + 2 inside region seq. */
static u32 cur_epoch(void)
{
	return fs.cur ? fs.cur->seq + 2 : 1;
}

static void run_footprint(const struct tb_info *ti, struct seg *s)
{
	struct region *r = fs.cur;
	u32 epoch = cur_epoch();
	u32 j;

	/* masks only grow: a segment already run in this epoch adds nothing */
	if (s->fp_done == epoch)
		return;
	s->fp_done = epoch;
	for (j = 0; j < s->fp_n; j++) {
		struct fp_line *l = ti->fps[s->fp_first + j].rec;
		u64 m = ti->fps[s->fp_first + j].mask;

		if (m & ~l->total_mask) {
			if (!l->total_mask)
				fs.fp_lines++;
			fs.fp_bytes += __builtin_popcountll(m & ~l->total_mask);
			l->total_mask |= m;
		}
		if (!r)
			continue;
		if (l->region_epoch != epoch) {
			l->region_epoch = epoch;
			l->region_mask = 0;
			r->ctr.c.footprint_lines++;
		}
		if (m & ~l->region_mask) {
			r->ctr.c.footprint_bytes +=
				__builtin_popcountll(m & ~l->region_mask);
			l->region_mask |= m;
		}
	}
}

/* The run state a segment's outcome depends on, besides the caches. */
void run_state_save(const struct model *m, struct run_state *st)
{
	*st = m->rs;
}

/* The uop stream's three bytes and the zero pad, as one word. */
static u64 run_state_tail(const struct run_state *st)
{
	u64 w;

	memcpy(&w, &st->uop_mode, sizeof(w));
	return w;
}

/* Equal without a branch per field: a memo check per segment run and
 * model (memo_replay(), bulk.c) was a tenth of the plugin's work. */
bool run_state_equal(const struct model *m, const struct run_state *st)
{
	return !((st->line ^ m->rs.line) | (st->win ^ m->rs.win) |
		 (st->page ^ m->rs.page) |
		 (run_state_tail(st) ^ run_state_tail(&m->rs)));
}

static void state_restore(struct model *m, const struct run_state *st)
{
	m->rs = *st;
}

/* True if none of the @n blocks at @b maps to a set whose @stamp (of
 * @sets) is newer than generation @g. */
static bool stamps_older(const u64 *stamp, u32 sets, const struct blk *b,
			 u32 n, u64 g)
{
	u32 j;

	for (j = 0; j < n; j++)
		if (stamp[b[j].id & (sets - 1)] > g)
			return false;
	return true;
}

/* True if no set that segment @s's blocks map to (L1i lines, uop-cache
 * windows, iTLB pages) changed after generation @g, nor was flushed. */
static bool memo_sets_unchanged(const struct model *m,
				const struct tb_info *ti, const struct seg *s,
				u64 g)
{
	return g >= m->flush_gen &&
	       stamps_older(m->l1i_stamp, m->l1i.sets,
			    ti->blks + s->blk_first[m->g_line],
			    s->blk_n[m->g_line], g) &&
	       stamps_older(m->uop_stamp, m->uop.sets,
			    ti->blks + s->blk_first[m->g_win],
			    s->blk_n[m->g_win], g) &&
	       stamps_older(m->itlb_stamp, m->itlb.sets,
			    ti->blks + s->blk_first[m->g_page],
			    s->blk_n[m->g_page], g);
}

/*
 * Replay memo: a run in which no lookup changed the caches (every one a
 * most-recently-used hit, or under random replacement any hit; no
 * uop-cache entry filled) leaves them as it found them. Such a run
 * depends only on the sets it looks up and on the run state. If none of
 * those sets changed since it (the model's generation has not moved, or
 * the sets' stamps are older than the memo), and the run starts from the
 * same run state (last line, window, page, uop stream) and the same
 * taken/fall-through entry, it would do exactly the same again: add the
 * recorded counts and set the recorded end state instead of repeating the
 * lookups. Exact, not a sample. A filling stream bumps the generation, so
 * a window that is never cached is never replayed from the memo. With
 * memo=off nothing is replayed (the speed line counts why, either way).
 */
static bool memo_replay(struct model *m, const struct tb_info *ti,
			const struct seg *s, struct memo *mo, bool taken,
			struct model_ctr *d)
{
	bool moved;

	if (!fs.memo) {
		fs.st.sim_memo_off++;
		return false;
	}
	if (!mo->valid) {
		fs.st.sim_no_memo++;
		return false;
	}
	moved = mo->gen != m->gen;
	if (moved && !memo_sets_unchanged(m, ti, s, mo->gen)) {
		fs.st.sim_caches_changed++;
		return false;
	}
	if (mo->taken != taken || !run_state_equal(m, &mo->pre)) {
		fs.st.sim_other_entry++;
		return false;
	}
	if (moved) {
		/* valid under the current generation too */
		mo->gen = m->gen;
		fs.st.memo_revalidated++;
	}
	fs.st.memo_replayed++;
	memo_add(d, mo, 1);
	state_restore(m, &mo->post);
	return true;
}

static __attribute__((noinline)) void
run_model(const struct tb_info *ti, const struct seg *s,
		      struct model *m, struct memo *mo, bool taken,
		      struct model_ctr *d)
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

/* A model's miss counts, before a segment's run (for its function row). */
static void misses_save(struct misses *x, const struct model_ctr *d)
{
	x->l1i = d->l1i_misses;
	x->uop = d->uop_misses;
	x->itlb = d->itlb_misses;
}

/* Add a run's misses in model @i to its function's row in the open
 * region (and, while loop replay notes them, to the period's list); most
 * runs add none and look up no row. */
static void note_misses(int i, const struct misses *add, u32 fn)
{
	if (!(add->l1i | add->uop | add->itlb))
		return;
	attrib_add_misses(fs.cur, fn, i, add);
	if (fs.loop_rec)
		loops_record(fn, i, add);
}

/* The same for @n replays of memo @mo: a replay misses in no L1i or
 * iTLB, and in the uop cache only in windows the JCC erratum keeps out
 * (run_models(), bulk.c). */
void note_replay_misses(int i, const struct memo *mo, u64 n, u32 fn)
{
	struct misses add = { 0, n * mo->uop_misses, 0 };

	note_misses(i, &add, fn);
}

/* The same for what a simulated run added since misses_save(). */
static void attribute_misses(int i, const struct model_ctr *d,
			     const struct misses *before, u32 fn)
{
	struct misses add = {
		d->l1i_misses - before->l1i,
		d->uop_misses - before->uop,
		d->itlb_misses - before->itlb,
	};

	note_misses(i, &add, fn);
}

/* The models' part of segment @si's run, for every model not in @skip,
 * counted in @t; @rows: the open region keeps function rows. */
static void run_models(const struct tb_info *ti, u32 si, struct counters *t,
		       bool taken, bool rows, u32 skip)
{
	const struct seg *s = &ti->segs[si];
	struct memo *mos = ti->memos + (size_t)si * fs.n_models;
	int i;

	for (i = 0; i < fs.n_models; i++) {
		struct model *m = &fs.models[i];
		struct memo *mo = &mos[i];
		struct misses before;

		if (skip >> i & 1)
			continue;
		if (memo_replay(m, ti, s, mo, taken, &t->m[i])) {
			if (rows && mo->uop_misses)
				note_replay_misses(i, mo, 1, s->fn);
			continue;
		}
		misses_save(&before, &t->m[i]);
		run_model(ti, s, m, mo, taken, &t->m[i]);
		if (rows)
			attribute_misses(i, &t->m[i], &before, s->fn);
	}
}

void run_seg_models(const struct tb_info *ti, const struct seg *s,
		    bool taken, u32 skip)
{
	run_models(ti, (u32)(s - ti->segs), target(), taken,
		   fs.cur && attrib_on(), skip);
}

static void run_seg(const struct tb_info *ti, u32 si, struct counters *t,
		    bool taken, u32 landed, u32 skip)
{
	struct seg *s = &ti->segs[si];

	tally_run(s, landed);
	run_footprint(ti, s);
	/* while loop replay does every model's part, not even the call */
	if (skip != (1u << fs.n_models) - 1)
		run_models(ti, si, t, taken, fs.cur && attrib_on(), skip);
}

/*
 * A rep movs/stos ends its TB and QEMU (7.x, 8.x) runs it one pass per TB
 * execution: each pass does one iteration, or finds rcx = 0 and leaves, so
 * an execution of n iterations is n + 1 passes. A pass whose TB starts at
 * the rep right after a pass of the same rep is a repeat: one iteration
 * of the earlier pass; any other pass starts an execution (tally.c counts
 * both in the TB's last segment).
 */
static void count_rep(struct tb_info *ti, bool repeat)
{
	tally_rep(&ti->segs[ti->n_segs - 1], ti->rep, repeat);
}

/* Whole-run totals: what ran outside regions plus every region. */
void totals(struct counters *tot)
{
	u64 *x = (u64 *)tot;
	size_t k, n = sizeof(*tot) / sizeof(u64);
	u32 i;

	*tot = fs.outside;
	for (i = 0; i < fs.n_regions; i++) {
		const u64 *y = (const u64 *)&fs.regions[i].ctr;

		for (k = 0; k < n; k++)
			x[k] += y[k];
	}
	/* distinct lines and bytes do not add up: counted separately */
	tot->c.footprint_lines = fs.fp_lines;
	tot->c.footprint_bytes = fs.fp_bytes;
}

/*
 * Called by QEMU before each execution of a TB. A TB runs to its end unless
 * it faults; the kernel's measured code does not fault, so the whole TB is
 * counted up front. A TB that does not start where the previous one ended
 * was reached by a taken branch (or an interrupt or exception).
 */
static void tb_run(struct tb_info *ti)
{
	bool taken = fs.have_prev && ti->vaddr != fs.next_pc;
	bool repeat = ti->rep && ti->vaddr == ti->rep_va &&
		      fs.prev_rep_va == ti->vaddr;
	/* a jump, call or jcc (not a return: return addresses follow calls,
	 * not alignment) landing off a 16-byte boundary */
	bool unaligned = taken && fs.prev_branch == BRK_JUMP &&
			 (ti->vaddr & 15);
	struct region *start = fs.cur;
	/* the counters it is charged to: changed only by a marker */
	struct counters *t = target();
	u32 landed = (taken ? LAND_TAKEN : 0) |
		     (unaligned ? LAND_UNALIGNED : 0);
	/* models whose work for this TB loop replay does (loops.c) */
	u32 skip = fs.loops ? loops_before(ti) : 0;
	u32 i;

	if (taken)
		t->c.taken_branches++;
	if (unaligned)
		t->c.cls[CLS_UNALIGNED_TARGET]++;
	fs.have_prev = true;
	fs.next_pc = ti->end;
	for (i = 0; i < ti->n_segs; i++) {
		struct seg *s = &ti->segs[i];

		if (s->action) {
			apply_marker(s->action);
			t = target();
		}
		if (!s->n_insns)
			continue;
		/* the landing belongs to the region it was counted in */
		run_seg(ti, i, t, taken, fs.cur == start ? landed : 0, skip);
		taken = false;
		landed = 0;
	}
	if (ti->rep)
		count_rep(ti, repeat);
	fs.prev_rep_va = ti->rep ? ti->rep_va : FESIM_NO_TAG;
	fs.prev_branch = ti->last_branch;
	if (attrib_on())
		callgraph_tb(ti);
	if (fs.loops)
		loops_after(ti);
	bulk_after(ti);
}

void tb_exec(unsigned int vcpu, void *udata)
{
	struct tb_info *ti = udata;

	/* a TB run again and again (bulk.c) */
	if (bulk_take(ti))
		return;
	tb_run(ti);
}
