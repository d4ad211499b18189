/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Host tests of CPU detection: identity, displayed family/model, brand,
 * hypervisor, feature bits, PMU capabilities, microarchitecture and the
 * TSC frequency each CPUID leaf gives. */
#include <stdio.h>
#include <string.h>
#include <asm/cpu.h>
#include "check.h"
#include "x86_fakes.h"

static struct cpu_info ci;

static void detect(const struct fake_cpu *c)
{
	cpu_detect(&ci, fake_cpuid, (void *)c);
}

static void test_skylake(void)
{
	detect(&cpu_skylake);
	CHECK_EQ_U64(ci.vendor, CPU_VENDOR_INTEL);
	CHECK_STR(ci.vendor_str, "GenuineIntel");
	CHECK_STR(ci.brand, "Intel(R) Core(TM) i7-6700K CPU @ 4.00GHz");
	CHECK_EQ_U64(ci.family, 6);
	CHECK_EQ_U64(ci.model, 0x5e);
	CHECK_EQ_U64(ci.stepping, 3);
	CHECK_STR(ci.uarch_name, "skylake");
	CHECK_STR(ci.hypervisor, "");
	CHECK(cpu_has(&ci, X86_FEATURE_TSC));
	CHECK(cpu_has(&ci, X86_FEATURE_INVARIANT_TSC));
	CHECK(cpu_has(&ci, X86_FEATURE_PDCM));
	CHECK(cpu_has(&ci, X86_FEATURE_X2APIC));
	CHECK(cpu_has(&ci, X86_FEATURE_TSC_DEADLINE));
	CHECK(cpu_has(&ci, X86_FEATURE_NX));
	CHECK(!cpu_has(&ci, X86_FEATURE_HYPERVISOR));
	CHECK(!cpu_has(&ci, X86_FEATURE_PERFCTR_CORE));
	CHECK_EQ_U64(ci.pmu.version, 4);
	CHECK_EQ_U64(ci.pmu.num_gp, 4);
	CHECK_EQ_U64(ci.pmu.gp_width, 48);
	CHECK_EQ_U64(ci.pmu.num_fixed, 3);
	CHECK_EQ_U64(ci.pmu.fixed_width, 48);
	CHECK_EQ_U64(ci.pmu.fixed_mask, 7);
	/* EBX length 7: all 7 events there, bits 7.. count as missing */
	CHECK_EQ_U64(ci.pmu.events_unavail, 0xffffff80);
	/* leaf 0x15 without crystal: 24 MHz for client Skylake */
	CHECK_EQ_U64(ci.tsc_hz, 24000000ULL * 334 / 2);
	CHECK_STR(ci.tsc_source, "cpuid15+model-crystal");
	CHECK_STR(cpu_feature_name(X86_FEATURE_INVARIANT_TSC),
		  "invariant_tsc");
}

static void test_icelake_sapphire(void)
{
	detect(&cpu_icelake);
	CHECK_EQ_U64(ci.model, 0x7e);
	CHECK(cpu_has(&ci, X86_FEATURE_ERMS));
	CHECK(cpu_has(&ci, X86_FEATURE_FSRM));
	CHECK_STR(cpu_feature_name(X86_FEATURE_FSRM), "fsrm");
	CHECK(!cpu_has(&ci, X86_FEATURE_FSRS));
	CHECK_STR(ci.uarch_name, "icelake");
	CHECK_EQ_U64(ci.pmu.version, 5);
	CHECK_EQ_U64(ci.pmu.num_gp, 8);
	CHECK_EQ_U64(ci.pmu.num_fixed, 4);
	CHECK_EQ_U64(ci.tsc_hz, 1497600000ULL);
	CHECK_STR(ci.tsc_source, "cpuid15");

	detect(&cpu_sapphirerapids);
	CHECK_EQ_U64(ci.model, 0x8f);
	CHECK_EQ_U64(ci.stepping, 8);
	CHECK_STR(ci.uarch_name, "sapphirerapids");
	CHECK_STR(ci.brand, "Intel(R) Xeon(R) Platinum 8480+");
	CHECK_EQ_U64(ci.tsc_hz, 2000000000ULL);
	CHECK(cpu_has(&ci, X86_FEATURE_FSRM));
	CHECK(cpu_has(&ci, X86_FEATURE_FSRS));
	CHECK_STR(cpu_feature_name(X86_FEATURE_FSRS), "fsrs");

	/* 7.1 is read only when 7.0 EAX says it exists */
	struct fake_cpu c = cpu_sapphirerapids;

	c.l7_eax = 0;
	detect(&c);
	CHECK(cpu_has(&ci, X86_FEATURE_FSRM));
	CHECK(!cpu_has(&ci, X86_FEATURE_FSRS));
}

