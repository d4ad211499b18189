/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Intel architectural performance monitoring (Intel SDM vol. 3B ch. 20):
 * IA32_PERFEVTSELx/IA32_PMCx, fixed counters 0 (instructions) and 1
 * (core cycles) under IA32_FIXED_CTR_CTRL, IA32_PERF_GLOBAL_CTRL from
 * version 2, and MSR_PEBS_FRONTEND for FRONTEND_RETIRED.* events.
 * Counters are only ever written with 0, so the legacy IA32_PMCx
 * addresses (writes sign-extend from bit 31) do; the full-width aliases
 * at 0x4c1 that IA32_PERF_CAPABILITIES (PDCM) advertises are not used. */
#include <asm/pmu.h>
#include <kfront/compiler.h>
#include <kfront/errno.h>
#include <kfront/printk.h>
#include "pmu_internal.h"

/* Architectural events (SDM vol. 3B table 20-1), with their CPUID.0AH:EBX
 * "unavailable" bit. */
#define ARCH_EV_CYCLES		0	/* EBX bit */
#define ARCH_EV_INSTRUCTIONS	1
#define ARCH_EV_BRANCH_MISSES	6

static const struct pmu_event arch_cycles = {
	.id = PMU_CYCLES, .event = 0x3c, .umask = 0x00,
	.hw_name = "CPU_CLK_UNHALTED.THREAD_P",
};
static const struct pmu_event arch_instructions = {
	.id = PMU_INSTRUCTIONS, .event = 0xc0, .umask = 0x00,
	.hw_name = "INST_RETIRED.ANY_P",
};
static const struct pmu_event arch_branch_misses = {
	.id = PMU_BRANCH_MISSES, .event = 0xc5, .umask = 0x00,
	.hw_name = "BR_MISP_RETIRED.ALL_BRANCHES",
};

/* Ring 0 and ring 3 both: the kernel runs in ring 0, the host harness in
 * ring 3, and neither wants an interrupt on overflow. */
static u64 intel_encode(const struct pmu_event *e)
{
	return EVTSEL_EVENT(e->event) | EVTSEL_UMASK(e->umask) |
	       EVTSEL_CMASK(e->cmask) | EVTSEL_USR | EVTSEL_OS | EVTSEL_EN;
}

static bool has_global_ctrl(const struct pmu *p)
{
	return p->ci->pmu.version >= 2;
}

/* Everything off, as at reset: global enable, fixed control, each event
 * select. The first write is also the probe that wrmsr works. */
static int intel_quiesce(struct pmu *p)
{
	int i, err = 0;

	if (has_global_ctrl(p))
		err = pmu_wrmsr(p, MSR_IA32_PERF_GLOBAL_CTRL, 0);
	if (!err && p->ci->pmu.num_fixed)
		err = pmu_wrmsr(p, MSR_IA32_FIXED_CTR_CTRL, 0);
	for (i = 0; i < p->num_gp && !err; i++)
		err = pmu_wrmsr(p, MSR_IA32_PERFEVTSEL0 + i, 0);
	return err;
}

/* Fixed counters of the group: zero them, then one control write. */
static int intel_start_fixed(struct pmu *p, const struct pmu_group *g)
{
	u64 ctrl = 0;
	int i, err;

	for (i = 0; i < g->nr; i++) {
		const struct pmu_slot *s = &g->slot[i];

		if (!s->fixed)
			continue;
		err = pmu_wrmsr(p, MSR_IA32_FIXED_CTR0 + s->index, 0);
		if (err)
			return err;
		/* count in ring 0 and 3, no PMI, no AnyThread */
		ctrl |= FIXED_CTRL_FIELD(s->index, FIXED_CTRL_OS |
					 FIXED_CTRL_USR);
	}
	if (!g->fixed_used)
		return 0;
	return pmu_wrmsr(p, MSR_IA32_FIXED_CTR_CTRL, ctrl);
}

