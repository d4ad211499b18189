/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Profiled code for tests/py/test_gcda.py: loops, a branch taken a known
 * number of times, and a function never called (all-zero counters). */
int profiled_b(int x);

static int step(int x)
{
	if (x % 3 == 0)
		return x / 3;
	return x * 2 + 1;
}

int profiled_a(int n)
{
	int s = 0;

	for (int i = 0; i < n; i++)
		s += step(i) + profiled_b(i);
	return s;
}

int never_called(int x)
{
	while (x > 1)
		x = x & 1 ? 3 * x + 1 : x / 2;
	return x;
}
