/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Kernel heap: power-of-two size classes carved from pages, with free
 * lists; larger requests take whole pages. Each block carries a 16-byte
 * header with its class so kfree needs no size. */
#include <kfront/compiler.h>
#include <kfront/mm.h>
#include <kfront/panic.h>
#include <kfront/slab.h>
#include <kfront/string.h>

#define HEAP_MAGIC	0x6b66686561700000ULL	/* "kfheap" */
#define MIN_SHIFT	5			/* 32-byte blocks */
#define MAX_SHIFT	11			/* 2048-byte blocks */
#define NR_CLASSES	(MAX_SHIFT - MIN_SHIFT + 1)
#define CLASS_PAGES	0xffff			/* header marks a page run */

struct block_hdr {
	u64 magic_class;	/* HEAP_MAGIC | class (or CLASS_PAGES) */
	u64 npages;		/* page runs: number of pages */
};
BUILD_BUG_ON(sizeof(struct block_hdr) != 16);

struct free_block {
	struct free_block *next;
};

static struct free_block *free_lists[NR_CLASSES];

static int size_class(size_t total)
{
	for (int c = 0; c < NR_CLASSES; c++) {
		if (total <= (1UL << (MIN_SHIFT + c)))
			return c;
	}
	return -1;
}

static bool refill(int c)
{
	size_t bsize = 1UL << (MIN_SHIFT + c);
	u8 *page = alloc_pages(1);

	if (!page)
		return false;
	for (size_t off = 0; off + bsize <= PAGE_SIZE; off += bsize) {
		struct free_block *b = (void *)(page + off);

		b->next = free_lists[c];
		free_lists[c] = b;
	}
	return true;
}

void *kmalloc(size_t size)
{
	size_t total = size + sizeof(struct block_hdr);
	struct block_hdr *h;
	int c = size_class(total);

	if (c < 0) {
		u64 n = ALIGN_UP(total, PAGE_SIZE) / PAGE_SIZE;

		h = alloc_pages(n);
		if (!h)
			return NULL;
		h->magic_class = HEAP_MAGIC | CLASS_PAGES;
		h->npages = n;
		return h + 1;
	}
	if (!free_lists[c] && !refill(c))
		return NULL;
	h = (void *)free_lists[c];
	free_lists[c] = free_lists[c]->next;
	h->magic_class = HEAP_MAGIC | (u64)c;
	h->npages = 0;
	return h + 1;
}

void *kzalloc(size_t size)
{
	void *p = kmalloc(size);

	if (p)
		memset(p, 0, size);
	return p;
}

void kfree(void *p)
{
	struct block_hdr *h;
	u64 c;

	if (!p)
		return;
	h = (struct block_hdr *)p - 1;
	if ((h->magic_class & ~0xffffULL) != HEAP_MAGIC)
		panic("kfree(%p): not a heap block (corrupt or double free)", p);
	c = h->magic_class & 0xffff;
	h->magic_class = 0;	/* catch double frees */
	if (c == CLASS_PAGES) {
		free_pages(h, h->npages);
		return;
	}
	((struct free_block *)h)->next = free_lists[c];
	free_lists[c] = (struct free_block *)h;
}
