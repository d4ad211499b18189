/* SPDX-License-Identifier: GPL-2.0-or-later */
/* TSC calibration against the HPET main counter, for machines whose 8254
 * PIT is gone or gated off (newer boards may ship without one). The HPET
 * is found through ACPI; its counter period is given in femtoseconds by
 * the hardware itself, so no assumption about its rate is made. Kernel
 * only: memory-mapped I/O. */
#include <asm/tsc.h>
#include <asm/tsc_sample.h>
#include <asm/x86.h>
#include <kfront/arch.h>
#include <kfront/compiler.h>
#include <kfront/sort.h>

#define HPET_GCAP_ID		0x000	/* capabilities: period in 63:32 */
#define HPET_GCAP_COUNT64	(1ULL << 13)
#define HPET_CONFIG		0x010
#define HPET_CFG_ENABLE		0x1
#define HPET_COUNTER		0x0f0
#define HPET_MMIO_SIZE		0x400

#define FS_PER_S		1000000000000000ULL
#define HPET_MAX_PERIOD_FS	100000000ULL	/* the spec's 100 ns bound */
#define CAL_TRIES		3

static volatile u8 *hpet;

static u64 hpet_read64(u32 reg)
{
	return *(volatile u64 *)(hpet + reg);
}

static void hpet_write64(u32 reg, u64 v)
{
	*(volatile u64 *)(hpet + reg) = v;
}

/* The main counter (between the two TSC reads of a sample). */
static void hpet_read_counter(struct tsc_sample *s)
{
	s->count = hpet_read64(HPET_COUNTER);
}

/* TSC ticks and HPET ticks between two readings about `hpet_ticks` of the
 * HPET apart, each placed between two TSC reads, so that a delay anywhere
 * else moves neither figure (the PIT's calibration does the same,
 * tsc.c). A 32-bit counter (mask) wraps in about 5 minutes at 14.3 MHz:
 * the masked difference stays right across one wrap. */
static bool hpet_measure(u64 hpet_ticks, u64 mask, u64 *tsc, u64 *ticks)
{
	struct tsc_sample s0, s1;

	tsc_sample(hpet_read_counter, &s0);
	do {
		tsc_sample_once(hpet_read_counter, &s1);
		if (s1.tsc - s0.tsc > TSC_SAMPLE_LIMIT)
			return false;
	} while (((s1.count - s0.count) & mask) < hpet_ticks);
	tsc_sample(hpet_read_counter, &s1);
	*tsc = s1.tsc - s0.tsc;
	*ticks = (s1.count - s0.count) & mask;
	return true;
}

u64 tsc_calibrate_hpet(u64 base, u32 ms)
{
	u64 cap, period, hpet_hz, ticks_per_ms, mask, hz[CAL_TRIES];
	int n = 0;

	if (!base || !ms)
		return 0;
	if (!hpet)
		hpet = arch_ioremap(base, HPET_MMIO_SIZE);
	if (!hpet)
		return 0;
	cap = hpet_read64(HPET_GCAP_ID);
	period = cap >> 32;
	if (!period || period > HPET_MAX_PERIOD_FS || cap == ~0ULL)
		return 0;	/* no HPET answers there */
	mask = (cap & HPET_GCAP_COUNT64) ? ~0ULL : 0xffffffffULL;
	/* The main counter only runs when enabled; the firmware may have
	 * left it stopped. kfront uses no HPET interrupts, so enabling it
	 * changes nothing else. */
	if (!(hpet_read64(HPET_CONFIG) & HPET_CFG_ENABLE))
		hpet_write64(HPET_CONFIG,
			     hpet_read64(HPET_CONFIG) | HPET_CFG_ENABLE);
	hpet_hz = FS_PER_S / period;
	ticks_per_ms = hpet_hz / 1000;
	for (int i = 0; i < CAL_TRIES; i++) {
		u64 tsc, ticks;

		if (!hpet_measure(ticks_per_ms * ms, mask, &tsc, &ticks) || !ticks)
			continue;
		/* hz = tsc * hpet_hz / ticks: tsc is at most ~1e9 over
		 * tens of ms and hpet_hz at most 1e7-1e8, so 64 bits do. */
		hz[n++] = tsc * hpet_hz / ticks;
	}
	if (!n)
		return 0;
	/* The median of what was measured: one long SMI or VM exit in a
	 * try does not move it. */
	return median_u64(hz, (u64)n);
}
