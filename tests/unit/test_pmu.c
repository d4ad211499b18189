/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Host tests of the PMU set-up: for each CPU signature, the exact MSR
 * writes of pmu_init() and of every event group, the counter names per
 * group, and the no-PMU paths (TCG, hidden PMU, faulting rdpmc/wrmsr,
 * zero counters) that must degrade with a reason and never crash. */
#include <stdio.h>
#include <string.h>
#include <asm/cpu.h>
#include <asm/pmu.h>
#include "check.h"
#include "x86_fakes.h"

#define W(m, v)		{ (m), (v) }
#define EVT(i)		(MSR_IA32_PERFEVTSEL0 + (i))
#define PMC(i)		(MSR_IA32_PMC0 + (i))
#define CTL(i)		(MSR_F15H_PERF_CTL0 + 2 * (i))
#define CTR(i)		(MSR_F15H_PERF_CTR0 + 2 * (i))
#define GCTL		MSR_IA32_PERF_GLOBAL_CTRL
#define FCTL		MSR_IA32_FIXED_CTR_CTRL
#define AMD_GCTL	MSR_AMD64_PERF_CNTR_GLOBAL_CTL

static struct cpu_info ci;
static struct pmu pmu;
static struct rec_msr rec;
static struct msr_ops ops;

/* A fresh MSR recorder and CPU @c detected; a test may then arm a fault
 * in rec before pmu_init() (ops reads rec through its pointer). */
static void detect(const struct fake_cpu *c)
{
	memset(&rec, 0, sizeof(rec));
	ops = rec_ops(&rec);
	cpu_detect(&ci, fake_cpuid, (void *)c);
}

/* Detect the fake CPU and run pmu_init against a fresh recorder. */
static int setup(const struct fake_cpu *c)
{
	detect(c);
	return pmu_init(&pmu, &ci, &ops);
}

static void check_names(int g, const char *const *want, int n)
{
	const char *names[PMU_MAX_SLOTS];
	int i, got = pmu_group_counters(&pmu, g, names, PMU_MAX_SLOTS);

	CHECK_EQ_U64(got, n);
	for (i = 0; i < got && i < n; i++)
		CHECK_STR(names[i], want[i]);
}

static bool is_missing(int id, const char *why_part)
{
	int i;

	for (i = 0; i < pmu.nr_missing; i++)
		if (pmu.missing[i].id == id)
			return !why_part || strstr(pmu.missing[i].why, why_part);
	return false;
}

