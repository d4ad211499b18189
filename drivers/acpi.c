/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The kernel's view of ACPI: parse the boot loader's RSDP copy once, map
 * the firmware tables it leads to, and keep what was found for the PCI
 * code (ECAM) and the log. */
#include <kfront/acpi.h>
#include <kfront/arch.h>
#include <kfront/printk.h>

static struct acpi_info acpi;

static const void *map_firmware(u64 pa, u32 len, void *ctx)
{
	(void)ctx;
	return arch_firmware_map(pa, len);
}

void acpi_init(const struct bootinfo *bi)
{
	if (acpi_parse(bi->acpi_rsdp_len ? bi->acpi_rsdp : NULL,
		       bi->acpi_rsdp_len, map_firmware, NULL, &acpi)) {
		printk("acpi: none: %s\n", acpi.problem);
		return;
	}
	printk("acpi: RSDP revision %u (%s), %s with %u tables\n",
	       acpi.revision, acpi.oem, acpi.xsdt ? "XSDT" : "RSDT",
	       acpi.ntables);
	for (u32 i = 0; i < acpi.nmcfg; i++)
		printk("acpi: MCFG: segment %u buses %02x-%02x at 0x%llx\n",
		       acpi.mcfg[i].segment, acpi.mcfg[i].bus_start,
		       acpi.mcfg[i].bus_end,
		       (unsigned long long)acpi.mcfg[i].base);
	if (!acpi.mcfg_found)
		printk("acpi: no MCFG: PCI configuration through ports only\n");
	if (acpi.hpet_base)
		printk("acpi: HPET at 0x%llx\n",
		       (unsigned long long)acpi.hpet_base);
	if (acpi.problem[0])
		printk("acpi: warning: %s\n", acpi.problem);
}

const struct acpi_info *acpi_get(void)
{
	return &acpi;
}
