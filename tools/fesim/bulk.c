/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A TB run again and again, counted in bulk: the passes of a rep
 * movs/stos (QEMU runs one pass per TB run, so a long copy is thousands
 * of runs of one TB) and a loop whose body is one TB jumping back to
 * itself (docs/fesim.md, "Speed"). Once such a
 * TB has run right after itself and left every model as it found it, with
 * the model's memo for the TB the one its next run would replay (from the
 * same run state, the caches' generation unchanged), every further run
 * would do exactly what that one did: replay the same memo in every
 * model, count one taken landing (off 16 bytes or not, always the same),
 * one rep iteration if it is a rep, and log itself for loop detection.
 * Such a TB is armed: a further run is logged (loops_log_repeat(), which
 * leaves a run that would start a loop confirmation to the usual path)
 * and counted, and bulk_flush() adds the counted runs all at once before
 * anything else runs (the next other TB, output). The counts are those of
 * running every one (the tests compare with the bulk path off: memo=off).
 */
#include "fesim.h"

#define BULK_MAX	(1u << 30)	/* below tally.c's limit */

static struct {
	const struct tb_info *last;	/* the TB run last (usual path) */
	struct tb_info *ti;		/* the armed TB, or NULL */
	u32 n;				/* its runs not counted yet */
} bk;

/* Whether the next runs of @ti, just run right after itself, may be
 * counted in bulk (see above). */
static bool bulk_ok(const struct tb_info *ti)
{
	const struct seg *s = &ti->segs[0];
	int i;

	/* one segment, no marker, no call; a rep TB only if it starts at
	 * the rep (one that does not never runs right after itself) */
	if (ti->n_segs != 1 || s->action || !s->n_insns || !fs.memo ||
	    ti->call_fn != ~0u || (ti->rep && ti->vaddr != ti->rep_va))
		return false;
	if (fs.loops && !loops_idle())
		return false;
	for (i = 0; i < fs.n_models; i++) {
		const struct model *m = &fs.models[i];
		const struct memo *mo = &ti->memos[i];

		/* the state it is in is the memo's start, so also its end */
		if (!mo->valid || mo->gen != m->gen || !mo->taken ||
		    !run_state_equal(m, &mo->pre))
			return false;
	}
	return true;
}

/* Count the armed TB's held runs: what each would have counted. */
static void bulk_flush(void)
{
	struct tb_info *ti = bk.ti;
	struct seg *s = &ti->segs[0];
	struct counters *t = charged_counters();
	bool rows = fs.cur && attrib_on();
	/* taken (it ends where it does not start), after its own branch:
	 * tb_run()'s rule (kept spelled out there: a shared inline helper
	 * cost that per-TB path 1.5 %) */
	u32 landed = LAND_TAKEN |
		     (ti->last_branch == BRK_JUMP && (ti->vaddr & 15) ?
		      LAND_UNALIGNED : 0);
	u32 n = bk.n;
	int i;

	bk.n = 0;
	t->c.taken_branches += n;
	if (landed & LAND_UNALIGNED)
		t->c.cls[CLS_UNALIGNED_TARGET] += n;
	tally_runs(s, landed, n);
	if (ti->rep)		/* a run right after itself: a repeat pass */
		tally_reps(s, ti->rep, true, n);
	for (i = 0; i < fs.n_models; i++) {
		const struct memo *mo = &ti->memos[i];
		struct model_ctr *d = &t->m[i];

		memo_add(d, mo, n);
		if (rows && mo->uop_misses)
			note_replay_misses(i, mo, n, s->fn);
	}
	fs.st.memo_replayed += (u64)n * fs.n_models;
	fs.st.runs_in_bulk += n;
}

/* exec.c, after a TB's run by the usual path: arm it if it ran right after
 * itself and may be counted in bulk from now on. */
void bulk_after(struct tb_info *ti)
{
	if (bk.last == ti && bulk_ok(ti))
		bk.ti = ti;
	bk.last = ti;
}

/* exec.c, before a TB's run: true if it is a run of the armed TB, logged
 * for loop detection now and counted later; otherwise the held runs are
 * counted, the TB is disarmed, and the run takes the usual path (also a
 * run of the armed TB that would start a loop confirmation). */
bool bulk_take(struct tb_info *ti)
{
	if (!bk.ti)
		return false;
	if (ti == bk.ti && (!fs.loops || loops_log_repeat(ti))) {
		if (++bk.n == BULK_MAX)
			bulk_flush();
		return true;
	}
	bulk_flush_all();
	return false;
}

/* Count the held runs and disarm (before output). */
void bulk_flush_all(void)
{
	if (bk.ti)
		bulk_flush();
	bk.ti = NULL;
}