static void test_skylake(void)
{
	static const struct msr_write init[] = {
		W(GCTL, 0), W(FCTL, 0), W(EVT(0), 0), W(EVT(1), 0),
		W(EVT(2), 0), W(EVT(3), 0),
	};
	static const struct msr_write g0[] = {
		W(GCTL, 0),
		W(PMC(0), 0), W(EVT(0), 0x430879),	/* IDQ.DSB_UOPS */
		W(PMC(1), 0), W(EVT(1), 0x430479),	/* IDQ.MITE_UOPS */
		W(PMC(2), 0), W(EVT(2), 0x430283),	/* ICACHE_64B.IFTAG_MISS */
		W(PMC(3), 0), W(EVT(3), 0x430e85),	/* ITLB walks */
		W(MSR_IA32_FIXED_CTR1, 0), W(MSR_IA32_FIXED_CTR0, 0),
		W(FCTL, 0x33), W(GCTL, 0x30000000fULL),
	};
	static const struct msr_write stop0[] = {
		W(GCTL, 0), W(FCTL, 0), W(EVT(0), 0), W(EVT(1), 0),
		W(EVT(2), 0), W(EVT(3), 0),
	};
	static const struct msr_write g1[] = {
		W(GCTL, 0),
		W(PMC(0), 0), W(EVT(0), 0x4300c5),	/* BR_MISP_RETIRED */
		W(PMC(1), 0), W(EVT(1), 0x0443019c),	/* 0 uops, cmask 4 */
		W(MSR_IA32_FIXED_CTR1, 0), W(MSR_IA32_FIXED_CTR0, 0),
		W(FCTL, 0x33), W(GCTL, 0x300000003ULL),
	};
	static const char *const n0[] = { "cycles", "instructions",
		"uops_dsb", "uops_mite", "l1i_misses", "itlb_misses" };
	static const char *const n1[] = { "cycles", "instructions",
		"branch_misses", "fe_stalls" };
	u64 v[PMU_MAX_SLOTS];

	CHECK_EQ_U64(setup(&cpu_skylake), 0);
	CHECK(pmu.available);
	CHECK_STR(ci.uarch_name, "skylake");
	CHECK_WRITES(&rec, init);
	CHECK_EQ_U64(rec.nrdpmc, 1);
	CHECK_EQ_U64(rec.rdpmc_ecx[0], RDPMC_FIXED | 1);	/* probe */
	CHECK_EQ_U64(pmu_num_groups(&pmu), 2);
	/* Skylake counts L1i lines directly: no L2 code-read event needed. */
	CHECK_EQ_U64(pmu.nr_missing, 1);
	CHECK(is_missing(PMU_L2_CODE_READS, "no such event"));
	check_names(0, n0, 6);
	check_names(1, n1, 4);

	rec_reset(&rec);
	CHECK_EQ_U64(pmu_start_group(&pmu, 0), 0);
	CHECK_WRITES(&rec, g0);
	rec_reset(&rec);
	pmu_stop(&pmu);
	CHECK_WRITES(&rec, stop0);
	rec_reset(&rec);
	CHECK_EQ_U64(pmu_start_group(&pmu, 1), 0);
	CHECK_WRITES(&rec, g1);

	rec_reset(&rec);
	CHECK_EQ_U64(pmu_read(&pmu, v), 4);
	CHECK_EQ_U64(rec.rdpmc_ecx[0], RDPMC_FIXED | 1);	/* cycles */
	CHECK_EQ_U64(rec.rdpmc_ecx[1], RDPMC_FIXED | 0);	/* instr. */
	CHECK_EQ_U64(rec.rdpmc_ecx[2], 0);
	CHECK_EQ_U64(rec.rdpmc_ecx[3], 1);
	CHECK_EQ_U64(v[3], 0x4000);
	pmu_stop(&pmu);
	CHECK_EQ_U64(pmu_read(&pmu, v), -ENODEV);	/* nothing active */
}

/* Starting a group while another counts stops the first one. */
static void test_switch_groups(void)
{
	static const struct msr_write sw[] = {
		W(GCTL, 0), W(FCTL, 0), W(EVT(0), 0), W(EVT(1), 0),
		W(EVT(2), 0), W(EVT(3), 0),		/* stop group 0 */
		W(GCTL, 0),
		W(PMC(0), 0), W(EVT(0), 0x4300c5),
		W(PMC(1), 0), W(EVT(1), 0x0443019c),
		W(MSR_IA32_FIXED_CTR1, 0), W(MSR_IA32_FIXED_CTR0, 0),
		W(FCTL, 0x33), W(GCTL, 0x300000003ULL),
	};

	setup(&cpu_skylake);
	CHECK_EQ_U64(pmu_start_group(&pmu, 0), 0);
	rec_reset(&rec);
	CHECK_EQ_U64(pmu_start_group(&pmu, 1), 0);
	CHECK_WRITES(&rec, sw);
	CHECK_EQ_U64(pmu_start_group(&pmu, 2), -EINVAL);
	CHECK_EQ_U64(pmu_start_group(&pmu, -1), -EINVAL);
}

static void test_icelake(void)
{
	static const struct msr_write g0[] = {
		W(GCTL, 0),
		W(PMC(0), 0), W(EVT(0), 0x430879),
		W(PMC(1), 0), W(EVT(1), 0x430479),
		W(PMC(2), 0), W(EVT(2), 0x430283),
		W(PMC(3), 0), W(EVT(3), 0x430e85),
		W(PMC(4), 0), W(EVT(4), 0x4300c5),
		W(PMC(5), 0), W(EVT(5), 0x0543019c),	/* cmask 5 */
		W(MSR_IA32_FIXED_CTR1, 0), W(MSR_IA32_FIXED_CTR0, 0),
		W(FCTL, 0x33), W(GCTL, 0x30000003fULL),
	};
	static const char *const n0[] = { "cycles", "instructions",
		"uops_dsb", "uops_mite", "l1i_misses", "itlb_misses",
		"branch_misses", "fe_stalls" };

	CHECK_EQ_U64(setup(&cpu_icelake), 0);
	CHECK_STR(ci.uarch_name, "icelake");
	CHECK_EQ_U64(rec.nw, 2 + 8);	/* global, fixed, 8 event selects */
	CHECK_EQ_U64(pmu_num_groups(&pmu), 1);
	check_names(0, n0, 8);
	rec_reset(&rec);
	CHECK_EQ_U64(pmu_start_group(&pmu, 0), 0);
	CHECK_WRITES(&rec, g0);
}

