/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Median, min, max and MAD of per-run values. */
#include <kfront/sort.h>
#include <kfront/stats.h>
#include <kfront/string.h>

void stats_compute(const u64 *vals, u64 n, u64 *scratch, struct stats *st)
{
	memset(st, 0, sizeof(*st));
	st->n = n;
	if (!n)
		return;
	memcpy(scratch, vals, n * sizeof(u64));
	st->median = median_u64(scratch, n);
	st->min = scratch[0];
	st->max = scratch[n - 1];
	for (u64 i = 0; i < n; i++)
		scratch[i] = vals[i] > st->median ? vals[i] - st->median
						  : st->median - vals[i];
	st->mad = median_u64(scratch, n);
}
