/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Call edges between functions (issue 21, pgo-layout): with syms=, a TB
 * that ends in a call (direct or indirect; QEMU ends every TB at a call)
 * makes the function of the next TB executed the callee of the function
 * the call lies in. The next TB is the callee's first one whether QEMU
 * chained the two or not: the exec callback runs on every execution.
 * Only calls made inside a region count; the output lists each edge once
 * with its count (docs/fesim.md, "Output format"), the input of the
 * function ordering of tools/kfront/layout.py.
 */
#include <stdlib.h>

#include "fesim.h"

struct edge {
	u32 caller, callee;	/* attrib.c function ids */
	u64 count;		/* 0: an empty slot */
};

static struct edge *tab;	/* open addressing, a power of two long */
static u32 cap, used;
static u32 pending = ~0u;	/* caller of the call that ended the last TB */

static u32 slot_of(u32 caller, u32 callee)
{
	u64 h = ((u64)caller << 32 | callee) * 0x9e3779b97f4a7c15ull;

	return (u32)(h >> 32) & (cap - 1);
}

static void grow(void)
{
	struct edge *old = tab;
	u32 n = cap, i;

	cap = cap ? cap * 2 : 256;
	tab = calloc(cap, sizeof(*tab));
	if (!tab)
		abort();
	for (i = 0; i < n; i++) {
		u32 s;

		if (!old[i].count)
			continue;
		for (s = slot_of(old[i].caller, old[i].callee); tab[s].count;
		     s = (s + 1) & (cap - 1))
			;
		tab[s] = old[i];
	}
	free(old);
}

static void add_edge(u32 caller, u32 callee)
{
	u32 s;

	if (2 * (used + 1) > cap)
		grow();
	for (s = slot_of(caller, callee); tab[s].count;
	     s = (s + 1) & (cap - 1)) {
		if (tab[s].caller == caller && tab[s].callee == callee) {
			tab[s].count++;
			return;
		}
	}
	tab[s].caller = caller;
	tab[s].callee = callee;
	tab[s].count = 1;
	used++;
	/* both ends are listed as "func" records */
	attrib_mark_used(caller);
	attrib_mark_used(callee);
}

/* The function of the first instruction of @ti (~0u: none). */
static u32 first_fn(const struct tb_info *ti)
{
	u32 i;

	for (i = 0; i < ti->n_segs; i++)
		if (ti->segs[i].n_insns)
			return ti->segs[i].fn;
	return ~0u;
}

/* The function of the call that ends @ti (~0u: it does not end in one). */
static u32 call_fn(const struct tb_info *ti)
{
	u32 i = ti->n_segs;

	while (i--)
		if (ti->segs[i].n_insns)
			return ti->segs[i].cls[CLS_CALL] ? ti->segs[i].fn : ~0u;
	return ~0u;
}

/* At translation: the two functions callgraph_tb() needs, kept in the TB's
 * header so that a TB run does not search its segments. */
void callgraph_tb_new(struct tb_info *ti)
{
	ti->first_fn = first_fn(ti);
	ti->call_fn = call_fn(ti);
}

/* Called at the end of every TB execution (exec.c), after its markers. */
void callgraph_tb(const struct tb_info *ti)
{
	if (!attrib_on())
		return;
	if (pending != ~0u) {
		if (ti->first_fn != ~0u)
			add_edge(pending, ti->first_fn);
		pending = ~0u;
	}
	/* a call in a TB is its last instruction; counted in a region only */
	if (ti->call_fn != ~0u && fs.cur)
		pending = ti->call_fn;
}

static int by_ids(const void *a, const void *b)
{
	const struct edge *x = a, *y = b;

	if (x->caller != y->caller)
		return x->caller < y->caller ? -1 : 1;
	return x->callee < y->callee ? -1 : x->callee > y->callee;
}

/* One "call" record per edge, by caller then callee id (deterministic). */
void callgraph_write(FILE *f)
{
	struct edge *sorted;
	u32 i, n = 0;

	if (!used)
		return;
	sorted = malloc(used * sizeof(*sorted));
	if (!sorted)
		abort();
	for (i = 0; i < cap; i++)
		if (tab[i].count)
			sorted[n++] = tab[i];
	qsort(sorted, n, sizeof(*sorted), by_ids);
	for (i = 0; i < n; i++)
		fprintf(f, "{\"type\":\"call\",\"caller\":%u,\"callee\":%u,"
			"\"count\":%llu}\n", sorted[i].caller, sorted[i].callee,
			(unsigned long long)sorted[i].count);
	free(sorted);
}

void callgraph_free(void)
{
	free(tab);
	tab = NULL;
	cap = used = 0;
	pending = ~0u;
}