static void test_sapphirerapids(void)
{
	static const struct msr_write g0[] = {
		W(GCTL, 0),
		W(PMC(0), 0), W(EVT(0), 0x430879),
		W(PMC(1), 0), W(EVT(1), 0x430479),
		W(PMC(2), 0), W(EVT(2), 0x4301c6),	/* FRONTEND_RETIRED */
		W(PMC(3), 0), W(EVT(3), 0x430e11),	/* ITLB walks */
		W(PMC(4), 0), W(EVT(4), 0x4300c5),
		W(PMC(5), 0), W(EVT(5), 0x0643019c),	/* cmask 6 */
		W(PMC(6), 0), W(EVT(6), 0x43e424),	/* L2 code reads */
		W(MSR_PEBS_FRONTEND, 0x12),		/* .L1I_MISS */
		W(MSR_IA32_FIXED_CTR1, 0), W(MSR_IA32_FIXED_CTR0, 0),
		W(FCTL, 0x33), W(GCTL, 0x30000007fULL),
	};
	static const struct msr_write stop0[] = {
		W(GCTL, 0), W(FCTL, 0),
		W(EVT(0), 0), W(EVT(1), 0), W(EVT(2), 0), W(EVT(3), 0),
		W(EVT(4), 0), W(EVT(5), 0), W(EVT(6), 0),
		W(MSR_PEBS_FRONTEND, 0),
	};

	CHECK_EQ_U64(setup(&cpu_sapphirerapids), 0);
	CHECK_STR(ci.uarch_name, "sapphirerapids");
	CHECK_EQ_U64(pmu_num_groups(&pmu), 1);
	CHECK_STR(pmu.groups[0].slot[4].hw_name, "FRONTEND_RETIRED.L1I_MISS");
	CHECK_STR(pmu.groups[0].slot[8].hw_name, "L2_RQSTS.ALL_CODE_RD");
	rec_reset(&rec);
	CHECK_EQ_U64(pmu_start_group(&pmu, 0), 0);
	CHECK_WRITES(&rec, g0);
	rec_reset(&rec);
	pmu_stop(&pmu);
	CHECK_WRITES(&rec, stop0);
}

/* Zen 2 and Zen 3 differ only in two encodings: share the check. */
static void check_zen_groups(u64 l1i, u64 itlb)
{
	const struct msr_write g0[] = {
		W(CTR(0), 0), W(CTL(0), 0x430076),	/* cycles */
		W(CTR(1), 0), W(CTL(1), 0x4300c0),	/* instructions */
		W(CTR(2), 0), W(CTL(2), 0x4302aa),	/* op cache */
		W(CTR(3), 0), W(CTL(3), 0x4301aa),	/* decoder */
		W(CTR(4), 0), W(CTL(4), l1i),
		W(CTR(5), 0), W(CTL(5), itlb),
	};
	static const struct msr_write g1[] = {
		W(CTR(0), 0), W(CTL(0), 0x430076),
		W(CTR(1), 0), W(CTL(1), 0x4300c0),
		W(CTR(2), 0), W(CTL(2), 0x4300c3),	/* branch misses */
		W(CTR(3), 0), W(CTL(3), 0x4300a9),	/* op queue empty */
	};
	static const struct msr_write stop1[] = {
		W(CTL(0), 0), W(CTL(1), 0), W(CTL(2), 0), W(CTL(3), 0),
	};

	CHECK_EQ_U64(pmu_num_groups(&pmu), 2);
	rec_reset(&rec);
	CHECK_EQ_U64(pmu_start_group(&pmu, 0), 0);
	CHECK_WRITES(&rec, g0);
	rec_reset(&rec);
	CHECK_EQ_U64(pmu_start_group(&pmu, 1), 0);
	CHECK_EQ_U64(rec.nw, 6 + 8);	/* stop of group 0, then group 1 */
	rec_drop(&rec, 6);
	CHECK_WRITES(&rec, g1);
	rec_reset(&rec);
	pmu_stop(&pmu);
	CHECK_WRITES(&rec, stop1);
}

