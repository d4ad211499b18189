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

static void model_reset_last(struct model *m)
{
	m->last_line = m->last_win = m->last_page = FESIM_NO_TAG;
	m->last_win_hit = false;
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
		    ents % assoc)
			return -1;
		if (lru_init(&m->l1i, c->l1i_size / (c->l1i_assoc * c->l1i_line),
			     c->l1i_assoc) ||
		    lru_init(&m->itlb, ents / assoc, assoc) ||
		    uop_init(&m->uop, c->uop_sets, c->uop_ways, c->uop_per_way,
			     c->uop_max_ways))
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
		lru_free(&fs.models[i].l1i);
		lru_free(&fs.models[i].itlb);
		uop_free(&fs.models[i].uop);
	}
}

static void models_flush(void)
{
	int i;

	for (i = 0; i < fs.n_models; i++) {
		lru_flush(&fs.models[i].l1i);
		lru_flush(&fs.models[i].itlb);
		uop_flush(&fs.models[i].uop);
		model_reset_last(&fs.models[i]);
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
		if (fs.cur)
			fs.unbalanced++;	/* regions do not nest */
		region_begin(slot);
		break;
	case FESIM_KIND_END:
		if (!fs.cur) {
			fs.stray_ends++;
			break;
		}
		if (fs.cur->slot != slot)
			fs.mismatched_ends++;
		fs.cur->closed = 1;
		fs.cur = NULL;
		break;
	case FESIM_KIND_META:
		if (slot == FESIM_META_DUMP) {
			fs.dumps++;
			output_write(fs.out_path);
		}
		break;
	}
}

/* Invalidate the uop-cache windows of an evicted L1i line. */
static void evict_windows(struct model *m, u64 line)
{
	u64 lo = (line << m->line_shift) >> m->win_shift;
	u64 hi = (((line + 1) << m->line_shift) - 1) >> m->win_shift;

	for (; lo <= hi; lo++)
		uop_invalidate(&m->uop, lo);
}

static void run_l1i(struct model *m, const struct blk *b, u32 n, bool taken,
		    struct model_ctr *d)
{
	bool prev_missed = false;
	u64 victim;
	u32 j;

	for (j = 0; j < n; j++) {
		/* still in the line the last fetch used: no new access */
		if (!j && !taken && b[0].id == m->last_line)
			continue;
		d->l1i_accesses++;
		m->last_line = b[j].id;
		if (lru_is_mru(&m->l1i, b[j].id)) {
			prev_missed = false;
			continue;
		}
		m->gen++;
		if (lru_access(&m->l1i, b[j].id, &victim)) {
			prev_missed = false;
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
	}
}

static void run_uop(struct model *m, const struct blk *b, u32 n, bool taken,
		    struct model_ctr *d)
{
	u32 j;

	for (j = 0; j < n; j++) {
		if (!j && !taken && b[0].id == m->last_win) {
			/* fell through within the window: same source */
			if (m->last_win_hit)
				d->uop_hit_uops += b[0].uops;
			else
				d->uop_miss_uops += b[0].uops;
			continue;
		}
		d->uop_lookups++;
		m->last_win = b[j].id;
		if (uop_is_mru(&m->uop, b[j].id, b[j].uops)) {
			m->last_win_hit = true;
		} else {
			m->gen++;
			m->last_win_hit = uop_access(&m->uop, b[j].id,
						     b[j].uops);
		}
		if (m->last_win_hit) {
			d->uop_hit_uops += b[j].uops;
		} else {
			d->uop_misses++;
			d->uop_miss_uops += b[j].uops;
		}
	}
}

static void run_itlb(struct model *m, const struct blk *b, u32 n,
		     struct model_ctr *d)
{
	u64 victim;
	u32 j;

