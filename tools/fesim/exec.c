/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Execution time: replay a TB's precomputed blocks through every model. */
#include "fesim.h"

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
	run_models(ti, (u32)(s - ti->segs), charged_counters(), taken,
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
	struct counters *t = charged_counters();
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
			t = charged_counters();
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

/*
 * skip_boot=on: until the first marker runs (the harness's flush, before
 * any region), no TB is modelled or counted: the firmware, the boot loader
 * and the kernel's start. Nothing of it can reach a region that follows a
 * flush, which empties every cache and reseeds random replacement; the TB
 * that holds the first marker runs in full. Returns whether @ti was left
 * unmodelled.
 */
static bool idle_tb(const struct tb_info *ti)
{
	u32 i;

	for (i = 0; i < ti->n_segs; i++)
		if (ti->segs[i].action) {
			fs.idle = false;
			return false;
		}
	fs.idle_tb_runs++;
	return true;
}

void tb_exec(unsigned int vcpu, void *udata)
{
	struct tb_info *ti = udata;

	if (__builtin_expect(fs.idle, 0) && idle_tb(ti))
		return;
	/* a TB run again and again (bulk.c) */
	if (bulk_take(ti))
		return;
	tb_run(ti);
}
