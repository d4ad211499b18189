/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Model-specific register numbers and the small MSR access interface
 * (rdmsr, wrmsr, rdpmc) that PMU and APIC code use, so that host unit tests
 * can run that code against a recording backend instead of the CPU. */
#ifndef ASM_MSR_H
#define ASM_MSR_H

#include <kfront/types.h>

/* Architectural (Intel SDM vol. 4, "Architectural MSRs"). */
#define MSR_IA32_APIC_BASE		0x0000001b
#define MSR_IA32_PMC0			0x000000c1	/* IA32_PMCx = 0xc1 + x */
#define MSR_IA32_PERFEVTSEL0		0x00000186	/* + x */
#define MSR_IA32_PERF_CAPABILITIES	0x00000345
#define MSR_IA32_FIXED_CTR0		0x00000309	/* instructions retired */
#define MSR_IA32_FIXED_CTR1		0x0000030a	/* core cycles (unhalted) */
#define MSR_IA32_FIXED_CTR2		0x0000030b	/* reference cycles */
#define MSR_IA32_FIXED_CTR_CTRL		0x0000038d
#define MSR_IA32_PERF_GLOBAL_STATUS	0x0000038e
#define MSR_IA32_PERF_GLOBAL_CTRL	0x0000038f
#define MSR_IA32_PERF_GLOBAL_OVF_CTRL	0x00000390
#define MSR_PEBS_FRONTEND		0x000003f7	/* Skylake and later */
#define MSR_IA32_TSC_DEADLINE		0x000006e0
#define MSR_X2APIC_BASE			0x00000800	/* + (xAPIC offset >> 4) */

/* AMD (APM vol. 2, "Performance Monitoring Counters"; PPRs). */
#define MSR_K7_EVNTSEL0			0xc0010000	/* legacy: + x, x < 4 */
#define MSR_K7_PERFCTR0			0xc0010004	/* legacy: + x, x < 4 */
#define MSR_F15H_PERF_CTL0		0xc0010200	/* PerfCtrExtCore: + 2x */
#define MSR_F15H_PERF_CTR0		0xc0010201	/* PerfCtrExtCore: + 2x */
#define MSR_AMD64_PERF_CNTR_GLOBAL_STATUS	0xc0000300	/* PerfMonV2 */
#define MSR_AMD64_PERF_CNTR_GLOBAL_CTL		0xc0000301	/* PerfMonV2 */
#define MSR_AMD64_PERF_CNTR_GLOBAL_STATUS_CLR	0xc0000302	/* PerfMonV2 */

/* IA32_APIC_BASE fields. */
#define APIC_BASE_EXTD		(1ULL << 10)	/* x2APIC mode enabled */
#define APIC_BASE_EN		(1ULL << 11)	/* APIC globally enabled */

/* Fault vectors a backend may report (see x86_fixup_vector). */
#define X86_VEC_UD		6
#define X86_VEC_GP		13

/*
 * Every PMU and APIC register access goes through one of these. Each
 * function returns 0, or a negative errno (-EFAULT when the instruction
 * faulted); nothing behind this interface may panic.
 */
struct msr_ops {
	int (*rdmsr)(void *ctx, u32 msr, u64 *v);
	int (*wrmsr)(void *ctx, u32 msr, u64 v);
	int (*rdpmc)(void *ctx, u32 ecx, u64 *v);
	/* Optional: vector (6 #UD, 13 #GP) of the last fault, or -1. */
	int (*fault_vector)(void *ctx);
	void *ctx;
};

/* The real instructions, through the exception-fixup table (kernel only). */
extern const struct msr_ops msr_native_ops;

/* "#UD", "#GP" or "a fault", for messages after a failed access. */
const char *msr_fault_name(const struct msr_ops *ops);

#endif
