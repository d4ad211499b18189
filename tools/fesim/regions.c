/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel's markers (include/kfront/fesim_marker.h): regions opened
 * and closed, flushes and dumps; the counters the code running now is
 * charged to, and the whole run's totals.
 */
#include <stdlib.h>
#include <string.h>

#include "fesim.h"
#include <kfront/fesim_marker.h>

static void region_begin(u32 slot)
{
	struct region *r;

	if (fs.n_regions == fs.cap_regions) {
		fs.cap_regions = fs.cap_regions ? fs.cap_regions * 2 : 256;
		fs.regions = realloc(fs.regions,
				     fs.cap_regions * sizeof(*fs.regions));
		if (!fs.regions)
			abort();
	}
	r = &fs.regions[fs.n_regions];
	memset(r, 0, sizeof(*r));
	r->seq = fs.n_regions++;
	r->slot = slot;
	r->occ = fs.slot_occ[slot]++;
	fs.cur = r;
	if (fs.cold)
		models_flush();
}

void apply_marker(u16 id)
{
	u32 slot = id & FESIM_SLOT_MASK;

	switch (id >> FESIM_KIND_SHIFT) {
	case FESIM_KIND_BEGIN:
		tally_settle();
		if (fs.cur)
			fs.unbalanced++;	/* regions do not nest */
		region_begin(slot);
		break;
	case FESIM_KIND_END:
		if (!fs.cur) {
			fs.stray_ends++;
			break;
		}
		tally_settle();
		if (fs.cur->slot != slot)
			fs.mismatched_ends++;
		fs.cur->closed = 1;
		fs.cur = NULL;
		break;
	case FESIM_KIND_META:
		if (slot == FESIM_META_DUMP) {
			fs.dumps++;
			tally_settle();
			output_write(fs.out_path);
		} else if (slot == FESIM_META_FLUSH && fs.flush) {
			fs.flushes++;
			models_flush();
		}
		break;
	}
}

/* The counters that code running now is charged to. */
struct counters *charged_counters(void)
{
	return fs.cur ? &fs.cur->ctr : &fs.outside;
}

/* Whole-run totals: what ran outside regions plus every region. */
void totals(struct counters *tot)
{
	u64 *x = (u64 *)tot;
	size_t k, n = sizeof(*tot) / sizeof(u64);
	u32 i;

	*tot = fs.outside;
	for (i = 0; i < fs.n_regions; i++) {
		const u64 *y = (const u64 *)&fs.regions[i].ctr;

		for (k = 0; k < n; k++)
			x[k] += y[k];
	}
	/* distinct lines and bytes do not add up: counted separately */
	tot->c.footprint_lines = fs.fp_lines;
	tot->c.footprint_bytes = fs.fp_bytes;
}
