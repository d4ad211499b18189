/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Kernel address space: the image in the higher half with per-section
 * permissions (W^X, NX), a direct map of physical RAM, and uncached
 * mappings of device memory. */
#ifndef ASM_PAGING_H
#define ASM_PAGING_H

#include <kfront/types.h>
#include <kfront/bootinfo.h>

#define KERNEL_VMA		0xffffffff80000000ULL
#define DIRECT_MAP_BASE		0xffff888000000000ULL
#define DIRECT_MAP_MAX		(64ULL << 30)	/* RAM above this is ignored */
#define IOREMAP_BASE		0xffffc90000000000ULL
#define IOREMAP_LARGE_BASE	0xffffc98000000000ULL	/* 2 MiB pages */

/*
 * Four levels of 512-entry tables: level 1 = PT (4 KiB pages), 2 = PD
 * (2 MiB), 3 = PDPT, 4 = PML4. A table at level l is indexed by the 9
 * bits of va above the 12 + 9 * (l - 1) bits the lower levels cover.
 */
#define PT_PAGE_SHIFT	12
#define PT_LEVEL_BITS	9
#define PT_ENTRIES	(1u << PT_LEVEL_BITS)
#define PT_LEVELS	4

static inline unsigned pt_index(u64 va, int level)
{
	return (unsigned)(va >> (PT_PAGE_SHIFT + PT_LEVEL_BITS * (level - 1))) &
	       (PT_ENTRIES - 1);
}

static inline void *phys_to_virt(u64 pa)
{
	return (void *)(DIRECT_MAP_BASE + pa);
}

/* Physical address of a direct-map or image address. Not of the text
 * once paging_move_text() has run: only data is ever handed to devices. */
static inline u64 virt_to_phys(const void *va)
{
	u64 v = (u64)va;

	return v >= KERNEL_VMA ? v - KERNEL_VMA : v - DIRECT_MAP_BASE;
}

/* Build the final page tables from the memory map and switch to them.
 * The identity map of the boot page tables is gone afterwards. */
void paging_init(const struct bootinfo *bi);
/* Map size bytes of device memory at pa, uncached; NULL if out of room. */
volatile void *ioremap(u64 pa, u64 size);
/* The kernel's text: where its first page runs from now, and its size
 * (whole pages). */
u64 paging_text_phys(void);
u64 paging_text_bytes(void);
/* Map the text with 2 MiB pages when paging_init() runs (textpages=2m);
 * false if the image does not allow it or the tables are built. */
bool paging_text_large_pages(void);
/* Bytes per page of the text's mapping: 4096 or 2 MiB. */
u64 paging_text_page_bytes(void);
/* Run the text from a copy at new_pa (page-aligned, in the direct map,
 * paging_text_bytes() long), at the same virtual addresses. Only for
 * text in 4 KiB pages. */
void paging_move_text(u64 new_pa);
/* Highest physical address covered by the direct map. */
u64 paging_direct_map_end(void);

#endif
