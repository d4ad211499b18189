/* SPDX-License-Identifier: GPL-2.0-or-later */
/* CPU feature detection from CPUID: vendor, family/model, brand,
 * hypervisor, feature bits and PMU capabilities. Pure C: CPUID comes
 * through a callback, so host tests run this with fake tables. */
#include <asm/cpu.h>
#include <kfront/compiler.h>
#include <kfront/string.h>

enum { R_EAX, R_EBX, R_ECX, R_EDX };

/* Where each feature bit lives: (leaf, subleaf, register, bit). */
struct cpu_feature_bit {
	u32 leaf;
	u8 sub;
	u8 reg;
	u8 bit;
	const char *name;
};

static const struct cpu_feature_bit feature_bits[X86_NR_FEATURES] = {
	[X86_FEATURE_TSC]	= { 0x00000001, 0, R_EDX, 4, "tsc" },
	[X86_FEATURE_MSR]	= { 0x00000001, 0, R_EDX, 5, "msr" },
	[X86_FEATURE_APIC]	= { 0x00000001, 0, R_EDX, 9, "apic" },
	[X86_FEATURE_PDCM]	= { 0x00000001, 0, R_ECX, 15, "pdcm" },
	[X86_FEATURE_X2APIC]	= { 0x00000001, 0, R_ECX, 21, "x2apic" },
	[X86_FEATURE_TSC_DEADLINE] = { 0x00000001, 0, R_ECX, 24, "tsc_deadline" },
	[X86_FEATURE_HYPERVISOR] = { 0x00000001, 0, R_ECX, 31, "hypervisor" },
	[X86_FEATURE_ERMS]	= { 0x00000007, 0, R_EBX, 9, "erms" },
	[X86_FEATURE_FSRM]	= { 0x00000007, 0, R_EDX, 4, "fsrm" },
	[X86_FEATURE_FSRS]	= { 0x00000007, 1, R_EAX, 11, "fsrs" },
	[X86_FEATURE_HYBRID]	= { 0x00000007, 0, R_EDX, 15, "hybrid" },
	[X86_FEATURE_NX]	= { 0x80000001, 0, R_EDX, 20, "nx" },
	[X86_FEATURE_RDTSCP]	= { 0x80000001, 0, R_EDX, 27, "rdtscp" },
	[X86_FEATURE_PERFCTR_CORE] = { 0x80000001, 0, R_ECX, 23, "perfctr_core" },
	[X86_FEATURE_INVARIANT_TSC] = { 0x80000007, 0, R_EDX, 8, "invariant_tsc" },
	[X86_FEATURE_PERFMON_V2] = { 0x80000022, 0, R_EAX, 0, "perfmon_v2" },
};

const char *cpu_feature_name(enum cpu_feature f)
{
	if ((unsigned int)f >= X86_NR_FEATURES)
		return "?";
	return feature_bits[f].name;
}

/* A leaf past the maximum returns another leaf's data on Intel: guard. */
static bool leaf_valid(const struct cpu_info *ci, u32 leaf)
{
	if (leaf >= 0x80000000)
		return ci->max_ext_leaf >= 0x80000000 && leaf <= ci->max_ext_leaf;
	return leaf <= ci->max_leaf;
}

static void query(cpuid_fn fn, void *ctx, u32 leaf, u32 sub, u32 out[4])
{
	out[0] = out[1] = out[2] = out[3] = 0;
	fn(ctx, leaf, sub, out);
}

/* Copy 4-byte register values as characters (vendor, brand, signature). */
static void regs_to_str(char *dst, const u32 *regs, int n)
{
	int i;

	for (i = 0; i < 4 * n; i++)
		dst[i] = (char)(regs[i / 4] >> (8 * (i % 4)));
	dst[4 * n] = '\0';
}

static void detect_features(struct cpu_info *ci, cpuid_fn fn, void *ctx)
{
	u32 r[4];
	int i;

	for (i = 0; i < X86_NR_FEATURES; i++) {
		const struct cpu_feature_bit *fb = &feature_bits[i];

		if (!leaf_valid(ci, fb->leaf))
			continue;
		if (fb->sub) {
			/* only leaf 7 has subleaves here: 7.0 EAX is the last */
			query(fn, ctx, fb->leaf, 0, r);
			if (r[R_EAX] < fb->sub)
				continue;
		}
		query(fn, ctx, fb->leaf, fb->sub, r);
		if ((r[fb->reg] >> fb->bit) & 1)
			ci->features |= 1ULL << i;
	}
}

static void detect_vendor(struct cpu_info *ci, cpuid_fn fn, void *ctx)
{
	u32 r[4], v[3];

	query(fn, ctx, 0, 0, r);
	ci->max_leaf = r[0];
	v[0] = r[1];	/* vendor string order: EBX, EDX, ECX */
	v[1] = r[3];
	v[2] = r[2];
	regs_to_str(ci->vendor_str, v, 3);
	if (!strcmp(ci->vendor_str, "GenuineIntel"))
		ci->vendor = CPU_VENDOR_INTEL;
	else if (!strcmp(ci->vendor_str, "AuthenticAMD"))
		ci->vendor = CPU_VENDOR_AMD;
	else
		ci->vendor = CPU_VENDOR_UNKNOWN;

	query(fn, ctx, 0x80000000, 0, r);
	ci->max_ext_leaf = (r[0] & 0x80000000) ? r[0] : 0;
}

/*
 * Displayed family and model (Intel SDM vol. 2A, CPUID leaf 1; AMD APM
 * vol. 3, CPUID Fn0000_0001_EAX): the extended family is added when the
 * base family is 0xf; the extended model is prepended for base family
 * 0xf, and on Intel also for family 6.
 */
