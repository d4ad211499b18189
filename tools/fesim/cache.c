/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Set-associative caches: set-up, PLRU/random replacement, prefetch fills
 * and the uop-cache replacement. */
#include <stdlib.h>
#include <string.h>

#include "cache.h"

/* The last stamp before uop_restamp() renumbers (lowered only to test
 * the renumbering). */
#ifndef UOP_STAMP_MAX
#define UOP_STAMP_MAX	0xffffffffu
#endif

static bool is_pow2(u32 x)
{
	return x && !(x & (x - 1));
}

/* xorshift64*: small, fast and the same on every host. */
static u64 rng_next(u64 *x)
{
	*x ^= *x >> 12;
	*x ^= *x << 25;
	*x ^= *x >> 27;
	return *x * 0x2545f4914f6cdd1dULL;
}

static u64 rng_start(u64 seed)
{
	return seed ? seed : 0x9e3779b97f4a7c15ULL;	/* never zero */
}

int sa_init(struct sa_cache *c, u32 sets, u32 assoc, u32 policy, u64 seed)
{
	memset(c, 0, sizeof(*c));
	if (!is_pow2(sets) || !assoc || assoc > 0xffff || policy >= POL_N)
		return -1;
	c->sets = sets;
	c->assoc = assoc;
	c->policy = policy;
	c->seed = seed;
	while ((1u << c->plru_levels) < assoc)
		c->plru_levels++;
	c->tags = malloc(sizeof(*c->tags) * (size_t)sets * assoc);
	c->mru = calloc(sets, sizeof(*c->mru));
	if (policy == POL_PLRU)
		c->plru = calloc((size_t)sets << c->plru_levels, 1);
	if (!c->tags || !c->mru || (policy == POL_PLRU && !c->plru)) {
		sa_free(c);
		return -1;
	}
	sa_flush(c);
	return 0;
}

void sa_flush(struct sa_cache *c)
{
	/* all-ones bytes make every tag FESIM_NO_TAG */
	memset(c->tags, 0xff, sizeof(*c->tags) * c->sets * c->assoc);
	memset(c->mru, 0, sizeof(*c->mru) * c->sets);
	if (c->plru)
		memset(c->plru, 0, (size_t)c->sets << c->plru_levels);
	c->rng = rng_start(c->seed);
}

void sa_free(struct sa_cache *c)
{
	free(c->tags);
	free(c->mru);
	free(c->plru);
	c->tags = NULL;
	c->mru = NULL;
	c->plru = NULL;
}

/* Tree-PLRU: point every node on @way's path away from it. Node k's
 * children are 2k (left, bit 0) and 2k + 1 (right, bit 1). */
static void plru_touch(struct sa_cache *c, u32 s, u32 way)
{
	u8 *bits = c->plru + ((size_t)s << c->plru_levels);
	u32 node = 1, lvl;

	for (lvl = c->plru_levels; lvl > 0; lvl--) {
		u32 right = (way >> (lvl - 1)) & 1;

		bits[node] = !right;
		node = 2 * node + right;
	}
}

/* Follow the node bits to the victim; a right subtree with no way in it
 * (associativity not a power of two) is never taken. */
static u32 plru_victim(const struct sa_cache *c, u32 s)
{
	const u8 *bits = c->plru + ((size_t)s << c->plru_levels);
	u32 node = 1, lo = 0, lvl;

	for (lvl = c->plru_levels; lvl > 0; lvl--) {
		u32 half = 1u << (lvl - 1);
		u32 right = bits[node] && lo + half < c->assoc;

		node = 2 * node + right;
		lo += right * half;
	}
	return lo;
}

/* The way to fill in set @s: an empty one first, else the policy's. */
static u32 fixed_victim(struct sa_cache *c, u32 s)
{
	const u64 *set = c->tags + (size_t)s * c->assoc;
	u32 i;

	for (i = 0; i < c->assoc; i++)
		if (set[i] == FESIM_NO_TAG)
			return i;
	if (c->policy == POL_PLRU)
		return plru_victim(c, s);
	return (u32)(rng_next(&c->rng) % c->assoc);
}

static void fixed_touch(struct sa_cache *c, u32 s, u32 way)
{
	c->mru[s] = way;
	if (c->policy == POL_PLRU)
		plru_touch(c, s, way);
}

int sa_access_fixed(struct sa_cache *c, u64 blk, u64 *victim, bool pf)
{
	u32 s = blk & (c->sets - 1);
	u64 *set = c->tags + (size_t)s * c->assoc;
	u32 i;

	for (i = 0; i < c->assoc; i++) {
		if ((set[i] & ~SA_PF_BIT) != blk || set[i] == FESIM_NO_TAG)
			continue;
		if (pf)		/* a prefetch of a present line: no change */
			return SA_HIT;
		fixed_touch(c, s, i);
		if (set[i] == blk)
			return SA_HIT;
		set[i] = blk;
		return SA_HIT_PF;
	}
	i = fixed_victim(c, s);
	*victim = set[i] == FESIM_NO_TAG ? FESIM_NO_TAG : set[i] & ~SA_PF_BIT;
	set[i] = pf ? blk | SA_PF_BIT : blk;
	fixed_touch(c, s, i);
	return SA_MISS;
}