static void test_zen2(void)
{
	static const struct msr_write init[] = {
		W(CTL(0), 0), W(CTL(1), 0), W(CTL(2), 0), W(CTL(3), 0),
		W(CTL(4), 0), W(CTL(5), 0),
	};
	static const char *const n1[] = { "cycles", "instructions",
		"branch_misses", "fe_stalls" };

	CHECK_EQ_U64(setup(&cpu_zen2), 0);
	CHECK_STR(ci.uarch_name, "zen2");
	CHECK(ci.pmu.amd_core_ext && !ci.pmu.amd_perfmon_v2);
	CHECK_WRITES(&rec, init);
	CHECK_EQ_U64(rec.rdpmc_ecx[0], 0);	/* probe: GP counter 0 */
	check_names(1, n1, 4);
	check_zen_groups(0x430081, 0x430785);
}

static void test_zen3(void)
{
	CHECK_EQ_U64(setup(&cpu_zen3), 0);
	CHECK_STR(ci.uarch_name, "zen3");
	/* event 0x18e: bits [11:8] land in PERF_CTL[35:32] */
	check_zen_groups(0x10043188eULL, 0x430f85);
}

static void test_zen4(void)
{
	static const struct msr_write init[] = {
		W(AMD_GCTL, 0), W(CTL(0), 0), W(CTL(1), 0), W(CTL(2), 0),
		W(CTL(3), 0), W(CTL(4), 0), W(CTL(5), 0),
	};
	static const struct msr_write g1[] = {
		W(AMD_GCTL, 0),
		W(CTR(0), 0), W(CTL(0), 0x430076),
		W(CTR(1), 0), W(CTL(1), 0x4300c0),
		W(CTR(2), 0), W(CTL(2), 0x4300c3),
		W(CTR(3), 0), W(CTL(3), 0x1064301a0ULL),	/* 0x1a0, cmask 6 */
		W(AMD_GCTL, 0x0f),
	};
	static const struct msr_write stop1[] = {
		W(AMD_GCTL, 0), W(CTL(0), 0), W(CTL(1), 0), W(CTL(2), 0),
		W(CTL(3), 0),
	};

	CHECK_EQ_U64(setup(&cpu_zen4), 0);
	CHECK_STR(ci.uarch_name, "zen4");
	CHECK(ci.pmu.amd_perfmon_v2);
	CHECK_EQ_U64(ci.pmu.amd_num_counters, 6);
	CHECK_WRITES(&rec, init);
	CHECK_EQ_U64(pmu_num_groups(&pmu), 2);
	CHECK_EQ_U64(pmu.groups[0].slot[4].evtsel, 0x10043188eULL);
	CHECK_EQ_U64(pmu.groups[0].slot[5].evtsel, 0x430f85);
	rec_reset(&rec);
	CHECK_EQ_U64(pmu_start_group(&pmu, 1), 0);
	CHECK_WRITES(&rec, g1);
	rec_reset(&rec);
	pmu_stop(&pmu);
	CHECK_WRITES(&rec, stop1);
	rec_reset(&rec);
	pmu_stop(&pmu);			/* twice: no second set of writes */
	CHECK_EQ_U64(rec.nw, 0);
}

/* Zen 5: Zen 4's layout and encodings, but the front-end stall count
 * takes CounterMask 8 (8-wide dispatch). */
static void test_zen5(void)
{
	static const struct msr_write g1[] = {
		W(AMD_GCTL, 0),
		W(CTR(0), 0), W(CTL(0), 0x430076),
		W(CTR(1), 0), W(CTL(1), 0x4300c0),
		W(CTR(2), 0), W(CTL(2), 0x4300c3),
		W(CTR(3), 0), W(CTL(3), 0x1084301a0ULL),	/* 0x1a0, cmask 8 */
		W(AMD_GCTL, 0x0f),
	};

	CHECK_EQ_U64(setup(&cpu_zen5), 0);
	CHECK_STR(ci.uarch_name, "zen5");
	CHECK(ci.pmu.amd_perfmon_v2);
	CHECK_EQ_U64(ci.pmu.amd_num_counters, 6);
	CHECK_EQ_U64(pmu_num_groups(&pmu), 2);
	CHECK_EQ_U64(pmu.groups[0].slot[2].evtsel, 0x4302aa);	/* op cache */
	CHECK_EQ_U64(pmu.groups[0].slot[3].evtsel, 0x4301aa);	/* decoder */
	CHECK_EQ_U64(pmu.groups[0].slot[4].evtsel, 0x10043188eULL);
	CHECK_EQ_U64(pmu.groups[0].slot[5].evtsel, 0x430f85);
	CHECK_STR(pmu.groups[1].slot[3].hw_name,
		  "de_no_dispatch_per_slot.no_ops_from_frontend");
	rec_reset(&rec);
	CHECK_EQ_U64(pmu_start_group(&pmu, 1), 0);
	CHECK_WRITES(&rec, g1);
}

