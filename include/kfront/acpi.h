/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ACPI static tables: the RSDP the boot loader copied, the RSDT or XSDT it
 * points to, and the two tables kfront uses: MCFG (where PCI Express
 * configuration space is memory-mapped, ECAM) and HPET (a timer to
 * calibrate the TSC against where there is no PIT). Only reading and
 * checking: no AML, no power management. */
#ifndef KFRONT_ACPI_H
#define KFRONT_ACPI_H

#include <kfront/bootinfo.h>
#include <kfront/types.h>

#define ACPI_MCFG_MAX		4	/* PCI segment groups kept */
#define ACPI_TABLES_MAX		64	/* RSDT/XSDT entries looked at */

/* One MCFG allocation: buses bus_start..bus_end of segment group
 * `segment` have their configuration space at base, 1 MiB per bus,
 * counted from bus 0 (the spec's "base address" is that of bus 0 even
 * when bus_start is higher). */
struct acpi_mcfg_alloc {
	u64 base;
	u16 segment;
	u8 bus_start, bus_end;
};

struct acpi_info {
	bool present;		/* a valid RSDP and root table */
	u8 revision;		/* RSDP revision: 0 = ACPI 1.0, 2 = 2.0+ */
	bool xsdt;		/* the root table is the XSDT (64-bit) */
	char oem[7];
	u32 ntables;		/* entries in the root table */
	struct acpi_mcfg_alloc mcfg[ACPI_MCFG_MAX];
	u32 nmcfg;
	bool mcfg_found;
	u64 hpet_base;		/* physical address of HPET block 0; 0: none */
	/* Why something is missing or was skipped (first problem only). */
	char problem[96];
};

/* Read access to physical memory: len bytes at pa, or NULL when they
 * cannot be mapped. The kernel maps firmware memory; host tests hand out
 * pieces of a buffer. */
typedef const void *(*acpi_map_fn)(u64 pa, u32 len, void *ctx);

/* Validates the RSDP copy and walks its root table for MCFG and HPET,
 * checking every signature, length and checksum. Returns 0 with info filled, or
 * -ENOENT / -EINVAL with info->problem saying why (nothing is trusted
 * past the first bad table; a bad MCFG only loses the MCFG). */
int acpi_parse(const u8 *rsdp, u32 rsdp_len, acpi_map_fn map, void *ctx,
	       struct acpi_info *info);

/* Kernel: parses the loader's RSDP once, logs a line, keeps the result. */
void acpi_init(const struct bootinfo *bi);
/* What acpi_init found (info->present false before it, or without ACPI). */
const struct acpi_info *acpi_get(void);

#endif
