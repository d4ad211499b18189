/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Core microarchitecture from vendor, family and model. Model numbers:
 * Linux arch/x86/include/asm/intel-family.h, Intel SDM vol. 4 table 2-1;
 * AMD ranges as Linux arch/x86/kernel/cpu/amd.c assigns Zen generations. */
#include <asm/cpu.h>
#include <kfront/compiler.h>

struct uarch_range {
	enum cpu_vendor vendor;
	u8 family;
	u8 model_lo;
	u8 model_hi;
	enum cpu_uarch uarch;
};

#define INTEL(m, u)		{ CPU_VENDOR_INTEL, 6, m, m, u }
#define AMD(f, lo, hi, u)	{ CPU_VENDOR_AMD, f, lo, hi, u }

static const struct uarch_range uarch_ranges[] = {
	INTEL(0x2a, UARCH_SANDYBRIDGE),		/* client */
	INTEL(0x2d, UARCH_SANDYBRIDGE),		/* -EP */
	INTEL(0x3a, UARCH_IVYBRIDGE),
	INTEL(0x3e, UARCH_IVYBRIDGE),		/* -EP */
	INTEL(0x3c, UARCH_HASWELL),
	INTEL(0x3f, UARCH_HASWELL),		/* -X */
	INTEL(0x45, UARCH_HASWELL),		/* -L */
	INTEL(0x46, UARCH_HASWELL),		/* -G */
	INTEL(0x3d, UARCH_BROADWELL),
	INTEL(0x47, UARCH_BROADWELL),		/* -G */
	INTEL(0x4f, UARCH_BROADWELL),		/* -X */
	INTEL(0x56, UARCH_BROADWELL),		/* -D */
	INTEL(0x4e, UARCH_SKYLAKE),		/* -L */
	INTEL(0x5e, UARCH_SKYLAKE),
	INTEL(0x55, UARCH_SKYLAKE),		/* -X, Cascade/Cooper Lake */
	INTEL(0x8e, UARCH_SKYLAKE),		/* Kaby/Coffee/Whiskey -L */
	INTEL(0x9e, UARCH_SKYLAKE),		/* Kaby/Coffee Lake */
	INTEL(0xa5, UARCH_SKYLAKE),		/* Comet Lake */
	INTEL(0xa6, UARCH_SKYLAKE),		/* Comet Lake -L */
	INTEL(0x7d, UARCH_ICELAKE),
	INTEL(0x7e, UARCH_ICELAKE),		/* -L */
	INTEL(0x6a, UARCH_ICELAKE),		/* -X */
	INTEL(0x6c, UARCH_ICELAKE),		/* -D */
	INTEL(0xa7, UARCH_ICELAKE),		/* Rocket Lake (Cypress Cove) */
	INTEL(0x8c, UARCH_TIGERLAKE),		/* -L */
	INTEL(0x8d, UARCH_TIGERLAKE),
	INTEL(0x97, UARCH_ALDERLAKE),
	INTEL(0x9a, UARCH_ALDERLAKE),		/* -L */
	INTEL(0xb7, UARCH_ALDERLAKE),		/* Raptor Lake (Raptor Cove) */
	INTEL(0xba, UARCH_ALDERLAKE),		/* Raptor Lake -P */
	INTEL(0xbf, UARCH_ALDERLAKE),		/* Raptor Lake -S */
	INTEL(0x8f, UARCH_SAPPHIRERAPIDS),
	INTEL(0xcf, UARCH_SAPPHIRERAPIDS),	/* Emerald Rapids */
	INTEL(0xaa, UARCH_METEORLAKE),		/* -L */
	INTEL(0xac, UARCH_METEORLAKE),
	INTEL(0xb5, UARCH_METEORLAKE),		/* Arrow Lake-U (Redwood Cove) */
	INTEL(0xad, UARCH_GRANITERAPIDS),	/* -X */
	INTEL(0xae, UARCH_GRANITERAPIDS),	/* -D */
	INTEL(0xc5, UARCH_ARROWLAKE),		/* -H */
	INTEL(0xc6, UARCH_ARROWLAKE),
	INTEL(0xbd, UARCH_LUNARLAKE),		/* -M */
	/* Family 17h as Linux's arch/x86/kernel/cpu/amd.c splits it: models
	 * 50h-5fh are Zen (1) parts, not Zen 2. */
	AMD(0x17, 0x00, 0x2f, UARCH_ZEN),	/* Zen, Zen+ */
	AMD(0x17, 0x30, 0x4f, UARCH_ZEN2),	/* Rome, Castle Peak */
	AMD(0x17, 0x50, 0x5f, UARCH_ZEN),	/* Zen (1) models 50h-5fh */
	AMD(0x17, 0x60, 0x7f, UARCH_ZEN2),	/* Renoir, Lucienne, Matisse */
	AMD(0x17, 0x90, 0x91, UARCH_ZEN2),	/* Van Gogh */
	AMD(0x17, 0xa0, 0xaf, UARCH_ZEN2),	/* Mendocino */
	AMD(0x19, 0x00, 0x0f, UARCH_ZEN3),	/* Milan */
	AMD(0x19, 0x10, 0x1f, UARCH_ZEN4),	/* Genoa */
	AMD(0x19, 0x20, 0x5f, UARCH_ZEN3),	/* Vermeer .. Cezanne */
	AMD(0x19, 0x60, 0xaf, UARCH_ZEN4),	/* Raphael .. Bergamo */
	/* Family 1Ah as Linux's amd.c marks X86_FEATURE_ZEN5; its other
	 * models (50h-5fh, 80h-afh, c0h-cfh) are Zen 6 there. */
	AMD(0x1a, 0x00, 0x2f, UARCH_ZEN5),	/* Turin, Strix Point */
	AMD(0x1a, 0x40, 0x4f, UARCH_ZEN5),	/* Granite Ridge */
	AMD(0x1a, 0x60, 0x7f, UARCH_ZEN5),	/* Krackan, Strix Halo */
};

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
