/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Host tests of the multiboot2 tag walker: valid, truncated and oversized
 * tags, missing end tag, strings without NUL, the ACPI RSDP copies. */
#include <string.h>
#include <kfront/bootinfo.h>
#include <kfront/errno.h>
#include "check.h"

static unsigned char buf[4096] __attribute__((aligned(8)));
static size_t pos;

static void put32(size_t off, unsigned v)
{
	memcpy(buf + off, &v, 4);
}

static void begin(void)
{
	memset(buf, 0, sizeof(buf));
	pos = 8;
}

static void tag(unsigned type, const void *payload, unsigned plen)
{
	put32(pos, type);
	put32(pos + 4, 8 + plen);
	if (plen)
		memcpy(buf + pos + 8, payload, plen);
	pos += (8 + plen + 7) & ~7u;
}

static size_t finish(void)
{
	tag(0, NULL, 0);
	put32(0, (unsigned)pos);
	return pos;
}

static void mmap_tag(unsigned n)
{
	unsigned char p[8 + 24 * 8];
	unsigned long long base = 0, len = 0x9f000;

	memset(p, 0, sizeof(p));
	put32(0, 0);
	memcpy(p, &(unsigned){24}, 4);
	memcpy(p + 4, &(unsigned){0}, 4);
	for (unsigned i = 0; i < n; i++) {
		memcpy(p + 8 + 24 * i, &base, 8);
		memcpy(p + 16 + 24 * i, &len, 8);
		memcpy(p + 24 + 24 * i, &(unsigned){i ? 1 : 2}, 4);
		base += 0x100000;
	}
	tag(6, p, 8 + 24 * n);
}

static struct bootinfo bi;
static char err[200];

static void test_valid(void)
{
	size_t total;

	begin();
	tag(1, "bench=none exit=qemu", 21);
	tag(2, "GRUB 2.06", 10);
	mmap_tag(3);
	tag(12, "\0\0\0\0\0\0\0\0", 8);
	tag(99, "unknown", 7);
	total = finish();
	CHECK(mb2_parse(buf, total, &bi, err, sizeof(err)) == 0);
	CHECK_STR(bi.cmdline, "bench=none exit=qemu");
	CHECK_STR(bi.loader, "GRUB 2.06");
	CHECK_EQ_U64(bi.nmmap, 3);
	CHECK_EQ_U64(bi.mmap[1].base, 0x100000);
	CHECK_EQ_U64(bi.mmap[0].type, 2);
	CHECK(bi.efi);
	CHECK_EQ_U64(bi.ntags, 5);
}

static void test_truncated(void)
{
	size_t total;

	begin();
	tag(1, "x=1", 4);
	total = finish();
	/* the declared size is larger than what is available */
	CHECK(mb2_parse(buf, total - 8, &bi, err, sizeof(err)) == -EINVAL);
	CHECK(strstr(err, "total size") != NULL);
	/* a header only, or nothing */
	CHECK(mb2_parse(buf, 4, &bi, err, sizeof(err)) == -EINVAL);
	CHECK(mb2_parse(NULL, 100, &bi, err, sizeof(err)) == -EINVAL);
	/* no end tag: the walk runs out of data */
	begin();
	tag(1, "x=1", 4);
	put32(0, (unsigned)pos);
	CHECK(mb2_parse(buf, pos, &bi, err, sizeof(err)) == -EINVAL);
	CHECK(strstr(err, "no end tag") != NULL);
}

static void test_oversized_tag(void)
{
	size_t total;

	begin();
	tag(1, "x=1", 4);
	total = finish();
	put32(12, 4000);	/* command line tag claims 4000 bytes */
	CHECK(mb2_parse(buf, total, &bi, err, sizeof(err)) == -EINVAL);
	CHECK(strstr(err, "bad size 4000") != NULL);
	put32(12, 4);		/* smaller than a tag header */
	CHECK(mb2_parse(buf, total, &bi, err, sizeof(err)) == -EINVAL);
}

static void test_bad_strings_and_mmap(void)
{
	size_t total;

	begin();
	tag(1, "abc", 3);	/* no NUL inside the tag */
	total = finish();
	CHECK(mb2_parse(buf, total, &bi, err, sizeof(err)) == -EINVAL);
	CHECK(strstr(err, "not NUL-terminated") != NULL);

	begin();
	mmap_tag(2);
	put32(8 + 8, 12);	/* entry size smaller than an entry */
	total = finish();
	CHECK(mb2_parse(buf, total, &bi, err, sizeof(err)) == -EINVAL);
	CHECK(strstr(err, "memory map") != NULL);
}

/* A command line too long to keep is no parse error: its length is kept,
 * so the kernel can stop with "bad command line" naming it. */
static void test_long_cmdline(void)
{
	static char line[CMDLINE_MAX + 100];
	size_t total;

	memset(line, 'a', sizeof(line) - 1);
	line[sizeof(line) - 1] = '\0';
	begin();
	tag(1, line, sizeof(line));
	total = finish();
	CHECK(mb2_parse(buf, total, &bi, err, sizeof(err)) == 0);
	CHECK_EQ_U64(bi.cmdline_len, sizeof(line) - 1);
	CHECK_STR(bi.cmdline, "");

	line[CMDLINE_MAX - 1] = '\0';	/* the longest line that is kept */
	begin();
	tag(1, line, CMDLINE_MAX);
	total = finish();
	CHECK(mb2_parse(buf, total, &bi, err, sizeof(err)) == 0);
	CHECK_EQ_U64(bi.cmdline_len, CMDLINE_MAX - 1);
	CHECK_EQ_U64(strlen(bi.cmdline), CMDLINE_MAX - 1);
}

/* The RSDP copies: the ACPI 2.0 one (tag 15) is kept whichever comes
 * first; a 1.0 copy alone is kept as it is. */
static void test_acpi_rsdp(void)
{
	unsigned char v1[20] = "RSD PTR ", v2[36] = "RSD PTR ";
	size_t total;

	v1[15] = 0;
	v2[15] = 2;
	begin();
	tag(15, v2, sizeof(v2));
	tag(14, v1, sizeof(v1));
	total = finish();
	CHECK(mb2_parse(buf, total, &bi, err, sizeof(err)) == 0);
	CHECK_EQ_U64(bi.acpi_rsdp_len, 36);
	CHECK(bi.acpi_rsdp_v2 && bi.acpi_rsdp[15] == 2);

	begin();
	tag(14, v1, sizeof(v1));
	total = finish();
	CHECK(mb2_parse(buf, total, &bi, err, sizeof(err)) == 0);
	CHECK_EQ_U64(bi.acpi_rsdp_len, 20);
	CHECK(!bi.acpi_rsdp_v2 && !memcmp(bi.acpi_rsdp, "RSD PTR ", 8));

	begin();
	tag(1, "x", 2);
	total = finish();
	CHECK(mb2_parse(buf, total, &bi, err, sizeof(err)) == 0);
	CHECK_EQ_U64(bi.acpi_rsdp_len, 0);
}

int main(void)
{
	test_acpi_rsdp();
	test_valid();
	test_truncated();
	test_oversized_tag();
	test_bad_strings_and_mmap();
	test_long_cmdline();
	return check_report("multiboot2");
}
