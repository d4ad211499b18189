/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Host test of pt_index (asm/paging.h): the one place that turns a
 * virtual address into the entry number of each page-table level. */
#include <string.h>
#include <asm/paging.h>
#include "check.h"

/* An address built from chosen indices: pml4, pdpt, pd, pt, offset. */
static u64 make_va(u64 l4, u64 l3, u64 l2, u64 l1, u64 off)
{
	u64 va = l4 << 39 | l3 << 30 | l2 << 21 | l1 << 12 | off;

	/* canonical: bit 47 copied upwards */
	return (va & (1ULL << 47)) ? va | 0xffff000000000000ULL : va;
}

static void test_each_level_reads_its_nine_bits(void)
{
	u64 va = make_va(0x1a5, 0x0c3, 0x17e, 0x001, 0xfff);

	CHECK_EQ_U64(pt_index(va, 4), 0x1a5);
	CHECK_EQ_U64(pt_index(va, 3), 0x0c3);
	CHECK_EQ_U64(pt_index(va, 2), 0x17e);
	CHECK_EQ_U64(pt_index(va, 1), 0x001);
}

/* The kernel's own regions, whose indices are well known. */
static void test_kernel_addresses(void)
{
	CHECK_EQ_U64(pt_index(KERNEL_VMA, 4), 511);
	CHECK_EQ_U64(pt_index(KERNEL_VMA, 3), 510);
	CHECK_EQ_U64(pt_index(KERNEL_VMA, 2), 0);
	CHECK_EQ_U64(pt_index(KERNEL_VMA, 1), 0);
	CHECK_EQ_U64(pt_index(DIRECT_MAP_BASE, 4), 273);
	CHECK_EQ_U64(pt_index(KERNEL_VMA + (1ULL << 21) + (5ULL << 12), 2), 1);
	CHECK_EQ_U64(pt_index(KERNEL_VMA + (1ULL << 21) + (5ULL << 12), 1), 5);
}

static void test_bounds(void)
{
	CHECK_EQ_U64(pt_index(0, 1), 0);
	CHECK_EQ_U64(pt_index(~0ULL, 1), PT_ENTRIES - 1);
	CHECK_EQ_U64(pt_index(~0ULL, PT_LEVELS), PT_ENTRIES - 1);
	CHECK_EQ_U64(pt_index(0xfffULL, 1), 0);		/* the page offset */
	CHECK_EQ_U64(pt_index(0x1000ULL, 1), 1);
}

int main(void)
{
	test_each_level_reads_its_nine_bits();
	test_kernel_addresses();
	test_bounds();
	return check_report("paging");
}
