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
}

/* Remove entry @i of set @s, closing the gap (keeps recency order). */
static void uop_remove(struct uop_cache *u, u32 s, u32 i)
{
	struct uop_entry *set = u->e + (size_t)s * u->ways;

	u->used[s] -= set[i].ways;
	memmove(set + i, set + i + 1, (u->n[s] - i - 1) * sizeof(*set));
	u->n[s]--;
}

bool uop_access(struct uop_cache *u, u64 win, u32 uops)
{
	u32 s = win & (u->sets - 1);
	struct uop_entry *set = u->e + (size_t)s * u->ways;
	u32 need = (uops + u->uops_per_way - 1) / u->uops_per_way;
	u32 i;

	if (!need)
		need = 1;
	for (i = 0; i < u->n[s]; i++) {
		if (set[i].win != win)
			continue;
		if (set[i].ways >= need) {
			struct uop_entry hit = set[i];

			memmove(set + 1, set, i * sizeof(*set));
			set[0] = hit;
			return true;
		}
		/* entered at an earlier point: more uops than were cached */
		uop_remove(u, s, i);
		break;
	}
	if (need > u->max_ways)
		return false;	/* not cacheable: always from legacy decode */
	while (u->used[s] + need > u->ways)
		uop_remove(u, s, u->n[s] - 1);
	memmove(set + 1, set, u->n[s] * sizeof(*set));
	set[0].win = win;
	set[0].ways = need;
	u->n[s]++;
	u->used[s] += need;
	return false;
}

void uop_invalidate(struct uop_cache *u, u64 win)
{
	u32 s = win & (u->sets - 1);
	struct uop_entry *set = u->e + (size_t)s * u->ways;
	u32 i;

	for (i = 0; i < u->n[s]; i++) {
		if (set[i].win == win) {
			uop_remove(u, s, i);
			return;
		}
	}
}
