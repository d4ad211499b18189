/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Fixed-width integer types for kernel code (no libc headers). */
#ifndef KFRONT_TYPES_H
#define KFRONT_TYPES_H

#include <stddef.h>	/* freestanding: size_t, NULL, offsetof */
#include <stdint.h>	/* freestanding: fixed-width integers */
#include <stdbool.h>
#include <stdarg.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;

/* Network-order annotations: documentation only, no sparse here. */
typedef u16 be16;
typedef u32 be32;

typedef long ssize_t;
typedef unsigned long uintptr;

#endif
