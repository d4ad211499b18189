/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Set-associative caches (the L1i, the iTLB and the STLB): set-up, LRU,
 * tree-PLRU and random replacement, prefetch fills, snapshots. */
#include <stdlib.h>
#include <string.h>

#include "cache.h"

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

/*
 * Snapshots for loop replay (loops.c): everything of a cache that decides
 * its future hits and misses, so that "equal to the snapshot" means "will
 * behave exactly as it did then". LRU sets are kept in recency order, so
 * their tags are the whole state; PLRU adds the tree bits and the way
 * touched last (the fast path's key), every policy the random stream.
 * Under random replacement the way touched last is only a hint: a hit
 * changes no state there.
 */
static size_t sa_tags_bytes(const struct sa_cache *c)
{
	return sizeof(*c->tags) * (size_t)c->sets * c->assoc;
}

static size_t sa_mru_bytes(const struct sa_cache *c)
{
	return c->plru ? sizeof(*c->mru) * c->sets : 0;
}

static size_t sa_plru_bytes(const struct sa_cache *c)
{
	return c->plru ? (size_t)c->sets << c->plru_levels : 0;
}

size_t sa_snap_size(const struct sa_cache *c)
{
	return sa_tags_bytes(c) + sizeof(c->rng) + sa_mru_bytes(c) +
	       sa_plru_bytes(c);
}

void sa_snap(const struct sa_cache *c, u8 *buf)
{
	memcpy(buf, c->tags, sa_tags_bytes(c));
	buf += sa_tags_bytes(c);
	memcpy(buf, &c->rng, sizeof(c->rng));
	buf += sizeof(c->rng);
	memcpy(buf, c->mru, sa_mru_bytes(c));
	buf += sa_mru_bytes(c);
	memcpy(buf, c->plru, sa_plru_bytes(c));
}

bool sa_snap_equal(const struct sa_cache *c, const u8 *buf)
{
	if (memcmp(buf, c->tags, sa_tags_bytes(c)))
		return false;
	buf += sa_tags_bytes(c);
	if (memcmp(buf, &c->rng, sizeof(c->rng)))
		return false;
	buf += sizeof(c->rng);
	if (memcmp(buf, c->mru, sa_mru_bytes(c)))
		return false;
	buf += sa_mru_bytes(c);
	return !memcmp(buf, c->plru, sa_plru_bytes(c));
}
