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

#endif
