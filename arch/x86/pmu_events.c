/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Front-end event encodings per core microarchitecture. Only the counters
 * kfront records are listed; cycles, instructions and branch mispredicts
 * come from the architectural events in pmu_intel.c / pmu_amd.c.
 *
 * Intel FRONTEND_RETIRED.* (event 0xc6) counts what its name says only
 * with MSR_PEBS_FRONTEND (0x3f7) holding the sub-event; the Golden Cove,
 * Redwood Cove and Lion Cove tables use FRONTEND_RETIRED.L1I_MISS and the driver programs 0x3f7 to
 * 0x12 for any group that contains it. It counts retired instructions
 * that missed the L1i, not line misses: these cores have no plain L1i
 * miss event. */
#include <asm/pmu.h>
#include <kfront/compiler.h>

#define GP0_3	0x0f	/* event restricted to GP counters 0-3 */

#define EV(i, e, u, c, m, n)	{ .id = i, .event = e, .umask = u, \
				  .cmask = c, .gp_mask = m, .hw_name = n }

/*
 * Sandy Bridge and Ivy Bridge. Source: Intel perfmon event lists as
 * carried in Linux tools/perf/pmu-events/arch/x86/{sandybridge,ivybridge}/
 * (frontend.json, virtual-memory.json); Intel SDM vol. 3B ch. 20.
 * Event 0x9c is limited to GP counters 0-3 even with Hyper-Threading off
 * ("CounterHTOff": "0,1,2,3"), on these parts and Haswell/Broadwell.
 */
static const struct pmu_event snb_events[] = {
	EV(PMU_L1I_MISSES, 0x80, 0x02, 0, 0, "ICACHE.MISSES"),
	EV(PMU_ITLB_MISSES, 0x85, 0x02, 0, 0, "ITLB_MISSES.WALK_COMPLETED"),
	EV(PMU_UOPS_DSB, 0x79, 0x08, 0, 0, "IDQ.DSB_UOPS"),
	EV(PMU_UOPS_MITE, 0x79, 0x04, 0, 0, "IDQ.MITE_UOPS"),
	EV(PMU_FE_STALLS, 0x9c, 0x01, 4, GP0_3,
	   "IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE"),
};

/* Haswell and Broadwell: same events, ITLB walk umask covers all page
 * sizes (0x0e). Source: .../x86/{haswell,broadwell}/ JSON, as above. */
static const struct pmu_event hsw_events[] = {
	EV(PMU_L1I_MISSES, 0x80, 0x02, 0, 0, "ICACHE.MISSES"),
	EV(PMU_ITLB_MISSES, 0x85, 0x0e, 0, 0, "ITLB_MISSES.WALK_COMPLETED"),
	EV(PMU_UOPS_DSB, 0x79, 0x08, 0, 0, "IDQ.DSB_UOPS"),
	EV(PMU_UOPS_MITE, 0x79, 0x04, 0, 0, "IDQ.MITE_UOPS"),
	EV(PMU_FE_STALLS, 0x9c, 0x01, 4, GP0_3,
	   "IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE"),
};

/* Skylake and its derivatives (Kaby/Coffee/Comet/Cascade Lake). Source:
 * Linux tools/perf/pmu-events/arch/x86/skylake/frontend.json (L1i tag
 * misses at 64-byte granularity: ICACHE_64B.IFTAG_MISS 0x83/0x02, IDQ
 * 0x79/0x08 and 0x04, 0x9c/0x01 with CounterMask 4) and
 * virtual-memory.json. */
static const struct pmu_event skl_events[] = {
	EV(PMU_L1I_MISSES, 0x83, 0x02, 0, 0, "ICACHE_64B.IFTAG_MISS"),
	EV(PMU_ITLB_MISSES, 0x85, 0x0e, 0, 0, "ITLB_MISSES.WALK_COMPLETED"),
	EV(PMU_UOPS_DSB, 0x79, 0x08, 0, 0, "IDQ.DSB_UOPS"),
	EV(PMU_UOPS_MITE, 0x79, 0x04, 0, 0, "IDQ.MITE_UOPS"),
	EV(PMU_FE_STALLS, 0x9c, 0x01, 4, 0,
	   "IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE"),
};

