/* SPDX-License-Identifier: GPL-2.0-or-later */
/* TSC frequency from CPUID alone: the hypervisor timing leaf 0x40000010,
 * the TSC/crystal ratio leaf 0x15, or the base-frequency leaf 0x16. When
 * none answers, tsc_hz stays 0 and tsc_init() calibrates against the PIT. */
#include <asm/cpu.h>
#include <kfront/compiler.h>

/*
 * Crystal clocks of parts whose CPUID.15H:ECX reads 0, as Linux
 * native_calibrate_tsc() knew them (arch/x86/kernel/tsc.c, v4.14-v5.x):
 * client Skylake/Kaby Lake run a 24 MHz crystal, Goldmont 19.2 MHz and
 * Denverton 25 MHz. Skylake-X (0x55) is absent on purpose: 25 MHz, not
 * 24, so it goes through leaf 0x16 instead.
 */
static const struct {
	u8 model;
	u32 crystal_hz;
} known_crystals[] = {
	{ 0x4e, 24000000 }, { 0x5e, 24000000 },
	{ 0x8e, 24000000 }, { 0x9e, 24000000 },
	{ 0x5c, 19200000 },	/* Goldmont */
	{ 0x5f, 25000000 },	/* Goldmont D (Denverton) */
};

static u32 model_crystal_hz(const struct cpu_info *ci)
{
	size_t i;

	if (ci->vendor != CPU_VENDOR_INTEL || ci->family != 6)
		return 0;
	for (i = 0; i < ARRAY_SIZE(known_crystals); i++)
		if (known_crystals[i].model == ci->model)
			return known_crystals[i].crystal_hz;
	return 0;
}

static void cpuid4(cpuid_fn fn, void *ctx, u32 leaf, u32 r[4])
{
	r[0] = r[1] = r[2] = r[3] = 0;
	fn(ctx, leaf, 0, r);
}

/* KVM (with QEMU's invtsc) and VMware: EAX = TSC frequency in kHz. */
static bool tsc_from_hypervisor(struct cpu_info *ci, cpuid_fn fn, void *ctx)
{
	u32 r[4];

	if (ci->max_hv_leaf < 0x40000010)
		return false;
	cpuid4(fn, ctx, 0x40000010, r);
	if (!r[0])
		return false;
	ci->tsc_hz = (u64)r[0] * 1000;
	ci->tsc_source = "cpuid40000010";
	return true;
}

/* Intel SDM vol. 3B, "Determining the Processor Base Frequency": TSC =
 * crystal (ECX) * EBX / EAX. */
static bool tsc_from_leaf15(struct cpu_info *ci, cpuid_fn fn, void *ctx)
{
	u32 r[4], crystal;

	if (ci->max_leaf < 0x15)
		return false;
	cpuid4(fn, ctx, 0x15, r);
	if (!r[0] || !r[1])
		return false;
	crystal = r[2];
	ci->tsc_source = "cpuid15";
	if (!crystal) {
		crystal = model_crystal_hz(ci);
		ci->tsc_source = "cpuid15+model-crystal";
	}
	if (!crystal)
		return false;
	ci->tsc_hz = (u64)crystal * r[1] / r[0];
	return true;
}

/* CPUID.16H:EAX = base frequency in MHz, which is the TSC rate on the
 * parts that have the leaf but no crystal in 0x15 (Linux derives the
 * crystal from it, then multiplies back: the same number). */
static bool tsc_from_leaf16(struct cpu_info *ci, cpuid_fn fn, void *ctx)
{
	u32 r[4];

	if (ci->max_leaf < 0x16)
		return false;
	cpuid4(fn, ctx, 0x16, r);
	if (!(r[0] & 0xffff))
		return false;
	ci->tsc_hz = (u64)(r[0] & 0xffff) * 1000000;
	ci->tsc_source = "cpuid16";
	return true;
}

void cpu_tsc_from_cpuid(struct cpu_info *ci, cpuid_fn fn, void *ctx)
{
	ci->tsc_hz = 0;
	ci->tsc_source = "none";
	if (!cpu_has(ci, X86_FEATURE_TSC))
		return;
	/* A hypervisor's own figure wins: it knows the guest TSC scaling. */
	if (tsc_from_hypervisor(ci, fn, ctx))
		return;
	if (ci->vendor != CPU_VENDOR_INTEL)
		return;	/* AMD has neither 0x15 nor 0x16: calibrate */
	if (tsc_from_leaf15(ci, fn, ctx))
		return;
	if (tsc_from_leaf16(ci, fn, ctx))
		return;
	ci->tsc_source = "none";
}