bool sa_prefetch(struct sa_cache *c, u64 blk, u64 *victim)
{
	u64 *set;
	u32 i;

	if (c->policy != POL_LRU)
		return sa_access_fixed(c, blk, victim, true) == SA_MISS;
	set = c->tags + (blk & (c->sets - 1)) * c->assoc;
	for (i = 0; i < c->assoc; i++)
		if ((set[i] & ~SA_PF_BIT) == blk)
			return false;
	*victim = set[c->assoc - 1];
	if (*victim != FESIM_NO_TAG)
		*victim &= ~SA_PF_BIT;
	for (i = c->assoc - 1; i > 0; i--)
		set[i] = set[i - 1];
	set[0] = blk | SA_PF_BIT;
	return true;
}

int uop_init(struct uop_cache *u, u32 sets, u32 ways, u32 uops_per_way,
	     u32 max_ways, u32 policy, u64 seed)
{
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
	u->n = calloc(sets, sizeof(*u->n));
	u->mru = calloc(sets, sizeof(*u->mru));
	u->used = calloc(sets, sizeof(*u->used));
	if (!u->e || !u->n || !u->mru || !u->used) {
		/* none of them is kept: a half-made cache is no cache */
		free(u->e);
		free(u->n);
		free(u->mru);
		free(u->used);
		u->e = NULL;
		u->n = NULL;
		u->mru = NULL;
		u->used = NULL;
		return -1;
	}
	uop_flush(u);
	return 0;
}

void uop_flush(struct uop_cache *u)
{
	u->changes++;
	memset(u->e, 0, (size_t)u->sets * u->ways * sizeof(*u->e));
	memset(u->n, 0, u->sets * sizeof(*u->n));
	memset(u->mru, 0, u->sets * sizeof(*u->mru));
	memset(u->used, 0, u->sets * sizeof(*u->used));
	u->clock = 0;
	u->rng = rng_start(u->seed);
}

void uop_free(struct uop_cache *u)
{
	free(u->e);
	free(u->n);
	free(u->mru);
	free(u->used);
	free(u->nocache);
	free(u->nocache_filter);
	u->e = NULL;
	u->n = NULL;
	u->mru = NULL;
	u->used = NULL;
	u->nocache = NULL;
	u->nocache_filter = NULL;
	u->nocache_cap = u->nocache_n = 0;
}

/*
 * The stamp counter is about to wrap (after 4 G touches): renumber each
 * set's entries 1..n in the order they have, so the counter can go on
 * from the largest count. Only the order is ever compared: unchanged.
 */
static void uop_restamp(struct uop_cache *u)
{
	u32 rank[255];
	u32 s, i, j, top = 0;

	for (s = 0; s < u->sets; s++) {
		struct uop_entry *set = u->e + (size_t)s * u->ways;

		for (i = 0; i < u->ways; i++) {
			rank[i] = 0;
			if (!set[i].stamp)
				continue;
			for (j = 0; j < u->ways; j++)
				rank[i] += set[j].stamp &&
					   set[j].stamp <= set[i].stamp;
		}
		for (i = 0; i < u->ways; i++) {
			set[i].stamp = rank[i];
			if (rank[i] > top)
				top = rank[i];
		}
	}
	u->clock = top;
}

/* Make slot @i of set @s the most recently used entry. */
static void uop_touch(struct uop_cache *u, u32 s, u32 i)
{
	if (u->clock == UOP_STAMP_MAX)
		uop_restamp(u);
	u->e[(size_t)s * u->ways + i].stamp = ++u->clock;
	u->mru[s] = i;
}

/* The slot of set @s with the largest stamp (slot 0 if the set is empty:
 * its stamp 0 then says so). */
static u32 uop_newest(const struct uop_cache *u, u32 s)
{
	const struct uop_entry *set = u->e + (size_t)s * u->ways;
	u32 i, best = 0;

	for (i = 1; i < u->ways; i++)
		if (set[i].stamp > set[best].stamp)
			best = i;
	return best;
}

/* Empty slot @i of set @s (the others keep their slots and order). */
static void uop_remove(struct uop_cache *u, u32 s, u32 i)
{
	struct uop_entry *set = u->e + (size_t)s * u->ways;

	u->used[s] -= set[i].ways;
	set[i].stamp = 0;
	u->n[s]--;
	if (i == u->mru[s])
		u->mru[s] = uop_newest(u, s);
}

static int uop_find(const struct uop_cache *u, u32 s, u64 win, u32 off)
{
	const struct uop_entry *set = u->e + (size_t)s * u->ways;
	u32 i;

	for (i = 0; i < u->ways; i++)
		if (set[i].stamp && set[i].win == win && set[i].off == off)
			return i;
	return -1;
}

