/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Memory and string helpers. The mem* functions are part of the measured
 * code (lib/string.c), compiled once per variant like a kernel's own. */
#ifndef KFRONT_STRING_H
#define KFRONT_STRING_H

#include <kfront/types.h>

void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
size_t strnlen(const char *s, size_t max);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
char *strchr(const char *s, int c);

/*
 * -ffreestanding turns off the compiler's knowledge of the mem* functions,
 * so a 20-byte memcpy would always be a call. Kernels route them through
 * the builtins (as Linux's asm/string_64.h does), which lets the compiler
 * inline small constant-size copies: how it inlines them (moves, or
 * rep movs under -Os) is exactly what kfront measures. lib/string.c,
 * which implements them, sees the plain declarations.
 */
#ifndef KFRONT_STRING_IMPL
#define memcpy(d, s, n)		__builtin_memcpy(d, s, n)
#define memmove(d, s, n)	__builtin_memmove(d, s, n)
#define memset(d, c, n)		__builtin_memset(d, c, n)
#define memcmp(a, b, n)		__builtin_memcmp(a, b, n)
#endif

#endif
