/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The modelled front ends' state: set up from their configurations (the
 * caches, the set stamps, the block granularities a TB's analysis keeps),
 * flushed, freed.
 */
#include <stdlib.h>

#include "fesim.h"

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

void models_flush(void)
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