/* Ice Lake and Tiger Lake (5-wide allocation: CounterMask 5). Source:
 * Linux tools/perf/pmu-events/arch/x86/{icelake,tigerlake}/frontend.json
 * and virtual-memory.json ("Counter": "0,1,2,3" for IDQ, ICACHE_64B and
 * ITLB_MISSES). */
static const struct pmu_event icl_events[] = {
	EV(PMU_L1I_MISSES, 0x83, 0x02, 0, GP0_3, "ICACHE_64B.IFTAG_MISS"),
	EV(PMU_ITLB_MISSES, 0x85, 0x0e, 0, GP0_3,
	   "ITLB_MISSES.WALK_COMPLETED"),
	EV(PMU_UOPS_DSB, 0x79, 0x08, 0, GP0_3, "IDQ.DSB_UOPS"),
	EV(PMU_UOPS_MITE, 0x79, 0x04, 0, GP0_3, "IDQ.MITE_UOPS"),
	EV(PMU_FE_STALLS, 0x9c, 0x01, 5, 0,
	   "IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE"),
};

/* Golden Cove: Alder/Raptor Lake P-cores and Sapphire/Emerald Rapids
 * (6-wide: CounterMask 6; ITLB_MISSES moved to event 0x11). Source: Linux
 * tools/perf/pmu-events/arch/x86/sapphirerapids/frontend.json,
 * virtual-memory.json and cache.json; alderlake/ (cpu_core) lists the same
 * encodings. L1i misses there count retired instructions that missed, so
 * L2_RQSTS.ALL_CODE_RD (0x24/0xe4, any GP counter: demand and prefetch
 * code reads that reach the L2, i.e. L1i line fills) gives the line view. */
static const struct pmu_event glc_events[] = {
	{ .id = PMU_L1I_MISSES, .event = 0xc6, .umask = 0x01,
	  .frontend = 0x12, .hw_name = "FRONTEND_RETIRED.L1I_MISS" },
	EV(PMU_ITLB_MISSES, 0x11, 0x0e, 0, GP0_3,
	   "ITLB_MISSES.WALK_COMPLETED"),
	EV(PMU_UOPS_DSB, 0x79, 0x08, 0, GP0_3, "IDQ.DSB_UOPS"),
	EV(PMU_UOPS_MITE, 0x79, 0x04, 0, GP0_3, "IDQ.MITE_UOPS"),
	EV(PMU_FE_STALLS, 0x9c, 0x01, 6, 0,
	   "IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE"),
	EV(PMU_L2_CODE_READS, 0x24, 0xe4, 0, 0, "L2_RQSTS.ALL_CODE_RD"),
};

/* Redwood Cove: Meteor Lake P-cores (and Arrow Lake-U) and Granite
 * Rapids. Source: Linux tools/perf/pmu-events/arch/x86/meteorlake/
 * (cpu_core: frontend.json, virtual-memory.json, cache.json) and
 * graniterapids/: Golden Cove's encodings but FRONTEND_RETIRED.L1I_MISS,
 * whose umask is 0x03 here ("UMask": "0x3", "MSRValue": "0x12"); the 0x9c
 * event keeps CounterMask 6 on any counter; ITLB, IDQ and L2 code reads
 * on counters 0-3. */
static const struct pmu_event rwc_events[] = {
	{ .id = PMU_L1I_MISSES, .event = 0xc6, .umask = 0x03,
	  .frontend = 0x12, .hw_name = "FRONTEND_RETIRED.L1I_MISS" },
	EV(PMU_ITLB_MISSES, 0x11, 0x0e, 0, GP0_3,
	   "ITLB_MISSES.WALK_COMPLETED"),
	EV(PMU_UOPS_DSB, 0x79, 0x08, 0, GP0_3, "IDQ.DSB_UOPS"),
	EV(PMU_UOPS_MITE, 0x79, 0x04, 0, GP0_3, "IDQ.MITE_UOPS"),
	EV(PMU_FE_STALLS, 0x9c, 0x01, 6, 0,
	   "IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE"),
	EV(PMU_L2_CODE_READS, 0x24, 0xe4, 0, GP0_3, "L2_RQSTS.ALL_CODE_RD"),
};

