/* SPDX-License-Identifier: GPL-2.0-or-later */
/* TSC calibration against the 8254 PIT, channel 2 (the speaker channel,
 * whose gate is in port 0x61, so no interrupt is needed). Kernel only: it
 * does port I/O. */
#include <asm/tsc.h>
#include <asm/tsc_sample.h>
#include <asm/x86.h>
#include <kfront/acpi.h>
#include <kfront/compiler.h>
#include <kfront/sort.h>

#define PIT_HZ			1193182
#define PIT_CH2_DATA		0x42
#define PIT_MODE		0x43
#define PORT_B			0x61	/* NMI status and control */
#define PORT_B_GATE2		0x01	/* channel 2 gate input */
#define PORT_B_SPEAKER		0x02	/* channel 2 output to speaker */

/* Mode/command byte: channel 2, lobyte/hibyte access, mode 0 (count down
 * once from the loaded value), binary. */
#define PIT_CMD_CH2_MODE0	0xb0
/* Counter latch command for channel 2: the next two reads of its data
 * port give the count at the moment of the latch. */
#define PIT_CMD_CH2_LATCH	0x80

#define CAL_MAX_MS		50	/* from a 0xffff count: at most 54.9 ms */
#define CAL_TRIES		3
/* A counting PIT moves every 838 ns: a count still unchanged after this
 * many TSC ticks (about a millisecond at any plausible rate) is none. */
#define CAL_DEAD_TSC		(1ULL << 22)
#define CAL_DEAD_SAMPLES	10000

/* Channel 2's count, latched (between the two TSC reads of a sample). */
static void pit_read(struct tsc_sample *s)
{
	u8 lo, hi;

	outb(PIT_MODE, PIT_CMD_CH2_LATCH);
	lo = inb(PIT_CH2_DATA);
	hi = inb(PIT_CH2_DATA);
	s->count = (u16)(lo | hi << 8);
}

enum pit_try_result { PIT_NONE, PIT_RETRY, PIT_OK };

/*
 * One try: the TSC ticks and PIT ticks between a sample taken once the
 * count runs and one taken `ticks` PIT ticks later. Both ends are counts
 * read with the TSC around them, so a delay anywhere else (before, in
 * between, in the wait) changes neither figure: the rate comes out right
 * on a loaded emulator host too. (It used to wait for channel 2's output
 * to rise, the TSC read after loading the count and before each look at
 * the output: a delay after the count's last byte (QEMU's mode 0 counts
 * from there, not from the gate) or before the look that saw the output
 * high made the try short, by up to a host time slice: on a loaded
 * 2-core host the rate came out 7 to 13 % low. With the TSC read around
 * the load and after that look instead, a delay before the look made it
 * long: up to 6 % high.) PIT_RETRY: a delay let the count run out;
 * PIT_NONE: it never moved.
 */
static enum pit_try_result pit_count(u32 ticks, u64 *hz)
{
	struct tsc_sample s0, s1;
	u32 n = 0;

	/* The count loads on the next PIT clock: wait until it moves. Dead
	 * only after both many samples and a millisecond or so: a host that
	 * stops the emulator for a while must not make a PIT look absent. */
	tsc_sample_once(pit_read, &s0);
	do {
		tsc_sample_once(pit_read, &s1);
		if (++n > CAL_DEAD_SAMPLES && s1.tsc - s0.tsc > CAL_DEAD_TSC)
			return PIT_NONE;	/* gone, or QEMU's pit=off */
	} while (s1.count == s0.count);
	tsc_sample(pit_read, &s0);
	do {
		tsc_sample_once(pit_read, &s1);
		if (s1.count > s0.count || s1.tsc - s0.tsc > TSC_SAMPLE_LIMIT)
			return PIT_RETRY;
	} while ((u32)(s0.count - s1.count) < ticks);
	tsc_sample(pit_read, &s1);
	if (s1.count >= s0.count)
		return PIT_RETRY;	/* ran out while sampling the end */
	*hz = (s1.tsc - s0.tsc) * PIT_HZ / (u32)(s0.count - s1.count);
	return PIT_OK;
}

static enum pit_try_result pit_try(u32 ticks, u64 *hz)
{
	enum pit_try_result r;
	u8 b;

	/* Gate high (an 8254 counts only then), speaker off; count from
	 * the top so that the wait stays far from 0. */
	b = inb(PORT_B) & ~PORT_B_SPEAKER;
	outb(PORT_B, b | PORT_B_GATE2);
	outb(PIT_MODE, PIT_CMD_CH2_MODE0);
	outb(PIT_CH2_DATA, 0xff);
	outb(PIT_CH2_DATA, 0xff);
	r = pit_count(ticks, hz);
	outb(PORT_B, b & ~PORT_B_GATE2);	/* gate low again */
	return r;
}

u64 tsc_calibrate_pit(u32 ms)
{
	u64 hz[CAL_TRIES];
	u32 ticks;
	int n = 0;

	if (!ms || ms > CAL_MAX_MS)
		ms = CAL_MAX_MS;
	ticks = (u32)((u64)PIT_HZ * ms / 1000);
	for (int i = 0; i < 3 * CAL_TRIES && n < CAL_TRIES; i++) {
		enum pit_try_result r = pit_try(ticks, &hz[n]);

		if (r == PIT_NONE)
			return 0;	/* no PIT counting: no use trying again */
		if (r == PIT_OK)
			n++;
	}
	if (!n)
		return 0;
	/* The median: a try whose end samples were both unlucky does not
	 * move it. */
	return median_u64(hz, (u64)n);
}

void tsc_init(struct cpu_info *ci)
{
	u64 hpet_base, hz;

	if (ci->tsc_hz || !cpu_has(ci, X86_FEATURE_TSC))
		return;
	hpet_base = acpi_get()->hpet_base;
	hz = tsc_calibrate_pit(30);
	if (hz) {
		ci->tsc_source = "pit";
		/* A second reference where the machine has one, measured
		 * right after: two rates that disagree show a calibration a
		 * delay (SMI, VM exit, a descheduled emulator) pushed off, in
		 * the machine record, instead of one silently wrong rate. */
		ci->tsc_check_hz = tsc_calibrate_hpet(hpet_base, 30);
		if (ci->tsc_check_hz)
			ci->tsc_check_source = "hpet";
	} else {
		/* No PIT counting (gone, gated, or QEMU's pit=off). */
		hz = tsc_calibrate_hpet(hpet_base, 30);
		ci->tsc_source = hz ? "hpet" : "none";
	}
	ci->tsc_hz = hz;
}
