/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Host tests of the ACPI table reader (drivers/acpi_tables.c) on crafted
 * firmware memory: ACPI 2.0 with an XSDT and 1.0 with an RSDT, and each
 * way a table can be wrong: signature, checksum, length, an address
 * nothing maps, a nonsensical MCFG entry. */
#include <string.h>
#include <kfront/acpi.h>
#include <kfront/errno.h>
#include "check.h"

/* "Physical memory": 64 KiB at MEM_BASE. */
#define MEM_BASE	0x7fe0000ULL
#define MEM_SIZE	0x10000
#define ROOT_OFF	0x1000
#define FACP_OFF	0x2000
#define MCFG_OFF	0x3000
#define HPET_OFF	0x4000

static unsigned char mem[MEM_SIZE];
static unsigned char rsdp[36];
static unsigned maps;

static const void *map_mem(u64 pa, u32 len, void *ctx)
{
	(void)ctx;
	maps++;
	if (pa < MEM_BASE || pa - MEM_BASE > MEM_SIZE ||
	    len > MEM_SIZE - (pa - MEM_BASE))
		return NULL;
	return mem + (pa - MEM_BASE);
}

static void put32(unsigned char *p, unsigned v)
{
	memcpy(p, &v, 4);
}

static void put64(unsigned char *p, unsigned long long v)
{
	memcpy(p, &v, 8);
}

static void fix_sum(unsigned char *p, unsigned len, unsigned sum_off)
{
	unsigned char s = 0;

	p[sum_off] = 0;
	for (unsigned i = 0; i < len; i++)
		s += p[i];
	p[sum_off] = (unsigned char)-s;
}

/* A table header: signature, length, revision, checksum fixed last. */
static unsigned char *table(unsigned off, const char *sig, unsigned len)
{
	unsigned char *t = mem + off;

	memset(t, 0, len);
	memcpy(t, sig, 4);
	put32(t + 4, len);
	t[8] = 1;
	memcpy(t + 10, "KFTEST", 6);
	return t;
}

static void make_mcfg(unsigned nent, const unsigned long long *base,
		      const unsigned char (*bus)[2])
{
	unsigned len = 44 + 16 * nent;
	unsigned char *t = table(MCFG_OFF, "MCFG", len);

	for (unsigned i = 0; i < nent; i++) {
		put64(t + 44 + 16 * i, base[i]);
		t[44 + 16 * i + 8] = (unsigned char)i;	/* segment i */
		t[44 + 16 * i + 10] = bus[i][0];
		t[44 + 16 * i + 11] = bus[i][1];
	}
	fix_sum(t, len, 9);
}

static void make_hpet(unsigned long long base, unsigned space)
{
	unsigned char *t = table(HPET_OFF, "HPET", 56);

	put32(t + 36, 0x8086a201);	/* event timer block id */
	t[40] = (unsigned char)space;
	t[41] = 64;
	put64(t + 44, base);
	fix_sum(t, 56, 9);
}

/* XSDT (or RSDT) listing FACP, MCFG and HPET, and a matching RSDP. */
static void make_root(int xsdt)
{
	unsigned esz = xsdt ? 8 : 4, len = 36 + 3 * esz;
	unsigned char *t = table(ROOT_OFF, xsdt ? "XSDT" : "RSDT", len);
	unsigned long long e[3] = { MEM_BASE + FACP_OFF, MEM_BASE + MCFG_OFF,
				    MEM_BASE + HPET_OFF };

	make_hpet(0xfed00000ULL, 0);
	for (int i = 0; i < 3; i++) {
		if (xsdt)
			put64(t + 36 + 8 * i, e[i]);
		else
			put32(t + 36 + 4 * i, (unsigned)e[i]);
	}
	fix_sum(t, len, 9);
	fix_sum(table(FACP_OFF, "FACP", 116), 116, 9);

	memset(rsdp, 0, sizeof(rsdp));
	memcpy(rsdp, "RSD PTR ", 8);
	memcpy(rsdp + 9, "KFTEST", 6);
	rsdp[15] = xsdt ? 2 : 0;
	put32(rsdp + 16, (unsigned)(MEM_BASE + ROOT_OFF));
	fix_sum(rsdp, 20, 8);
	if (xsdt) {
		put32(rsdp + 20, 36);
		put64(rsdp + 24, MEM_BASE + ROOT_OFF);
		fix_sum(rsdp, 36, 32);
	}
}