static void test_amd(void)
{
	detect(&cpu_zen2);
	CHECK_EQ_U64(ci.vendor, CPU_VENDOR_AMD);
	CHECK_EQ_U64(ci.family, 0x17);
	CHECK_EQ_U64(ci.model, 0x71);
	CHECK_STR(ci.uarch_name, "zen2");
	CHECK(cpu_has(&ci, X86_FEATURE_PERFCTR_CORE));
	CHECK_EQ_U64(ci.pmu.amd_num_counters, 6);
	CHECK_EQ_U64(ci.pmu.version, 0);
	/* AMD has no leaf 0x15/0x16: left for PIT calibration */
	CHECK_EQ_U64(ci.tsc_hz, 0);
	CHECK_STR(ci.tsc_source, "none");

	detect(&cpu_zen3);
	CHECK_EQ_U64(ci.family, 0x19);
	CHECK_EQ_U64(ci.model, 0x21);
	CHECK_STR(ci.uarch_name, "zen3");
	CHECK(!ci.pmu.amd_perfmon_v2);

	detect(&cpu_zen4);
	CHECK_EQ_U64(ci.model, 0x61);
	CHECK_EQ_U64(ci.stepping, 2);
	CHECK_STR(ci.uarch_name, "zen4");
	CHECK(cpu_has(&ci, X86_FEATURE_PERFMON_V2));
}

static void test_hypervisors(void)
{
	detect(&cpu_qemu64_tcg);
	CHECK_EQ_U64(ci.family, 0xf);
	CHECK_EQ_U64(ci.model, 0x6b);
	CHECK_STR(ci.hypervisor, "TCGTCGTCGTCG");
	CHECK_EQ_U64(ci.max_hv_leaf, 0x40000001);
	CHECK_STR(ci.brand, "QEMU Virtual CPU version 2.5+");
	CHECK(!cpu_has(&ci, X86_FEATURE_PERFCTR_CORE));
	CHECK(!cpu_has(&ci, X86_FEATURE_INVARIANT_TSC));
	CHECK_STR(ci.uarch_name, "unknown");

	detect(&cpu_intel_tcg);
	CHECK_EQ_U64(ci.pmu.version, 0);
	CHECK_EQ_U64(ci.pmu.num_gp, 0);

	/* KVM: the timing leaf gives the TSC rate in kHz. */
	detect(&cpu_zen3_kvm_nopmu);
	CHECK_STR(ci.hypervisor, "KVMKVMKVM");
	CHECK_EQ_U64(ci.tsc_hz, 3400000000ULL);
	CHECK_STR(ci.tsc_source, "cpuid40000010");
	CHECK_STR(ci.uarch_name, "zen3");
}

/* No hypervisor bit: leaf 0x40000000 must not be read even if present. */
static void test_no_hv_bit(void)
{
	struct fake_cpu c = cpu_skylake;

	c.hv = "KVMKVMKVM\0\0\0";
	c.max_hv = 0x40000010;
	c.hv10_eax = 1000000;
	detect(&c);
	CHECK_STR(ci.hypervisor, "");
	CHECK_EQ_U64(ci.max_hv_leaf, 0);
	CHECK_STR(ci.tsc_source, "cpuid15+model-crystal");
}

static void test_tsc_fallbacks(void)
{
	struct fake_cpu c = cpu_sapphirerapids;

	c.l15[2] = 0;		/* no crystal, model not in the table */
	detect(&c);
	CHECK_EQ_U64(ci.tsc_hz, 2000000000ULL);
	CHECK_STR(ci.tsc_source, "cpuid16");

	c.max_leaf = 0x14;	/* neither leaf */
	detect(&c);
	CHECK_EQ_U64(ci.tsc_hz, 0);
	CHECK_STR(ci.tsc_source, "none");

	c = cpu_skylake;
	c.l1[3] &= ~(1U << 4);	/* no TSC at all */
	detect(&c);
	CHECK_EQ_U64(ci.tsc_hz, 0);
	CHECK_STR(ci.tsc_source, "none");
}

/* Intel returns the highest basic leaf for leaves above the maximum: a
 * max leaf of 7 must hide leaf 0xa even if the table answers it. */
static void test_leaf_limits(void)
{
	struct fake_cpu c = cpu_skylake;

	c.max_leaf = 7;
	detect(&c);
	CHECK_EQ_U64(ci.pmu.version, 0);
	c.max_ext = 0x80000001;	/* no brand leaves */
	detect(&c);
	CHECK_STR(ci.brand, "");
	CHECK(!cpu_has(&ci, X86_FEATURE_INVARIANT_TSC));
	CHECK(cpu_has(&ci, X86_FEATURE_NX));
}

