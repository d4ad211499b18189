/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Byte-order helpers for wire formats (x86 is little-endian). */
#ifndef KFRONT_NET_BYTEORDER_H
#define KFRONT_NET_BYTEORDER_H

#include <kfront/types.h>

static inline be16 htons(u16 v)
{
	return __builtin_bswap16(v);
}

static inline u16 ntohs(be16 v)
{
	return __builtin_bswap16(v);
}

static inline be32 htonl(u32 v)
{
	return __builtin_bswap32(v);
}

static inline u32 ntohl(be32 v)
{
	return __builtin_bswap32(v);
}

/* Unaligned big-endian accessors for option parsing. */
static inline u16 get_be16(const u8 *p)
{
	return (u16)((p[0] << 8) | p[1]);
}

static inline u32 get_be32(const u8 *p)
{
	return ((u32)p[0] << 24) | ((u32)p[1] << 16) | ((u32)p[2] << 8) | p[3];
}

static inline void put_be16(u8 *p, u16 v)
{
	p[0] = (u8)(v >> 8);
	p[1] = (u8)v;
}

static inline void put_be32(u8 *p, u32 v)
{
	p[0] = (u8)(v >> 24);
	p[1] = (u8)(v >> 16);
	p[2] = (u8)(v >> 8);
	p[3] = (u8)v;
}

/* IPv4 address a.b.c.d in network order. */
#define IPV4_ADDR(a, b, c, d) \
	((be32)(((u32)(d) << 24) | ((u32)(c) << 16) | ((u32)(b) << 8) | (u32)(a)))

#endif
