/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Kernel entry to CPU detection: cpu_detect() fed by the CPUID
 * instruction. The caller then runs tsc_init() for the TSC rate. */
#include <asm/cpu.h>
#include <asm/x86.h>

static void native_cpuid(void *ctx, u32 leaf, u32 sub, u32 out[4])
{
	cpuid_count(leaf, sub, &out[0], &out[1], &out[2], &out[3]);
}

void cpu_detect_boot(struct cpu_info *ci)
{
	cpu_detect(ci, native_cpuid, NULL);
}
