/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The pages the kernel's text runs from (include/kfront/arch.h).
 *
 * textpages=2m maps it with 2 MiB pages, as Linux maps its own text: one
 * iTLB entry per 2 MiB instead of per 4 KiB, and the code's physical
 * address bits below 21 are its virtual ones.
 *
 * placement=: run the text from a copy at a chosen page of a
 * 2 MiB-aligned physical region. The L2 and L3
 * caches are indexed by physical address, so the code's physical pages
 * decide which of its lines compete for a set there; the boot loader
 * puts one image at one address every time, so without a copy every boot
 * measures one placement. Virtual addresses do not change: the L1i, the
 * uop cache and the branch predictors see the same code.
 */
#include <asm/paging.h>
#include <kfront/arch.h>
#include <kfront/compiler.h>
#include <kfront/errno.h>
#include <kfront/mm.h>

#define REGION_PAGES	(ARCH_TEXT_REGION >> PAGE_SHIFT)

int arch_text_place(u32 page)
{
	u64 text_pages = paging_text_bytes() >> PAGE_SHIFT;
	/* Room for the aligned start wherever the run begins. */
	u64 total = REGION_PAGES - 1 + page + text_pages;
	void *va;
	u64 pa, start, end;

	if (page >= REGION_PAGES || paging_text_page_bytes() != PAGE_SIZE)
		return -EINVAL;
	va = alloc_pages(total);
	if (!va)
		return -ENOMEM;
	pa = arch_virt_to_phys(va);
	start = ALIGN_UP(pa, ARCH_TEXT_REGION) + ((u64)page << PAGE_SHIFT);
	end = start + (text_pages << PAGE_SHIFT);
	/* Give back what the copy does not use, before and after it. */
	if (start > pa)
		free_pages(va, (start - pa) >> PAGE_SHIFT);
	if (pa + (total << PAGE_SHIFT) > end)
		free_pages(phys_to_virt(end),
			   (pa + (total << PAGE_SHIFT) - end) >> PAGE_SHIFT);
	paging_move_text(start);
	return 0;
}

bool arch_text_large_pages(void)
{
	return paging_text_large_pages();
}

u64 arch_text_page_bytes(void)
{
	return paging_text_page_bytes();
}

u64 arch_text_phys(void)
{
	return paging_text_phys();
}

u64 arch_text_bytes(void)
{
	return paging_text_bytes();
}
