/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The uop cache: entries per window and entry point, ways grown as a fill
 * goes on, LRU or random replacement, the windows never cached, snapshots. */
#include <stdlib.h>
#include <string.h>

#include "cache.h"

int uop_init(struct uop_cache *u, u32 sets, u32 ways, u32 uops_per_way,
	     u32 max_ways, u32 policy, u64 seed)
{
	memset(u, 0, sizeof(*u));
	if (!is_pow2(sets) || !ways || ways > 255 || !uops_per_way ||
	    !max_ways || (policy != POL_LRU && policy != POL_RANDOM))
		return -1;
	u->policy = policy;
	u->seed = seed;
	u->sets = sets;
	u->ways = ways;
	u->uops_per_way = uops_per_way;
	u->max_ways = max_ways < ways ? max_ways : ways;
	u->e = calloc((size_t)sets * ways, sizeof(*u->e));
	/* 8 bytes more: ord_to_front() reads and writes a set's first 8
	 * bytes as one word, however few ways it has */
	u->ord = calloc((size_t)sets * ways + 8, 1);
	u->n = calloc(sets, sizeof(*u->n));
	u->used = calloc(sets, sizeof(*u->used));
	if (!u->e || !u->ord || !u->n || !u->used) {
		/* none of them is kept: a half-made cache is no cache */
		uop_free(u);
		return -1;
	}
	uop_flush(u);
	return 0;
}

void uop_flush(struct uop_cache *u)
{
	size_t i;

	u->changes++;
	for (i = 0; i < (size_t)u->sets * u->ways; i++)
		u->ord[i] = i % u->ways;
	memset(u->n, 0, u->sets * sizeof(*u->n));
	memset(u->used, 0, u->sets * sizeof(*u->used));
	u->rng = rng_start(u->seed);
	/* the windows found uncacheable are found again, as at start-up: a
	 * set kept across a flush would make what follows depend on which of
	 * its windows earlier code happened to fill up to the erratum jump */
	if (u->nocache)
		memset(u->nocache, 0xff, sizeof(*u->nocache) * u->nocache_cap);
	if (u->nocache_filter)
		memset(u->nocache_filter, 0, UOP_NOCACHE_FILTER_BITS / 8);
	u->nocache_n = 0;
}

void uop_free(struct uop_cache *u)
{
	free(u->e);
	free(u->ord);
	free(u->n);
	free(u->used);
	free(u->nocache);
	free(u->nocache_filter);
	u->e = NULL;
	u->ord = NULL;
	u->n = NULL;
	u->used = NULL;
	u->nocache = NULL;
	u->nocache_filter = NULL;
	u->nocache_cap = u->nocache_n = 0;
}

static u8 *uop_order(const struct uop_cache *u, u32 s)
{
	return u->ord + (size_t)s * u->ways;
}

/* The entry at recency position @i of set @s (0 = most recent). */
static struct uop_entry *uop_at(const struct uop_cache *u, u32 s, u32 i)
{
	return u->e + (size_t)s * u->ways + uop_order(u, s)[i];
}

/* Move the slot number at position @from of @o to position @to <= @from,
 * the ones between one place down. To the front from one of the first 8
 * positions (nearly every hit and insertion) it is one word's shift and
 * merge, without a loop; else a byte loop. */
static void ord_to_front(u8 *o, u32 from, u32 to)
{
	u8 slot = o[from];

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (!to && from < 8) {
		u64 w, upto = ~0ULL >> (56 - 8 * from);	/* bytes 0..from */

		memcpy(&w, o, sizeof(w));
		/* bytes 0..from-1 one place up, the slot in byte 0 */
		w = (w & ~upto) | ((w << 8) & upto) | slot;
		memcpy(o, &w, sizeof(w));
		return;
	}
#endif
	for (; from > to; from--)
		o[from] = o[from - 1];
	o[to] = slot;
}

/* Bring the lowest slot number among the free ones (positions @n.. of
 * @o, @ways in all) to the front: the new most recent entry's slot. */
static void ord_lowest_free_to_front(u8 *o, u32 n, u32 ways)
{
	u32 i, low = n;

	for (i = n + 1; i < ways; i++)
		if (o[i] < o[low])
			low = i;
	ord_to_front(o, low, 0);
}

/* Remove the entry at position @i of set @s, keeping the order of the
 * rest; its slot joins the free ones. */
static void uop_remove(struct uop_cache *u, u32 s, u32 i)
{
	u8 *o = uop_order(u, s);
	u8 slot = o[i];
	u32 last = u->n[s] - 1;

	u->used[s] -= uop_at(u, s, i)->ways;
	for (; i < last; i++)
		o[i] = o[i + 1];
	o[last] = slot;
	u->n[s]--;
}

/* The position of entry (@win, @off) in set @s; if there is none, -1,
 * and *@others gets the ways of window @win's entries in the set (the
 * same pass: a fill's first way needs them, uop_insert()). */
