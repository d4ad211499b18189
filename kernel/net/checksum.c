/* SPDX-License-Identifier: GPL-2.0-or-later */
/* RFC 1071 Internet checksum with a 64-bit word fast path. */
#include <kfront/compiler.h>
#include <kfront/string.h>
#include <kfront/net/checksum.h>

static inline u64 load64(const u8 *p)
{
	u64 v;

	__builtin_memcpy(&v, p, 8);	/* x86 loads unaligned words cheaply */
	return v;
}

static inline u32 load32(const u8 *p)
{
	u32 v;

	__builtin_memcpy(&v, p, 4);
	return v;
}

static inline u16 load16(const u8 *p)
{
	u16 v;

	__builtin_memcpy(&v, p, 2);
	return v;
}

/* One's complement add of 64-bit words: the carry wraps around. */
static inline u64 add64_carry(u64 a, u64 b)
{
	u64 r = a + b;

	return r + (r < b);
}

static inline u32 fold64(u64 sum)
{
	sum = (sum & 0xffffffffULL) + (sum >> 32);
	sum = (sum & 0xffffffffULL) + (sum >> 32);
	return (u32)sum;
}

/*
 * Words are summed in memory order relative to buf, so the unaligned start
 * needs no byte rotation: pairing of bytes into 16-bit words is what
 * matters, and it is always relative to the first byte.
 */
static u64 do_csum(const u8 *p, size_t len)
{
	u64 sum = 0;

	while (len >= 32) {
		sum = add64_carry(sum, load64(p));
		sum = add64_carry(sum, load64(p + 8));
		sum = add64_carry(sum, load64(p + 16));
		sum = add64_carry(sum, load64(p + 24));
		p += 32;
		len -= 32;
	}
	while (len >= 8) {
		sum = add64_carry(sum, load64(p));
		p += 8;
		len -= 8;
	}
	if (len >= 4) {
		sum = add64_carry(sum, load32(p));
		p += 4;
		len -= 4;
	}
	if (len >= 2) {
		sum = add64_carry(sum, load16(p));
		p += 2;
		len -= 2;
	}
	/* A trailing odd byte is the high-order byte of a big-endian word,
	 * i.e. the low byte of a little-endian one. */
	if (len)
		sum = add64_carry(sum, *p);
	return sum;
}

wsum csum_partial(const void *buf, size_t len, wsum sum)
{
	u64 s = do_csum(buf, len);

	return csum_add(fold64(s), sum);
}

wsum csum_partial_copy(const void *src, void *dst, size_t len, wsum sum)
{
	memcpy(dst, src, len);
	return csum_partial(dst, len, sum);
}