static const unsigned long long q35_base[] = { 0xb0000000ULL };
static const unsigned char q35_bus[][2] = { { 0, 0xff } };
static struct acpi_info info;

static void test_acpi2_xsdt(void)
{
	make_root(1);
	make_mcfg(1, q35_base, q35_bus);
	CHECK(acpi_parse(rsdp, 36, map_mem, NULL, &info) == 0);
	CHECK(info.present && info.xsdt);
	CHECK_EQ_U64(info.revision, 2);
	CHECK_STR(info.oem, "KFTEST");
	CHECK_EQ_U64(info.ntables, 3);
	CHECK_EQ_U64(info.hpet_base, 0xfed00000ULL);
	CHECK(info.mcfg_found);
	CHECK_EQ_U64(info.nmcfg, 1);
	CHECK_EQ_U64(info.mcfg[0].base, 0xb0000000ULL);
	CHECK_EQ_U64(info.mcfg[0].bus_start, 0);
	CHECK_EQ_U64(info.mcfg[0].bus_end, 0xff);
	CHECK_STR(info.problem, "");
}

static void test_acpi1_rsdt(void)
{
	make_root(0);
	make_mcfg(1, q35_base, q35_bus);
	CHECK(acpi_parse(rsdp, 20, map_mem, NULL, &info) == 0);
	CHECK(info.present && !info.xsdt);
	CHECK_EQ_U64(info.nmcfg, 1);
	/* A 2.0 RSDP whose extended checksum is wrong: the RSDT is used. */
	make_root(1);
	rsdp[32] ^= 1;
	put32(mem + ROOT_OFF, 0x54445352);	/* the table now reads "RSDT" */
	CHECK(acpi_parse(rsdp, 36, map_mem, NULL, &info) == -EINVAL);
	CHECK(strstr(info.problem, "RSDT") != NULL);	/* its checksum */
}

static void test_no_mcfg(void)
{
	make_root(1);
	memcpy(mem + MCFG_OFF, "SSDT", 4);
	CHECK(acpi_parse(rsdp, 36, map_mem, NULL, &info) == 0);
	CHECK(info.present && !info.mcfg_found);
	CHECK_EQ_U64(info.nmcfg, 0);
}

static void test_bad_rsdp(void)
{
	CHECK(acpi_parse(NULL, 0, map_mem, NULL, &info) == -ENOENT);
	CHECK(!info.present);
	CHECK(strstr(info.problem, "no RSDP") != NULL);
	make_root(1);
	rsdp[0] = 'X';
	CHECK(acpi_parse(rsdp, 36, map_mem, NULL, &info) == -EINVAL);
	make_root(1);
	rsdp[8] ^= 0x55;			/* v1 checksum */
	CHECK(acpi_parse(rsdp, 36, map_mem, NULL, &info) == -EINVAL);
	CHECK(strstr(info.problem, "checksum") != NULL);
}

static void test_bad_root(void)
{
	make_root(1);
	put64(rsdp + 24, 0x1000);		/* nothing there */
	fix_sum(rsdp, 36, 32);
	CHECK(acpi_parse(rsdp, 36, map_mem, NULL, &info) == -EINVAL);
	CHECK(!info.present);
	CHECK(strstr(info.problem, "cannot be mapped") != NULL);

	make_root(1);
	put32(mem + ROOT_OFF + 4, 0x7fffffff);	/* absurd length */
	CHECK(acpi_parse(rsdp, 36, map_mem, NULL, &info) == -EINVAL);
	CHECK(strstr(info.problem, "bad length") != NULL);

	make_root(1);
	put32(mem + ROOT_OFF + 4, 20);		/* shorter than a header */
	CHECK(acpi_parse(rsdp, 36, map_mem, NULL, &info) == -EINVAL);

	make_root(1);
	mem[ROOT_OFF + 40] ^= 1;		/* checksum broken */
	CHECK(acpi_parse(rsdp, 36, map_mem, NULL, &info) == -EINVAL);
	CHECK(strstr(info.problem, "XSDT table checksum") != NULL);
}

