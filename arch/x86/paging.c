/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Final kernel page tables: 4 KiB pages for the kernel image so each
 * section gets exactly its permissions (text R-X, rodata R--, data RW-,
 * stack guard pages absent), 2 MiB pages for the direct map of RAM.
 * With textpages=2m the text alone is mapped with 2 MiB pages, as Linux
 * maps its own: the linker script gives it whole ones. */
#include <asm/paging.h>
#include <asm/stacks.h>
#include <asm/x86.h>
#include <kfront/compiler.h>
#include <kfront/panic.h>
#include <kfront/string.h>

#define PTE_P		(1ULL << 0)
#define PTE_W		(1ULL << 1)
#define PTE_PWT		(1ULL << 3)
#define PTE_PCD		(1ULL << 4)
#define PTE_PS		(1ULL << 7)
#define PTE_G		(1ULL << 8)
#define PTE_NX		(1ULL << 63)
#define PTE_ADDR	0x000ffffffffff000ULL

#define PT_POOL_PAGES	160
#define IOREMAP_PAGES	512	/* 2 MiB of device mappings in 4 KiB pages */
#define IOREMAP_LARGE	(1ULL << 30)	/* 1 GiB in 2 MiB pages (ECAM) */
#define LARGE_PAGE	(1ULL << 21)

typedef u64 pte_t;

/* Page-table pages come from this pool: the page allocator itself needs
 * the direct map, so it cannot provide them. */
static pte_t pt_pool[PT_POOL_PAGES][PT_ENTRIES] __aligned(PAGE_SIZE)
	__section(".bss.page_aligned");
static unsigned pt_pool_used;
static pte_t *pml4;
static u64 direct_map_end;
static u64 ioremap_next = IOREMAP_BASE;
static u64 ioremap_large_next = IOREMAP_LARGE_BASE;

extern char __kernel_start[], __text_start[], __text_end[], __rodata_start[],
	__rodata_end[], __kernel_end[];
/* Where the text runs from when paging_move_text() copied it; 0 while
 * it runs where the boot loader put it. */
static u64 moved_text_pa;
/* Set by paging_text_large_pages() before paging_init(). */
static bool text_large;

static pte_t *alloc_table(void)
{
	pte_t *t;

	if (pt_pool_used == PT_POOL_PAGES)
		panic("page-table pool exhausted (%d pages)", PT_POOL_PAGES);
	t = pt_pool[pt_pool_used++];
	memset(t, 0, PAGE_SIZE);
	return t;
}

/* Physical address of a table in the pool (it lives in the image). */
static u64 table_pa(const pte_t *t)
{
	return (u64)t - KERNEL_VMA;
}

static pte_t *table_va(pte_t e)
{
	return (pte_t *)((e & PTE_ADDR) + KERNEL_VMA);
}

/* Walk to the table at the given level (3 = PDPT, 2 = PD, 1 = PT). */
static pte_t *walk(u64 va, int level)
{
	pte_t *t = pml4;

	for (int l = PT_LEVELS; l > level; l--) {
		unsigned idx = pt_index(va, l);

		if (!(t[idx] & PTE_P))
			t[idx] = table_pa(alloc_table()) | PTE_P | PTE_W;
		t = table_va(t[idx]);
	}
	return t;
}

static void map_4k(u64 va, u64 pa, u64 flags)
{
	walk(va, 1)[pt_index(va, 1)] = (pa & PTE_ADDR) | flags | PTE_P;
}

static void map_2m(u64 va, u64 pa, u64 flags)
{
	walk(va, 2)[pt_index(va, 2)] = (pa & PTE_ADDR) | flags | PTE_P | PTE_PS;
}

static u64 image_flags(u64 va)
{
	if (va < (u64)__text_end)
		return PTE_G;				/* R-X */
	if (va < (u64)__rodata_end)
		return PTE_G | PTE_NX;			/* R-- */
	return PTE_G | PTE_NX | PTE_W;			/* RW- */
}

/* End of what the text's 2 MiB pages cover: the rodata's 2 MiB
 * boundary (arch/x86/kernel.ld). */
static u64 text_large_end(void)
{
	return ALIGN_UP((u64)__text_end, LARGE_PAGE);
}

static void map_kernel_image(void)
{
	u64 va = (u64)__kernel_start;

	if (text_large) {
		for (; va < text_large_end(); va += LARGE_PAGE)
			map_2m(va, va - KERNEL_VMA, image_flags((u64)__text_start));
	}
	for (; va < (u64)__kernel_end; va += PAGE_SIZE) {
		if (stack_is_guard_page(va))
			continue;	/* overflow faults here */
		map_4k(va, va - KERNEL_VMA, image_flags(va));
	}
}