/* Redwood Cove (Meteor Lake, Granite Rapids) and Lion Cove (Arrow Lake,
 * Lunar Lake) start from Golden Cove's events: FRONTEND_RETIRED.L1I_MISS
 * takes umask 3 on both. */
static void setup_intel_model(u32 leaf1, const char *uarch)
{
	struct fake_cpu c = cpu_sapphirerapids;

	c.l1[0] = leaf1;
	CHECK_EQ_U64(setup(&c), 0);
	CHECK_STR(ci.uarch_name, uarch);
	CHECK_EQ_U64(pmu.nr_missing, 0);
	rec_reset(&rec);
	CHECK_EQ_U64(pmu_start_group(&pmu, 0), 0);
}

/* Redwood Cove: the L2 code reads join ITLB and IDQ on counters 0-3, so
 * they fill a second group; the 0-uops cycles keep CounterMask 6. */
static void test_redwood_cove(void)
{
	static const struct msr_write g0[] = {
		W(GCTL, 0),
		W(PMC(0), 0), W(EVT(0), 0x430879),
		W(PMC(1), 0), W(EVT(1), 0x430479),
		W(PMC(2), 0), W(EVT(2), 0x4303c6),	/* umask 3 */
		W(PMC(3), 0), W(EVT(3), 0x430e11),
		W(PMC(4), 0), W(EVT(4), 0x4300c5),
		W(PMC(5), 0), W(EVT(5), 0x0643019c),	/* cmask 6 */
		W(MSR_PEBS_FRONTEND, 0x12),
		W(MSR_IA32_FIXED_CTR1, 0), W(MSR_IA32_FIXED_CTR0, 0),
		W(FCTL, 0x33), W(GCTL, 0x30000003fULL),
	};
	static const u32 leaf1[] = { 0x000a06a4, 0x000a06d1 };
	static const char *const name[] = { "meteorlake", "graniterapids" };
	size_t i;

	for (i = 0; i < 2; i++) {
		setup_intel_model(leaf1[i], name[i]);
		CHECK_WRITES(&rec, g0);
		CHECK_EQ_U64(pmu_num_groups(&pmu), 2);
		CHECK_STR(pmu.groups[1].slot[2].hw_name,
			  "L2_RQSTS.ALL_CODE_RD");
	}
}

/* Lion Cove: every event on any counter, so one group; allocation is 8
 * wide, and the 0-uops cycles are IDQ_BUBBLES.STARVATION_CYCLES with
 * CounterMask 8. */
static void test_lion_cove(void)
{
	static const struct msr_write g0[] = {
		W(GCTL, 0),
		W(PMC(0), 0), W(EVT(0), 0x430879),
		W(PMC(1), 0), W(EVT(1), 0x430479),
		W(PMC(2), 0), W(EVT(2), 0x4303c6),
		W(PMC(3), 0), W(EVT(3), 0x430e11),
		W(PMC(4), 0), W(EVT(4), 0x4300c5),
		W(PMC(5), 0), W(EVT(5), 0x0843019c),	/* cmask 8 */
		W(PMC(6), 0), W(EVT(6), 0x43e424),
		W(MSR_PEBS_FRONTEND, 0x12),
		W(MSR_IA32_FIXED_CTR1, 0), W(MSR_IA32_FIXED_CTR0, 0),
		W(FCTL, 0x33), W(GCTL, 0x30000007fULL),
	};
	static const u32 leaf1[] = { 0x000c0662, 0x000b06d1 };
	static const char *const name[] = { "arrowlake", "lunarlake" };
	size_t i;

	for (i = 0; i < 2; i++) {
		setup_intel_model(leaf1[i], name[i]);
		CHECK_WRITES(&rec, g0);
		CHECK_EQ_U64(pmu_num_groups(&pmu), 1);
		CHECK_STR(pmu.groups[0].slot[7].hw_name,
			  "IDQ_BUBBLES.STARVATION_CYCLES");
	}
}