static void test_uarch_table(void)
{
	static const struct {
		enum cpu_vendor v;
		u32 family, model;
		const char *name;
	} cases[] = {
		{ CPU_VENDOR_INTEL, 6, 0x2a, "sandybridge" },
		{ CPU_VENDOR_INTEL, 6, 0x3e, "ivybridge" },
		{ CPU_VENDOR_INTEL, 6, 0x3c, "haswell" },
		{ CPU_VENDOR_INTEL, 6, 0x4f, "broadwell" },
		{ CPU_VENDOR_INTEL, 6, 0x9e, "skylake" },	/* Coffee Lake */
		{ CPU_VENDOR_INTEL, 6, 0xa5, "skylake" },	/* Comet Lake */
		{ CPU_VENDOR_INTEL, 6, 0x6a, "icelake" },
		{ CPU_VENDOR_INTEL, 6, 0x8c, "tigerlake" },
		{ CPU_VENDOR_INTEL, 6, 0x97, "alderlake" },
		{ CPU_VENDOR_INTEL, 6, 0xcf, "sapphirerapids" },
		{ CPU_VENDOR_INTEL, 6, 0x1a, "unknown" },	/* Nehalem */
		{ CPU_VENDOR_INTEL, 0x19, 0x21, "unknown" },
		{ CPU_VENDOR_AMD, 0x17, 0x01, "zen" },
		{ CPU_VENDOR_AMD, 0x17, 0x31, "zen2" },
		/* Linux counts family 17h models 50h-5fh as Zen 1. */
		{ CPU_VENDOR_AMD, 0x17, 0x50, "zen" },
		{ CPU_VENDOR_AMD, 0x17, 0x5f, "zen" },
		{ CPU_VENDOR_AMD, 0x17, 0x60, "zen2" },
		{ CPU_VENDOR_AMD, 0x17, 0x90, "zen2" },
		{ CPU_VENDOR_AMD, 0x17, 0xa0, "zen2" },
		{ CPU_VENDOR_AMD, 0x19, 0x01, "zen3" },
		{ CPU_VENDOR_AMD, 0x19, 0x50, "zen3" },
		{ CPU_VENDOR_AMD, 0x19, 0x11, "zen4" },
		{ CPU_VENDOR_AMD, 0x19, 0x74, "zen4" },
		{ CPU_VENDOR_INTEL, 6, 0xaa, "meteorlake" },
		{ CPU_VENDOR_INTEL, 6, 0xb5, "meteorlake" },	/* Arrow Lake-U */
		{ CPU_VENDOR_INTEL, 6, 0xae, "graniterapids" },
		{ CPU_VENDOR_INTEL, 6, 0xc6, "arrowlake" },
		{ CPU_VENDOR_INTEL, 6, 0xbd, "lunarlake" },
		{ CPU_VENDOR_INTEL, 6, 0xaf, "unknown" },	/* Sierra Forest */
		{ CPU_VENDOR_INTEL, 6, 0xcc, "unknown" },	/* Panther Lake */
		{ CPU_VENDOR_AMD, 0x1a, 0x02, "zen5" },		/* Turin */
		{ CPU_VENDOR_AMD, 0x1a, 0x44, "zen5" },		/* Granite Ridge */
		{ CPU_VENDOR_AMD, 0x1a, 0x7f, "zen5" },
		{ CPU_VENDOR_AMD, 0x1a, 0x50, "unknown" },	/* Zen 6 */
		{ CPU_VENDOR_AMD, 0x1a, 0x80, "unknown" },	/* Zen 6 */
		{ CPU_VENDOR_UNKNOWN, 6, 0x5e, "unknown" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		CHECK_STR(cpu_uarch_name(cpu_uarch_lookup(cases[i].v,
				cases[i].family, cases[i].model)),
			  cases[i].name);
	CHECK_STR(cpu_uarch_name(UARCH_NR), "unknown");
}

static void test_unknown_vendor(void)
{
	struct fake_cpu c = cpu_zen2;

	c.vendor = "HygonGenuine";
	detect(&c);
	CHECK_EQ_U64(ci.vendor, CPU_VENDOR_UNKNOWN);
	CHECK_STR(ci.vendor_str, "HygonGenuine");
	CHECK_EQ_U64(ci.pmu.num_gp, 0);
}

int main(void)
{
	test_skylake();
	test_icelake_sapphire();
	test_amd();
	test_hypervisors();
	test_no_hv_bit();
	test_tsc_fallbacks();
	test_leaf_limits();
	test_uarch_table();
	test_unknown_vendor();
	return check_report("test_cpu_detect");
}
