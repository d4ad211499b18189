/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Set-associative caches (LRU, tree-PLRU or random replacement): the
 * L1i/iTLB/STLB arrays (sa_cache.c) and the uop cache (uop_cache.c). */
#ifndef FESIM_CACHE_H
#define FESIM_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;

#define FESIM_NO_TAG	(~0ULL)

/* Replacement policies (docs/fesim.md, "Replacement and prefetch"). */
enum { POL_LRU, POL_PLRU, POL_RANDOM, POL_N };

static inline bool is_pow2(u32 x)
{
	return x && !(x & (x - 1));
}

/* Random replacement's stream, one per structure (sa_cache.c,
 * uop_cache.c). xorshift64*: small, fast and the same on every host. */
static inline u64 rng_next(u64 *x)
{
	*x ^= *x >> 12;
	*x ^= *x << 25;
	*x ^= *x >> 27;
	return *x * 0x2545f4914f6cdd1dULL;
}

static inline u64 rng_start(u64 seed)
{
	return seed ? seed : 0x9e3779b97f4a7c15ULL;	/* never zero */
}

/* A tag with this bit set was brought in by a prefetch and not yet used
 * (block numbers are addresses >> 6 or more: bit 62 is never theirs). */
#define SA_PF_BIT	(1ULL << 62)

/*
 * One tag per way. LRU: each set is kept in recency order (way 0 = most
 * recently used), so a hit moves the tag to the front and a miss drops the
 * last one; for the associativities modelled (<= 16 for caches, <= 256 for
 * a fully associative TLB) this linear order beats a timestamp scan.
 * Tree-PLRU and random: tags stay in their way; PLRU keeps one bit per
 * node of a binary tree over the ways (1 << plru_levels leaves, the ways
 * left-aligned: a subtree holding no way is never chosen), random draws
 * the victim from a seeded xorshift64* stream (same seed, same counts).
 * mru[] is the way each set touched last: a hit there changes no state
 * under any policy (the replay memo's fast path, frontend.c).
 */
struct sa_cache {
	u32 sets;		/* a power of two */
	u32 assoc;
	u32 policy;		/* POL_* */
	u32 plru_levels;
	u64 *tags;		/* sets * assoc, FESIM_NO_TAG = empty */
	u16 *mru;		/* PLRU/random: way touched last, per set */
	u8 *plru;		/* PLRU: (1 << plru_levels) node bits per set */
	u64 seed, rng;		/* random: the stream restarts at flush */
};

enum { SA_MISS, SA_HIT, SA_HIT_PF };

int sa_init(struct sa_cache *c, u32 sets, u32 assoc, u32 policy, u64 seed);
void sa_flush(struct sa_cache *c);
void sa_free(struct sa_cache *c);

/* True if @blk is the block its set touched last: a hit that changes no
 * state (a prefetched line's first use does: it is not this). */
static inline bool sa_is_mru(const struct sa_cache *c, u64 blk)
{
	u32 s = blk & (c->sets - 1);

	if (c->policy == POL_LRU)
		return c->tags[s * c->assoc] == blk;
	return c->tags[s * c->assoc + c->mru[s]] == blk;
}

/* Does a hit change the state that decides later counts? Under LRU and
 * PLRU it does (recency, tree bits) unless it is the MRU way's; under
 * random it never does (only the MRU hint moves). */
static inline bool sa_hit_changes(const struct sa_cache *c)
{
	return c->policy != POL_RANDOM;
}

/* Slow path of sa_access() for PLRU and random (sa_cache.c). */
int sa_access_fixed(struct sa_cache *c, u64 blk, u64 *victim, bool pf);

/*
 * Demand look-up of block number @blk (address >> line bits): SA_HIT,
 * SA_HIT_PF (a hit on a prefetched line's first use; it is now an
 * ordinary line) or SA_MISS. On a miss the block is installed and
 * *@victim gets the evicted block or FESIM_NO_TAG.
 */
static inline int sa_access(struct sa_cache *c, u64 blk, u64 *victim)
{
	u64 *set;
	u64 t;
	u32 i;

	if (c->policy != POL_LRU)
		return sa_access_fixed(c, blk, victim, false);
	set = c->tags + (blk & (c->sets - 1)) * c->assoc;
	if (set[0] == blk)
		return SA_HIT;
	for (i = 0; i < c->assoc; i++) {
		t = set[i];
		if ((t & ~SA_PF_BIT) == blk) {
			for (; i > 0; i--)
				set[i] = set[i - 1];
			set[0] = blk;
			return t == blk ? SA_HIT : SA_HIT_PF;
		}
	}
	*victim = set[c->assoc - 1];
	if (*victim != FESIM_NO_TAG)
		*victim &= ~SA_PF_BIT;
	for (i = c->assoc - 1; i > 0; i--)
		set[i] = set[i - 1];
	set[0] = blk;
	return SA_MISS;
}

