/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The timing side of tools/probes/helper_speed.py: how long one variant's
 * out-of-line copy and checksum helpers take on this CPU. The helpers are
 * the variant's own host objects (lib/string.c's memcpy, kernel/net/
 * checksum.c's csum_partial), linked in with their symbols prefixed by
 * kfront_ so that they do not replace the C library's. An in-line
 * `rep movsb` (what -Os emits at a copy's call site instead of calling
 * memcpy) is timed beside them, as the reference every variant shares.
 *
 *   helper_speed SIZE...
 * prints, per size, "memcpy SIZE T", "csum SIZE T" and "repmovsb SIZE T":
 * TSC ticks per call (the reference clock, not core cycles), the best of
 * BATCHES batches of BATCH calls.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <x86intrin.h>

typedef uint8_t u8;
typedef uint32_t u32;
typedef uint64_t u64;

#define BATCH	1000
#define BATCHES	100
#define MAX_SIZE 4096

void *kfront_memcpy(void *dst, const void *src, size_t n);
u32 kfront_csum_partial(const void *buf, size_t len, u32 sum);

static inline void rep_movsb(void *d, const void *s, size_t n)
{
	asm volatile("rep movsb" : "+D"(d), "+S"(s), "+c"(n) : : "memory");
}

/*
 * Source and destination 2 KiB apart modulo 4 KiB in every program: a
 * load whose address matches an earlier store's in the low 12 bits waits
 * for it (4K aliasing), and with the two buffers placed by the linker a
 * few cache lines apart modulo 4 KiB a copy loop's loads run into its own
 * stores, which decides its speed more than its code does.
 */
static u8 arena[3 * 4096] __attribute__((aligned(4096)));
#define src_buf	(arena)
#define dst_buf	(arena + 4096 + 2048)

enum helper { MEMCPY, CSUM, REPMOVSB };

/* The best batch, not the mean: an interrupt or a migration only ever
 * adds time, so the fastest batch is the one nearest the helper's cost. */
static u64 best_ticks(enum helper h, size_t n)
{
	u64 best = ~0ULL;
	volatile u32 sink = 0;

	for (int b = 0; b < BATCHES; b++) {
		u64 t0 = __rdtsc();

		for (int i = 0; i < BATCH; i++) {
			switch (h) {
			case MEMCPY:
				kfront_memcpy(dst_buf, src_buf, n);
				break;
			case CSUM:
				sink = kfront_csum_partial(src_buf, n, sink);
				break;
			case REPMOVSB:
				rep_movsb(dst_buf, src_buf, n);
				break;
			}
			/* the copy must happen, every time */
			asm volatile("" : : "r"(dst_buf) : "memory");
		}
		u64 t = __rdtsc() - t0;
		if (t < best)
			best = t;
	}
	return best;
}

int main(int argc, char **argv)
{
	static const char *const name[] = { "memcpy", "csum", "repmovsb" };

	if (argc < 2) {
		fprintf(stderr, "usage: helper_speed SIZE...\n");
		return 2;
	}
	for (size_t i = 0; i < MAX_SIZE; i++)
		src_buf[i] = (u8)(i * 7 + 3);
	for (int a = 1; a < argc; a++) {
		char *end;
		long n = strtol(argv[a], &end, 10);

		if (*end || n < 1 || n > MAX_SIZE) {
			fprintf(stderr, "helper_speed: size %s is not 1 to %d\n", argv[a], MAX_SIZE);
			return 2;
		}
		for (int h = MEMCPY; h <= REPMOVSB; h++)
			printf("%s %ld %.2f\n", name[h], n,
			       (double)best_ticks((enum helper)h, (size_t)n) / BATCH);
	}
	return 0;
}
