/* SPDX-License-Identifier: GPL-2.0-or-later */
/* AMD core performance counters (AMD64 APM vol. 2 "Performance
 * Monitoring Counters"; PPRs for families 17h and 19h): the legacy four
 * at 0xc0010000/4, the six PerfCtrExtCore counters interleaved from
 * 0xc0010200, and PerfMonV2's global enable at 0xc0000301. AMD has no
 * fixed counters: cycles and instructions take GP counters 0 and 1. */
#include <asm/pmu.h>
#include <kfront/compiler.h>
#include <kfront/errno.h>
#include <kfront/printk.h>
#include "pmu_internal.h"

#define AMD_LEGACY_COUNTERS	4
#define AMD_EXT_COUNTERS	6	/* MSR layout defined for 6 */

/* Present since K8 with these encodings (APM vol. 2; PPR 17h/19h:
 * PMCx076 cycles not in halt, PMCx0C0 retired instructions, PMCx0C3
 * retired branch instructions mispredicted). */
static const struct pmu_event amd_cycles = {
	.id = PMU_CYCLES, .event = 0x76, .hw_name = "ls_not_halted_cyc",
};
static const struct pmu_event amd_instructions = {
	.id = PMU_INSTRUCTIONS, .event = 0xc0, .hw_name = "ex_ret_instr",
};
static const struct pmu_event amd_branch_misses = {
	.id = PMU_BRANCH_MISSES, .event = 0xc3, .hw_name = "ex_ret_brn_misp",
};

/* Event bits [11:8] go to PERF_CTL[35:32]. Neither GuestOnly nor
 * HostOnly: count in whichever mode this kernel runs. */
static u64 amd_encode(const struct pmu_event *e)
{
	return EVTSEL_EVENT(e->event) | AMD_EVTSEL_EVENT_HI(e->event) |
	       EVTSEL_UMASK(e->umask) | EVTSEL_CMASK(e->cmask) |
	       EVTSEL_USR | EVTSEL_OS | EVTSEL_EN;
}

static bool has_global_ctl(const struct pmu *p)
{
	return p->regs.global_ctl != 0;
}

/* Every PERF_CTL to 0 (and the global enable, with PerfMonV2). */
static int amd_quiesce(struct pmu *p)
{
	int i, err = 0;

	if (has_global_ctl(p))
		err = pmu_wrmsr(p, p->regs.global_ctl, 0);
	for (i = 0; i < p->num_gp && !err; i++)
		err = pmu_wrmsr(p, p->regs.ctl_base + i * p->regs.ctl_stride,
				0);
	return err;
}

static int amd_start(struct pmu *p, const struct pmu_group *g)
{
	int i, err = 0;

	if (has_global_ctl(p))
		err = pmu_wrmsr(p, p->regs.global_ctl, 0);
	for (i = 0; i < g->nr && !err; i++)
		err = pmu_write_gp(p, &g->slot[i]);
	/* PerfMonV2: a counter counts only with its global enable bit set
	 * as well as PERF_CTL.En; one write starts the whole group. */
	if (!err && has_global_ctl(p))
		err = pmu_wrmsr(p, p->regs.global_ctl, g->gp_used);
	return err;
}

static int amd_stop(struct pmu *p, const struct pmu_group *g)
{
	int err = 0, e;

	if (has_global_ctl(p))
		err = pmu_wrmsr(p, p->regs.global_ctl, 0);
	e = pmu_clear_gp(p, g);
	return err ? err : e;
}

static const struct pmu_driver amd_driver = {
	.name = "amd-core-pmc",
	.quiesce = amd_quiesce,
	.start = amd_start,
	.stop = amd_stop,
	.encode = amd_encode,
};

static void amd_set_regs(struct pmu *p)
{
	const struct pmu_caps *pc = &p->ci->pmu;

	if (pc->amd_core_ext) {
		p->regs.ctl_base = MSR_F15H_PERF_CTL0;
		p->regs.ctr_base = MSR_F15H_PERF_CTR0;
		p->regs.ctl_stride = p->regs.ctr_stride = 2;
		p->num_gp = min(pc->amd_num_counters, (u8)AMD_EXT_COUNTERS);
	} else {
		p->regs.ctl_base = MSR_K7_EVNTSEL0;
		p->regs.ctr_base = MSR_K7_PERFCTR0;
		p->regs.ctl_stride = p->regs.ctr_stride = 1;
		p->num_gp = AMD_LEGACY_COUNTERS;
	}
	if (pc->amd_perfmon_v2)
		p->regs.global_ctl = MSR_AMD64_PERF_CNTR_GLOBAL_CTL;
	p->gp_width = pc->gp_width ? pc->gp_width : 48;
}

int pmu_amd_probe(struct pmu *p, struct pmu_plan *plan)
{
	const struct cpu_info *ci = p->ci;

	/* Every Zen has PerfCtrExtCore; a Zen without it is a guest whose
	 * hypervisor does not virtualise the PMU. */
	if (!ci->pmu.amd_core_ext && ci->family >= 0x17) {
		snprintf(p->reason, sizeof(p->reason), "AMD family %xh "
			 "without PerfCtrExtCore (CPUID 0x80000001 ECX[23]): "
			 "a hypervisor that hides the PMU",
			 (unsigned int)ci->family);
		return -ENODEV;
	}
	p->drv = &amd_driver;
	amd_set_regs(p);
	plan->ev[PMU_CYCLES] = &amd_cycles;
	plan->ev[PMU_INSTRUCTIONS] = &amd_instructions;
	plan->ev[PMU_BRANCH_MISSES] = &amd_branch_misses;
	p->table = pmu_event_table(ci->uarch);
	pmu_plan_model_events(p, plan);
	return 0;
}
