/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Physical page allocator. Pages are returned as direct-map addresses. */
#ifndef KFRONT_MM_H
#define KFRONT_MM_H

#include <kfront/types.h>
#include <kfront/bootinfo.h>

#define PAGE_SHIFT	12
#ifndef PAGE_SIZE
#define PAGE_SIZE	4096
#endif
#define PAGE_ALLOC_MAX_PHYS	(4ULL << 30)	/* managed RAM limit */

struct page_stats {
	u64 total_pages;	/* usable pages handed to the allocator */
	u64 free_pages;
	u64 ignored_bytes;	/* RAM above PAGE_ALLOC_MAX_PHYS */
};

/* Reserve [rsv_start, rsv_end) physical (the kernel image) and free all
 * other available RAM above 1 MiB. */
void page_alloc_init(const struct bootinfo *bi, u64 rsv_start, u64 rsv_end);
/* n physically contiguous pages, or NULL. */
void *alloc_pages(u64 n);
void free_pages(void *va, u64 n);
void page_alloc_stats(struct page_stats *st);

#endif
