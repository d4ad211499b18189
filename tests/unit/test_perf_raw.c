/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Host tests of the host harness's front-end group (host/perf_raw.c): for
 * each CPUID signature, which of the kernel's table events it asks perf
 * for, and the exact raw config of each, as `perf stat -e
 * cpu/event=E,umask=U,cmask=C/` would open it. No PMU is touched. */
#include <stdio.h>
#include <string.h>
#include <asm/cpu.h>
#include <asm/pmu.h>
#include "check.h"
#include "x86_fakes.h"
#include "../../host/host.h"

struct want {
	const char *name;
	u64 config;
};

/* The events for fake CPU @c and their configs, against @want. */
static void check_cpu(const struct fake_cpu *c, const char *uarch,
		      const struct want *want, int nwant)
{
	const struct pmu_event *ev[HOST_PERF_MAX];
	struct cpu_info ci;
	char why[160];
	int n;

	cpu_detect(&ci, fake_cpuid, (void *)c);
	CHECK_STR(ci.uarch_name, uarch);
	n = perf_frontend_events(&ci, ev, HOST_PERF_MAX, why, sizeof(why));
	CHECK_EQ_U64(n, nwant);
	CHECK_STR(why, "");
	for (int i = 0; i < n && i < nwant; i++) {
		u64 config = 0;

		CHECK_STR(pmu_counter_name(ev[i]->id), want[i].name);
		CHECK_EQ_U64(perf_raw_config(ci.vendor, ev[i], &config), 0);
		CHECK_EQ_U64(config, want[i].config);
	}
}

static void test_intel(void)
{
	static const struct want skl[] = {
		{ "uops_dsb", 0x0879 }, { "uops_mite", 0x0479 },
		{ "fe_stalls", 0x0400019c },		/* cmask 4 */
	};
	static const struct want spr[] = {
		{ "uops_dsb", 0x0879 }, { "uops_mite", 0x0479 },
		{ "fe_stalls", 0x0600019c },		/* cmask 6 */
		{ "l2_code_reads", 0xe424 },
	};
	static const struct want lnc[] = {
		{ "uops_dsb", 0x0879 }, { "uops_mite", 0x0479 },
		{ "fe_stalls", 0x0800019c },		/* cmask 8 */
		{ "l2_code_reads", 0xe424 },
	};
	struct fake_cpu arl = cpu_sapphirerapids;

	check_cpu(&cpu_skylake, "skylake", skl, 3);
	check_cpu(&cpu_sapphirerapids, "sapphirerapids", spr, 4);
	arl.l1[0] = 0x000c0662;			/* family 6 model 0xc6 */
	check_cpu(&arl, "arrowlake", lnc, 4);
}

static void test_amd(void)
{
	/* event 0x1a0: bits 11:8 go to config bits 35:32 */
	static const struct want zen4[] = {
		{ "uops_dsb", 0x02aa }, { "uops_mite", 0x01aa },
		{ "fe_stalls", 0x1060001a0ULL },	/* cmask 6 */
	};
	static const struct want zen5[] = {
		{ "uops_dsb", 0x02aa }, { "uops_mite", 0x01aa },
		{ "fe_stalls", 0x1080001a0ULL },	/* cmask 8 */
	};

	check_cpu(&cpu_zen4, "zen4", zen4, 3);
	check_cpu(&cpu_zen5, "zen5", zen5, 3);
}

/* No table (an unknown core, a hybrid part's E-core): nothing asked for,
 * and the reason says so. */
static void test_no_table(void)
{
	const struct pmu_event *ev[HOST_PERF_MAX];
	struct fake_cpu c = cpu_icelake;
	struct cpu_info ci;
	char why[160];

	c.l1[0] = 0x000a06f0;			/* family 6 model 0xaf */
	cpu_detect(&ci, fake_cpuid, &c);
	CHECK_EQ_U64(perf_frontend_events(&ci, ev, HOST_PERF_MAX, why,
					  sizeof(why)), 0);
	CHECK(strstr(why, "no event table for this microarchitecture "
			  "(unknown)") != NULL);

	c.l1[0] = 0x00090675;			/* Alder Lake */
	c.l7_edx = 1U << 15;			/* hybrid */
	c.max_leaf = 0x20;
	c.l1a_eax = (u32)CPU_CORE_TYPE_ATOM << 24;
	cpu_detect(&ci, fake_cpuid, &c);
	CHECK_EQ_U64(perf_frontend_events(&ci, ev, HOST_PERF_MAX, why,
					  sizeof(why)), 0);
	CHECK(strstr(why, "(alderlake, an E-core)") != NULL);
}

/* What needs more than config is refused, not half-encoded. */
static void test_refused(void)
{
	static const struct pmu_event fe = {
		.id = PMU_L1I_MISSES, .event = 0xc6, .umask = 0x01,
		.frontend = 0x12, .hw_name = "FRONTEND_RETIRED.L1I_MISS",
	};
	static const struct pmu_event wide = {
		.id = PMU_FE_STALLS, .event = 0x1a0, .umask = 0x01,
	};
	u64 config = 7;

	CHECK_EQ_U64(perf_raw_config(CPU_VENDOR_INTEL, &fe, &config), -1);
	CHECK_EQ_U64(perf_raw_config(CPU_VENDOR_INTEL, &wide, &config), -1);
	CHECK_EQ_U64(config, 7);
}

int main(void)
{
	test_intel();
	test_amd();
	test_no_table();
	test_refused();
	return check_report("test_perf_raw");
}
