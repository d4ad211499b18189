/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host_backing: under a hypervisor, does the host map some of the guest's
 * 2 MiB huge pages with 4 KiB pages of its own?
 *
 * A TLB entry covers the smaller of the guest's and the host's page. On a
 * guest 2 MiB page the host backs with a 2 MiB page, loads that touch
 * all 512 of its 4 KiB pages need one TLB entry; backed by 4 KiB host
 * pages they need 512, more than an L1 dTLB holds, and each load pays a
 * second-level TLB lookup or a two-dimensional page walk. The data
 * itself (one line per 4 KiB page, 32 KiB) stays in the L1d either way,
 * so the time per load tells the two apart.
 *
 *   host_backing [PAGES] [ROUNDS] [PASSES]
 *
 * allocates PAGES (default 64) anonymous 2 MiB-aligned regions advised
 * for transparent huge pages, checks in /proc/self/smaps that each got a
 * huge page, and prints for each the best, over ROUNDS (default 15), of
 * the TSC ticks per load of a dependent chase through its 512 pages in a
 * random order (each page's line at another offset, so that the lines do
 * not crowd one L1d set). Then 8 regions advised against huge pages, whose
 * 4 KiB TLB entries give the time of the other case whatever the host
 * does. One line per region: its index, whether it is a guest huge page
 * ("huge", "small", or "small-advised" for the 8), ticks per load. With
 * PASSES above 1 it then keeps the regions and measures them all again
 * every 120 s, one line per pass ("pass N: t0 t1 ..."): a region the
 * host later backs with a huge page of its own drops to the time of a
 * chase that fits the L1 dTLB. Built and run by hand:
 *
 *   cc -O2 -o /tmp/host_backing tools/probes/host_backing.c && /tmp/host_backing
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <x86intrin.h>

#define HUGE	(2UL << 20)
#define PAGE	4096UL
#define NPAGES	(HUGE / PAGE)
#define LOADS	(NPAGES * 8)

static unsigned long huge_kb(uintptr_t addr)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	char line[256];
	unsigned long start, end, kb = 0;
	int in = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx ", &start, &end) == 2)
			in = start <= addr && addr < end;
		else if (in && sscanf(line, "AnonHugePages: %lu kB", &kb) == 1)
			break;
	}
	fclose(f);
	return kb;
}

/* A cyclic chase through the region's pages in a random order: page p's
 * word points at the next page's word. */
static void build_chase(char *base, unsigned seed)
{
	unsigned order[NPAGES];

	for (unsigned i = 0; i < NPAGES; i++)
		order[i] = i;
	srand(seed);
	for (unsigned i = NPAGES - 1; i > 0; i--) {
		unsigned j = (unsigned)rand() % (i + 1), t = order[i];

		order[i] = order[j];
		order[j] = t;
	}
	for (unsigned i = 0; i < NPAGES; i++) {
		unsigned p = order[i], q = order[(i + 1) % NPAGES];
		void **at = (void **)(base + p * PAGE + (p % 64) * 64);

		*at = base + q * PAGE + (q % 64) * 64;
	}
}

static double ticks_per_load(char *base, int rounds)
{
	double best = 1e30;
	void **p = (void **)(base + 0 * PAGE);

	for (int r = 0; r < rounds; r++) {
		unsigned long t0, t1;

		_mm_lfence();
		t0 = __rdtsc();
		_mm_lfence();
		for (unsigned long i = 0; i < LOADS; i++)
			p = (void **)*p;
		_mm_lfence();
		t1 = __rdtsc();
		if ((double)(t1 - t0) / LOADS < best)
			best = (double)(t1 - t0) / LOADS;
	}
	if (!p)
		puts("");	/* keep the chase */
	return best;
}

#define MAX_REGIONS	4096

int main(int argc, char **argv)
{
	static char *bases[MAX_REGIONS + 8];
	int n = argc > 1 ? atoi(argv[1]) : 64, rounds = argc > 2 ? atoi(argv[2]) : 15;
	int passes = argc > 3 ? atoi(argv[3]) : 1;

	if (n < 1 || n > MAX_REGIONS || rounds < 1 || passes < 1) {
		fprintf(stderr, "usage: host_backing [PAGES (1-%d)] [ROUNDS] [PASSES]\n",
			MAX_REGIONS);
		return 2;
	}
	/* n regions advised huge, then 8 advised against: those give the
	 * time of 4 KiB TLB entries whatever the host does. */
	for (int i = 0; i < n + 8; i++) {
		char *raw = mmap(NULL, 2 * HUGE, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		char *base;

		if (raw == MAP_FAILED) {
			perror("mmap");
			return 1;
		}
		base = (char *)(((uintptr_t)raw + HUGE - 1) & ~(HUGE - 1));
		madvise(base, HUGE, i < n ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
		memset(base, 0, HUGE);
		/* base's first word starts the chase: page 0 at offset 0 */
		build_chase(base, (unsigned)i + 1);
		printf("%d %s %.2f\n", i, huge_kb((uintptr_t)base) >= 2048 ? "huge" :
		       i < n ? "small" : "small-advised",
		       ticks_per_load(base, rounds));
		fflush(stdout);
		bases[i] = base;
	}
	for (int pass = 1; pass < passes; pass++) {
		sleep(120);
		printf("pass %d:", pass);
		for (int i = 0; i < n + 8; i++)
			printf(" %.2f", ticks_per_load(bases[i], rounds));
		printf("\n");
		fflush(stdout);
	}
	return 0;
}
