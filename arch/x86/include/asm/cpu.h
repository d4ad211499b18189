/* SPDX-License-Identifier: GPL-2.0-or-later */
/* CPU identity, features, TSC frequency and PMU capabilities, detected in
 * one place (cpu_detect.c) from CPUID. The CPUID instruction sits behind a
 * function pointer so host tests can describe any CPU with a table. */
#ifndef ASM_CPU_H
#define ASM_CPU_H

#include <kfront/types.h>

enum cpu_vendor {
	CPU_VENDOR_UNKNOWN,
	CPU_VENDOR_INTEL,
	CPU_VENDOR_AMD,
};

/* Core microarchitectures with their own PMU event table (pmu_events.c). */
enum cpu_uarch {
	UARCH_UNKNOWN,
	UARCH_SANDYBRIDGE,
	UARCH_IVYBRIDGE,
	UARCH_HASWELL,
	UARCH_BROADWELL,
	UARCH_SKYLAKE,		/* also Kaby, Coffee, Comet, Cascade Lake */
	UARCH_ICELAKE,		/* Sunny Cove; also Rocket Lake */
	UARCH_TIGERLAKE,	/* Willow Cove */
	UARCH_ALDERLAKE,	/* Golden Cove P-core; also Raptor Lake */
	UARCH_SAPPHIRERAPIDS,	/* Golden Cove server; also Emerald Rapids */
	UARCH_METEORLAKE,	/* Redwood Cove P-core; also Arrow Lake-U */
	UARCH_GRANITERAPIDS,	/* Redwood Cove server */
	UARCH_ARROWLAKE,	/* Lion Cove P-core (Arrow Lake-S/H) */
	UARCH_LUNARLAKE,	/* Lion Cove P-core */
	UARCH_ZEN,		/* Zen, Zen+ */
	UARCH_ZEN2,
	UARCH_ZEN3,
	UARCH_ZEN4,
	UARCH_ZEN5,
	UARCH_NR,
};

/* Feature bits: one table in cpu_detect.c names their CPUID location. */
enum cpu_feature {
	X86_FEATURE_TSC,		/* CPUID.1:EDX[4] */
	X86_FEATURE_MSR,		/* CPUID.1:EDX[5] */
	X86_FEATURE_APIC,		/* CPUID.1:EDX[9] */
	X86_FEATURE_PDCM,		/* CPUID.1:ECX[15] perf capabilities */
	X86_FEATURE_X2APIC,		/* CPUID.1:ECX[21] */
	X86_FEATURE_TSC_DEADLINE,	/* CPUID.1:ECX[24] */
	X86_FEATURE_HYPERVISOR,		/* CPUID.1:ECX[31] */
	X86_FEATURE_ERMS,		/* CPUID.7.0:EBX[9] fast rep movsb/stosb */
	X86_FEATURE_FSRM,		/* CPUID.7.0:EDX[4] fast short rep movsb */
	X86_FEATURE_FSRS,		/* CPUID.7.1:EAX[11] fast short rep stosb */
	X86_FEATURE_HYBRID,		/* CPUID.7.0:EDX[15] */
	X86_FEATURE_NX,			/* CPUID.80000001H:EDX[20] */
	X86_FEATURE_RDTSCP,		/* CPUID.80000001H:EDX[27] */
	X86_FEATURE_PERFCTR_CORE,	/* CPUID.80000001H:ECX[23] AMD */
	X86_FEATURE_INVARIANT_TSC,	/* CPUID.80000007H:EDX[8] */
	X86_FEATURE_PERFMON_V2,		/* CPUID.80000022H:EAX[0] AMD */
	X86_NR_FEATURES,
};

/* Hybrid Intel core types, CPUID.1AH:EAX[31:24]. */
#define CPU_CORE_TYPE_ATOM	0x20
#define CPU_CORE_TYPE_CORE	0x40

