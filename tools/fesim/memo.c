/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Replay memos: a segment run that changed no cache state, done again by
 * adding its counts (frontend.c records them). The check that it would do
 * exactly the same again: the run state it starts from and the sets it
 * looks up.
 */
#include <string.h>

#include "fesim.h"

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
bool memo_replay(struct model *m, const struct tb_info *ti,
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
