/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fesim system-mode test kernel: runs the validation regions and a workload. */
#include <kfront/fesim_marker.h>

/*
 * The validation regions (tools/fesim/validate/cases.S) run with the same
 * iteration counts as in the user-mode tests, so their figures can be
 * compared with the host program's. Then a branchy workload (slot 100)
 * measures the plugin's slowdown on code that looks like kernel C: short
 * basic blocks, calls, a table walk.
 */
unsigned long long fv_loop_fit(unsigned long long n);
unsigned long long fv_loop_2x(unsigned long long n);
unsigned long long fv_conflict9(unsigned long long n);
unsigned long long fv_split(unsigned long long n);

#define WORK_SLOT 100
#define NKEYS 4096

static unsigned int keys[NKEYS];
static unsigned int table[2 * NKEYS];

static unsigned int xorshift(unsigned int *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

static __attribute__((noinline)) unsigned int crc32_bytes(const void *p,
							  unsigned long n)
{
	const unsigned char *b = p;
	unsigned int crc = ~0u;
	int k;

	while (n--) {
		crc ^= *b++;
		for (k = 0; k < 8; k++)
			crc = crc & 1 ? (crc >> 1) ^ 0xedb88320 : crc >> 1;
	}
	return ~crc;
}

static __attribute__((noinline)) void insert(unsigned int key)
{
	unsigned int h = (key * 2654435761u) & (2 * NKEYS - 1);

	while (table[h] && table[h] != key)
		h = (h + 1) & (2 * NKEYS - 1);
	table[h] = key;
}

static __attribute__((noinline)) void shell_sort(unsigned int *a, int n)
{
	int gap, i, j;

	for (gap = n / 2; gap > 0; gap /= 2)
		for (i = gap; i < n; i++)
			for (j = i - gap; j >= 0 && a[j] > a[j + gap]; j -= gap) {
				unsigned int t = a[j];

				a[j] = a[j + gap];
				a[j + gap] = t;
			}
}

static unsigned int workload(int rounds)
{
	unsigned int seed = 12345, sum = 0;
	int r, i;

	for (r = 0; r < rounds; r++) {
		for (i = 0; i < NKEYS; i++)
			keys[i] = xorshift(&seed) | 1;
		for (i = 0; i < 2 * NKEYS; i++)
			table[i] = 0;
		for (i = 0; i < NKEYS; i++)
			insert(keys[i]);
		shell_sort(keys, NKEYS);
		sum += crc32_bytes(keys, sizeof(keys));
	}
	return sum;
}

int stub_main(void)
{
	unsigned int sum;

	fv_loop_fit(50);
	fv_loop_2x(50);
	fv_conflict9(1000);
	fv_split(10);
	fesim_region_begin(WORK_SLOT);
	sum = workload(WORKLOAD_ROUNDS);
	fesim_region_end(WORK_SLOT);
	fesim_dump();
	return sum & 1 ? 1 : 2;	/* any value: QEMU exits 3 or 5 */
}