static int uop_find(const struct uop_cache *u, u32 s, u64 win, u32 off,
		    u32 *others)
{
	const struct uop_entry *set = u->e + (size_t)s * u->ways;
	const u8 *o = uop_order(u, s);
	u32 i, ways = 0;

	for (i = 0; i < u->n[s]; i++) {
		const struct uop_entry *e = set + o[i];

		if (e->win != win)
			continue;
		if (e->off == off)
			return i;
		ways += e->ways;
	}
	*others = ways;
	return -1;
}

struct uop_entry *uop_lookup(struct uop_cache *u, u64 win, u32 off,
			     u32 *others)
{
	u32 s = win & (u->sets - 1);
	int i = uop_find(u, s, win, off, others);

	if (i < 0)
		return NULL;
	ord_to_front(uop_order(u, s), i, 0);
	return uop_at(u, s, 0);
}

/* Is the entry at position @i of set @s a victim candidate: not @keep,
 * and of window @win unless @win is FESIM_NO_TAG? */
static bool uop_candidate(const struct uop_cache *u, u32 s, int i, u64 win,
			  int keep)
{
	return i != keep && (win == FESIM_NO_TAG || uop_at(u, s, i)->win == win);
}

/*
 * Random replacement: the candidate drawn from the seeded stream, counted
 * in slot order. Not in recency order: then a hit, which only reorders,
 * changes nothing a later draw depends on, and a run of hits leaves the
 * cache as it found it (memo.c's replay memo, loops.c's fixed points).
 */
static int uop_random_victim(struct uop_cache *u, u32 s, u64 win, int keep)
{
	const u8 *o = uop_order(u, s);
	int pos[256];		/* slot -> recency position, -1 if no candidate */
	int i, n = 0, pick;
	u32 k;

	for (k = 0; k < u->ways; k++)
		pos[k] = -1;
	for (i = 0; i < (int)u->n[s]; i++) {
		if (uop_candidate(u, s, i, win, keep)) {
			pos[o[i]] = i;
			n++;
		}
	}
	if (!n)
		return -1;
	pick = (int)(rng_next(&u->rng) % (u64)n);
	for (k = 0; k < u->ways; k++)
		if (pos[k] >= 0 && !pick--)
			break;
	return pos[k];
}

/* The position in set @s of the entry to evict, other than @keep, of
 * window @win only unless @win is FESIM_NO_TAG: the least recently used
 * one, or (random) one drawn from the seeded stream; -1 if none. */
static int uop_victim(struct uop_cache *u, u32 s, u64 win, int keep)
{
	int i;

	if (u->policy == POL_RANDOM)
		return uop_random_victim(u, s, win, keep);
	for (i = (int)u->n[s] - 1; i >= 0; i--)
		if (uop_candidate(u, s, i, win, keep))
			return i;
	return -1;
}

/*
 * Let the entry at position @i of set @s grow to @ways ways (more than it
 * has), @others being the ways of its window's other entries: first
 * those give way (at most max_ways per window), then the set's least
 * recently used entries. The entry keeps its slot; @i, its position,
 * only moves for the victims to be found.
 */
static void uop_widen(struct uop_cache *u, u32 s, int i, u32 ways,
		      u32 others)
{
	struct uop_entry *e = uop_at(u, s, i);	/* its slot stays */
	u64 win = e->win;
	u32 extra = ways - e->ways;
	int v;

	/* @others: ways of the window's other entries, kept up to date */
	while (others + ways > u->max_ways) {
		v = uop_victim(u, s, win, i);
		others -= uop_at(u, s, v)->ways;
		u->changes++;
		uop_remove(u, s, v);
		if (v < i)
			i--;
	}
	while (u->used[s] + extra > u->ways) {
		v = uop_victim(u, s, FESIM_NO_TAG, i);
		u->changes++;
		uop_remove(u, s, v);
		if (v < i)
			i--;
	}
	u->used[s] += extra;
	e->ways = ways;
}

bool uop_insert(struct uop_cache *u, u64 win, u32 off, const u32 *absent)
{
	u32 s = win & (u->sets - 1), others;
	int i = -1, v;
	struct uop_entry *e;

	if (absent)
		others = *absent;
	else
		i = uop_find(u, s, win, off, &others);

	if (i >= 0) {
		u->changes++;
		uop_remove(u, s, i);
	}
	if (u->n[s] == u->ways) {	/* no entry slot left: evict one */
		v = uop_victim(u, s, FESIM_NO_TAG, -1);
		if (uop_at(u, s, v)->win == win)
			others -= uop_at(u, s, v)->ways;
		u->changes++;
		uop_remove(u, s, v);
	}
	/* the lowest free slot becomes the most recent entry: a choice
	 * that depends only on which slots are in use (random draws count
	 * slots, so their layout is part of the state; recency is not) */
	ord_lowest_free_to_front(uop_order(u, s), u->n[s], u->ways);
	e = uop_at(u, s, 0);
	e->win = win;
	e->off = off;
	e->end = off;
	e->ways = 0;
	u->n[s]++;
	if (i >= 0)		/* the search stopped at it: others unknown */
		return uop_grow(u, win, off, 1, off);
	/* its first way, as uop_grow_slow() would without its search (the
	 * entry is the most recent one, position 0; a window may use a way) */
	uop_widen(u, s, 0, 1, others);
	return true;
}