/* Lion Cove: Arrow Lake-S/H and Lunar Lake P-cores. Source: Linux
 * tools/perf/pmu-events/arch/x86/{arrowlake,lunarlake}/ (cpu_core), as
 * above; every event on any of the ten counters. Allocation is 8 wide:
 * the cycles with no uop delivered are IDQ_BUBBLES.STARVATION_CYCLES,
 * 0x9c/0x01 with CounterMask 8 (the CYCLES_0_UOPS_DELIV name is kept there
 * only as a deprecated alias of it). */
static const struct pmu_event lnc_events[] = {
	{ .id = PMU_L1I_MISSES, .event = 0xc6, .umask = 0x03,
	  .frontend = 0x12, .hw_name = "FRONTEND_RETIRED.L1I_MISS" },
	EV(PMU_ITLB_MISSES, 0x11, 0x0e, 0, 0, "ITLB_MISSES.WALK_COMPLETED"),
	EV(PMU_UOPS_DSB, 0x79, 0x08, 0, 0, "IDQ.DSB_UOPS"),
	EV(PMU_UOPS_MITE, 0x79, 0x04, 0, 0, "IDQ.MITE_UOPS"),
	EV(PMU_FE_STALLS, 0x9c, 0x01, 8, 0, "IDQ_BUBBLES.STARVATION_CYCLES"),
	EV(PMU_L2_CODE_READS, 0x24, 0xe4, 0, 0, "L2_RQSTS.ALL_CODE_RD"),
};

/*
 * AMD Zen 2 (family 17h, models 30h+). Source: Linux
 * tools/perf/pmu-events/arch/x86/amdzen2/{other,cache}.json (PPR for
 * family 17h): 0xaa de_dis_uops_from_decoder (0x02 op cache, 0x01
 * decoder), 0x81 ic_fw32_miss (32-byte fetch windows missing the L1i),
 * 0x85 L1+L2 ITLB miss (umask 0x07: 4K, 2M, 1G), 0xa9 op queue empty.
 */
static const struct pmu_event zen2_events[] = {
	EV(PMU_L1I_MISSES, 0x81, 0x00, 0, 0, "ic_fw32_miss"),
	EV(PMU_ITLB_MISSES, 0x85, 0x07, 0, 0, "bp_l1_tlb_miss_l2_tlb_miss"),
	EV(PMU_UOPS_DSB, 0xaa, 0x02, 0, 0,
	   "de_dis_uops_from_decoder.opcache_dispatched"),
	EV(PMU_UOPS_MITE, 0xaa, 0x01, 0, 0,
	   "de_dis_uops_from_decoder.decoder_dispatched"),
	EV(PMU_FE_STALLS, 0xa9, 0x00, 0, 0, "de_dis_uop_queue_empty_di0"),
};

/* AMD Zen 3 (family 19h). Source: Linux .../amdzen3/cache.json and
 * other.json; libpfm4 amd64_events_fam19h_zen3.h (PPR for family 19h
 * model 01h) for 0xaa OPS_SOURCE_DISPATCHED_FROM_DECODER. 0x18e
 * ic_tag_hit_miss umask 0x18 = misses; 0x85 umask 0x0f adds coalesced
 * pages. */
static const struct pmu_event zen3_events[] = {
	EV(PMU_L1I_MISSES, 0x18e, 0x18, 0, 0,
	   "ic_tag_hit_miss.instruction_cache_miss"),
	EV(PMU_ITLB_MISSES, 0x85, 0x0f, 0, 0, "bp_l1_tlb_miss_l2_tlb_miss"),
	EV(PMU_UOPS_DSB, 0xaa, 0x02, 0, 0,
	   "ops_source_dispatched_from_decoder.opcache"),
	EV(PMU_UOPS_MITE, 0xaa, 0x01, 0, 0,
	   "ops_source_dispatched_from_decoder.x86decoder"),
	EV(PMU_FE_STALLS, 0xa9, 0x00, 0, 0, "de_dis_uop_queue_empty_di0"),
};

/* AMD Zen 4 (family 19h). Source: Linux .../amdzen4/other.json,
 * cache.json, memory.json (0x85) and pipeline.json (the cmask-6 use).
 * Front-end stalls: de_no_dispatch_per_slot.
 * no_ops_from_frontend (0x1a0/0x01) with CounterMask 6 = cycles in which
 * all six dispatch slots went empty for want of ops, as perf's
 * frontend_bound_latency metric uses it. Ops from the loop buffer (0xaa
 * umask 0x04) are in neither uops_dsb nor uops_mite. */