/* Prefetch @blk: if absent, install it (marked SA_PF_BIT) as a demand
 * miss would, and return true; if present, change nothing. */
bool sa_prefetch(struct sa_cache *c, u64 blk, u64 *victim);

/*
 * Decoded-uop cache (docs/fesim.md, "Uop cache"). A window (an aligned 32 or
 * 64-byte block of code) is cached as one entry per entry point: the uops
 * delivered from that entry offset onwards, packed into ways (uop_pack()).
 * All entries of one window together may use at most max_ways ways (Intel:
 * "up to three ways per 32-byte window"); a window's older entries make room
 * for a newer one, and an entry that alone needs more is not cached. Entries
 * are kept in recency order; a miss evicts least recently used entries of
 * the set (or, policy POL_RANDOM, ones drawn from a seeded stream and
 * counted in slot order) until the new one fits; a new entry takes the
 * lowest free slot. Tree-PLRU has no meaning for entries of 1 to max_ways
 * ways: the uop cache takes LRU or random only.
 *
 * An entry stays in the slot it was installed in; the recency order is a
 * permutation of the set's slot numbers, one byte each (ord[]: the n[s]
 * entries in use most recently used first, then the free slots), so a
 * reorder, an insert or a removal moves bytes instead of 16-byte entries.
 */
struct uop_entry {
	u64 win;		/* window number */
	u8 off;			/* entry offset in the window */
	u8 end;			/* offset after the last cached instruction */
	u8 ways;		/* ways this entry occupies */
};

struct uop_cache {
	u32 sets;		/* a power of two */
	u32 ways;		/* ways per set */
	u32 uops_per_way;
	u32 max_ways;		/* ways one window may use */
	struct uop_entry *e;	/* sets * ways slots */
	u8 *ord;		/* sets * ways slot numbers, MRU first */
	u8 *n;			/* entries in use per set */
	u16 *used;		/* ways in use per set */
	u32 policy;		/* POL_LRU or POL_RANDOM */
	u64 seed, rng;
	/* bumped by every change to another entry than the one being
	 * filled (an eviction, an invalidation, a window marked never
	 * cached, a flush): a fill dropped with this unchanged left the
	 * cache as it found it (frontend.c, fill_dropped()) */
	u64 changes;
	/* windows never cached (JCC erratum): an open-addressing set, and
	 * a filter in front of it, one bit per window number modulo
	 * UOP_NOCACHE_FILTER_BITS: a clear bit (nearly every lookup) needs
	 * no hash probe */
	u64 *nocache;
	u32 nocache_cap, nocache_n;
	u64 *nocache_filter;
};

#define UOP_NOCACHE_FILTER_BITS	(1u << 16)	/* 8 KiB: 2 MiB of code in
							 * 32-byte windows */

/* Way packing of one entry, filled instruction by instruction. */
struct uop_pack {
	u8 ways;		/* ways used so far (the last one is open) */
	u8 slots;		/* uop slots used in the last way */
	u8 branches;		/* branches in the last way */
	u8 closed;		/* the last way takes no more uops */
};

/* Instruction kinds that matter to the way rules (struct uinsn flags). */
#define UI_BRANCH	0x01	/* any branch, or a macro-fused pair */
#define UI_UNCOND	0x02	/* jmp, call, ret: ends its way */
#define UI_MSROM	0x04	/* microcoded: takes a whole way */
#define UI_JCC_ERRATUM	0x08	/* a jump (or fused pair) that crosses or
				 * ends on a 32-byte boundary */

/* One instruction as the uop cache sees it (offsets within its window). */
struct uinsn {
	u8 off, end;		/* end may pass the window: a straddler */
	u8 uops;		/* 0 for the jcc of a macro-fused pair */
	u8 flags;
};

int uop_init(struct uop_cache *u, u32 sets, u32 ways, u32 uops_per_way,
	     u32 max_ways, u32 policy, u64 seed);
void uop_flush(struct uop_cache *u);
void uop_free(struct uop_cache *u);

