/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Memory and string helpers. A kernel compiles these with its own flags,
 * so they are measured code: each compiler variant gets its own copy. */
#define KFRONT_STRING_IMPL	/* the real functions, not the builtins */
#include <kfront/string.h>

/* A variant built with -DKFRONT_ASM_STRING takes memcpy and memset from
 * arch/x86/string_asm.c instead: Linux's are assembly, the same in every
 * variant (docs/hybrid.md, "Linux's string helpers"). */
#ifndef KFRONT_ASM_STRING
void *memcpy(void *dst, const void *src, size_t n)
{
	u8 *d = dst;
	const u8 *s = src;

	/* Word copies first: packet payloads are mostly long and aligned. */
	while (n >= 8) {
		u64 w;

		__builtin_memcpy(&w, s, 8);
		__builtin_memcpy(d, &w, 8);
		d += 8;
		s += 8;
		n -= 8;
	}
	while (n--)
		*d++ = *s++;
	return dst;
}
#endif

void *memmove(void *dst, const void *src, size_t n)
{
	u8 *d = dst;
	const u8 *s = src;

	if (d <= s || d >= s + n)
		return memcpy(dst, src, n);
	d += n;
	s += n;
	while (n--)
		*--d = *--s;
	return dst;
}

#ifndef KFRONT_ASM_STRING
void *memset(void *dst, int c, size_t n)
{
	u8 *d = dst;
	u64 w = 0x0101010101010101ULL * (u8)c;

	while (n >= 8) {
		__builtin_memcpy(d, &w, 8);
		d += 8;
		n -= 8;
	}
	while (n--)
		*d++ = (u8)c;
	return dst;
}
#endif

int memcmp(const void *a, const void *b, size_t n)
{
	const u8 *x = a, *y = b;

	for (; n; n--, x++, y++) {
		if (*x != *y)
			return *x < *y ? -1 : 1;
	}
	return 0;
}

size_t strlen(const char *s)
{
	const char *p = s;

	while (*p)
		p++;
	return (size_t)(p - s);
}

size_t strnlen(const char *s, size_t max)
{
	size_t n = 0;

	while (n < max && s[n])
		n++;
	return n;
}

int strcmp(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return (u8)*a - (u8)*b;
}

int strncmp(const char *a, const char *b, size_t n)
{
	for (; n; n--, a++, b++) {
		if (*a != *b || !*a)
			return (u8)*a - (u8)*b;
	}
	return 0;
}

char *strchr(const char *s, int c)
{
	for (;; s++) {
		if (*s == (char)c)
			return (char *)s;
		if (!*s)
			return NULL;
	}
}
