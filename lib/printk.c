/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * printk, the one varargs front end: the kernel (kernel/printk.c) and the
 * host programs (host/runtime.c) each supply only vprintk, their way to
 * a console, so a message is formatted the same way on both.
 */
#include <kfront/printk.h>

int printk(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vprintk(fmt, ap);
	va_end(ap);
	return n;
}