/* Start packing a new entry: one open, empty way. */
static inline void uop_pack_start(struct uop_pack *p)
{
	p->ways = 1;
	p->slots = 0;
	p->branches = 0;
	p->closed = 0;
}


/* Add one instruction to @p under Intel's way rules; returns ways used.
 * Inline: a fill calls it once per instruction (the hot part of fills). */
static inline u32 uop_pack(struct uop_pack *p, const struct uinsn *in,
			   u32 uops_per_way)
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

/* Does a hit change the state that decides later counts? Under LRU it
 * does (recency) unless it is the MRU entry's; under random it never does:
 * victims are drawn in slot order, and the recency order it moves is only
 * the fast path's hint. */
static inline bool uop_hit_changes(const struct uop_cache *u)
{
	return u->policy != POL_RANDOM;
}

/* True if (@win, @off) is the MRU entry of its set and holds the uops up to
 * @end: a hit that changes no state. */
static inline bool uop_is_mru(const struct uop_cache *u, u64 win, u32 off,
			      u32 end)
{
	u32 s = win & (u->sets - 1);
	const struct uop_entry *e = u->e + (size_t)s * u->ways +
				    u->ord[(size_t)s * u->ways];

	return u->n[s] && e->win == win && e->off == off && end <= e->end;
}

/* The most recently used entry of @win's set (if it has one). */
static inline const struct uop_entry *uop_mru_entry(const struct uop_cache *u,
						    u64 win)
{
	u32 s = win & (u->sets - 1);

	return u->e + (size_t)s * u->ways + u->ord[(size_t)s * u->ways];
}

/* Find entry (@win, @off) and make it the MRU one; NULL if not cached,
 * and then *@others gets the ways of the window's entries in the set. The
 * pointer is valid until the next call that changes the set. */
struct uop_entry *uop_lookup(struct uop_cache *u, u64 win, u32 off,
			     u32 *others);
/* Install an empty one-way entry (@win, @off) as MRU; false if it cannot.
 * @absent: the @others of a uop_lookup() that just found no such entry,
 * nothing changed since (no search of the set); NULL: search it. */
bool uop_insert(struct uop_cache *u, u64 win, u32 off, const u32 *absent);
/* uop_grow() when the entry is not the MRU one or needs a new way. */
bool uop_grow_slow(struct uop_cache *u, u64 win, u32 off, u32 ways,
		   u32 end);

/* Let entry (@win, @off) grow to @ways ways and cover up to @end. False
 * (and the entry is dropped) if it cannot be cached. Inline: the usual
 * step of a fill (the MRU entry's end moves on) is most of the calls. */
static inline bool uop_grow(struct uop_cache *u, u64 win, u32 off, u32 ways,
			    u32 end)
{
	u32 s = win & (u->sets - 1);
	struct uop_entry *e = u->e + (size_t)s * u->ways +
			      u->ord[(size_t)s * u->ways];

	if (u->n[s] && e->win == win && e->off == off && ways <= e->ways) {
		e->end = end;
		return true;
	}
	return uop_grow_slow(u, win, off, ways, end);
}
/* Drop every entry of window @win (its L1i line was evicted: the DSB is
 * inclusive, or the window turned out not cacheable). */
void uop_invalidate(struct uop_cache *u, u64 win);
/* Mark @win as never cached (JCC erratum) and drop its entries. */
int uop_nocache_add(struct uop_cache *u, u64 win);
bool uop_nocache_probe(const struct uop_cache *u, u64 win);

/* True if @win is marked never cached. */
static inline bool uop_nocache_has(const struct uop_cache *u, u64 win)
{
	u32 bit = win & (UOP_NOCACHE_FILTER_BITS - 1);

	if (!u->nocache_filter || !(u->nocache_filter[bit / 64] >> bit % 64 & 1))
		return false;
	return uop_nocache_probe(u, win);
}

/* Snapshots of the state that decides future counts (loop replay,
 * loops.c): sizes in bytes, take one, compare the cache with one. */
size_t sa_snap_size(const struct sa_cache *c);
void sa_snap(const struct sa_cache *c, u8 *buf);
bool sa_snap_equal(const struct sa_cache *c, const u8 *buf);
size_t uop_snap_size(const struct uop_cache *u);
void uop_snap(const struct uop_cache *u, u8 *buf);
bool uop_snap_equal(const struct uop_cache *u, const u8 *buf);

#endif /* FESIM_CACHE_H */