/* Every entry point must be harmless on a PMU that did not come up. */
static void check_dead_pmu(void)
{
	const char *names[4] = { 0 };
	u32 ecx[4];
	u64 v[4];

	CHECK(!pmu.available);
	CHECK(pmu.reason[0] != '\0');
	CHECK_EQ_U64(pmu_num_groups(&pmu), 0);
	CHECK_EQ_U64(pmu_group_counters(&pmu, 0, names, 4), 0);
	CHECK_EQ_U64(pmu_group_rdpmc(&pmu, 0, ecx, 4), 0);
	CHECK_EQ_U64(pmu_start_group(&pmu, 0), -ENODEV);
	CHECK_EQ_U64(pmu_read(&pmu, v), -ENODEV);
	CHECK_EQ_U64(pmu_delta(&pmu, 0, 0, 5, 12), 7);
	pmu_stop(&pmu);
}

static void test_qemu_tcg_amd(void)
{
	static const struct msr_write init[] = {
		W(MSR_K7_EVNTSEL0, 0), W(MSR_K7_EVNTSEL0 + 1, 0),
		W(MSR_K7_EVNTSEL0 + 2, 0), W(MSR_K7_EVNTSEL0 + 3, 0),
	};

	detect(&cpu_qemu64_tcg);
	rec.rdpmc_vector = X86_VEC_UD;
	CHECK_EQ_U64(pmu_init(&pmu, &ci, &ops), -ENODEV);
	CHECK_STR(ci.hypervisor, "TCGTCGTCGTCG");
	CHECK_STR(ci.uarch_name, "unknown");
	CHECK_WRITES(&rec, init);		/* legacy K7 layout */
	CHECK(strstr(pmu.reason, "rdpmc raised #UD") != NULL);
	check_dead_pmu();
}

static void test_qemu_tcg_intel(void)
{
	CHECK_EQ_U64(setup(&cpu_intel_tcg), -ENODEV);
	CHECK_STR(pmu.reason, "CPUID.0AH reports architectural perfmon "
		  "version 0 (no PMU: QEMU TCG or a hypervisor that hides it)");
	CHECK_EQ_U64(rec.nw, 0);		/* never touched an MSR */
	CHECK_EQ_U64(rec.nrdpmc, 0);
	check_dead_pmu();
}

static void test_kvm_hidden_amd(void)
{
	CHECK_EQ_U64(setup(&cpu_zen3_kvm_nopmu), -ENODEV);
	CHECK(strstr(pmu.reason, "PerfCtrExtCore") != NULL);
	CHECK(strstr(pmu.reason, "family 19h") != NULL);
	CHECK_EQ_U64(rec.nw, 0);
	check_dead_pmu();
}

static void test_rdpmc_faults(void)
{
	detect(&cpu_skylake);
	rec.rdpmc_vector = X86_VEC_GP;
	CHECK_EQ_U64(pmu_init(&pmu, &ci, &ops), -ENODEV);
	CHECK(strstr(pmu.reason, "rdpmc raised #GP on counter 0x40000001"));
	check_dead_pmu();

	/* A backend without fault_vector still gives a reason. */
	detect(&cpu_skylake);
	rec.rdpmc_vector = X86_VEC_UD;
	ops.fault_vector = NULL;
	CHECK_EQ_U64(pmu_init(&pmu, &ci, &ops), -ENODEV);
	CHECK(strstr(pmu.reason, "rdpmc raised a fault") != NULL);
	check_dead_pmu();
}