static void detect_signature(struct cpu_info *ci, cpuid_fn fn, void *ctx)
{
	u32 r[4], base_family, base_model;
	bool ext_model;

	if (!leaf_valid(ci, 1))
		return;
	query(fn, ctx, 1, 0, r);
	ci->signature = r[0];
	base_family = (r[0] >> 8) & 0xf;
	base_model = (r[0] >> 4) & 0xf;
	ci->stepping = r[0] & 0xf;
	ci->family = base_family;
	if (base_family == 0xf)
		ci->family += (r[0] >> 20) & 0xff;
	ext_model = base_family == 0xf ||
		    (base_family == 6 && ci->vendor == CPU_VENDOR_INTEL);
	ci->model = base_model;
	if (ext_model)
		ci->model |= ((r[0] >> 16) & 0xf) << 4;
}

static void detect_brand(struct cpu_info *ci, cpuid_fn fn, void *ctx)
{
	char raw[49];
	u32 r[12];
	int i, skip;

	if (!leaf_valid(ci, 0x80000004))
		return;
	for (i = 0; i < 3; i++)
		query(fn, ctx, 0x80000002 + i, 0, &r[4 * i]);
	regs_to_str(raw, r, 12);
	/* Intel right-justifies some brand strings with leading spaces. */
	for (skip = 0; raw[skip] == ' '; skip++)
		;
	for (i = 0; raw[skip + i]; i++)
		ci->brand[i] = raw[skip + i];
	ci->brand[i] = '\0';
}

/* CPUID 0x40000000 exists only when CPUID.1:ECX[31] says so. */
static void detect_hypervisor(struct cpu_info *ci, cpuid_fn fn, void *ctx)
{
	u32 r[4];

	if (!cpu_has(ci, X86_FEATURE_HYPERVISOR))
		return;
	query(fn, ctx, 0x40000000, 0, r);
	ci->max_hv_leaf = r[0] >= 0x40000000 ? r[0] : 0;
	regs_to_str(ci->hypervisor, &r[1], 3);	/* EBX, ECX, EDX */
}

static void detect_core_type(struct cpu_info *ci, cpuid_fn fn, void *ctx)
{
	u32 r[4];

	if (!cpu_has(ci, X86_FEATURE_HYBRID) || !leaf_valid(ci, 0x1a))
		return;
	query(fn, ctx, 0x1a, 0, r);
	ci->core_type = r[0] >> 24;
}

/* Intel SDM vol. 3B, "Architectural Performance Monitoring": CPUID.0AH. */
static void detect_pmu_intel(struct cpu_info *ci, cpuid_fn fn, void *ctx)
{
	struct pmu_caps *pc = &ci->pmu;
	u32 r[4], len;

	if (!leaf_valid(ci, 0xa))
		return;
	query(fn, ctx, 0xa, 0, r);
	pc->version = r[0] & 0xff;
	if (!pc->version)
		return;
	pc->num_gp = (r[0] >> 8) & 0xff;
	pc->gp_width = (r[0] >> 16) & 0xff;
	len = r[0] >> 24;
	/* EBX bit set = event unavailable; bits past the length count too. */
	pc->events_unavail = r[1] | (len >= 32 ? 0 : ~0U << len);
	if (pc->version < 2)
		return;	/* fixed counters arrived with version 2 */
	pc->num_fixed = r[3] & 0x1f;
	pc->fixed_width = (r[3] >> 5) & 0xff;
	pc->fixed_mask = pc->num_fixed >= 32 ? ~0U : (1U << pc->num_fixed) - 1;
	if (pc->version >= 5)
		pc->fixed_mask |= r[2];	/* ECX: supported fixed bitmap */
}

/* AMD APM vol. 2 and PPRs: legacy 4 counters, PerfCtrExtCore 6,
 * PerfMonV2 reports its count in CPUID.80000022H:EBX[3:0]. */
static void detect_pmu_amd(struct cpu_info *ci, cpuid_fn fn, void *ctx)
{
	struct pmu_caps *pc = &ci->pmu;
	u32 r[4];

	pc->amd_core_ext = cpu_has(ci, X86_FEATURE_PERFCTR_CORE);
	pc->amd_perfmon_v2 = cpu_has(ci, X86_FEATURE_PERFMON_V2);
	pc->amd_num_counters = pc->amd_core_ext ? 6 : 4;
	pc->gp_width = 48;
	if (pc->amd_perfmon_v2) {
		query(fn, ctx, 0x80000022, 0, r);
		if (r[1] & 0xf)
			pc->amd_num_counters = r[1] & 0xf;
	}
	pc->num_gp = pc->amd_num_counters;
}

void cpu_detect(struct cpu_info *ci, cpuid_fn fn, void *ctx)
{
	memset(ci, 0, sizeof(*ci));
	detect_vendor(ci, fn, ctx);
	detect_signature(ci, fn, ctx);
	detect_features(ci, fn, ctx);
	detect_brand(ci, fn, ctx);
	detect_hypervisor(ci, fn, ctx);
	detect_core_type(ci, fn, ctx);
	if (ci->vendor == CPU_VENDOR_INTEL)
		detect_pmu_intel(ci, fn, ctx);
	else if (ci->vendor == CPU_VENDOR_AMD)
		detect_pmu_amd(ci, fn, ctx);
	ci->uarch = cpu_uarch_lookup(ci->vendor, ci->family, ci->model);
	ci->uarch_name = cpu_uarch_name(ci->uarch);
	cpu_tsc_from_cpuid(ci, fn, ctx);
}
