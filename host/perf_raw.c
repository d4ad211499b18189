/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The front-end events perf has no generic name for (uops from the
 * decoded-uop cache and from the legacy decoders, cycles the front end
 * delivered nothing, L2 code reads), taken from the kernel's own tables
 * (arch/x86/pmu_events.c) and written as raw perf_event configs: the
 * bits Linux's x86 core PMU documents in
 * /sys/bus/event_source/devices/cpu/format (event config:0-7, and on AMD
 * also 32-35 for event bits 11:8; umask config:8-15; cmask config:24-31).
 * Pure: the host tests check the configs per CPUID signature. */
#include <stdio.h>

#include <asm/pmu.h>
#include <kfront/compiler.h>
#include "host.h"

/* The counters this group adds to perf's generic ones, in record order. */
static const u8 frontend_ids[] = {
	PMU_UOPS_DSB, PMU_UOPS_MITE, PMU_FE_STALLS, PMU_L2_CODE_READS,
};

int perf_raw_config(enum cpu_vendor v, const struct pmu_event *e, u64 *config)
{
	/* A sub-event in MSR_PEBS_FRONTEND would need config1 and a PMU
	 * that offers the "frontend" format: none of these events has one. */
	if (e->frontend || (v != CPU_VENDOR_AMD && e->event > 0xff))
		return -1;
	*config = EVTSEL_EVENT(e->event) | EVTSEL_UMASK(e->umask) |
		  EVTSEL_CMASK(e->cmask);
	if (v == CPU_VENDOR_AMD)
		*config |= AMD_EVTSEL_EVENT_HI(e->event);
	return 0;
}

int perf_frontend_events(const struct cpu_info *ci,
			 const struct pmu_event **out, int max,
			 char *why, size_t whylen)
{
	const struct pmu_event_table *t = pmu_event_table(ci->uarch);
	int n = 0;

	why[0] = '\0';
	/* A hybrid part's E-cores have other events than its P-cores (the
	 * kernel's PMU set-up decides the same way). */
	if (ci->core_type == CPU_CORE_TYPE_ATOM)
		t = NULL;
	if (!t) {
		snprintf(why, whylen, "no event table for this microarchitecture "
			 "(%s%s): perf's generic events only", ci->uarch_name,
			 ci->core_type == CPU_CORE_TYPE_ATOM ? ", an E-core" : "");
		return 0;
	}
	for (size_t i = 0; i < ARRAY_SIZE(frontend_ids); i++)
		for (u8 k = 0; k < t->nr && n < max; k++)
			if (t->events[k].id == frontend_ids[i])
				out[n++] = &t->events[k];
	return n;
}
