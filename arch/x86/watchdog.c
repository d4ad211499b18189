/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Benchmark watchdog on the local APIC timer (one-shot mode).
 *
 * Why interrupts are enabled during a measured call at all: a watchdog
 * needs one. Every other source is masked at its origin (8259 PICs fully
 * masked, APIC LVTs masked by counters_quiet_begin), so the only interrupt
 * that can arrive is this timer, and it only fires when the benchmark has
 * already overrun its budget. */
#include <asm/apic.h>
#include <asm/traps.h>
#include <asm/x86.h>
#include <kfront/compiler.h>
#include <kfront/counters.h>
#include <kfront/watchdog.h>

#define WATCHDOG_VECTOR		0x40
#define SPURIOUS_VECTOR		0xff

#define APIC_EOI		0x0b0
#define APIC_SVR		0x0f0
#define APIC_SVR_ENABLE		(1U << 8)
#define APIC_TIMER_INIT		0x380
#define APIC_TIMER_CUR		0x390
#define APIC_TIMER_DIV		0x3e0
#define APIC_DIV_16		0x3	/* divide configuration: by 16 */

/* 8259 PICs: remapped away from the exception vectors, then masked. */
#define PIC1_CMD	0x20
#define PIC1_DATA	0x21
#define PIC2_CMD	0xa0
#define PIC2_DATA	0xa1
#define ICW1_INIT_ICW4	0x11
#define ICW4_8086	0x01

extern void watchdog_irq_entry(void);
extern void spurious_irq_entry(void);

static u64 timer_hz;		/* APIC timer ticks per second (divided) */
static struct arch_jmp_buf *armed;
static const char *reason = "not initialised";

static void pic_mask_all(void)
{
	/* Remap to 0x20..0x2f so a stray IRQ is never taken for a CPU
	 * exception, then mask every line. */
	outb(PIC1_CMD, ICW1_INIT_ICW4);
	outb(PIC2_CMD, ICW1_INIT_ICW4);
	outb(PIC1_DATA, 0x20);
	outb(PIC2_DATA, 0x28);
	outb(PIC1_DATA, 4);		/* slave on IRQ2 */
	outb(PIC2_DATA, 2);
	outb(PIC1_DATA, ICW4_8086);
	outb(PIC2_DATA, ICW4_8086);
	outb(PIC1_DATA, 0xff);
	outb(PIC2_DATA, 0xff);
}

/* Count APIC timer ticks over 10 ms of TSC time. */
static u64 calibrate(void)
{
	u64 tsc_hz = counters_tsc_hz(), start, wait;
	u32 left;

	if (!tsc_hz)
		return 0;
	wait = tsc_hz / 100;
	apic_write(&x86_lapic, APIC_TIMER_DIV, APIC_DIV_16);
	apic_write(&x86_lapic, APIC_LVT_TIMER, APIC_LVT_MASKED | WATCHDOG_VECTOR);
	apic_write(&x86_lapic, APIC_TIMER_INIT, 0xffffffffu);
	start = counters_tsc();
	while (counters_tsc() - start < wait)
		cpu_relax();
	left = apic_read(&x86_lapic, APIC_TIMER_CUR);
	apic_write(&x86_lapic, APIC_TIMER_INIT, 0);
	return (u64)(0xffffffffu - left) * 100;
}

bool watchdog_init(void)
{
	pic_mask_all();
	if (!x86_lapic.present) {
		reason = "no local APIC";
		return false;
	}
	idt_set_interrupt(WATCHDOG_VECTOR, watchdog_irq_entry);
	idt_set_interrupt(SPURIOUS_VECTOR, spurious_irq_entry);
	apic_write(&x86_lapic, APIC_SVR, APIC_SVR_ENABLE | SPURIOUS_VECTOR);
	timer_hz = calibrate();
	if (!timer_hz) {
		reason = "the APIC timer could not be calibrated (TSC rate unknown)";
		return false;
	}
	reason = "";
	return true;
}

bool watchdog_available(void)
{
	return timer_hz != 0;
}

const char *watchdog_reason(void)
{
	return reason;
}

__measured_path void watchdog_arm(struct arch_jmp_buf *buf, u64 ms)
{
	u64 ticks = timer_hz / 1000 * ms;

	if (!timer_hz)
		return;
	if (ticks > 0xffffffffULL)
		ticks = 0xffffffffULL;	/* the longest one-shot: minutes */
	armed = buf;
	apic_write(&x86_lapic, APIC_LVT_TIMER, WATCHDOG_VECTOR); /* one-shot */
	apic_write(&x86_lapic, APIC_TIMER_INIT, (u32)(ticks ? ticks : 1));
	sti();
}

__measured_path void watchdog_disarm(void)
{
	cli();
	armed = NULL;
	apic_write(&x86_lapic, APIC_TIMER_INIT, 0);
}

/* Called from watchdog_irq_entry with interrupts off. */
void watchdog_interrupt(void)
{
	struct arch_jmp_buf *buf = armed;

	apic_write(&x86_lapic, APIC_EOI, 0);
	if (!buf)
		return;		/* stale expiry after a disarm race */
	armed = NULL;
	/* Abandon the benchmark: its interrupt frame stays behind on the
	 * stack the guard point is about to reuse. */
	arch_longjmp(buf);
}
