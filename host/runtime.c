/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Host implementations of the kernel services the runtime and the
 * measured code call: the console (stdout), panic, and the page
 * allocator under the kernel's own heap (kernel/heap.c, built natively,
 * so kmalloc costs the same instructions as in the kernel). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kfront/exit.h>
#include <kfront/mm.h>
#include <kfront/panic.h>
#include <kfront/printk.h>

void console_write(const char *s, size_t len)
{
	fwrite(s, 1, len, stdout);
}

/* printk itself is lib/printk.c, shared with the kernel. */
int vprintk(const char *fmt, va_list ap)
{
	return vprintf(fmt, ap);
}

void panic(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("kfront: panic: ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fputs("\n", stdout);
	fflush(stdout);
	exit(EXIT_PANIC);
}

/* Page-aligned runs from the C library; mlockall (main.c) makes them
 * resident when they are mapped. Zeroed, as fresh kernel pages are
 * touched by their first user anyway. */
void *alloc_pages(u64 n)
{
	void *p = aligned_alloc(PAGE_SIZE, n * PAGE_SIZE);

	if (p)
		memset(p, 0, n * PAGE_SIZE);
	return p;
}

void free_pages(void *va, u64 n)
{
	free(va);
}