struct uop_entry *uop_lookup(struct uop_cache *u, u64 win, u32 off)
{
	u32 s = win & (u->sets - 1);
	int i = uop_find(u, s, win, off);

	if (i < 0)
		return NULL;
	uop_touch(u, s, i);
	return u->e + (size_t)s * u->ways + i;
}

static bool uop_candidate(const struct uop_entry *e, u64 win, int i, int keep)
{
	return e->stamp && i != keep && (win == FESIM_NO_TAG || e->win == win);
}

/* The slot of set @s to evict, other than @keep, of window @win only
 * unless @win is FESIM_NO_TAG: the least recently used entry, or (random)
 * the one a draw from the seeded stream picks, counting from the most
 * recently used; -1 if none. */
static int uop_victim(struct uop_cache *u, u32 s, u64 win, int keep)
{
	const struct uop_entry *set = u->e + (size_t)s * u->ways;
	int i, j, n = 0, pick, lru = -1;

	if (u->policy == POL_RANDOM) {
		for (i = 0; i < (int)u->ways; i++)
			n += uop_candidate(&set[i], win, i, keep);
		if (!n)
			return -1;
		pick = (int)(rng_next(&u->rng) % (u64)n);
		/* the candidate with exactly @pick more recent ones */
		for (i = 0; i < (int)u->ways; i++) {
			if (!uop_candidate(&set[i], win, i, keep))
				continue;
			n = 0;
			for (j = 0; j < (int)u->ways; j++)
				n += uop_candidate(&set[j], win, j, keep) &&
				     set[j].stamp > set[i].stamp;
			if (n == pick)
				return i;
		}
		return -1;
	}
	for (i = 0; i < (int)u->ways; i++)
		if (uop_candidate(&set[i], win, i, keep) &&
		    (lru < 0 || set[i].stamp < set[lru].stamp))
			lru = i;
	return lru;
}

/*
 * Make room for the entry in slot @i of set @s to hold @ways ways: first
 * the window's own older entries give way (at most max_ways per window),
 * then the set's least recently used entries.
 */
static void uop_make_room(struct uop_cache *u, u32 s, int i, u32 ways,
			  u32 others)
{
	struct uop_entry *set = u->e + (size_t)s * u->ways;
	u64 win = set[i].win;
	u32 extra = ways - set[i].ways;
	int v;

	/* @others: ways of the window's other entries, kept up to date */
	while (others + ways > u->max_ways) {
		v = uop_victim(u, s, win, i);
		others -= set[v].ways;
		u->changes++;
		uop_remove(u, s, v);
	}
	while (u->used[s] + extra > u->ways) {
		v = uop_victim(u, s, FESIM_NO_TAG, i);
		u->changes++;
		uop_remove(u, s, v);
	}
}

bool uop_insert(struct uop_cache *u, u64 win, u32 off, bool absent)
{
	u32 s = win & (u->sets - 1);
	struct uop_entry *set = u->e + (size_t)s * u->ways;
	int i = absent ? -1 : uop_find(u, s, win, off);

	if (i >= 0) {
		u->changes++;
		uop_remove(u, s, i);
	}
	if (u->n[s] == u->ways) {	/* no entry slot left: drop one */
		i = uop_victim(u, s, FESIM_NO_TAG, -1);
		u->changes++;
		uop_remove(u, s, i);
	} else if (i < 0) {
		for (i = 0; set[i].stamp; i++)
			;		/* n < ways: an empty slot exists */
	}
	set[i].win = win;
	set[i].off = off;
	set[i].end = off;
	set[i].ways = 0;
	uop_touch(u, s, i);
	u->n[s]++;
	return uop_grow(u, win, off, 1, off);
}

bool uop_grow(struct uop_cache *u, u64 win, u32 off, u32 ways, u32 end)
{
	u32 s = win & (u->sets - 1);
	struct uop_entry *set = u->e + (size_t)s * u->ways;
	struct uop_entry *e = set + u->mru[s];
	u32 others = 0, k;
	int i = -1;

	/* the usual step of a fill: the MRU entry's end moves on */
	if (e->stamp && e->win == win && e->off == off && ways <= e->ways) {
		e->end = end;
		return true;
	}
	/* one pass finds the entry and the ways of the window's others */
	for (k = 0; k < u->ways; k++) {
		if (!set[k].stamp || set[k].win != win)
			continue;
		if (set[k].off == off)
			i = k;
		else
			others += set[k].ways;
	}
	if (i < 0)
		return false;
	if (ways > u->max_ways) {
		uop_remove(u, s, i);	/* the window needs more: not cached */
		return false;
	}
	if (ways > set[i].ways) {
		uop_make_room(u, s, i, ways, others);
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
	u32 i;

	for (i = 0; i < u->ways; i++) {
		if (set[i].stamp && set[i].win == win) {
			u->changes++;
			uop_remove(u, s, i);
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