static int intel_start(struct pmu *p, const struct pmu_group *g)
{
	u64 global = g->gp_used;
	int i, err = 0;

	/* Counting off while the group is programmed. */
	if (has_global_ctrl(p))
		err = pmu_wrmsr(p, MSR_IA32_PERF_GLOBAL_CTRL, 0);
	for (i = 0; i < g->nr && !err; i++)
		if (!g->slot[i].fixed)
			err = pmu_write_gp(p, &g->slot[i]);
	/* FRONTEND_RETIRED.* sub-event: without it they all count alike. */
	if (!err && g->frontend)
		err = pmu_wrmsr(p, MSR_PEBS_FRONTEND, g->frontend);
	if (!err)
		err = intel_start_fixed(p, g);
	for (i = 0; i < 32; i++)
		if (g->fixed_used & (1U << i))
			global |= GLOBAL_CTRL_FIXED(i);
	/* One write starts every counter of the group at once. */
	if (!err && has_global_ctrl(p))
		err = pmu_wrmsr(p, MSR_IA32_PERF_GLOBAL_CTRL, global);
	return err;
}

/* Undo intel_start(); keeps going past a fault and reports the first. */
static int intel_stop(struct pmu *p, const struct pmu_group *g)
{
	int err = 0, e;

	if (has_global_ctrl(p))
		err = pmu_wrmsr(p, MSR_IA32_PERF_GLOBAL_CTRL, 0);
	if (g->fixed_used) {
		e = pmu_wrmsr(p, MSR_IA32_FIXED_CTR_CTRL, 0);
		err = err ? err : e;
	}
	e = pmu_clear_gp(p, g);
	err = err ? err : e;
	if (g->frontend) {
		e = pmu_wrmsr(p, MSR_PEBS_FRONTEND, 0);
		err = err ? err : e;
	}
	return err;
}

static const struct pmu_driver intel_driver = {
	.name = "intel-arch-perfmon",
	.quiesce = intel_quiesce,
	.start = intel_start,
	.stop = intel_stop,
	.encode = intel_encode,
};

/* cycles and instructions: fixed counter, else GP architectural event. */
static void plan_arch_event(struct pmu *p, struct pmu_plan *plan,
			    const struct pmu_event *ev, int fixed, int ebx_bit,
			    const char *fixed_name)
{
	const struct pmu_caps *pc = &p->ci->pmu;

	if (fixed >= 0 && (p->fixed_mask & (1U << fixed))) {
		plan->fixed[ev->id] = fixed;
		plan->fixed_name[ev->id] = fixed_name;
	} else if (!(pc->events_unavail & (1U << ebx_bit))) {
		plan->ev[ev->id] = ev;
	} else {
		pmu_set_missing(p, ev->id, "CPUID.0AH:EBX marks the "
				"architectural event unavailable");
	}
}

static void intel_plan(struct pmu *p, struct pmu_plan *plan)
{
	const struct cpu_info *ci = p->ci;

	plan_arch_event(p, plan, &arch_cycles, INTEL_FIXED_CYCLES,
			ARCH_EV_CYCLES, "CPU_CLK_UNHALTED.THREAD");
	plan_arch_event(p, plan, &arch_instructions, INTEL_FIXED_INSTRUCTIONS,
			ARCH_EV_INSTRUCTIONS, "INST_RETIRED.ANY");
	plan_arch_event(p, plan, &arch_branch_misses, -1,
			ARCH_EV_BRANCH_MISSES, NULL);
	/* A hybrid part's E-cores (Atom) have other events than P-cores. */
	if (ci->core_type == CPU_CORE_TYPE_ATOM)
		p->table = NULL;
	else
		p->table = pmu_event_table(ci->uarch);
	pmu_plan_model_events(p, plan);
}

int pmu_intel_probe(struct pmu *p, struct pmu_plan *plan)
{
	const struct pmu_caps *pc = &p->ci->pmu;

	if (!pc->version) {
		snprintf(p->reason, sizeof(p->reason), "CPUID.0AH reports "
			 "architectural perfmon version 0 (no PMU: QEMU TCG "
			 "or a hypervisor that hides it)");
		return -ENODEV;
	}
	p->drv = &intel_driver;
	p->regs = (struct pmu_regs){
		.ctl_base = MSR_IA32_PERFEVTSEL0, .ctl_stride = 1,
		.ctr_base = MSR_IA32_PMC0, .ctr_stride = 1,
		.global_ctl = pc->version >= 2 ? MSR_IA32_PERF_GLOBAL_CTRL : 0,
	};
	p->num_gp = min(pc->num_gp, (u8)PMU_MAX_GP);
	p->gp_width = pc->gp_width;
	p->fixed_width = pc->fixed_width;
	/* Only fixed counters 0 and 1 are used (instructions, cycles). */
	p->fixed_mask = pc->fixed_mask & 0x3;
	intel_plan(p, plan);
	return 0;
}
