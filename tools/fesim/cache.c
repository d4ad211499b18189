/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Set-associative true-LRU caches: set-up and the uop-cache replacement. */
#include <stdlib.h>
#include <string.h>

#include "cache.h"

static bool is_pow2(u32 x)
{
	return x && !(x & (x - 1));
}

int lru_init(struct lru_cache *c, u32 sets, u32 assoc)
{
	if (!is_pow2(sets) || !assoc)
		return -1;
	c->sets = sets;
	c->assoc = assoc;
	c->tags = malloc(sizeof(*c->tags) * (size_t)sets * assoc);
	if (!c->tags)
		return -1;
	lru_flush(c);
	return 0;
}

void lru_flush(struct lru_cache *c)
{
	/* all-ones bytes make every tag FESIM_NO_TAG */
	memset(c->tags, 0xff, sizeof(*c->tags) * c->sets * c->assoc);
}

void lru_free(struct lru_cache *c)
{
	free(c->tags);
	c->tags = NULL;
}

int uop_init(struct uop_cache *u, u32 sets, u32 ways, u32 uops_per_way,
	     u32 max_ways)
{
	if (!is_pow2(sets) || !ways || ways > 255 || !uops_per_way ||
	    !max_ways)
		return -1;
	u->sets = sets;
	u->ways = ways;
	u->uops_per_way = uops_per_way;
	u->max_ways = max_ways < ways ? max_ways : ways;
	u->e = calloc((size_t)sets * ways, sizeof(*u->e));
	u->n = calloc(sets, sizeof(*u->n));
	u->used = calloc(sets, sizeof(*u->used));
	if (!u->e || !u->n || !u->used) {
		/* none of them is kept: a half-made cache is no cache */
		free(u->e);
		free(u->n);
		free(u->used);
		u->e = NULL;
		u->n = NULL;
		u->used = NULL;
		return -1;
	}
	uop_flush(u);
	return 0;
}

void uop_flush(struct uop_cache *u)
{
	memset(u->n, 0, u->sets * sizeof(*u->n));
	memset(u->used, 0, u->sets * sizeof(*u->used));
}

void uop_free(struct uop_cache *u)
{
	free(u->e);
	free(u->n);
	free(u->used);
	free(u->nocache);
	u->nocache = NULL;
	u->nocache_cap = u->nocache_n = 0;
}

/* Remove entry @i of set @s, closing the gap (keeps recency order). */
static void uop_remove(struct uop_cache *u, u32 s, u32 i)
{
	struct uop_entry *set = u->e + (size_t)s * u->ways;

	u->used[s] -= set[i].ways;
	memmove(set + i, set + i + 1, (u->n[s] - i - 1) * sizeof(*set));
	u->n[s]--;
}

u32 uop_pack(struct uop_pack *p, const struct uinsn *in, u32 uops_per_way)
{
	bool branch = in->flags & UI_BRANCH;

	if (!in->uops && !branch)
		return p->ways;	/* the jcc of a fused pair: already counted */
	if (in->flags & UI_MSROM) {
		/* a microcoded instruction takes a whole way of its own */
		if (p->slots || p->closed)
			p->ways++;
		p->slots = uops_per_way;
		p->branches = 0;
		p->closed = 1;
		return p->ways;
	}
	/* a new way when this one ended at an unconditional jump, when the
	 * instruction's uops do not fit (they are never split across ways),
	 * or when it would be the way's third branch */
	if (p->closed || p->slots + in->uops > uops_per_way ||
	    (branch && p->branches == 2)) {
		p->ways++;
		p->slots = 0;
		p->branches = 0;
		p->closed = 0;
	}
	p->slots += in->uops;
	if (branch)
		p->branches++;
	if (in->flags & UI_UNCOND)
		p->closed = 1;
	return p->ways;
}

static int uop_find(const struct uop_cache *u, u32 s, u64 win, u32 off)
{
	const struct uop_entry *set = u->e + (size_t)s * u->ways;
	u32 i;

	for (i = 0; i < u->n[s]; i++)
		if (set[i].win == win && set[i].off == off)
			return i;
	return -1;
}

struct uop_entry *uop_lookup(struct uop_cache *u, u64 win, u32 off)
{
	u32 s = win & (u->sets - 1);
	struct uop_entry *set = u->e + (size_t)s * u->ways;
	struct uop_entry hit;
	int i = uop_find(u, s, win, off);

	if (i < 0)
		return NULL;
	hit = set[i];
	memmove(set + 1, set, i * sizeof(*set));
	set[0] = hit;
	return set;
}

/* Ways the entries of @win hold in set @s, other than entry @skip. */
static u32 uop_window_ways(const struct uop_cache *u, u32 s, u64 win,
			   int skip)
{
	const struct uop_entry *set = u->e + (size_t)s * u->ways;
	u32 i, ways = 0;

	for (i = 0; i < u->n[s]; i++)
		if ((int)i != skip && set[i].win == win)
			ways += set[i].ways;
	return ways;
}

