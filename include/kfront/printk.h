/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Formatted kernel output (own implementation, no libc). */
#ifndef KFRONT_PRINTK_H
#define KFRONT_PRINTK_H

#include <kfront/compiler.h>
#include <kfront/types.h>

int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int snprintf(char *buf, size_t size, const char *fmt, ...) __printf(3, 4);
int printk(const char *fmt, ...) __printf(1, 2);
int vprintk(const char *fmt, va_list ap);
/* Write raw bytes to every console (serial). */
void console_write(const char *s, size_t len);

#endif
