/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Set-associative true-LRU caches: the L1i/iTLB array and the uop cache. */
#ifndef FESIM_CACHE_H
#define FESIM_CACHE_H

#include <stdbool.h>
#include <stdint.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;

#define FESIM_NO_TAG	(~0ULL)

/*
 * One tag per way; each set is kept in recency order (way 0 = most recently
 * used), so a hit moves the tag to the front and a miss drops the last one.
 * For the associativities modelled (<= 16 for caches, <= 256 for a fully
 * associative TLB) this linear order beats a timestamp scan.
 */
struct lru_cache {
	u32 sets;		/* a power of two */
	u32 assoc;
	u64 *tags;		/* sets * assoc, FESIM_NO_TAG = empty */
};

int lru_init(struct lru_cache *c, u32 sets, u32 assoc);
void lru_flush(struct lru_cache *c);
void lru_free(struct lru_cache *c);

/* True if @blk is the most recently used block of its set: a hit that
 * changes no state. */
static inline bool lru_is_mru(const struct lru_cache *c, u64 blk)
{
	return c->tags[(blk & (c->sets - 1)) * c->assoc] == blk;
}

/*
 * Look up block number @blk (address >> line bits). Returns true on a hit.
 * On a miss the block is installed and *@victim gets the evicted block or
 * FESIM_NO_TAG.
 */
static inline bool lru_access(struct lru_cache *c, u64 blk, u64 *victim)
{
	u64 *set = c->tags + (blk & (c->sets - 1)) * c->assoc;
	u32 i;

	if (set[0] == blk)
		return true;
	for (i = 1; i < c->assoc; i++) {
		if (set[i] == blk) {
			for (; i > 0; i--)
				set[i] = set[i - 1];
			set[0] = blk;
			return true;
		}
	}
	*victim = set[c->assoc - 1];
	for (i = c->assoc - 1; i > 0; i--)
		set[i] = set[i - 1];
	set[0] = blk;
	return false;
}

/*
 * Decoded-uop cache: a window (an aligned 32 or 64-byte block of code) is
 * cached as one entry that occupies ceil(uops / uops_per_way) ways of the set
 * the window maps to. A window that needs more than max_ways ways cannot be
 * cached (Intel: "at most 3 ways per 32-byte window"), so every lookup of it
 * misses. Entries are kept in recency order; a miss evicts least recently
 * used entries until the new one fits.
 */
struct uop_entry {
	u64 win;		/* window number, FESIM_NO_TAG = empty */
	u32 ways;		/* ways this entry occupies */
};

struct uop_cache {
	u32 sets;		/* a power of two */
	u32 ways;		/* ways per set */
	u32 uops_per_way;
	u32 max_ways;		/* ways one window may use */
	struct uop_entry *e;	/* sets * ways entries, MRU first */
	u8 *n;			/* entries in use per set */
	u16 *used;		/* ways in use per set */
};

int uop_init(struct uop_cache *u, u32 sets, u32 ways, u32 uops_per_way,
	     u32 max_ways);
void uop_flush(struct uop_cache *u);
void uop_free(struct uop_cache *u);
/* Look up window @win needing @uops uops; returns true on a hit. */
bool uop_access(struct uop_cache *u, u64 win, u32 uops);

/* True if @win is cached as the MRU entry of its set with room for @uops:
 * a hit that changes no state. */
static inline bool uop_is_mru(const struct uop_cache *u, u64 win, u32 uops)
{
	u32 s = win & (u->sets - 1);
	const struct uop_entry *e = u->e + (size_t)s * u->ways;

	return u->n[s] && e->win == win && e->ways * u->uops_per_way >= uops;
}
/* Drop window @win (its L1i line was evicted: the DSB is inclusive). */
void uop_invalidate(struct uop_cache *u, u64 win);

#endif /* FESIM_CACHE_H */
