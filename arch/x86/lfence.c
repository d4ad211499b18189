/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Setting AMD's DE_CFG[1] so LFENCE serialises dispatch (asm/lfence.h).
 * Pure C through msr_ops: tests/unit/test_lfence.c checks the exact
 * accesses for each case (success, #GP, a bit that does not stick). */
#include <asm/lfence.h>
#include <kfront/printk.h>

static void say(struct lfence_state *st, bool ok, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void say(struct lfence_state *st, bool ok, const char *fmt, ...)
{
	va_list ap;

	st->serialising = ok;
	va_start(ap, fmt);
	vsnprintf(st->how, sizeof(st->how), fmt, ap);
	va_end(ap);
}

/* Families whose LFENCE always serialises and that have no such bit
 * (AMD's software optimisation guidance; Linux's amd.c relies on it). */
static bool amd_always_serialising(u32 family)
{
	return family == 0x0f || family == 0x11;
}

static void amd_set_de_cfg(const struct msr_ops *ops,
			   struct lfence_state *st)
{
	u64 v, back;

	if (ops->rdmsr(ops->ctx, MSR_AMD64_DE_CFG, &v)) {
		say(st, false, "DE_CFG unreadable (%s): timing fences are weak",
		    msr_fault_name(ops));
		return;
	}
	if (v & DE_CFG_LFENCE_SERIALIZE) {
		say(st, true, "DE_CFG[1] already set");
		return;
	}
	if (ops->wrmsr(ops->ctx, MSR_AMD64_DE_CFG, v | DE_CFG_LFENCE_SERIALIZE)) {
		say(st, false, "DE_CFG[1] not settable (%s): timing fences are "
		    "weak", msr_fault_name(ops));
		return;
	}
	if (ops->rdmsr(ops->ctx, MSR_AMD64_DE_CFG, &back) ||
	    !(back & DE_CFG_LFENCE_SERIALIZE)) {
		say(st, false, "DE_CFG[1] did not stick (read back 0x%llx): "
		    "timing fences are weak", (unsigned long long)back);
		return;
	}
	say(st, true, "DE_CFG[1] set by kfront");
}

void lfence_make_serialising(const struct cpu_info *ci,
			     const struct msr_ops *ops,
			     struct lfence_state *st)
{
	if (ci->vendor != CPU_VENDOR_AMD)
		say(st, ci->vendor == CPU_VENDOR_INTEL,
		    ci->vendor == CPU_VENDOR_INTEL
		    ? "Intel: dispatch-serialising by definition"
		    : "unknown vendor: timing fences may be weak");
	else if (amd_always_serialising(ci->family))
		say(st, true, "AMD family %02xh: always dispatch-serialising",
		    ci->family);
	else
		amd_set_de_cfg(ops, st);
}
