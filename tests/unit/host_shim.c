/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Host implementations of the kernel services that kernel C code calls,
 * so the same sources run as native unit tests: kmalloc maps onto malloc,
 * printk onto stdout. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *kmalloc(size_t size)
{
	return malloc(size);
}

void *kzalloc(size_t size)
{
	return calloc(1, size);
}

void kfree(void *p)
{
	free(p);
}

/* printk itself is lib/printk.c, linked beside this shim. */
int vprintk(const char *fmt, va_list ap)
{
	return vprintf(fmt, ap);
}