static void test_wrmsr_faults(void)
{
	detect(&cpu_skylake);
	rec.gp_on_write = MSR_IA32_PERFEVTSEL0;
	CHECK_EQ_U64(pmu_init(&pmu, &ci, &ops), -ENODEV);
	CHECK_STR(pmu.reason,
		  "wrmsr to IA32_PERFEVTSEL0 (0x186) raised #GP");
	check_dead_pmu();

	/* A fault while starting a group: error named, group torn down,
	 * the PMU stays usable for the other groups. */
	CHECK_EQ_U64(setup(&cpu_sapphirerapids), 0);
	rec.gp_on_write = MSR_PEBS_FRONTEND;
	CHECK_EQ_U64(pmu_start_group(&pmu, 0), -EFAULT);
	CHECK_STR(pmu.error,
		  "wrmsr to MSR_PEBS_FRONTEND (0x3f7) raised #GP");
	CHECK_EQ_U64(pmu.active, -1);
	CHECK(pmu.available);
	CHECK_EQ_U64(rec.w[rec.nw - 1].msr, MSR_IA32_PERFEVTSEL0 + 6);
	CHECK_EQ_U64(rec.w[rec.nw - 1].val, 0);
}

static void test_rdpmc_fault_while_reading(void)
{
	u64 v[PMU_MAX_SLOTS];

	setup(&cpu_zen2);
	CHECK_EQ_U64(pmu_start_group(&pmu, 0), 0);
	rec.rdpmc_vector = X86_VEC_GP;
	CHECK_EQ_U64(pmu_read(&pmu, v), -EFAULT);
	CHECK_STR(pmu.error, "rdpmc of counter 0x0 raised #GP");
}

/* An Intel CPU whose PMU has no counter at all (odd hypervisors). */
static void test_zero_counters(void)
{
	struct fake_cpu c = cpu_skylake;

	c.la[0] = 0x07300002;	/* version 2, 0 GP counters */
	c.la[3] = 0;		/* 0 fixed counters */
	CHECK_EQ_U64(setup(&c), -ENODEV);
	CHECK(strstr(pmu.reason, "no usable counter") != NULL);
	CHECK_EQ_U64(rec.nrdpmc, 0);
	check_dead_pmu();

	/* Fixed counters only: cycles and instructions, nothing else. */
	c.la[3] = 0x603;
	CHECK_EQ_U64(setup(&c), 0);
	CHECK_EQ_U64(pmu_num_groups(&pmu), 1);
	CHECK_EQ_U64(pmu.groups[0].nr, 2);
	CHECK_EQ_U64(pmu.nr_missing, 7);
	CHECK(is_missing(PMU_UOPS_DSB, "no general-purpose counter"));
	CHECK(is_missing(PMU_BRANCH_MISSES, "no general-purpose counter"));
}

/* Version 1 PMU (no fixed, no global control): cycles and instructions
 * move to GP counters and every group still starts with them. */
static void test_intel_v1(void)
{
	struct fake_cpu c = cpu_skylake;
	static const struct msr_write g1[] = {
		W(PMC(0), 0), W(EVT(0), 0x43003c),	/* cycles */
		W(PMC(1), 0), W(EVT(1), 0x4300c0),	/* instructions */
		W(PMC(2), 0), W(EVT(2), 0x4300c5),
		W(PMC(3), 0), W(EVT(3), 0x0443019c),
	};

	c.la[0] = 0x07300401;
	CHECK_EQ_U64(setup(&c), 0);
	CHECK_EQ_U64(rec.nw, 4);		/* 4 event selects only */
	CHECK_EQ_U64(rec.rdpmc_ecx[0], 0);
	CHECK_EQ_U64(pmu_num_groups(&pmu), 3);	/* 2 free GP per group */
	rec_reset(&rec);
	pmu_start_group(&pmu, 0);
	rec_reset(&rec);
	CHECK_EQ_U64(pmu_start_group(&pmu, 2), 0);
	/* the 4 stop writes of group 0, then group 2 */
	CHECK_EQ_U64(rec.nw, 4 + 8);
	rec_drop(&rec, 4);
	CHECK_WRITES(&rec, g1);
}

