/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Host test of the Internet checksum: RFC 1071's example, a known IPv4
 * header, and the 64-bit fast path against a byte-wise reference on
 * random buffers of every length and alignment. */
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include <kfront/net/checksum.h>

/* The slow reference: big-endian 16-bit words, carries folded at the end. */
static u16 ref_csum(const u8 *p, size_t len, u32 extra)
{
	u64 sum = extra;
	size_t i;

	for (i = 0; i + 1 < len; i += 2)
		sum += (u32)(p[i] << 8 | p[i + 1]);
	if (len & 1)
		sum += (u32)p[len - 1] << 8;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (u16)~sum;
}

static void test_rfc1071_example(void)
{
	/* RFC 1071 section 3: the sum of these words is ddf2. */
	static const u8 b[8] = { 0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7 };

	CHECK_EQ_U64(ntohs(csum_fold(csum_partial(b, 8, 0))), 0xffff & ~0xddf2);
	CHECK_EQ_U64(ref_csum(b, 8, 0), 0x220d);
	/* Byte order independence: the swapped sum is the swapped result. */
	CHECK_EQ_U64(csum_fold(csum_partial(b, 8, 0)), htons(0x220d));
}

static void test_ip_header(void)
{
	u8 h[20] = { 0x45, 0x00, 0x00, 0x73, 0x00, 0x00, 0x40, 0x00, 0x40,
		     0x11, 0x00, 0x00, 0xc0, 0xa8, 0x00, 0x01, 0xc0, 0xa8,
		     0x00, 0xc7 };
	u16 c = ip_fast_csum(h, 5);

	CHECK_EQ_U64(ntohs(c), 0xb861);
	memcpy(h + 10, &c, 2);
	CHECK_EQ_U64(ip_fast_csum(h, 5), 0);	/* a valid header sums to 0 */
}

static void test_random(void)
{
	u8 *buf = malloc(4096 + 16), *copy = malloc(4096 + 16);
	size_t len, align;
	u32 seed = 12345;
	int bad = 0;

	for (len = 0; len < 4096 + 16; len++) {
		seed = seed * 1103515245u + 12345u;
		buf[len] = (u8)(seed >> 16);
	}
	for (len = 0; len <= 1600; len++) {
		for (align = 0; align < 16; align++) {
			const u8 *p = buf + align;
			u16 got = ntohs(csum_fold(csum_partial(p, len, 0)));

			bad += got != ref_csum(p, len, 0);
		}
	}
	CHECK(bad == 0);
	/* All-ones data exercises every carry. */
	memset(buf, 0xff, 4096);
	for (len = 0; len <= 4096; len += 97)
		CHECK_EQ_U64(ntohs(csum_fold(csum_partial(buf, len, 0))),
			     ref_csum(buf, len, 0));
	/* Split sums at even offsets equal the whole; copy+sum matches. */
	for (len = 0; len < 1000; len += 2) {
		wsum a = csum_partial(buf + 100, len, 0);

		CHECK_EQ_U64(csum_fold(csum_partial(buf + 100 + len, 300, a)),
			     csum_fold(csum_partial(buf + 100, len + 300, 0)));
	}
	memset(copy, 0, 4096);
	CHECK_EQ_U64(csum_partial_copy(buf + 3, copy + 5, 999, 7),
		     csum_partial(buf + 3, 999, 7));
	CHECK(!memcmp(buf + 3, copy + 5, 999));
	free(buf);
	free(copy);
}

static void test_pseudo_header(void)
{
	u8 seg[13] = { 0x12, 0x34, 0x56, 0x78, 0x00, 0x0d, 0, 0, 'h', 'e',
		       'l', 'l', 'o' };
	u8 ph[12] = { 10, 0, 0, 1, 10, 0, 0, 2, 0, 17, 0, 13 };
	be32 s = IPV4_ADDR(10, 0, 0, 1), d = IPV4_ADDR(10, 0, 0, 2);
	u8 all[25];
	u16 want;

	memcpy(all, ph, 12);
	memcpy(all + 12, seg, 13);
	want = ref_csum(all, 25, 0);
	CHECK_EQ_U64(ntohs(csum_tcpudp_magic(s, d, 13, 17,
					     csum_partial(seg, 13, 0))), want);
}

int main(void)
{
	test_rfc1071_example();
	test_ip_header();
	test_random();
	test_pseudo_header();
	return check_report("test_net_csum");
}
