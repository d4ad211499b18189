/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the kernel keeps from the boot loader, copied out of the multiboot2
 * information so the loader's memory can be reused. */
#ifndef KFRONT_BOOTINFO_H
#define KFRONT_BOOTINFO_H

#include <kfront/types.h>
#include <kfront/cmdline.h>

#define MB2_BOOTLOADER_MAGIC	0x36d76289u
#define BOOTINFO_MAX_MMAP	128
#define BOOTINFO_RSDP_MAX	36	/* an ACPI 2.0 RSDP */

enum mmap_type {
	MMAP_AVAILABLE = 1,
	MMAP_RESERVED = 2,
	MMAP_ACPI_RECLAIMABLE = 3,
	MMAP_NVS = 4,
	MMAP_BADRAM = 5,
};

struct mmap_region {
	u64 base;
	u64 len;
	u32 type;
};

struct bootinfo {
	char cmdline[CMDLINE_MAX];	/* empty when cmdline_len does not fit */
	size_t cmdline_len;		/* the loader's length, however long */
	char loader[64];
	struct mmap_region mmap[BOOTINFO_MAX_MMAP];
	u32 nmmap;
	bool mmap_truncated;	/* more entries than we keep */
	bool efi;		/* booted through UEFI (EFI system table tag) */
	/* The loader's copy of the ACPI RSDP (tag 15, else tag 14): the
	 * way to the firmware's tables without scanning the BIOS area. */
	u8 acpi_rsdp[BOOTINFO_RSDP_MAX];
	u32 acpi_rsdp_len;	/* 0: the loader gave none */
	bool acpi_rsdp_v2;	/* from tag 15 */
	u32 ntags;
};

/*
 * Walk a multiboot2 information structure of at most avail bytes and copy
 * what the kernel needs into bi. Every tag is bounds-checked against the
 * declared total size and avail. Returns 0 or -EINVAL with err filled.
 */
int mb2_parse(const void *mbi, size_t avail, struct bootinfo *bi,
	      char *err, size_t errlen);

#endif
