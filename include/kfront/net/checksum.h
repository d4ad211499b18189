/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Internet checksum (RFC 1071): 32-bit partial sums, folded to 16 bits.
 * Partial sums are over native-order memory words, so a folded result is
 * stored into a header without byte swapping, as in Linux. */
#ifndef KFRONT_NET_CHECKSUM_H
#define KFRONT_NET_CHECKSUM_H

#include <kfront/types.h>
#include <kfront/net/byteorder.h>

typedef u32 wsum;	/* unfolded 32-bit one's complement sum */
typedef u16 sum16;	/* folded and complemented, network order */

wsum csum_partial(const void *buf, size_t len, wsum sum);
wsum csum_partial_copy(const void *src, void *dst, size_t len, wsum sum);

static inline wsum csum_add(wsum a, wsum b)
{
	u32 r = a + b;

	return r + (r < b);
}

static inline sum16 csum_fold(wsum sum)
{
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	return (sum16)~sum;
}

/* Checksum of an IPv4 header of ihl 32-bit words (0 means valid). */
static inline sum16 ip_fast_csum(const void *iph, unsigned int ihl)
{
	return csum_fold(csum_partial(iph, (size_t)ihl * 4, 0));
}

/* Adds the TCP/UDP pseudo-header to a partial sum. */
static inline wsum csum_tcpudp_nofold(be32 saddr, be32 daddr, u32 len,
				      u8 proto, wsum sum)
{
	sum = csum_add(sum, saddr);
	sum = csum_add(sum, daddr);
	sum = csum_add(sum, htons((u16)len));
	return csum_add(sum, htons(proto));
}

static inline sum16 csum_tcpudp_magic(be32 saddr, be32 daddr, u32 len,
				      u8 proto, wsum sum)
{
	return csum_fold(csum_tcpudp_nofold(saddr, daddr, len, proto, sum));
}

#endif
