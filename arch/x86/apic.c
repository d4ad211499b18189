/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Local APIC: register access in xAPIC (MMIO) or x2APIC (MSR) mode and
 * masking of the local vector table around measurements. All MSR access
 * goes through struct msr_ops, so host tests can use a fake APIC page. */
#include <asm/apic.h>
#include <kfront/compiler.h>
#include <kfront/errno.h>
#include <kfront/string.h>

/* Register offset of each LVT entry and the minimum max-LVT index the
 * version register must report for it to exist (SDM vol. 3A 11.5.1). */
static const struct {
	u16 reg;
	u8 min_maxlvt;
} lvt_regs[APIC_NR_LVT] = {
	[LVT_TIMER]	= { APIC_LVT_TIMER, 0 },
	[LVT_THERMAL]	= { APIC_LVT_THERMAL, 5 },
	[LVT_PERF]	= { APIC_LVT_PERF, 4 },
	[LVT_LINT0]	= { APIC_LVT_LINT0, 0 },
	[LVT_LINT1]	= { APIC_LVT_LINT1, 0 },
	[LVT_ERROR]	= { APIC_LVT_ERROR, 0 },
	[LVT_CMCI]	= { APIC_LVT_CMCI, 6 },
};

u32 apic_read(const struct apic *a, u32 reg)
{
	u64 v = 0;

	if (!a->present)
		return 0;
	if (!a->x2apic)
		return a->mmio[reg / 4];
	/* x2APIC: MSR 0x800 + offset / 16; a missing register #GPs. */
	if (a->ops->rdmsr(a->ops->ctx, MSR_X2APIC_BASE + (reg >> 4), &v))
		return 0;
	return (u32)v;
}

__measured_path void apic_write(const struct apic *a, u32 reg, u32 v)
{
	if (!a->present)
		return;
	if (!a->x2apic)
		a->mmio[reg / 4] = v;
	else
		a->ops->wrmsr(a->ops->ctx, MSR_X2APIC_BASE + (reg >> 4), v);
}

int apic_init(struct apic *a, volatile u32 *mmio, const struct cpu_info *ci,
	      const struct msr_ops *ops)
{
	u64 base;

	memset(a, 0, sizeof(*a));
	a->ops = ops;
	if (!cpu_has(ci, X86_FEATURE_APIC) ||
	    ops->rdmsr(ops->ctx, MSR_IA32_APIC_BASE, &base) ||
	    !(base & APIC_BASE_EN))
		return -ENODEV;
	a->x2apic = (base & APIC_BASE_EXTD) != 0;
	if (!a->x2apic && !mmio)
		return -ENODEV;	/* xAPIC mode, but nothing mapped */
	a->mmio = a->x2apic ? NULL : mmio;
	a->present = true;
	a->tsc_deadline = cpu_has(ci, X86_FEATURE_TSC_DEADLINE);
	a->max_lvt = APIC_VERSION_MAXLVT(apic_read(a, APIC_VERSION));
	return 0;
}

static bool lvt_exists(const struct apic *a, int i)
{
	return a->max_lvt >= lvt_regs[i].min_maxlvt;
}

/* Disarm the TSC-deadline timer if the timer LVT is in that mode. */
static void disarm_deadline(struct apic *a, struct lvt_save *s)
{
	u32 mode = s->lvt[LVT_TIMER] & APIC_TIMER_MODE_MASK;
	u64 deadline;

	if (!a->tsc_deadline || mode != APIC_TIMER_TSC_DEADLINE)
		return;
	if (a->ops->rdmsr(a->ops->ctx, MSR_IA32_TSC_DEADLINE, &deadline) ||
	    !deadline)
		return;
	/* Writing 0 disarms it (SDM vol. 3A 11.5.4.1). */
	if (!a->ops->wrmsr(a->ops->ctx, MSR_IA32_TSC_DEADLINE, 0))
		s->tsc_deadline = deadline;
}

void apic_mask_lvts(struct apic *a, struct lvt_save *s, u32 keep)
{
	int i;

	memset(s, 0, sizeof(*s));
	if (!a->present)
		return;
	for (i = 0; i < APIC_NR_LVT; i++) {
		if (!lvt_exists(a, i) || (keep & APIC_KEEP(i)))
			continue;
		s->lvt[i] = apic_read(a, lvt_regs[i].reg);
		if (s->lvt[i] & APIC_LVT_MASKED)
			continue;	/* already masked: leave it alone */
		apic_write(a, lvt_regs[i].reg, s->lvt[i] | APIC_LVT_MASKED);
		s->masked |= 1U << i;
	}
	if (!(keep & APIC_KEEP(LVT_TIMER)))
		disarm_deadline(a, s);
	s->valid = true;
}

void apic_restore_lvts(struct apic *a, const struct lvt_save *s)
{
	int i;

	if (!a->present || !s->valid)
		return;
	for (i = 0; i < APIC_NR_LVT; i++)
		if (s->masked & (1U << i))
			apic_write(a, lvt_regs[i].reg, s->lvt[i]);
	if (s->tsc_deadline)
		a->ops->wrmsr(a->ops->ctx, MSR_IA32_TSC_DEADLINE,
			      s->tsc_deadline);
}