bool uop_grow_slow(struct uop_cache *u, u64 win, u32 off, u32 ways,
		   u32 end)
{
	u32 s = win & (u->sets - 1);
	struct uop_entry *set = u->e + (size_t)s * u->ways;
	const u8 *o = uop_order(u, s);
	struct uop_entry *e;
	u32 others = 0, k;
	int i = -1;

	/* one pass finds the entry and the ways of the window's others */
	for (k = 0; k < u->n[s]; k++) {
		if (set[o[k]].win != win)
			continue;
		if (set[o[k]].off == off)
			i = k;
		else
			others += set[o[k]].ways;
	}
	if (i < 0)
		return false;
	e = set + o[i];		/* its slot stays while others go */
	if (ways > u->max_ways) {
		uop_remove(u, s, i);	/* the window needs more: not cached */
		return false;
	}
	if (ways > e->ways)
		uop_widen(u, s, i, ways, others);
	e->end = end;
	return true;
}

void uop_invalidate(struct uop_cache *u, u64 win)
{
	u32 s = win & (u->sets - 1);
	u32 i = 0;

	while (i < u->n[s]) {
		if (uop_at(u, s, i)->win == win) {
			u->changes++;
			uop_remove(u, s, i);
		} else {
			i++;
		}
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

bool uop_nocache_probe(const struct uop_cache *u, u64 win)
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
	if (!u->nocache_filter) {
		u->nocache_filter = calloc(UOP_NOCACHE_FILTER_BITS / 64,
					   sizeof(u64));
		if (!u->nocache_filter)
			return -1;
	}
	if ((u->nocache_n + 1) * 2 > u->nocache_cap && uop_nocache_grow(u))
		return -1;
	u->nocache_filter[(win & (UOP_NOCACHE_FILTER_BITS - 1)) / 64] |=
		1ULL << (win % 64);
	h = uop_nocache_slot(u, win);
	if (u->nocache[h] != win) {
		u->changes++;
		u->nocache[h] = win;
		u->nocache_n++;
	}
	return 0;
}

/*
 * A uop-cache set's state under LRU is its entries in recency order: which
 * slot an entry sits in decides nothing (victims are the least recently
 * used), so the snapshot lists entries by position, not by slot, and a
 * thrashed set whose entries rotate through the slots still compares equal
 * once its contents and order repeat. Under random replacement it is the
 * other way round: draws count slots and recency decides nothing, so the
 * snapshot lists the slots (an empty one as FESIM_NO_TAG). Windows marked
 * never cached are only ever added (between flushes, which loop replay
 * never spans): their number stands for the set.
 */
struct uop_snap_entry {
	u64 win;
	u8 off, end, ways, pad[5];
};

/* Set @s as the snapshot lists it: u->ways entries at @se. */
static void uop_snap_set(const struct uop_cache *u, u32 s,
			 struct uop_snap_entry *se)
{
	const u8 *o = uop_order(u, s);
	u32 i;

	memset(se, 0, sizeof(*se) * u->ways);
	if (u->policy == POL_RANDOM)
		for (i = 0; i < u->ways; i++)
			se[i].win = FESIM_NO_TAG;
	for (i = 0; i < u->n[s]; i++) {
		const struct uop_entry *e = uop_at(u, s, i);
		struct uop_snap_entry *d = se + (u->policy == POL_RANDOM ?
						 o[i] : i);

		d->win = e->win;
		d->off = e->off;
		d->end = e->end;
		d->ways = e->ways;
	}
}

size_t uop_snap_size(const struct uop_cache *u)
{
	return sizeof(struct uop_snap_entry) * (size_t)u->sets * u->ways +
	       sizeof(u->rng) + sizeof(u->nocache_n);
}

void uop_snap(const struct uop_cache *u, u8 *buf)
{
	struct uop_snap_entry *se = (struct uop_snap_entry *)buf;
	u32 s;

	for (s = 0; s < u->sets; s++, se += u->ways)
		uop_snap_set(u, s, se);
	buf = (u8 *)se;
	memcpy(buf, &u->rng, sizeof(u->rng));
	buf += sizeof(u->rng);
	memcpy(buf, &u->nocache_n, sizeof(u->nocache_n));
}

bool uop_snap_equal(const struct uop_cache *u, const u8 *buf)
{
	const struct uop_snap_entry *se = (const struct uop_snap_entry *)buf;
	const u8 *rest = buf + sizeof(*se) * (size_t)u->sets * u->ways;
	struct uop_snap_entry now[256];
	u32 s;

	if (memcmp(rest, &u->rng, sizeof(u->rng)) ||
	    memcmp(rest + sizeof(u->rng), &u->nocache_n,
		   sizeof(u->nocache_n)))
		return false;
	for (s = 0; s < u->sets; s++, se += u->ways) {
		uop_snap_set(u, s, now);
		if (memcmp(now, se, sizeof(*se) * u->ways))
			return false;
	}
	return true;
}
