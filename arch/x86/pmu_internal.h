/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Private interface between the generic PMU code (pmu.c) and the vendor
 * drivers (pmu_intel.c, pmu_amd.c). Not for use outside arch/x86. */
#ifndef ARCH_X86_PMU_INTERNAL_H
#define ARCH_X86_PMU_INTERNAL_H

#include <asm/pmu.h>

/* What a vendor probe wants counted: per counter id either a fixed
 * counter (fixed[id] >= 0) or a GP event (ev[id]), or neither (then the
 * probe has called pmu_set_missing()). */
struct pmu_plan {
	const struct pmu_event *ev[PMU_NR_COUNTERS];
	s8 fixed[PMU_NR_COUNTERS];
	const char *fixed_name[PMU_NR_COUNTERS];
};

/* Fill p->drv, p->regs, counts and widths, and the plan; 0 or -ENODEV
 * with p->reason set. */
int pmu_intel_probe(struct pmu *p, struct pmu_plan *plan);
int pmu_amd_probe(struct pmu *p, struct pmu_plan *plan);

/* Fill p->groups from the plan (pmu_groups.c); missing ones noted. */
void pmu_build_groups(struct pmu *p, const struct pmu_plan *pl);

/* Shared helpers (pmu.c). */
void pmu_set_missing(struct pmu *p, int id, const char *why);
void pmu_plan_model_events(struct pmu *p, struct pmu_plan *plan);
int pmu_wrmsr(struct pmu *p, u32 msr, u64 v);
int pmu_write_gp(struct pmu *p, const struct pmu_slot *s);
int pmu_clear_gp(struct pmu *p, const struct pmu_group *g);

#endif
