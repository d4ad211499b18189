/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Vendor-neutral PMU set-up: pmu_init() and the helpers the vendor
 * drivers share. Registers are touched only through struct msr_ops; the
 * drivers (pmu_intel.c, pmu_amd.c) say which registers, pmu_groups.c
 * packs the events into groups. */
#include <asm/pmu.h>
#include <kfront/compiler.h>
#include <kfront/errno.h>
#include <kfront/printk.h>
#include <kfront/string.h>
#include "pmu_internal.h"

static const char *const counter_names[PMU_NR_COUNTERS] = {
	[PMU_CYCLES]		= "cycles",
	[PMU_INSTRUCTIONS]	= "instructions",
	[PMU_L1I_MISSES]	= "l1i_misses",
	[PMU_ITLB_MISSES]	= "itlb_misses",
	[PMU_BRANCH_MISSES]	= "branch_misses",
	[PMU_UOPS_DSB]		= "uops_dsb",
	[PMU_UOPS_MITE]		= "uops_mite",
	[PMU_FE_STALLS]		= "fe_stalls",
	[PMU_L2_CODE_READS]	= "l2_code_reads",
};

/* The counters an event table may supply. */
static const u8 model_ids[] = {
	PMU_L1I_MISSES, PMU_ITLB_MISSES, PMU_UOPS_DSB, PMU_UOPS_MITE,
	PMU_FE_STALLS, PMU_L2_CODE_READS,
};

const char *pmu_counter_name(int id)
{
	if (id < 0 || id >= PMU_NR_COUNTERS)
		return "?";
	return counter_names[id];
}

void pmu_set_missing(struct pmu *p, int id, const char *why)
{
	if (p->nr_missing < PMU_NR_COUNTERS) {
		p->missing[p->nr_missing].id = id;
		p->missing[p->nr_missing].why = why;
		p->nr_missing++;
	}
}

/* Model-specific events from p->table, or the reason each is missing. */
void pmu_plan_model_events(struct pmu *p, struct pmu_plan *plan)
{
	size_t i;
	u8 k;

	for (i = 0; i < ARRAY_SIZE(model_ids); i++) {
		int id = model_ids[i];

		if (!p->table) {
			pmu_set_missing(p, id, "no event table for this "
					"microarchitecture: architectural "
					"events only");
			continue;
		}
		for (k = 0; k < p->table->nr; k++)
			if (p->table->events[k].id == id)
				plan->ev[id] = &p->table->events[k];
		if (!plan->ev[id])
			pmu_set_missing(p, id, "no such event on this "
					"microarchitecture");
	}
}

/* Name an MSR for messages: "IA32_PERFEVTSEL0 (0x186)". */
static void msr_describe(char *buf, size_t len, const struct pmu *p, u32 msr)
{
	const struct pmu_regs *r = &p->regs;
	u32 i = PMU_MAX_GP;

	if (r->ctl_stride && msr >= r->ctl_base &&
	    (msr - r->ctl_base) % r->ctl_stride == 0)
		i = (msr - r->ctl_base) / r->ctl_stride;
	if (i < PMU_MAX_GP)
		snprintf(buf, len, "%s%u (0x%x)",
			 r->ctl_base == MSR_IA32_PERFEVTSEL0 ?
			 "IA32_PERFEVTSEL" : "PERF_CTL", (unsigned int)i, msr);
	else if (msr == MSR_IA32_PERF_GLOBAL_CTRL)
		snprintf(buf, len, "IA32_PERF_GLOBAL_CTRL (0x%x)", msr);
	else if (msr == MSR_IA32_FIXED_CTR_CTRL)
		snprintf(buf, len, "IA32_FIXED_CTR_CTRL (0x%x)", msr);
	else if (msr == MSR_PEBS_FRONTEND)
		snprintf(buf, len, "MSR_PEBS_FRONTEND (0x%x)", msr);
	else
		snprintf(buf, len, "MSR 0x%x", msr);
}

/* wrmsr that turns a fault into a message in p->error. */
int pmu_wrmsr(struct pmu *p, u32 msr, u64 v)
{
	char name[48];
	int err;

	err = p->ops->wrmsr(p->ops->ctx, msr, v);
	if (likely(!err))
		return 0;
	msr_describe(name, sizeof(name), p, msr);
	snprintf(p->error, sizeof(p->error), "wrmsr to %s raised %s", name,
		 msr_fault_name(p->ops));
	return err;
}

/* Zero a GP counter, then write its event select (which enables it). */
int pmu_write_gp(struct pmu *p, const struct pmu_slot *s)
{
	const struct pmu_regs *r = &p->regs;
	int err;

	err = pmu_wrmsr(p, r->ctr_base + s->index * r->ctr_stride, 0);
	if (!err)
		err = pmu_wrmsr(p, r->ctl_base + s->index * r->ctl_stride,
				s->evtsel);
	return err;
}

/* Write 0 to the event select of every GP counter the group used. */
int pmu_clear_gp(struct pmu *p, const struct pmu_group *g)
{
	const struct pmu_regs *r = &p->regs;
	int i, err = 0;

	for (i = 0; i < g->nr && !err; i++) {
		const struct pmu_slot *s = &g->slot[i];
		u32 ctl = r->ctl_base + s->index * r->ctl_stride;

		if (!s->fixed)
			err = pmu_wrmsr(p, ctl, 0);
	}
	return err;
}

static int pmu_fail(struct pmu *p, const char *why)
{
	if (why)
		snprintf(p->reason, sizeof(p->reason), "%s", why);
	p->available = false;
	p->nr_groups = 0;
	return -ENODEV;
}

/* rdpmc of the first counter: QEMU TCG raises #UD here. */
static int probe_rdpmc(struct pmu *p)
{
	u32 ecx = p->groups[0].slot[0].rdpmc_ecx;
	u64 v;

	if (!p->ops->rdpmc(p->ops->ctx, ecx, &v))
		return 0;
	snprintf(p->reason, sizeof(p->reason),
		 "rdpmc raised %s on counter 0x%x: counters not readable "
		 "(QEMU TCG raises #UD for every rdpmc)",
		 msr_fault_name(p->ops), ecx);
	return -ENODEV;
}

static int probe_vendor(struct pmu *p, struct pmu_plan *plan)
{
	switch (p->ci->vendor) {
	case CPU_VENDOR_INTEL:
		return pmu_intel_probe(p, plan);
	case CPU_VENDOR_AMD:
		return pmu_amd_probe(p, plan);
	default:
		snprintf(p->reason, sizeof(p->reason),
			 "no PMU driver for CPU vendor \"%s\"",
			 p->ci->vendor_str);
		return -ENODEV;
	}
}

int pmu_init(struct pmu *p, const struct cpu_info *ci,
	     const struct msr_ops *ops)
{
	struct pmu_plan plan;
	int id;

	memset(p, 0, sizeof(*p));
	memset(&plan, 0, sizeof(plan));
	for (id = 0; id < PMU_NR_COUNTERS; id++)
		plan.fixed[id] = -1;
	p->ci = ci;
	p->ops = ops;
	p->active = -1;
	if (probe_vendor(p, &plan))
		return pmu_fail(p, NULL);
	/* The first writes double as the probe that wrmsr works at all. */
	if (p->drv->quiesce(p))
		return pmu_fail(p, p->error);
	pmu_build_groups(p, &plan);
	if (!p->nr_groups)
		return pmu_fail(p, "no usable counter (CPUID reports none, "
				"or none of the events fits)");
	if (probe_rdpmc(p))
		return pmu_fail(p, NULL);
	p->available = true;
	return 0;
}