/*
 * The boot page tables are not touched: the choice takes effect when
 * paging_init() builds the final tables, so no live mapping ever
 * changes its page size. Refused (false) if the image does not give the
 * text whole 2 MiB pages, which its linker script asserts.
 */
bool paging_text_large_pages(void)
{
	if ((u64)__text_start % LARGE_PAGE ||
	    text_large_end() > (u64)__rodata_start || pml4)
		return false;
	text_large = true;
	return true;
}

u64 paging_text_page_bytes(void)
{
	return text_large ? LARGE_PAGE : PAGE_SIZE;
}

static void map_direct(const struct bootinfo *bi)
{
	u64 end = 0;

	for (u32 i = 0; i < bi->nmmap; i++) {
		u64 e = bi->mmap[i].base + bi->mmap[i].len;

		if (bi->mmap[i].type == MMAP_AVAILABLE && e > end)
			end = e;
	}
	end = ALIGN_UP(min(end, DIRECT_MAP_MAX), 1ULL << 21);
	for (u64 pa = 0; pa < end; pa += 1ULL << 21)
		map_2m(DIRECT_MAP_BASE + pa, pa, PTE_W | PTE_NX | PTE_G);
	direct_map_end = end;
}

u64 paging_text_phys(void)
{
	return moved_text_pa ? moved_text_pa : (u64)__text_start - KERNEL_VMA;
}

u64 paging_text_bytes(void)
{
	return (u64)(__text_end - __text_start);
}

/*
 * The code doing this runs from the text it remaps: every instruction
 * is fetched from one copy or the other, and both hold the same bytes,
 * so switching page by page needs no trampoline. The text's pages are
 * global: invlpg drops each one's old translation (a CR3 write would
 * not). The old copy stays reserved, so nothing else ever lands on it,
 * and is filled with int3: an instruction still fetched from it would
 * stop the kernel with a #BP panic record instead of passing unseen.
 */
void paging_move_text(u64 new_pa)
{
	u64 start = (u64)__text_start, old_pa = paging_text_phys();

	if (text_large)
		panic("paging_move_text: the text is in 2 MiB pages");
	memcpy(phys_to_virt(new_pa), __text_start, paging_text_bytes());
	for (u64 va = start; va < (u64)__text_end; va += PAGE_SIZE) {
		map_4k(va, new_pa + (va - start), image_flags(va));
		invlpg(va);
	}
	moved_text_pa = new_pa;
	memset(phys_to_virt(old_pa), 0xcc, paging_text_bytes());
}

void paging_init(const struct bootinfo *bi)
{
	pml4 = alloc_table();
	map_kernel_image();
	map_direct(bi);
	write_cr3(table_pa(pml4));
}

/* Big regions (PCIe ECAM: 1 MiB per bus, up to 256 MiB) in 2 MiB pages,
 * so they cost one page-table entry per 2 MiB. */
static volatile void *ioremap_large(u64 pa, u64 size)
{
	u64 start = pa & ~(LARGE_PAGE - 1);
	u64 len = ALIGN_UP(pa + size, LARGE_PAGE) - start;
	u64 va = ioremap_large_next;

	if (len > IOREMAP_LARGE - (va - IOREMAP_LARGE_BASE))
		return NULL;
	for (u64 off = 0; off < len; off += LARGE_PAGE)
		map_2m(va + off, start + off,
		       PTE_W | PTE_NX | PTE_PCD | PTE_PWT);
	ioremap_large_next += len;
	return (volatile void *)(va + (pa - start));
}

volatile void *ioremap(u64 pa, u64 size)
{
	u64 off = pa & (PAGE_SIZE - 1);
	u64 npages = ALIGN_UP(size + off, PAGE_SIZE) / PAGE_SIZE;
	u64 va = ioremap_next;

	if (size > LARGE_PAGE)
		return ioremap_large(pa, size);
	if (va + npages * PAGE_SIZE > IOREMAP_BASE + IOREMAP_PAGES * PAGE_SIZE)
		return NULL;
	for (u64 i = 0; i < npages; i++)
		map_4k(va + i * PAGE_SIZE, (pa & PTE_ADDR) + i * PAGE_SIZE,
		       PTE_W | PTE_NX | PTE_PCD | PTE_PWT);
	ioremap_next += npages * PAGE_SIZE;
	return (volatile void *)(va + off);
}

u64 paging_direct_map_end(void)
{
	return direct_map_end;
}