static void test_bad_mcfg(void)
{
	static const unsigned long long bases[] = {
		0xb0000000ULL, 0xc0080000ULL, 0, 0xd0000000ULL, 0xe0000000ULL,
		0xe8000000ULL, 0xf0000000ULL, 0xf8000000ULL,
	};
	static const unsigned char buses[][2] = {
		{ 0, 0x3f }, { 0, 1 }, { 0, 1 }, { 5, 4 }, { 0, 7 }, { 0, 7 },
		{ 0, 7 }, { 0, 7 },
	};

	/* Checksum wrong: the MCFG is lost, ACPI itself is still fine. */
	make_root(1);
	make_mcfg(1, q35_base, q35_bus);
	mem[MCFG_OFF + 44] ^= 0x10;
	CHECK(acpi_parse(rsdp, 36, map_mem, NULL, &info) == 0);
	CHECK(info.present && !info.mcfg_found && info.nmcfg == 0);
	CHECK(strstr(info.problem, "MCFG table checksum") != NULL);

	/* Entries: unaligned base, zero base, reversed range are skipped;
	 * past ACPI_MCFG_MAX the rest are dropped with a note. */
	make_mcfg(8, bases, buses);
	CHECK(acpi_parse(rsdp, 36, map_mem, NULL, &info) == 0);
	CHECK_EQ_U64(info.nmcfg, ACPI_MCFG_MAX);
	CHECK_EQ_U64(info.mcfg[0].base, 0xb0000000ULL);
	CHECK_EQ_U64(info.mcfg[0].bus_end, 0x3f);
	CHECK_EQ_U64(info.mcfg[1].base, 0xe0000000ULL);
	CHECK_EQ_U64(info.mcfg[1].segment, 4);
	CHECK_EQ_U64(info.mcfg[3].base, 0xf0000000ULL);
	CHECK(strstr(info.problem, "MCFG entry skipped: base 0xc0080000") != NULL);
}

/* An HPET table in I/O space, misaligned, or short is not used. */
static void test_hpet(void)
{
	make_root(1);
	make_mcfg(1, q35_base, q35_bus);
	make_hpet(0xfed00000ULL, 1);
	CHECK(acpi_parse(rsdp, 36, map_mem, NULL, &info) == 0);
	CHECK_EQ_U64(info.hpet_base, 0);
	CHECK(strstr(info.problem, "HPET block unusable") != NULL);
	CHECK_EQ_U64(info.nmcfg, 1);		/* the rest still counts */
	make_hpet(0xfed00100ULL, 0);
	CHECK(acpi_parse(rsdp, 36, map_mem, NULL, &info) == 0);
	CHECK_EQ_U64(info.hpet_base, 0);
	make_hpet(0xfed00000ULL, 0);
	put32(mem + HPET_OFF + 4, 40);		/* too short, checksum fixed */
	fix_sum(mem + HPET_OFF, 40, 9);
	CHECK(acpi_parse(rsdp, 36, map_mem, NULL, &info) == 0);
	CHECK_EQ_U64(info.hpet_base, 0);
	CHECK(strstr(info.problem, "HPET table too short") != NULL);
}

int main(void)
{
	test_acpi2_xsdt();
	test_acpi1_rsdt();
	test_no_mcfg();
	test_bad_rsdp();
	test_bad_root();
	test_bad_mcfg();
	test_hpet();
	CHECK(maps > 0);
	return check_report("acpi");
}
