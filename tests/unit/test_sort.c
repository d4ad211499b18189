/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Host tests of lib/sort.c: the sort, and the median that the harness's
 * statistics and both TSC calibrations take (of an even count the lower
 * middle value: always one that was measured). */
#include <kfront/sort.h>
#include "check.h"

static void test_sort(void)
{
	u64 v[2000];

	/* longer than the largest gap, in an order no gap sorts alone */
	for (u64 i = 0; i < 2000; i++)
		v[i] = (i * 7919) % 2003;
	sort_u64(v, 2000);
	for (u64 i = 1; i < 2000; i++)
		CHECK(v[i - 1] <= v[i]);
}

static void test_median(void)
{
	u64 one[] = { 42 };
	u64 two[] = { 300, 100 };
	u64 three[] = { 9, 1, 5 };
	u64 four[] = { 40, 10, 30, 20 };
	u64 dup[] = { 7, 7, 3 };

	CHECK_EQ_U64(median_u64(one, 1), 42);
	/* two tries of a calibration, one failed: the lower, not the upper */
	CHECK_EQ_U64(median_u64(two, 2), 100);
	CHECK_EQ_U64(median_u64(three, 3), 5);
	CHECK_EQ_U64(median_u64(four, 4), 20);
	CHECK_EQ_U64(median_u64(dup, 3), 7);
	/* it leaves the values sorted */
	CHECK_EQ_U64(four[0], 10);
	CHECK_EQ_U64(four[3], 40);
	CHECK_EQ_U64(median_u64(one, 0), 0);
	CHECK_EQ_U64(one[0], 42);
}

int main(void)
{
	test_sort();
	test_median();
	return check_report("sort");
}