static const struct pmu_event zen4_events[] = {
	EV(PMU_L1I_MISSES, 0x18e, 0x18, 0, 0,
	   "ic_tag_hit_miss.instruction_cache_miss"),
	EV(PMU_ITLB_MISSES, 0x85, 0x0f, 0, 0, "bp_l1_tlb_miss_l2_tlb_miss"),
	EV(PMU_UOPS_DSB, 0xaa, 0x02, 0, 0, "de_src_op_disp.op_cache"),
	EV(PMU_UOPS_MITE, 0xaa, 0x01, 0, 0, "de_src_op_disp.decoder"),
	EV(PMU_FE_STALLS, 0x1a0, 0x01, 6, 0,
	   "de_no_dispatch_per_slot.no_ops_from_frontend"),
};

/* AMD Zen 5 (family 1Ah). Source: Linux .../amdzen5/inst-cache.json,
 * branch-prediction.json (0x85), decode.json (0xaa, 0x1a0) and
 * pipeline.json: Zen 4's encodings, but dispatch is 8 wide ("8 *
 * ls_not_halted_cyc" slots), so the cycles with every slot empty for want
 * of ops take CounterMask 8, as perf's frontend_bound_by_latency does. */
static const struct pmu_event zen5_events[] = {
	EV(PMU_L1I_MISSES, 0x18e, 0x18, 0, 0,
	   "ic_tag_hit_miss.instruction_cache_miss"),
	EV(PMU_ITLB_MISSES, 0x85, 0x0f, 0, 0, "bp_l1_tlb_miss_l2_tlb_miss.all"),
	EV(PMU_UOPS_DSB, 0xaa, 0x02, 0, 0, "de_src_op_disp.op_cache"),
	EV(PMU_UOPS_MITE, 0xaa, 0x01, 0, 0, "de_src_op_disp.x86_decoder"),
	EV(PMU_FE_STALLS, 0x1a0, 0x01, 8, 0,
	   "de_no_dispatch_per_slot.no_ops_from_frontend"),
};

#define TABLE(u, ev, src)	{ u, src, ev, ARRAY_SIZE(ev) }

static const struct pmu_event_table tables[] = {
	TABLE(UARCH_SANDYBRIDGE, snb_events, "linux pmu-events sandybridge"),
	TABLE(UARCH_IVYBRIDGE, snb_events, "linux pmu-events ivybridge"),
	TABLE(UARCH_HASWELL, hsw_events, "linux pmu-events haswell"),
	TABLE(UARCH_BROADWELL, hsw_events, "linux pmu-events broadwell"),
	TABLE(UARCH_SKYLAKE, skl_events, "linux pmu-events skylake"),
	TABLE(UARCH_ICELAKE, icl_events, "linux pmu-events icelake"),
	TABLE(UARCH_TIGERLAKE, icl_events, "linux pmu-events tigerlake"),
	TABLE(UARCH_ALDERLAKE, glc_events, "linux pmu-events alderlake"),
	TABLE(UARCH_SAPPHIRERAPIDS, glc_events,
	      "linux pmu-events sapphirerapids"),
	TABLE(UARCH_METEORLAKE, rwc_events, "linux pmu-events meteorlake"),
	TABLE(UARCH_GRANITERAPIDS, rwc_events,
	      "linux pmu-events graniterapids"),
	TABLE(UARCH_ARROWLAKE, lnc_events, "linux pmu-events arrowlake"),
	TABLE(UARCH_LUNARLAKE, lnc_events, "linux pmu-events lunarlake"),
	TABLE(UARCH_ZEN2, zen2_events, "linux pmu-events amdzen2"),
	TABLE(UARCH_ZEN3, zen3_events, "linux pmu-events amdzen3, libpfm4"),
	TABLE(UARCH_ZEN4, zen4_events, "linux pmu-events amdzen4"),
	TABLE(UARCH_ZEN5, zen5_events, "linux pmu-events amdzen5"),
};

const struct pmu_event_table *pmu_event_table(enum cpu_uarch u)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(tables); i++)
		if (tables[i].uarch == u)
			return &tables[i];
	return NULL;
}
