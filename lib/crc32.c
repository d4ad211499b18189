/* SPDX-License-Identifier: GPL-2.0-or-later */
/* CRC-32 (IEEE 802.3, reflected, as zlib computes it) for result records. */
#include <kfront/crc32.h>

/* Bitwise form: records are short and this keeps no 1 KiB table around. */
u32 crc32_update(u32 crc, const void *data, size_t len)
{
	const u8 *p = data;

	crc = ~crc;
	while (len--) {
		crc ^= *p++;
		for (int k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0xedb88320u & -(crc & 1));
	}
	return ~crc;
}
