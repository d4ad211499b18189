/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A reference clock's count placed in TSC time, for the calibrations
 * against the PIT (tsc.c) and the HPET (hpet.c): the count is read
 * between two TSC reads, and of several readings in a row the one whose
 * TSC reads lie closest together is kept. A delay (SMI, VM exit, the host
 * descheduling an emulator) between a reading's two TSC reads widens
 * that reading only; one anywhere else moves neither end of a
 * measurement. Kernel only. */
#ifndef ASM_TSC_SAMPLE_H
#define ASM_TSC_SAMPLE_H

#include <asm/x86.h>
#include <kfront/types.h>

#define TSC_SAMPLE_READINGS	5	/* readings per end; the tightest is kept */
/* Give up waiting for a reference clock after this many TSC ticks
 * (several seconds at any plausible rate): a machine whose PIT or HPET
 * does not count must not hang the boot. */
#define TSC_SAMPLE_LIMIT	(1ULL << 34)

struct tsc_sample {
	u64 tsc;	/* midpoint of the two TSC reads */
	u64 spread;	/* their distance: the reading's uncertainty */
	u64 count;	/* the reference clock's count */
};

/* One reading: @read fills in count, between the two TSC reads. */
static inline void tsc_sample_once(void (*read)(struct tsc_sample *),
				   struct tsc_sample *s)
{
	u64 a, b;

	a = rdtsc();
	read(s);
	b = rdtsc();
	s->tsc = a + (b - a) / 2;
	s->spread = b - a;
}

/* The tightest of TSC_SAMPLE_READINGS readings in a row. */
static inline void tsc_sample(void (*read)(struct tsc_sample *),
			      struct tsc_sample *best)
{
	struct tsc_sample s;

	tsc_sample_once(read, best);
	for (int i = 1; i < TSC_SAMPLE_READINGS; i++) {
		tsc_sample_once(read, &s);
		if (s.spread < best->spread)
			*best = s;
	}
}

#endif
