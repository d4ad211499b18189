/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Core microarchitecture from vendor, family and model, by the one table of
 * models (cpu_model_table.h, which the host tool reads too). */
#include <asm/cpu.h>
#include <kfront/compiler.h>

struct uarch_range {
	enum cpu_vendor vendor;
	u8 family;
	u8 model_lo;
	u8 model_hi;
	enum cpu_uarch uarch;
};

#define CPU_MODEL(vendor, family, lo, hi, core, name) \
	{ CPU_VENDOR_##vendor, family, lo, hi, UARCH_##core },

static const struct uarch_range uarch_ranges[] = {
#include "cpu_model_table.h"
};

#undef CPU_MODEL

static const char *const uarch_names[UARCH_NR] = {
	[UARCH_UNKNOWN]		= "unknown",
	[UARCH_SANDYBRIDGE]	= "sandybridge",
	[UARCH_IVYBRIDGE]	= "ivybridge",
	[UARCH_HASWELL]		= "haswell",
	[UARCH_BROADWELL]	= "broadwell",
	[UARCH_SKYLAKE]		= "skylake",
	[UARCH_ICELAKE]		= "icelake",
	[UARCH_TIGERLAKE]	= "tigerlake",
	[UARCH_ALDERLAKE]	= "alderlake",
	[UARCH_SAPPHIRERAPIDS]	= "sapphirerapids",
	[UARCH_METEORLAKE]	= "meteorlake",
	[UARCH_GRANITERAPIDS]	= "graniterapids",
	[UARCH_ARROWLAKE]	= "arrowlake",
	[UARCH_LUNARLAKE]	= "lunarlake",
	[UARCH_ZEN]		= "zen",
	[UARCH_ZEN2]		= "zen2",
	[UARCH_ZEN3]		= "zen3",
	[UARCH_ZEN4]		= "zen4",
	[UARCH_ZEN5]		= "zen5",
};

enum cpu_uarch cpu_uarch_lookup(enum cpu_vendor v, u32 family, u32 model)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(uarch_ranges); i++) {
		const struct uarch_range *r = &uarch_ranges[i];

		if (r->vendor == v && r->family == family &&
		    model >= r->model_lo && model <= r->model_hi)
			return r->uarch;
	}
	return UARCH_UNKNOWN;
}

const char *cpu_uarch_name(enum cpu_uarch u)
{
	if ((unsigned int)u >= UARCH_NR)
		return "unknown";
	return uarch_names[u];
}