/* Unknown model: architectural events only, the rest reported. */
static void test_unknown_intel(void)
{
	struct fake_cpu c = cpu_skylake;
	static const char *const n0[] = { "cycles", "instructions",
		"branch_misses" };

	c.l1[0] = 0x000a06f0;	/* family 6 model 0xaf: in no table */
	CHECK_EQ_U64(setup(&c), 0);
	CHECK_STR(ci.uarch_name, "unknown");
	CHECK_EQ_U64(pmu_num_groups(&pmu), 1);
	check_names(0, n0, 3);
	CHECK_EQ_U64(pmu.nr_missing, 6);
	CHECK(is_missing(PMU_L1I_MISSES, "architectural events only"));
	CHECK(is_missing(PMU_FE_STALLS, "architectural events only"));

	/* CPUID.0AH:EBX bit 6 set: no branch-miss event either. */
	c.la[1] = 1U << 6;
	setup(&c);
	CHECK(is_missing(PMU_BRANCH_MISSES, "CPUID.0AH:EBX"));
	CHECK_EQ_U64(pmu.groups[0].nr, 2);
}

/* Alder Lake booted on an E-core: P-core events would be wrong there. */
static void test_hybrid_ecore(void)
{
	struct fake_cpu c = cpu_icelake;

	c.l1[0] = 0x00090675;	/* family 6 model 0x97 */
	c.l7_edx = 1U << 15;	/* hybrid */
	c.max_leaf = 0x20;
	c.l1a_eax = (u32)CPU_CORE_TYPE_ATOM << 24;
	CHECK_EQ_U64(setup(&c), 0);
	CHECK_STR(ci.uarch_name, "alderlake");
	CHECK_EQ_U64(ci.core_type, CPU_CORE_TYPE_ATOM);
	CHECK(pmu.table == NULL);
	CHECK(is_missing(PMU_UOPS_DSB, "architectural events only"));

	c.l1a_eax = (u32)CPU_CORE_TYPE_CORE << 24;
	CHECK_EQ_U64(setup(&c), 0);
	CHECK(pmu.table != NULL);
	CHECK_EQ_U64(pmu.groups[0].frontend, 0x12);
}

static void test_delta_wraps(void)
{
	setup(&cpu_skylake);
	/* 48-bit counters: a wrap between start and end still subtracts. */
	CHECK_EQ_U64(pmu_delta(&pmu, 0, 2, 0xfffffffffff0ULL, 0x10), 0x20);
	CHECK_EQ_U64(pmu_delta(&pmu, 0, 0, 100, 250), 150);
	CHECK_STR(pmu_counter_name(PMU_FE_STALLS), "fe_stalls");
	CHECK_STR(pmu_counter_name(99), "?");
}

/* Every listed microarchitecture has a table with all five front-end
 * events (Golden Cove and its successors a sixth: L2 code reads, for L1i
 * lines), and the GP-only constraint never excludes every counter. */
static void test_tables(void)
{
	static const enum cpu_uarch all[] = {
		UARCH_SANDYBRIDGE, UARCH_IVYBRIDGE, UARCH_HASWELL,
		UARCH_BROADWELL, UARCH_SKYLAKE, UARCH_ICELAKE,
		UARCH_TIGERLAKE, UARCH_ALDERLAKE, UARCH_SAPPHIRERAPIDS,
		UARCH_METEORLAKE, UARCH_GRANITERAPIDS, UARCH_ARROWLAKE,
		UARCH_LUNARLAKE, UARCH_ZEN2, UARCH_ZEN3, UARCH_ZEN4, UARCH_ZEN5,
	};
	size_t i;

	for (i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		const struct pmu_event_table *t = pmu_event_table(all[i]);

		CHECK(t != NULL);
		if (t) {
			bool glc = all[i] >= UARCH_ALDERLAKE &&
				   all[i] <= UARCH_LUNARLAKE;

			CHECK_EQ_U64(t->nr, glc ? 6 : 5);
			CHECK(t->source && t->source[0]);
		}
	}
	CHECK(pmu_event_table(UARCH_UNKNOWN) == NULL);
	CHECK(pmu_event_table(UARCH_ZEN) == NULL);
}

int main(void)
{
	test_skylake();
	test_switch_groups();
	test_icelake();
	test_sapphirerapids();
	test_zen2();
	test_zen3();
	test_zen4();
	test_zen5();
	test_redwood_cove();
	test_lion_cove();
	test_qemu_tcg_amd();
	test_qemu_tcg_intel();
	test_kvm_hidden_amd();
	test_rdpmc_faults();
	test_wrmsr_faults();
	test_rdpmc_fault_while_reading();
	test_zero_counters();
	test_intel_v1();
	test_unknown_intel();
	test_hybrid_ecore();
	test_delta_wraps();
	test_tables();
	return check_report("test_pmu");
}
