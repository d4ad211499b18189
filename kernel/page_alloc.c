/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Physical page allocator: a bitmap over the first 4 GiB, first fit with a
 * moving hint. Simple and enough for the workloads' buffers and stacks. */
#include <asm/paging.h>
#include <kfront/compiler.h>
#include <kfront/mm.h>
#include <kfront/string.h>

#define NR_PAGES	(PAGE_ALLOC_MAX_PHYS >> PAGE_SHIFT)
#define LOW_MEMORY	(1ULL << 20)	/* leave real-mode memory alone */

static u64 used_map[NR_PAGES / 64];	/* bit set = page not available */
static u64 hint;
static struct page_stats stats;

static bool page_used(u64 pfn)
{
	return used_map[pfn / 64] & (1ULL << (pfn % 64));
}

static void mark(u64 pfn, bool used)
{
	if (used)
		used_map[pfn / 64] |= 1ULL << (pfn % 64);
	else
		used_map[pfn / 64] &= ~(1ULL << (pfn % 64));
}

static void free_range(u64 start, u64 end, u64 rsv_start, u64 rsv_end)
{
	u64 limit = min(paging_direct_map_end(), PAGE_ALLOC_MAX_PHYS);

	start = ALIGN_UP(max(start, LOW_MEMORY), PAGE_SIZE);
	end = ALIGN_DOWN(end, PAGE_SIZE);
	if (end > limit) {
		stats.ignored_bytes += end - max(start, limit);
		end = limit;
	}
	for (u64 pa = start; pa < end; pa += PAGE_SIZE) {
		if (pa >= rsv_start && pa < rsv_end)
			continue;
		if (page_used(pa >> PAGE_SHIFT)) {
			mark(pa >> PAGE_SHIFT, false);
			stats.total_pages++;
			stats.free_pages++;
		}
	}
}

void page_alloc_init(const struct bootinfo *bi, u64 rsv_start, u64 rsv_end)
{
	memset(used_map, 0xff, sizeof(used_map));
	for (u32 i = 0; i < bi->nmmap; i++) {
		const struct mmap_region *r = &bi->mmap[i];

		if (r->type == MMAP_AVAILABLE)
			free_range(r->base, r->base + r->len, rsv_start, rsv_end);
	}
	/* Overlapping map entries of another type win: re-reserve them. */
	for (u32 i = 0; i < bi->nmmap; i++) {
		const struct mmap_region *r = &bi->mmap[i];
		u64 end = min(r->base + r->len, PAGE_ALLOC_MAX_PHYS);

		if (r->type == MMAP_AVAILABLE)
			continue;
		for (u64 pa = ALIGN_DOWN(r->base, PAGE_SIZE); pa < end; pa += PAGE_SIZE) {
			if (!page_used(pa >> PAGE_SHIFT)) {
				mark(pa >> PAGE_SHIFT, true);
				stats.total_pages--;
				stats.free_pages--;
			}
		}
	}
}

static bool run_free(u64 pfn, u64 n)
{
	for (u64 i = 0; i < n; i++) {
		if (pfn + i >= NR_PAGES || page_used(pfn + i))
			return false;
	}
	return true;
}

void *alloc_pages(u64 n)
{
	for (u64 pass = 0; pass < 2; pass++) {
		for (u64 pfn = pass ? 0 : hint; pfn + n <= NR_PAGES; pfn++) {
			if (used_map[pfn / 64] == ~0ULL && !(pfn % 64)) {
				pfn += 63;	/* skip a full word */
				continue;
			}
			if (!run_free(pfn, n))
				continue;
			for (u64 i = 0; i < n; i++)
				mark(pfn + i, true);
			stats.free_pages -= n;
			hint = pfn + n;
			return phys_to_virt(pfn << PAGE_SHIFT);
		}
	}
	return NULL;
}

void free_pages(void *va, u64 n)
{
	u64 pfn = virt_to_phys(va) >> PAGE_SHIFT;

	for (u64 i = 0; i < n; i++)
		mark(pfn + i, false);
	stats.free_pages += n;
	if (pfn < hint)
		hint = pfn;
}

void page_alloc_stats(struct page_stats *st)
{
	*st = stats;
}
