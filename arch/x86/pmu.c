/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Vendor-neutral PMU set-up: probing, and packing the events into groups
 * that fit the counters (cycles and instructions in every group).
 * Registers are touched only through struct msr_ops; the vendor drivers
 * (pmu_intel.c, pmu_amd.c) say which registers. */
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
};

/* Placement order of the GP events: the DSB/MITE pair first, so the two
 * halves of one ratio always share a group (and a run). */
static const u8 place_order[] = {
	PMU_UOPS_DSB, PMU_UOPS_MITE, PMU_L1I_MISSES, PMU_ITLB_MISSES,
	PMU_BRANCH_MISSES, PMU_FE_STALLS,
};

/* The counters an event table may supply. */
static const u8 model_ids[] = {
	PMU_L1I_MISSES, PMU_ITLB_MISSES, PMU_UOPS_DSB, PMU_UOPS_MITE,
	PMU_FE_STALLS,
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

	for (i = 0; i < g->nr; i++) {
		const struct pmu_slot *s = &g->slot[i];

		if (!s->fixed && !err)
			err = pmu_wrmsr(p, r->ctl_base + s->index * r->ctl_stride,
					0);
	}
	return err;
}

static void group_add(struct pmu *p, struct pmu_group *g, int id,
		      const struct pmu_event *ev, int gp)
{
	struct pmu_slot *s = &g->slot[g->nr++];

	s->id = id;
	s->fixed = false;
	s->index = gp;
	s->width = p->gp_width;
	s->rdpmc_ecx = gp;
	s->evtsel = p->drv->encode(ev);
	s->hw_name = ev->hw_name;
	g->gp_used |= 1U << gp;
	if (ev->frontend)
		g->frontend = ev->frontend;
}

/* Lowest free GP counter that can count ev in g, or -1. */
static int group_pick(const struct pmu *p, const struct pmu_group *g,
		      const struct pmu_event *ev)
{
	u32 allowed = ev->gp_mask ? ev->gp_mask : 0xff;
	int i;

	/* One MSR_PEBS_FRONTEND per core: one sub-event per group. */
	if (ev->frontend && g->frontend && g->frontend != ev->frontend)
		return -1;
	if (g->nr >= PMU_MAX_SLOTS)
		return -1;
	allowed &= ~(u32)g->gp_used;
	for (i = 0; i < p->num_gp; i++)
		if (allowed & (1U << i))
			return i;
	return -1;
}

/* A new group holding the counters every group carries: cycles and
 * instructions, on fixed counters where the plan says so. */
static struct pmu_group *group_new(struct pmu *p, const struct pmu_plan *pl)
{
	struct pmu_group *g = &p->groups[p->nr_groups++];
	int id, gp;

	memset(g, 0, sizeof(*g));
	for (id = PMU_CYCLES; id <= PMU_INSTRUCTIONS; id++) {
		if (pl->fixed[id] >= 0) {
			struct pmu_slot *s = &g->slot[g->nr++];

			s->id = id;
			s->fixed = true;
			s->index = pl->fixed[id];
			s->width = p->fixed_width;
			s->rdpmc_ecx = RDPMC_FIXED | s->index;
			s->hw_name = pl->fixed_name[id];
			g->fixed_used |= 1U << s->index;
		} else if (pl->ev[id]) {
			gp = group_pick(p, g, pl->ev[id]);
			if (gp >= 0)
				group_add(p, g, id, pl->ev[id], gp);
		}
	}
	return g;
}

/* Put one GP event into the first group with room, opening a new group
 * when none has; false when no group could ever hold it. */
static bool place_event(struct pmu *p, const struct pmu_plan *pl, int id)
{
	const struct pmu_event *ev = pl->ev[id];
	struct pmu_group *g;
	int i, gp;

	for (i = 0; i < p->nr_groups; i++) {
		gp = group_pick(p, &p->groups[i], ev);
		if (gp >= 0) {
			group_add(p, &p->groups[i], id, ev, gp);
			return true;
		}
	}
	if (p->nr_groups >= PMU_MAX_GROUPS)
		return false;
	g = group_new(p, pl);
	gp = group_pick(p, g, ev);
	if (gp < 0) {
		p->nr_groups--;	/* would only repeat the base counters */
		return false;
	}
	group_add(p, g, id, ev, gp);
	return true;
}

/* Base counters (cycles, instructions) that fit in no group at all. */
static void note_unplaced_base(struct pmu *p, const struct pmu_plan *pl)
{
	int id, i;

	for (id = PMU_CYCLES; id <= PMU_INSTRUCTIONS; id++) {
		bool found = false;

		if (pl->fixed[id] < 0 && !pl->ev[id])
			continue;	/* already reported by the probe */
		for (i = 0; p->nr_groups && i < p->groups[0].nr; i++)
			found |= p->groups[0].slot[i].id == id;
		if (!found)
			pmu_set_missing(p, id, "no counter left for it");
	}
}

static void build_groups(struct pmu *p, const struct pmu_plan *pl)
{
	size_t i;

	p->nr_groups = 0;
	for (i = 0; i < ARRAY_SIZE(place_order); i++) {
		int id = place_order[i];

		if (pl->ev[id] && !place_event(p, pl, id))
			pmu_set_missing(p, id, "no general-purpose counter "
					"can count it");
	}
	if (!p->nr_groups)
		group_new(p, pl);
	if (!p->groups[0].nr)
		p->nr_groups = 0;	/* not a single counter */
	note_unplaced_base(p, pl);
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
		 "rdpmc raised %s (counter 0x%x): counters not readable, "
		 "QEMU TCG does not emulate them", msr_fault_name(p->ops), ecx);
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
	build_groups(p, &plan);
	if (!p->nr_groups)
		return pmu_fail(p, "no usable counter (CPUID reports none, "
				"or none of the events fits)");
	if (probe_rdpmc(p))
		return pmu_fail(p, NULL);
	p->available = true;
	return 0;
}
