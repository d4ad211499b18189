/* SPDX-License-Identifier: GPL-2.0-or-later */
/* CRC-32 as used by result records (same value as Python's zlib.crc32). */
#ifndef KFRONT_CRC32_H
#define KFRONT_CRC32_H

#include <kfront/types.h>

/* Start with crc = 0; feed successive chunks. */
u32 crc32_update(u32 crc, const void *data, size_t len);

#endif
