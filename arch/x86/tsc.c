/* SPDX-License-Identifier: GPL-2.0-or-later */
/* TSC calibration against the 8254 PIT, channel 2 (the speaker channel,
 * whose gate and output are visible in port 0x61, so no interrupt is
 * needed). Kernel only: it does port I/O. */
#include <asm/tsc.h>
#include <asm/x86.h>
#include <kfront/acpi.h>
#include <kfront/compiler.h>

#define PIT_HZ			1193182
#define PIT_CH2_DATA		0x42
#define PIT_MODE		0x43
#define PORT_B			0x61	/* NMI status and control */
#define PORT_B_GATE2		0x01	/* channel 2 gate input */
#define PORT_B_SPEAKER		0x02	/* channel 2 output to speaker */
#define PORT_B_OUT2		0x20	/* channel 2 output level (read) */

/* Mode/command byte: channel 2, lobyte/hibyte access, mode 0 (interrupt
 * on terminal count: OUT goes high when the count reaches 0), binary. */
#define PIT_CMD_CH2_MODE0	0xb0

#define CAL_MAX_MS		50	/* 16-bit count: at most 54.9 ms */
#define CAL_TRIES		3
/* Give up waiting after this many TSC ticks (several seconds at any
 * plausible rate): a machine without a PIT must not hang the boot. */
#define CAL_TSC_LIMIT		(1ULL << 34)

/* One measurement: TSC ticks while channel 2 counts `latch` PIT ticks. */
static u64 pit_measure(u16 latch)
{
	u64 t0, t1;
	u8 b;

	/* Gate low while programming, speaker off. */
	b = inb(PORT_B) & ~(PORT_B_SPEAKER | PORT_B_GATE2);
	outb(PORT_B, b);
	outb(PIT_MODE, PIT_CMD_CH2_MODE0);
	outb(PIT_CH2_DATA, latch & 0xff);
	outb(PIT_CH2_DATA, latch >> 8);
	/* Start the TSC before the gate opens: a delay (SMI, VM exit, the
	 * host descheduling an emulator) between the two then lengthens
	 * the measured interval, as one anywhere else does, and never
	 * shortens it, so the shortest try below is the truest. Read after
	 * the gate, a delay there made a try too short, and the minimum
	 * picked it (10% low under a loaded QEMU). */
	t0 = rdtsc();
	/* Gate high: the count starts on the next PIT clock. */
	outb(PORT_B, b | PORT_B_GATE2);
	do {
		t1 = rdtsc();
		if (t1 - t0 > CAL_TSC_LIMIT)
			return 0;
	} while (!(inb(PORT_B) & PORT_B_OUT2));
	outb(PORT_B, b);	/* gate low again */
	return t1 - t0;
}

u64 tsc_calibrate_pit(u32 ms)
{
	u64 best = 0, ticks;
	u16 latch;
	int i;

	if (!ms || ms > CAL_MAX_MS)
		ms = CAL_MAX_MS;
	latch = (u16)((u64)PIT_HZ * ms / 1000);
	for (i = 0; i < CAL_TRIES; i++) {
		ticks = pit_measure(latch);
		/* The shortest run had the fewest SMIs or VM exits in it. */
		if (ticks && (!best || ticks < best))
			best = ticks;
	}
	/* Too few ticks: OUT2 was high at once, so no PIT is counting. */
	if (best < 1000)
		return 0;
	return best * PIT_HZ / latch;
}

void tsc_init(struct cpu_info *ci)
{
	const char *source = "pit";
	u64 hz;

	if (ci->tsc_hz || !cpu_has(ci, X86_FEATURE_TSC))
		return;
	hz = tsc_calibrate_pit(30);
	if (!hz) {
		/* No PIT counting (gone, gated, or QEMU's pit=off). */
		hz = tsc_calibrate_hpet(acpi_get()->hpet_base, 30);
		source = "hpet";
	}
	ci->tsc_hz = hz;
	ci->tsc_source = hz ? source : "none";
}
