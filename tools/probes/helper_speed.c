/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The timing side of tools/probes/helper_speed.py: how long one variant's
 * out-of-line copy and checksum helpers take on this CPU. The helpers are
 * the variant's own host objects (lib/string.c's memcpy, or
 * arch/x86/string_asm.c's for a -DKFRONT_ASM_STRING variant; kernel/net/
 * checksum.c's csum_partial), linked in with their symbols prefixed by
 * kfront_ so that they do not replace the C library's. An in-line
 * `rep movsb` (what -Os emits at a copy's call site instead of calling
 * memcpy) is timed beside them, as the reference every variant shares.
 *
 *   helper_speed [-m] SIZE...
 * prints, per size, "memcpy SIZE T", "csum SIZE T" and "repmovsb SIZE T":
 * TSC ticks per call (the reference clock, not core cycles), the best of
 * BATCHES batches of BATCH calls. Destinations (and the checksum's
 * buffer) are 8-byte aligned, or with -m 0 to 7 bytes past that in turn,
 * as packet payloads and ring copies fall, which slows the longer copies.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cpuid.h>
#include <x86intrin.h>

typedef uint8_t u8;
typedef uint32_t u32;
typedef uint64_t u64;

#define BATCH	1000
#define BATCHES	100
#define MAX_SIZE 4096

void *kfront_memcpy(void *dst, const void *src, size_t n);
u32 kfront_csum_partial(const void *buf, size_t len, u32 sum);
/* Which body a -DKFRONT_ASM_STRING variant's assembly memcpy and memset
 * take (arch/x86/rep_string.c): set from FSRM and FSRS, as the kernel
 * sets them. */
u8 kfront_x86_fast_rep_movsb, kfront_x86_fast_rep_stosb;

static inline void rep_movsb(void *d, const void *s, size_t n)
{
	asm volatile("rep movsb" : "+D"(d), "+S"(s), "+c"(n) : : "memory");
}

/*
 * Source and destination 2 KiB apart modulo 4 KiB in every program: a
 * load whose address matches an earlier store's in the low 12 bits waits
 * for it (4K aliasing). With the buffers exactly 4 KiB apart, a 16-byte
 * `rep movsb` to a misaligned destination took 31.6 ticks here against
 * 7.0 with them 2 KiB apart: the placement, not the instruction.
 */
static u8 arena[3 * 4096] __attribute__((aligned(4096)));
#define src_buf	(arena)
#define dst_buf	(arena + 4096 + 2048)

enum helper { MEMCPY, CSUM, REPMOVSB };

/* The best batch, not the mean: an interrupt or a migration only ever
 * adds time, so the fastest batch is the one nearest the helper's cost. */
static u64 best_ticks(enum helper h, size_t n, int mixed)
{
	u64 best = ~0ULL;
	volatile u32 sink = 0;

	for (int b = 0; b < BATCHES; b++) {
		u64 t0 = __rdtsc();

		for (int i = 0; i < BATCH; i++) {
			size_t off = mixed ? (size_t)(i & 7) : 0;

			switch (h) {
			case MEMCPY:
				kfront_memcpy(dst_buf + off, src_buf, n);
				break;
			case CSUM:
				sink = kfront_csum_partial(src_buf + off, n, sink);
				break;
			case REPMOVSB:
				rep_movsb(dst_buf + off, src_buf, n);
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
	int first = 1, mixed = 0;
	unsigned int a, b, c, d;

	if (__get_cpuid_count(7, 0, &a, &b, &c, &d)) {
		kfront_x86_fast_rep_movsb = (d >> 4) & 1;	/* FSRM */
		if (a >= 1 && __get_cpuid_count(7, 1, &a, &b, &c, &d))
			kfront_x86_fast_rep_stosb = (a >> 11) & 1;	/* FSRS */
	}

	if (argc > 1 && !strcmp(argv[1], "-m")) {
		mixed = 1;
		first = 2;
	}
	if (argc <= first) {
		fprintf(stderr, "usage: helper_speed [-m] SIZE...\n");
		return 2;
	}
	for (size_t i = 0; i < MAX_SIZE + 8; i++)
		src_buf[i] = (u8)(i * 7 + 3);
	for (int a = first; a < argc; a++) {
		char *end;
		long n = strtol(argv[a], &end, 10);

		if (*end || n < 1 || n > MAX_SIZE) {
			fprintf(stderr, "helper_speed: size %s is not 1 to %d\n", argv[a], MAX_SIZE);
			return 2;
		}
		for (int h = MEMCPY; h <= REPMOVSB; h++)
			printf("%s %ld %.2f\n", name[h], n,
			       (double)best_ticks((enum helper)h, (size_t)n, mixed) / BATCH);
	}
	return 0;
}
