/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Deferred counting of what a segment's run adds whatever the models do:
 * instructions, bytes and static instruction classes to the counters code
 * is charged to (a region's or the outside ones), and the same plus taken
 * landings, unaligned targets and rep passes to its function's row.
 *
 * These are the same every run of a segment, so a run only counts itself
 * in the segment (tally_run(), a few increments on a line the run reads
 * anyway); the first run since the counters last changed puts the segment
 * on a list. When the counters change (a region marker), before output
 * and before a count could overflow, tally_settle() adds each listed
 * segment's runs times its figures. The totals are exactly those of
 * counting every run (the tests compare function rows with region
 * figures); a run no longer looks up its function's row, adds the
 * classes one by one, or touches the row's lines.
 */
#include <stdlib.h>

#include "fesim.h"

/* settle before a segment's run count could wrap */
#define TALLY_MAX_RUNS	(1u << 31)

static struct {
	u32 epoch;		/* the tallies counted since the last settle */
	struct seg **pend;	/* their segments */
	u32 n_pend, cap_pend;
} tl = { .epoch = 1 };

static void add_classes(u64 *cls, const struct seg *s, u64 n)
{
	u32 m;

	for (m = s->cls_mask; m; m &= m - 1)
		cls[__builtin_ctz(m)] += n * s->cls[__builtin_ctz(m)];
}

/* Out of line: once per segment and settle, not per run. */
static __attribute__((noinline)) void tally_open(struct seg *s)
{
	if (tl.n_pend == tl.cap_pend) {
		u32 cap = tl.cap_pend ? tl.cap_pend * 2 : 4096;
		struct seg **p = realloc(tl.pend, cap * sizeof(*p));

		if (!p)
			abort();	/* a TB callback cannot report it */
		tl.pend = p;
		tl.cap_pend = cap;
	}
	tl.pend[tl.n_pend++] = s;
	s->tally = (struct seg_tally){ .epoch = tl.epoch };
}

static inline struct seg_tally *tally_of(struct seg *s)
{
	if (s->tally.epoch != tl.epoch)
		tally_open(s);
	return &s->tally;
}

/* One run of segment @s (every TB run: kept apart from tally_runs(), whose
 * multiplies and wider check cost the per-TB path about 5 % more). */
void tally_run(struct seg *s, u32 landed)
{
	struct seg_tally *t = tally_of(s);

	t->taken += landed & LAND_TAKEN;
	t->unaligned += !!(landed & LAND_UNALIGNED);
	if (++t->runs == TALLY_MAX_RUNS)
		tally_settle();
}

void tally_rep(struct seg *s, u8 kind, bool repeat)
{
	struct seg_tally *t = tally_of(s);

	t->rep_kind = kind;
	if (++t->rep[repeat] == TALLY_MAX_RUNS)
		tally_settle();
}

/* @n runs of segment @s at once, each landed as @landed (bulk.c); @n is
 * below TALLY_MAX_RUNS. */
void tally_runs(struct seg *s, u32 landed, u32 n)
{
	struct seg_tally *t = tally_of(s);

	if (t->runs + (u64)n >= TALLY_MAX_RUNS) {
		tally_settle();
		t = tally_of(s);
	}
	t->taken += n * (landed & LAND_TAKEN);
	t->unaligned += n * !!(landed & LAND_UNALIGNED);
	t->runs += n;
}

/* @n passes of the rep ending segment @s's TB: executions (@repeat false)
 * or repeat passes, one iteration each. */
void tally_reps(struct seg *s, u8 kind, bool repeat, u32 n)
{
	struct seg_tally *t = tally_of(s);

	if (t->rep[repeat] + (u64)n >= TALLY_MAX_RUNS) {
		tally_settle();
		t = tally_of(s);
	}
	t->rep_kind = kind;
	t->rep[repeat] += n;
}

/* Add the listed segments' counts to the counters code runs under now,
 * and (syms=, in a region) to their functions' rows. */
void tally_settle(void)
{
	struct counters *c = charged_counters();
	bool rows = fs.cur && attrib_on();
	u32 i;

	for (i = 0; i < tl.n_pend; i++) {
		const struct seg *s = tl.pend[i];
		const struct seg_tally *t = &s->tally;
		u64 n = t->runs;
		int kind = t->rep_kind == REP_MOVS ? CLS_REP_MOVS :
			   CLS_REP_STOS;
		u64 *row;

		c->c.insns += n * s->n_insns;
		c->c.bytes += n * s->n_bytes;
		add_classes(c->c.cls, s, n);
		/* the _ITERS counter follows its execution counter */
		c->c.cls[kind] += t->rep[0];
		c->c.cls[kind + 1] += t->rep[1];
		if (!rows)
			continue;
		row = attrib_row(fs.cur, s->fn);
		row[FN_INSNS] += n * s->n_insns;
		row[FN_BYTES] += n * s->n_bytes;
		row[FN_TAKEN] += t->taken;
		row[FN_CLS + CLS_UNALIGNED_TARGET] += t->unaligned;
		add_classes(row + FN_CLS, s, n);
		row[FN_CLS + kind] += t->rep[0];
		row[FN_CLS + kind + 1] += t->rep[1];
	}
	tl.n_pend = 0;
	/* a u32 of settles: one per marker run, a few thousand a boot */
	if (!++tl.epoch)
		tl.epoch = 1;
}

void tally_free(void)
{
	free(tl.pend);
	tl.pend = NULL;
	tl.n_pend = tl.cap_pend = 0;
}
