/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Local APIC access (xAPIC MMIO or x2APIC MSRs) for masking its local
 * interrupt sources around a measurement. Mapping the MMIO page is the
 * caller's job; this code only uses the pointer it is given. */
#ifndef ASM_APIC_H
#define ASM_APIC_H

#include <kfront/types.h>
#include <asm/cpu.h>
#include <asm/msr.h>

/* xAPIC register offsets (Intel SDM vol. 3A table 11-1). */
#define APIC_VERSION		0x030
#define APIC_LVT_CMCI		0x2f0
#define APIC_LVT_TIMER		0x320
#define APIC_LVT_THERMAL	0x330
#define APIC_LVT_PERF		0x340
#define APIC_LVT_LINT0		0x350
#define APIC_LVT_LINT1		0x360
#define APIC_LVT_ERROR		0x370

#define APIC_LVT_MASKED		(1U << 16)
#define APIC_TIMER_MODE_MASK	(3U << 17)
#define APIC_TIMER_TSC_DEADLINE	(2U << 17)
#define APIC_VERSION_MAXLVT(v)	(((v) >> 16) & 0xff)

/* LVT entries, as bits of the `keep` mask of apic_mask_lvts(). */
enum apic_lvt {
	LVT_TIMER, LVT_THERMAL, LVT_PERF, LVT_LINT0, LVT_LINT1, LVT_ERROR,
	LVT_CMCI, APIC_NR_LVT,
};
#define APIC_KEEP(lvt)		(1U << (lvt))

struct apic {
	volatile u32 *mmio;	/* xAPIC page, NULL in x2APIC mode */
	const struct msr_ops *ops;
	bool present;
	bool x2apic;
	bool tsc_deadline;	/* CPUID.1:ECX[24] */
	u8 max_lvt;		/* highest LVT index (version register) */
};

struct lvt_save {
	bool valid;
	u32 masked;		/* bitmap of entries this call masked */
	u32 lvt[APIC_NR_LVT];
	u64 tsc_deadline;	/* armed deadline that was disarmed, or 0 */
};

/*
 * Find the local APIC: IA32_APIC_BASE says whether it is enabled and in
 * x2APIC mode (then MSRs 0x800+ are used and mmio may be NULL); in xAPIC
 * mode mmio must point at the mapped page. 0, or -ENODEV with
 * a->present false: every other call is then a no-op.
 */
/* The boot CPU's local APIC (arch/x86/counters.c). */
extern struct apic x86_lapic;

int apic_init(struct apic *a, volatile u32 *mmio, const struct cpu_info *ci,
	      const struct msr_ops *ops);

u32 apic_read(const struct apic *a, u32 reg);
void apic_write(const struct apic *a, u32 reg, u32 v);

/*
 * Mask every LVT entry not in `keep` (APIC_KEEP(LVT_TIMER) keeps a
 * watchdog) and disarm an armed TSC-deadline timer, saving all of it.
 * Why not just cli: with IF clear, interrupts still arrive and stay
 * pending in the APIC, and some Intel cores (Ice Lake among them) then
 * cap instruction retirement while one is pending; masked at the source,
 * nothing is raised at all.
 */
void apic_mask_lvts(struct apic *a, struct lvt_save *s, u32 keep);

/* Put back what apic_mask_lvts() changed, LVTs first, then the deadline
 * (which fires at once if it has passed, as it would have anyway). */
void apic_restore_lvts(struct apic *a, const struct lvt_save *s);

#endif
