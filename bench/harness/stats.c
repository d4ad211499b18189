/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Median, min, max and MAD of per-run values. */
#include <kfront/stats.h>
#include <kfront/string.h>

/* Shell sort with Ciura's gaps: small, no recursion, fast enough for the
 * few thousand runs a suite ever has. */
void sort_u64(u64 *v, u64 n)
{
	static const u64 gaps[] = { 701, 301, 132, 57, 23, 10, 4, 1 };

	for (unsigned g = 0; g < sizeof(gaps) / sizeof(gaps[0]); g++) {
		u64 gap = gaps[g];

		for (u64 i = gap; i < n; i++) {
			u64 x = v[i], j = i;

			for (; j >= gap && v[j - gap] > x; j -= gap)
				v[j] = v[j - gap];
			v[j] = x;
		}
	}
}

void stats_compute(const u64 *vals, u64 n, u64 *scratch, struct stats *st)
{
	memset(st, 0, sizeof(*st));
	st->n = n;
	if (!n)
		return;
	memcpy(scratch, vals, n * sizeof(u64));
	sort_u64(scratch, n);
	st->min = scratch[0];
	st->max = scratch[n - 1];
	st->median = scratch[(n - 1) / 2];
	for (u64 i = 0; i < n; i++)
		scratch[i] = vals[i] > st->median ? vals[i] - st->median
						  : st->median - vals[i];
	sort_u64(scratch, n);
	st->mad = scratch[(n - 1) / 2];
}
