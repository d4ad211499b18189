/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Reading ACPI static tables through a mapping callback, so that the same
 * code runs on firmware memory in the kernel and on crafted buffers in the
 * host tests. Firmware tables are input like any other: every length is
 * bounded and every checksum checked before a field is believed. */
#include <kfront/acpi.h>
#include <kfront/compiler.h>
#include <kfront/errno.h>
#include <kfront/printk.h>
#include <kfront/string.h>

#define RSDP_V1_LEN		20
#define RSDP_V2_LEN		36
#define SDT_HEADER_LEN		36
#define SDT_MAX_LEN		(64u << 10)	/* far above any root or MCFG */
#define MCFG_ENTRIES_OFF	(SDT_HEADER_LEN + 8)	/* 8 reserved bytes */
#define MCFG_ENTRY_LEN		16
#define HPET_LEN		56
#define HPET_GAS_SPACE		40	/* Generic Address Structure: space id */
#define HPET_GAS_ADDR		44	/* ... and the 64-bit address */
#define GAS_SYSTEM_MEMORY	0

static u32 get32(const u8 *p)
{
	u32 v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static u64 get64(const u8 *p)
{
	u64 v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static bool sum_ok(const u8 *p, u32 len)
{
	u8 sum = 0;

	for (u32 i = 0; i < len; i++)
		sum += p[i];
	return sum == 0;
}

/* Notes the first problem only: later ones are usually its echoes. */
static void __printf(2, 3) problem(struct acpi_info *info, const char *fmt, ...)
{
	va_list ap;

	if (info->problem[0])
		return;
	va_start(ap, fmt);
	vsnprintf(info->problem, sizeof(info->problem), fmt, ap);
	va_end(ap);
}

/*
 * Maps the table at pa whose signature must be sig, after
 * checking its header's length, then the whole table and its checksum.
 * Returns the table and its length, or NULL with a problem noted.
 */
static const u8 *map_table(u64 pa, const char *sig, acpi_map_fn map,
			   void *ctx, struct acpi_info *info, u32 *len)
{
	const u8 *hdr = map(pa, SDT_HEADER_LEN, ctx);
	const u8 *t;

	if (!hdr) {
		problem(info, "%s table at 0x%llx cannot be mapped", sig,
			(unsigned long long)pa);
		return NULL;
	}
	if (memcmp(hdr, sig, 4)) {
		problem(info, "expected %s at 0x%llx", sig,
			(unsigned long long)pa);
		return NULL;
	}
	*len = get32(hdr + 4);
	if (*len < SDT_HEADER_LEN || *len > SDT_MAX_LEN) {
		problem(info, "%s table has a bad length (%u)", sig, *len);
		return NULL;
	}
	t = map(pa, *len, ctx);
	if (!t) {
		problem(info, "%s table at 0x%llx cannot be mapped", sig,
			(unsigned long long)pa);
		return NULL;
	}
	if (!sum_ok(t, *len)) {
		problem(info, "%s table checksum is wrong (at 0x%llx)", sig,
			(unsigned long long)pa);
		return NULL;
	}
	return t;
}

static void parse_mcfg(const u8 *t, u32 len, struct acpi_info *info)
{
	info->mcfg_found = true;
	for (u32 off = MCFG_ENTRIES_OFF; off + MCFG_ENTRY_LEN <= len;
	     off += MCFG_ENTRY_LEN) {
		struct acpi_mcfg_alloc a = {
			.base = get64(t + off),
			.segment = (u16)(t[off + 8] | t[off + 9] << 8),
			.bus_start = t[off + 10],
			.bus_end = t[off + 11],
		};

		/* Each bus's 1 MiB lies at base + bus << 20: the base must be
		 * 1 MiB-aligned and the range must make sense. */
		if (!a.base || (a.base & 0xfffff) || a.bus_start > a.bus_end) {
			problem(info, "MCFG entry skipped: base 0x%llx",
				(unsigned long long)a.base);
			continue;
		}
		if (info->nmcfg == ACPI_MCFG_MAX) {
			problem(info, "MCFG: more than %d segment groups",
				ACPI_MCFG_MAX);
			break;
		}
		info->mcfg[info->nmcfg++] = a;
	}
}

static void parse_hpet(const u8 *t, u32 len, struct acpi_info *info)
{
	u64 base;

	if (len < HPET_LEN) {
		problem(info, "HPET table too short (%u bytes)", len);
		return;
	}
	base = get64(t + HPET_GAS_ADDR);
	/* The registers are memory-mapped, 1 KiB, aligned to it. */
	if (t[HPET_GAS_SPACE] != GAS_SYSTEM_MEMORY || !base || (base & 0x3ff)) {
		problem(info, "HPET block unusable: address 0x%llx",
			(unsigned long long)base);
		return;
	}
	info->hpet_base = base;
}

int acpi_parse(const u8 *rsdp, u32 rsdp_len, acpi_map_fn map, void *ctx,
	       struct acpi_info *info)
{
	const u8 *root;
	u32 root_len, entry_len;
	u64 root_pa;

	memset(info, 0, sizeof(*info));
	if (!rsdp || rsdp_len < RSDP_V1_LEN) {
		problem(info, "no RSDP from the boot loader");
		return -ENOENT;
	}
	if (memcmp(rsdp, "RSD PTR ", 8) || !sum_ok(rsdp, RSDP_V1_LEN)) {
		problem(info, "the RSDP's signature or checksum is wrong");
		return -EINVAL;
	}
	info->revision = rsdp[15];
	memcpy(info->oem, rsdp + 9, 6);
	/* ACPI 2.0+: the XSDT (64-bit entries) when its extended checksum
	 * holds; an RSDT is all ACPI 1.0 firmware has. */
	if (info->revision >= 2 && rsdp_len >= RSDP_V2_LEN &&
	    get32(rsdp + 20) >= RSDP_V2_LEN && sum_ok(rsdp, RSDP_V2_LEN) &&
	    get64(rsdp + 24)) {
		info->xsdt = true;
		root_pa = get64(rsdp + 24);
	} else {
		root_pa = get32(rsdp + 16);
	}
	entry_len = info->xsdt ? 8 : 4;
	root = map_table(root_pa, info->xsdt ? "XSDT" : "RSDT", map, ctx, info,
			 &root_len);
	if (!root)
		return -EINVAL;
	info->present = true;
	info->ntables = (root_len - SDT_HEADER_LEN) / entry_len;
	for (u32 i = 0; i < min(info->ntables, (u32)ACPI_TABLES_MAX); i++) {
		const u8 *e = root + SDT_HEADER_LEN + i * entry_len;
		u64 pa = info->xsdt ? get64(e) : get32(e);
		const u8 *hdr = pa ? map(pa, SDT_HEADER_LEN, ctx) : NULL;
		const u8 *t;
		u32 len;

		if (hdr && !memcmp(hdr, "MCFG", 4) && !info->mcfg_found) {
			t = map_table(pa, "MCFG", map, ctx, info, &len);
			if (t)
				parse_mcfg(t, len, info);
		} else if (hdr && !memcmp(hdr, "HPET", 4) && !info->hpet_base) {
			t = map_table(pa, "HPET", map, ctx, info, &len);
			if (t)
				parse_hpet(t, len, info);
		}
	}
	return 0;
}
