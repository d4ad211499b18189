/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Which core a vendor, family and model is: the one table of x86 models.
 * arch/x86/cpu_uarch.c builds the kernel's (and the host harness's) lookup
 * from it, for the PMU event tables; tools/kfront/cpu_models.py reads the
 * same lines to choose the simulator preset nearest the host CPU, so the two
 * cannot disagree about a model.
 *
 * One entry per line, in exactly this form (the host tool parses it and
 * refuses anything else outside comments):
 *	CPU_MODEL(VENDOR, family, first model, last model, CORE, "name")
 * CORE is an enum cpu_uarch member without its UARCH_ prefix; the name is
 * what the tool's truth line calls the part.
 *
 * Intel model numbers: Linux arch/x86/include/asm/intel-family.h, Intel SDM
 * vol. 4 table 2-1. AMD ranges: as Linux arch/x86/kernel/cpu/amd.c assigns
 * Zen generations.
 */
CPU_MODEL(INTEL, 0x06, 0x2a, 0x2a, SANDYBRIDGE, "Sandy Bridge")
CPU_MODEL(INTEL, 0x06, 0x2d, 0x2d, SANDYBRIDGE, "Sandy Bridge-EP")
CPU_MODEL(INTEL, 0x06, 0x3a, 0x3a, IVYBRIDGE, "Ivy Bridge")
CPU_MODEL(INTEL, 0x06, 0x3e, 0x3e, IVYBRIDGE, "Ivy Bridge-EP")
CPU_MODEL(INTEL, 0x06, 0x3c, 0x3c, HASWELL, "Haswell")
CPU_MODEL(INTEL, 0x06, 0x3f, 0x3f, HASWELL, "Haswell-X")
CPU_MODEL(INTEL, 0x06, 0x45, 0x45, HASWELL, "Haswell-L")
CPU_MODEL(INTEL, 0x06, 0x46, 0x46, HASWELL, "Haswell-G")
CPU_MODEL(INTEL, 0x06, 0x3d, 0x3d, BROADWELL, "Broadwell")
CPU_MODEL(INTEL, 0x06, 0x47, 0x47, BROADWELL, "Broadwell-G")
CPU_MODEL(INTEL, 0x06, 0x4f, 0x4f, BROADWELL, "Broadwell-X")
CPU_MODEL(INTEL, 0x06, 0x56, 0x56, BROADWELL, "Broadwell-D")
CPU_MODEL(INTEL, 0x06, 0x4e, 0x4e, SKYLAKE, "Skylake-L")
CPU_MODEL(INTEL, 0x06, 0x5e, 0x5e, SKYLAKE, "Skylake")
CPU_MODEL(INTEL, 0x06, 0x55, 0x55, SKYLAKE, "Skylake-X / Cascade Lake")
CPU_MODEL(INTEL, 0x06, 0x8e, 0x8e, SKYLAKE, "Kaby Lake-L / Whiskey Lake")
CPU_MODEL(INTEL, 0x06, 0x9e, 0x9e, SKYLAKE, "Kaby Lake / Coffee Lake")
CPU_MODEL(INTEL, 0x06, 0xa5, 0xa5, SKYLAKE, "Comet Lake")
CPU_MODEL(INTEL, 0x06, 0xa6, 0xa6, SKYLAKE, "Comet Lake-L")
CPU_MODEL(INTEL, 0x06, 0x7d, 0x7d, ICELAKE, "Ice Lake")
CPU_MODEL(INTEL, 0x06, 0x7e, 0x7e, ICELAKE, "Ice Lake-L")
CPU_MODEL(INTEL, 0x06, 0x6a, 0x6a, ICELAKE, "Ice Lake-X")
CPU_MODEL(INTEL, 0x06, 0x6c, 0x6c, ICELAKE, "Ice Lake-D")
CPU_MODEL(INTEL, 0x06, 0xa7, 0xa7, ICELAKE, "Rocket Lake (Cypress Cove)")
CPU_MODEL(INTEL, 0x06, 0x8c, 0x8c, TIGERLAKE, "Tiger Lake-L")
CPU_MODEL(INTEL, 0x06, 0x8d, 0x8d, TIGERLAKE, "Tiger Lake")
CPU_MODEL(INTEL, 0x06, 0x97, 0x97, ALDERLAKE, "Alder Lake")
CPU_MODEL(INTEL, 0x06, 0x9a, 0x9a, ALDERLAKE, "Alder Lake-L")
CPU_MODEL(INTEL, 0x06, 0xb7, 0xb7, ALDERLAKE, "Raptor Lake")
CPU_MODEL(INTEL, 0x06, 0xba, 0xba, ALDERLAKE, "Raptor Lake-P")
CPU_MODEL(INTEL, 0x06, 0xbf, 0xbf, ALDERLAKE, "Raptor Lake-S")
CPU_MODEL(INTEL, 0x06, 0x8f, 0x8f, SAPPHIRERAPIDS, "Sapphire Rapids")
CPU_MODEL(INTEL, 0x06, 0xcf, 0xcf, SAPPHIRERAPIDS, "Emerald Rapids")
CPU_MODEL(INTEL, 0x06, 0xaa, 0xaa, METEORLAKE, "Meteor Lake-L (Redwood Cove)")
CPU_MODEL(INTEL, 0x06, 0xac, 0xac, METEORLAKE, "Meteor Lake (Redwood Cove)")
CPU_MODEL(INTEL, 0x06, 0xb5, 0xb5, METEORLAKE, "Arrow Lake-U (Redwood Cove)")
CPU_MODEL(INTEL, 0x06, 0xad, 0xad, GRANITERAPIDS, "Granite Rapids (Redwood Cove)")
CPU_MODEL(INTEL, 0x06, 0xae, 0xae, GRANITERAPIDS, "Granite Rapids-D (Redwood Cove)")
CPU_MODEL(INTEL, 0x06, 0xc5, 0xc5, ARROWLAKE, "Arrow Lake-H (Lion Cove)")
CPU_MODEL(INTEL, 0x06, 0xc6, 0xc6, ARROWLAKE, "Arrow Lake (Lion Cove)")
CPU_MODEL(INTEL, 0x06, 0xbd, 0xbd, LUNARLAKE, "Lunar Lake (Lion Cove)")
/* Family 17h as amd.c splits it: models 50h-5fh are Zen (1) parts. */
CPU_MODEL(AMD, 0x17, 0x00, 0x2f, ZEN, "Zen/Zen+")		/* Naples, Raven Ridge, Pinnacle Ridge */
CPU_MODEL(AMD, 0x17, 0x30, 0x4f, ZEN2, "Zen 2")			/* Rome, Castle Peak */
CPU_MODEL(AMD, 0x17, 0x50, 0x5f, ZEN, "Zen")
CPU_MODEL(AMD, 0x17, 0x60, 0x7f, ZEN2, "Zen 2")			/* Renoir, Lucienne, Matisse */
CPU_MODEL(AMD, 0x17, 0x90, 0x91, ZEN2, "Zen 2")			/* Van Gogh */
CPU_MODEL(AMD, 0x17, 0xa0, 0xaf, ZEN2, "Zen 2")			/* Mendocino */
CPU_MODEL(AMD, 0x19, 0x00, 0x0f, ZEN3, "Zen 3")			/* Milan */
CPU_MODEL(AMD, 0x19, 0x10, 0x1f, ZEN4, "Zen 4")			/* Genoa */
CPU_MODEL(AMD, 0x19, 0x20, 0x5f, ZEN3, "Zen 3")			/* Vermeer .. Cezanne */
CPU_MODEL(AMD, 0x19, 0x60, 0xaf, ZEN4, "Zen 4")			/* Raphael .. Bergamo */
/* Family 1Ah as amd.c marks Zen 5; its other models (50h-5fh, 80h-afh,
 * c0h-cfh) are Zen 6 there, which kfront does not know. */
CPU_MODEL(AMD, 0x1a, 0x00, 0x2f, ZEN5, "Zen 5")			/* Turin, Strix Point */
CPU_MODEL(AMD, 0x1a, 0x40, 0x4f, ZEN5, "Zen 5")			/* Granite Ridge */
CPU_MODEL(AMD, 0x1a, 0x60, 0x7f, ZEN5, "Zen 5")			/* Krackan, Strix Halo */
