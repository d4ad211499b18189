/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What one copy costs on this CPU: lib/string.c's word loop (O2's
 * out-of-line memcpy) against an in-line `rep movsb` (what -Os and
 * -mmemcpy-strategy=rep_byte emit), at the sizes the workloads copy:
 * 16-48 B (sched.pipe's ring copies) up to 1460 B (a stream payload).
 * `rep movsb` has a fixed start-up cost that no ERMS/FSRM flag removes
 * on every CPU; docs/pgo.md uses these figures to explain sched.pipe.
 *
 * Host program, not measured code; it times lib/string.c itself, built at
 * O2 as a separate object (so the call stays out of line, as in O2) with
 * its symbols prefixed so that they do not replace the C library's:
 *   gcc -O2 -ffreestanding -Iinclude -c lib/string.c -o /tmp/kstring.o
 *   objcopy --prefix-symbols=kfront_ /tmp/kstring.o
 *   gcc -O2 tools/probes/repmovsb_cost.c /tmp/kstring.o -o /tmp/repmovsb_cost
 *   taskset -c 1 /tmp/repmovsb_cost
 * Prints TSC ticks per copy, the best of 50 batches of 1000 copies.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <x86intrin.h>

typedef uint8_t u8;
typedef uint64_t u64;

#define BATCH	1000
#define BATCHES	50

/* lib/string.c's memcpy (O2's out-of-line call), renamed by objcopy. */
void *kfront_memcpy(void *dst, const void *src, size_t n);

/* What GCC emits in line for -mmemcpy-strategy=rep_byte:-1:noalign. */
static inline void rep_movsb(void *d, const void *s, size_t n)
{
	asm volatile("rep movsb" : "+D"(d), "+S"(s), "+c"(n) : : "memory");
}

static u8 dst_buf[4096], src_buf[4096];

static u64 best_ticks(size_t n, int use_rep)
{
	u64 best = ~0ULL;

	for (int b = 0; b < BATCHES; b++) {
		u64 t0 = __rdtsc();

		for (int i = 0; i < BATCH; i++) {
			/* vary the destination's alignment as ring copies do */
			if (use_rep)
				rep_movsb(dst_buf + (i & 7), src_buf, n);
			else
				kfront_memcpy(dst_buf + (i & 7), src_buf, n);
			asm volatile("" : : : "memory");
		}
		u64 t = __rdtsc() - t0;
		if (t < best)
			best = t;
	}
	return best;
}

int main(void)
{
	static const size_t sizes[] = { 16, 32, 48, 64, 128, 256, 512, 1024, 1460 };

	printf("%6s %12s %12s\n", "bytes", "word loop", "rep movsb");
	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++)
		printf("%6zu %12.1f %12.1f\n", sizes[k],
		       best_ticks(sizes[k], 0) / (double)BATCH,
		       best_ticks(sizes[k], 1) / (double)BATCH);
	return 0;
}