	for (j = 0; j < n; j++) {
		if (b[j].id == m->last_page)
			continue;
		d->itlb_accesses++;
		m->last_page = b[j].id;
		if (lru_is_mru(&m->itlb, b[j].id))
			continue;
		m->gen++;
		if (!lru_access(&m->itlb, b[j].id, &victim))
			d->itlb_misses++;
	}
}

/* The counters that code running now is charged to. */
static struct counters *target(void)
{
	return fs.cur ? &fs.cur->ctr : &fs.outside;
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

/*
 * Replay memo: a run in which every lookup was a most-recently-used hit
 * leaves the model's state as it found it. If the model's generation
 * (bumped by every other kind of lookup) has not moved since such a run,
 * and the run starts from the same last line/window/page and the same
 * taken/fall-through entry, it would do exactly the same again: add the
 * recorded counts instead of repeating the lookups. Exact, not a sample.
 */
static bool memo_replay(struct model *m, const struct memo *mo, bool taken,
			struct model_ctr *d)
{
	if (!mo->valid || mo->gen != m->gen || mo->taken != taken ||
	    mo->pre_line != m->last_line || mo->pre_win != m->last_win ||
	    mo->pre_page != m->last_page || mo->pre_win_hit != m->last_win_hit)
		return false;
	d->l1i_accesses += mo->l1i_accesses;
	d->uop_lookups += mo->uop_lookups;
	d->uop_hit_uops += mo->uop_hit_uops;
	d->uop_miss_uops += mo->uop_miss_uops;
	d->itlb_accesses += mo->itlb_accesses;
	m->last_line = mo->post_line;
	m->last_win = mo->post_win;
	m->last_page = mo->post_page;
	return true;
}

static void run_model(const struct tb_info *ti, const struct seg *s,
		      struct model *m, struct memo *mo, bool taken,
		      struct model_ctr *d)
{
	struct model_ctr before = *d;
	u64 gen = m->gen;

	mo->pre_line = m->last_line;
	mo->pre_win = m->last_win;
	mo->pre_page = m->last_page;
	mo->pre_win_hit = m->last_win_hit;
	run_l1i(m, ti->blks + s->blk_first[m->g_line], s->blk_n[m->g_line],
		taken, d);
	run_uop(m, ti->blks + s->blk_first[m->g_win], s->blk_n[m->g_win],
		taken, d);
	run_itlb(m, ti->blks + s->blk_first[m->g_page], s->blk_n[m->g_page],
		 d);
	mo->valid = m->gen == gen;
	if (!mo->valid)
		return;
	mo->gen = gen;
	mo->taken = taken;
	mo->l1i_accesses = d->l1i_accesses - before.l1i_accesses;
	mo->uop_lookups = d->uop_lookups - before.uop_lookups;
	mo->uop_hit_uops = d->uop_hit_uops - before.uop_hit_uops;
	mo->uop_miss_uops = d->uop_miss_uops - before.uop_miss_uops;
	mo->itlb_accesses = d->itlb_accesses - before.itlb_accesses;
	mo->post_line = m->last_line;
	mo->post_win = m->last_win;
	mo->post_page = m->last_page;
}

static void run_seg(const struct tb_info *ti, struct seg *s, bool taken)
{
	struct counters *t = target();
	int i;

	t->c.insns += s->n_insns;
	t->c.bytes += s->n_bytes;
	run_footprint(ti, s);
	for (i = 0; i < fs.n_models; i++) {
		struct model *m = &fs.models[i];
		struct memo *mo = &ti->memos[(s - ti->segs) * fs.n_models + i];

		if (!memo_replay(m, mo, taken, &t->m[i]))
			run_model(ti, s, m, mo, taken, &t->m[i]);
	}
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
void tb_exec(unsigned int vcpu, void *udata)
{
	struct tb_info *ti = udata;
	bool taken = fs.have_prev && ti->vaddr != fs.next_pc;
	u32 i;

	if (taken)
		target()->c.taken_branches++;
	fs.have_prev = true;
	fs.next_pc = ti->end;
	for (i = 0; i < ti->n_segs; i++) {
		struct seg *s = &ti->segs[i];

		if (s->action)
			apply_marker(s->action);
		if (!s->n_insns)
			continue;
		run_seg(ti, s, taken);
		taken = false;
	}
}