/* Least recently used entry of set @s other than @keep, of window @win
 * only unless @win is FESIM_NO_TAG; -1 if none. */
static int uop_lru_victim(const struct uop_cache *u, u32 s, u64 win, int keep)
{
	const struct uop_entry *set = u->e + (size_t)s * u->ways;
	int i;

	for (i = (int)u->n[s] - 1; i >= 0; i--)
		if (i != keep && (win == FESIM_NO_TAG || set[i].win == win))
			return i;
	return -1;
}

/*
 * Make room for entry @i of set @s to hold @ways ways: first the window's
 * own older entries give way (at most max_ways per window), then the set's
 * least recently used entries. Returns the entry's (possibly moved) index.
 */
static int uop_make_room(struct uop_cache *u, u32 s, int i, u32 ways)
{
	struct uop_entry *set = u->e + (size_t)s * u->ways;
	u64 win = set[i].win;
	u32 extra = ways - set[i].ways;
	int v;

	while (uop_window_ways(u, s, win, i) + ways > u->max_ways) {
		v = uop_lru_victim(u, s, win, i);
		uop_remove(u, s, v);
		if (v < i)
			i--;
	}
	while (u->used[s] + extra > u->ways) {
		v = uop_lru_victim(u, s, FESIM_NO_TAG, i);
		uop_remove(u, s, v);
		if (v < i)
			i--;
	}
	return i;
}

bool uop_insert(struct uop_cache *u, u64 win, u32 off)
{
	u32 s = win & (u->sets - 1);
	struct uop_entry *set = u->e + (size_t)s * u->ways;
	int i = uop_find(u, s, win, off);

	if (i >= 0)
		uop_remove(u, s, i);
	if (u->n[s] == u->ways)	/* no entry slot left: drop the LRU one */
		uop_remove(u, s, u->n[s] - 1);
	memmove(set + 1, set, u->n[s] * sizeof(*set));
	set[0].win = win;
	set[0].off = off;
	set[0].end = off;
	set[0].ways = 0;
	u->n[s]++;
	return uop_grow(u, win, off, 1, off);
}

bool uop_grow(struct uop_cache *u, u64 win, u32 off, u32 ways, u32 end)
{
	u32 s = win & (u->sets - 1);
	struct uop_entry *set = u->e + (size_t)s * u->ways;
	int i = uop_find(u, s, win, off);

	if (i < 0)
		return false;
	if (ways > u->max_ways) {
		uop_remove(u, s, i);	/* the window needs more: not cached */
		return false;
	}
	if (ways > set[i].ways) {
		i = uop_make_room(u, s, i, ways);
		u->used[s] += ways - set[i].ways;
		set[i].ways = ways;
	}
	set[i].end = end;
	return true;
}

void uop_invalidate(struct uop_cache *u, u64 win)
{
	u32 s = win & (u->sets - 1);
	struct uop_entry *set = u->e + (size_t)s * u->ways;
	u32 i = 0;

	while (i < u->n[s]) {
		if (set[i].win == win)
			uop_remove(u, s, i);
		else
			i++;
	}
}

static u32 uop_nocache_slot(const struct uop_cache *u, u64 win)
{
	u32 mask = u->nocache_cap - 1;
	u32 h = (u32)((win * 0x9e3779b97f4a7c15ULL) >> 32) & mask;

	while (u->nocache[h] != FESIM_NO_TAG && u->nocache[h] != win)
		h = (h + 1) & mask;
	return h;
}

bool uop_nocache_has(const struct uop_cache *u, u64 win)
{
	return u->nocache_n && u->nocache[uop_nocache_slot(u, win)] == win;
}

/* Double the set (kept at most half full so probes stay short). */
static int uop_nocache_grow(struct uop_cache *u)
{
	u64 *old = u->nocache;
	u32 old_cap = u->nocache_cap, i;
	u32 cap = old_cap ? old_cap * 2 : 64;
	u64 *tab = malloc(sizeof(*tab) * cap);

	if (!tab)
		return -1;
	memset(tab, 0xff, sizeof(*tab) * cap);
	u->nocache = tab;
	u->nocache_cap = cap;
	for (i = 0; i < old_cap; i++)
		if (old[i] != FESIM_NO_TAG)
			tab[uop_nocache_slot(u, old[i])] = old[i];
	free(old);
	return 0;
}

int uop_nocache_add(struct uop_cache *u, u64 win)
{
	u32 h;

	uop_invalidate(u, win);
	if ((u->nocache_n + 1) * 2 > u->nocache_cap && uop_nocache_grow(u))
		return -1;
	h = uop_nocache_slot(u, win);
	if (u->nocache[h] != win) {
		u->nocache[h] = win;
		u->nocache_n++;
	}
	return 0;
}
