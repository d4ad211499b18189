/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Sorting of u64 arrays, and their median. */
#include <kfront/sort.h>

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

/* Sorts @v and returns its median: of an even count the lower middle
 * value, so the median is always a value that was measured (as in the
 * harness's statistics and the host tool's, docs/statistics.md). */
u64 median_u64(u64 *v, u64 n)
{
	if (!n)
		return 0;
	sort_u64(v, n);
	return v[(n - 1) / 2];
}
