/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Multiboot2 information walker with bounds checks on every tag. */
#include <kfront/bootinfo.h>
#include <kfront/compiler.h>
#include <kfront/errno.h>
#include <kfront/printk.h>
#include <kfront/string.h>

#define MB2_TAG_END		0
#define MB2_TAG_CMDLINE		1
#define MB2_TAG_LOADER		2
#define MB2_TAG_MMAP		6
#define MB2_TAG_EFI64		12
#define MB2_TAG_ACPI_OLD	14	/* a copy of the ACPI 1.0 RSDP */
#define MB2_TAG_ACPI_NEW	15	/* a copy of the ACPI 2.0+ RSDP */

struct mb2_header {
	u32 total_size;
	u32 reserved;
};

struct mb2_tag {
	u32 type;
	u32 size;
};

struct mb2_mmap_tag {
	u32 type;
	u32 size;
	u32 entry_size;
	u32 entry_version;
};

struct mb2_mmap_entry {
	u64 base;
	u64 len;
	u32 type;
	u32 reserved;
};

BUILD_BUG_ON(sizeof(struct mb2_header) != 8);
BUILD_BUG_ON(sizeof(struct mb2_tag) != 8);
BUILD_BUG_ON(sizeof(struct mb2_mmap_tag) != 16);
BUILD_BUG_ON(sizeof(struct mb2_mmap_entry) != 24);

/* Copy a string tag's payload; it must be NUL-terminated inside the tag. */
static int copy_string(const u8 *payload, u32 plen, char *dst, size_t dlen,
		       const char *what, char *err, size_t errlen)
{
	size_t n = strnlen((const char *)payload, plen);

	if (n == plen) {
		snprintf(err, errlen, "multiboot2 %s tag is not NUL-terminated",
			 what);
		return -EINVAL;
	}
	if (n >= dlen) {
		snprintf(err, errlen, "multiboot2 %s is %zu bytes, limit %zu",
			 what, n, dlen - 1);
		return -EINVAL;
	}
	memcpy(dst, payload, n + 1);
	return 0;
}

/*
 * The command line is kept with its real length even when it is too long
 * to keep: the kernel then stops with "bad command line" naming the
 * length, instead of a panic or a silently shortened line.
 */
static int copy_cmdline(const u8 *payload, u32 plen, struct bootinfo *bi,
			char *err, size_t errlen)
{
	size_t n = strnlen((const char *)payload, plen);

	if (n == plen) {
		snprintf(err, errlen, "multiboot2 command line tag is not NUL-terminated");
		return -EINVAL;
	}
	bi->cmdline_len = n;
	if (n < sizeof(bi->cmdline))
		memcpy(bi->cmdline, payload, n + 1);
	else
		bi->cmdline[0] = '\0';
	return 0;
}

static int parse_mmap(const u8 *tag, u32 size, struct bootinfo *bi,
		      char *err, size_t errlen)
{
	const struct mb2_mmap_tag *mt = (const void *)tag;
	u32 off;

	if (size < sizeof(*mt) || mt->entry_size < sizeof(struct mb2_mmap_entry) ||
	    mt->entry_size % 8) {
		snprintf(err, errlen, "multiboot2 memory map: bad entry size %u",
			 size < sizeof(*mt) ? 0 : mt->entry_size);
		return -EINVAL;
	}
	for (off = sizeof(*mt); off + mt->entry_size <= size; off += mt->entry_size) {
		struct mb2_mmap_entry e;

		memcpy(&e, tag + off, sizeof(e));
		if (bi->nmmap == BOOTINFO_MAX_MMAP) {
			bi->mmap_truncated = true;
			break;
		}
		bi->mmap[bi->nmmap].base = e.base;
		bi->mmap[bi->nmmap].len = e.len;
		bi->mmap[bi->nmmap].type = e.type;
		bi->nmmap++;
	}
	return 0;
}

/* Keeps the newest RSDP copy: tag 15 wins over tag 14 in either order. */
static void copy_rsdp(const u8 *payload, u32 plen, bool v2,
		      struct bootinfo *bi)
{
	if (bi->acpi_rsdp_v2 && !v2)
		return;
	plen = min(plen, (u32)BOOTINFO_RSDP_MAX);
	memcpy(bi->acpi_rsdp, payload, plen);
	bi->acpi_rsdp_len = plen;
	bi->acpi_rsdp_v2 = v2;
}

static int parse_tag(const u8 *tag, u32 type, u32 size, struct bootinfo *bi,
		     char *err, size_t errlen)
{
	const u8 *payload = tag + sizeof(struct mb2_tag);
	u32 plen = size - (u32)sizeof(struct mb2_tag);

	switch (type) {
	case MB2_TAG_CMDLINE:
		return copy_cmdline(payload, plen, bi, err, errlen);
	case MB2_TAG_LOADER:
		return copy_string(payload, plen, bi->loader, sizeof(bi->loader),
				   "boot loader name", err, errlen);
	case MB2_TAG_MMAP:
		return parse_mmap(tag, size, bi, err, errlen);
	case MB2_TAG_EFI64:
		bi->efi = true;
		return 0;
	case MB2_TAG_ACPI_OLD:
	case MB2_TAG_ACPI_NEW:
		copy_rsdp(payload, plen, type == MB2_TAG_ACPI_NEW, bi);
		return 0;
	default:
		return 0;	/* tags we do not use are skipped */
	}
}

int mb2_parse(const void *mbi, size_t avail, struct bootinfo *bi,
	      char *err, size_t errlen)
{
	const u8 *base = mbi;
	struct mb2_header hdr;
	u32 off;

	memset(bi, 0, sizeof(*bi));
	if (!mbi || avail < sizeof(hdr)) {
		snprintf(err, errlen, "multiboot2 information missing or too small");
		return -EINVAL;
	}
	memcpy(&hdr, base, sizeof(hdr));
	if (hdr.total_size < sizeof(hdr) + sizeof(struct mb2_tag) ||
	    hdr.total_size > avail) {
		snprintf(err, errlen, "multiboot2 total size %u out of range (8..%zu)",
			 hdr.total_size, avail);
		return -EINVAL;
	}
	for (off = sizeof(hdr); off + sizeof(struct mb2_tag) <= hdr.total_size;) {
		struct mb2_tag t;
		int ret;

		memcpy(&t, base + off, sizeof(t));
		if (t.size < sizeof(t) || t.size > hdr.total_size - off) {
			snprintf(err, errlen,
				 "multiboot2 tag type %u at offset %u has bad size %u",
				 t.type, off, t.size);
			return -EINVAL;
		}
		if (t.type == MB2_TAG_END)
			return 0;
		ret = parse_tag(base + off, t.type, t.size, bi, err, errlen);
		if (ret)
			return ret;
		bi->ntags++;
		off += ALIGN_UP(t.size, 8u);
	}
	snprintf(err, errlen, "multiboot2 information has no end tag");
	return -EINVAL;
}
