/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Footprint: per-line records, found by line address at translation time,
 * and the distinct lines and bytes each run adds (of its region and of the
 * whole run).
 */
#include <stdlib.h>

#include "fesim.h"

/*
 * Open-addressing hash table of pointers. Records live in chunks that are
 * never freed or moved, so a TB's precomputed fp_ref stays valid for the
 * whole run and the exec path never hashes.
 */
#define CHUNK 4096

static struct fp_line **table;
static u64 table_size, table_used;
static struct fp_line *chunk;
static u32 chunk_used = CHUNK;

static u64 hash_line(u64 line)
{
	line ^= line >> 29;
	line *= 0xbf58476d1ce4e5b9ULL;
	return line ^ (line >> 32);
}

static int table_grow(void)
{
	u64 new_size = table_size ? table_size * 2 : 1 << 14;
	struct fp_line **t = calloc(new_size, sizeof(*t));
	u64 i, h;

	if (!t)
		return -1;
	for (i = 0; i < table_size; i++) {
		if (!table[i])
			continue;
		for (h = hash_line(table[i]->line); t[h & (new_size - 1)]; h++)
			;
		t[h & (new_size - 1)] = table[i];
	}
	free(table);
	table = t;
	table_size = new_size;
	return 0;
}

struct fp_line *fp_lookup(u64 line)
{
	struct fp_line *rec;
	u64 h;

	if (table_used * 2 >= table_size && table_grow())
		abort();
	for (h = hash_line(line);; h++) {
		rec = table[h & (table_size - 1)];
		if (!rec)
			break;
		if (rec->line == line)
			return rec;
	}
	if (chunk_used == CHUNK) {
		chunk = calloc(CHUNK, sizeof(*chunk));
		if (!chunk)
			abort();
		chunk_used = 0;
	}
	rec = &chunk[chunk_used++];
	rec->line = line;
	table[h & (table_size - 1)] = rec;
	table_used++;
	return rec;
}

/* Footprint epoch: 1 outside regions, seq + 2 inside region seq. */
static u32 cur_epoch(void)
{
	return fs.cur ? fs.cur->seq + 2 : 1;
}

/* Count the lines and bytes segment @s adds to the footprints. */
void run_footprint(const struct tb_info *ti, struct seg *s)
{
	struct region *r = fs.cur;
	u32 epoch = cur_epoch();
	u32 j;

	/* masks only grow: a segment already run in this epoch adds nothing */
	if (s->fp_done == epoch)
		return;
	s->fp_done = epoch;
	for (j = 0; j < s->fp_n; j++) {
		struct fp_line *l = ti->fps[s->fp_first + j].rec;
		u64 m = ti->fps[s->fp_first + j].mask;

		if (m & ~l->total_mask) {
			if (!l->total_mask)
				fs.fp_lines++;
			fs.fp_bytes += __builtin_popcountll(m & ~l->total_mask);
			l->total_mask |= m;
		}
		if (!r)
			continue;
		if (l->region_epoch != epoch) {
			l->region_epoch = epoch;
			l->region_mask = 0;
			r->ctr.c.footprint_lines++;
		}
		if (m & ~l->region_mask) {
			r->ctr.c.footprint_bytes +=
				__builtin_popcountll(m & ~l->region_mask);
			l->region_mask |= m;
		}
	}
}
