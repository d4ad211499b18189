/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The kernel's msr_ops: rdmsr, wrmsr and rdpmc through the exception-fixup
 * table, so a #GP or #UD returns -EFAULT instead of panicking. */
#include <asm/msr.h>
#include <asm/x86.h>
#include <kfront/compiler.h>

static int native_rdmsr(void *ctx, u32 msr, u64 *v)
{
	return rdmsr_safe(msr, v);
}

static __measured_path int native_wrmsr(void *ctx, u32 msr, u64 v)
{
	return wrmsr_safe(msr, v);
}

static int native_rdpmc(void *ctx, u32 ecx, u64 *v)
{
	return rdpmc_safe(ecx, v);
}

/* The trap handler records the vector of each fault it fixes up. */
static int native_fault_vector(void *ctx)
{
	return x86_fixup_vector;
}

const struct msr_ops msr_native_ops = {
	.rdmsr = native_rdmsr,
	.wrmsr = native_wrmsr,
	.rdpmc = native_rdpmc,
	.fault_vector = native_fault_vector,
	.ctx = NULL,
};