struct pmu_caps {
	/* Intel architectural performance monitoring, CPUID.0AH. */
	u8 version;		/* 0: no architectural PMU */
	u8 num_gp;		/* general-purpose counters per thread */
	u8 gp_width;		/* bits */
	u8 num_fixed;		/* fixed-function counters */
	u8 fixed_width;		/* bits */
	u32 fixed_mask;		/* usable fixed counters (EDX[4:0] or ECX) */
	u32 events_unavail;	/* EBX, bits past its length set too */
	/* AMD core performance counters. */
	bool amd_core_ext;	/* six counters at 0xc0010200 */
	bool amd_perfmon_v2;	/* global control at 0xc0000300 */
	u8 amd_num_counters;	/* 4, 6 or CPUID.80000022H:EBX[3:0] */
};

struct cpu_info {
	enum cpu_vendor vendor;
	char vendor_str[13];	/* "GenuineIntel" */
	char brand[49];		/* CPUID 0x80000002-4, leading spaces cut */
	char hypervisor[13];	/* CPUID 0x40000000 signature, "" if none */
	u32 max_leaf;
	u32 max_ext_leaf;
	u32 max_hv_leaf;	/* 0 without a hypervisor */
	u32 signature;		/* CPUID.1:EAX */
	u32 family;		/* displayed family (base + extended) */
	u32 model;		/* displayed model (extended model << 4 | base) */
	u32 stepping;
	u8 core_type;		/* CPU_CORE_TYPE_* on hybrid parts, else 0 */
	u64 features;		/* bit (1 << enum cpu_feature) */
	enum cpu_uarch uarch;
	const char *uarch_name;	/* "skylake", ..., "unknown" */
	u64 tsc_hz;		/* 0 until known */
	const char *tsc_source;	/* "cpuid15", "cpuid16", "pit", "none"... */
	/* a second calibration against another reference (tsc_init()):
	 * its rate and reference ("hpet"); 0 and NULL when none was made */
	u64 tsc_check_hz;
	const char *tsc_check_source;
	struct pmu_caps pmu;
};

/* One CPUID query: out[] = { eax, ebx, ecx, edx }. */
typedef void (*cpuid_fn)(void *ctx, u32 leaf, u32 sub, u32 out[4]);

/* Fill *ci from CPUID alone (pure: no MSR, no I/O). tsc_hz stays 0 when
 * CPUID does not give it; tsc_init() then calibrates. */
void cpu_detect(struct cpu_info *ci, cpuid_fn fn, void *ctx);

/* Kernel: cpu_detect() with the CPUID instruction (cpu_native.c). Call
 * tsc_init() (asm/tsc.h) next: it calibrates against the PIT (~0.1 s)
 * when CPUID gave no TSC rate. */
void cpu_detect_boot(struct cpu_info *ci);

/* Which body the assembly memcpy and memset of a -DKFRONT_ASM_STRING
 * variant take (arch/x86/rep_string.c): rep_string_init() sets
 * x86_fast_rep_movsb from FSRM and x86_fast_rep_stosb from FSRS, unless
 * rep_string_select() (kfront/string_helpers.h) forced a body. */
extern u8 x86_fast_rep_movsb, x86_fast_rep_stosb;
void rep_string_init(const struct cpu_info *ci);

static inline bool cpu_has(const struct cpu_info *ci, enum cpu_feature f)
{
	return (ci->features >> f) & 1;
}

const char *cpu_feature_name(enum cpu_feature f);

/* Microarchitecture from vendor/family/model (cpu_uarch.c). */
enum cpu_uarch cpu_uarch_lookup(enum cpu_vendor v, u32 family, u32 model);
const char *cpu_uarch_name(enum cpu_uarch u);

struct record;
/* Vendor, family/model, brand, hypervisor and TSC fields of the machine
 * record (cpu_record.c). */
void cpu_record_identity(struct record *r, const struct cpu_info *ci);

/* TSC frequency from CPUID leaves 0x15, 0x16 or 0x40000010 (cpu_tsc.c). */
void cpu_tsc_from_cpuid(struct cpu_info *ci, cpuid_fn fn, void *ctx);

#endif
