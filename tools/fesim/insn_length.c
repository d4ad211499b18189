/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The length of an x86-64 instruction, decoded from its bytes: prefixes,
 * opcode map, ModRM, SIB, displacement and immediate. The plugin needs it
 * for one question only: are the bytes QEMU reports for the last
 * instruction of a TB the whole instruction, or the start of one that
 * QEMU 7.2 rolled back at a page boundary (translate.c, drop_rolled_back())?
 * Decoding follows the Intel SDM volume 2, appendix A (opcode maps) and
 * section 2.1 (instruction format); VEX and EVEX from sections 2.3 and
 * 2.7; AMD's XOP from the AMD64 manual volume 6, section 1.1. 64-bit mode only: there is no 16-bit addressing, 0x40-0x4f are
 * REX, 0xc4/0xc5 are VEX and 0x62 is EVEX.
 */
#include <stdint.h>

#include "fesim.h"

/* One bit per opcode: the one-byte map's opcodes with a ModRM byte
 * (00-03 ... 38-3b, 62, 63, 69, 6b, 80-8f, c0, c1, c4-c7, d0-d3, d8-df,
 * f6, f7, fe, ff). */
static const uint64_t modrm_1byte[4] = {
	0x0f0f0f0f0f0f0f0fULL,			/* 00-3f */
	0x00000a0c00000000ULL,			/* 40-7f: 62 63 69 6b */
	0x000000000000ffffULL,			/* 80-bf: 80-8f */
	0xc0c00000ff0f00f3ULL,			/* c0-ff */
};

/* The 0x0f map's opcodes without a ModRM byte: 05-09, 0b, 0e, 30-37, 77,
 * 80-8f (jcc rel32), a0-a2, a8-aa, c8-cf (bswap). */
static const uint64_t no_modrm_0f[4] = {
	0x0000000000004be0ULL | 0x00ff000000000000ULL,	/* 00-3f */
	0x0080000000000000ULL,				/* 40-7f: 77 */
	0x0000070700000000ULL | 0x000000000000ffffULL,	/* 80-bf */
	0x000000000000ff00ULL,				/* c0-ff */
};

static bool bit(const uint64_t *map, u8 op)
{
	return map[op >> 6] >> (op & 63) & 1;
}

/* The immediate bytes of a one-byte-map opcode; @z is the size of an
 * imm16/32 operand, @v of mov reg, imm (B8+r). F6/F7 are decided by the
 * caller (only /0 and /1 carry one). */
static size_t imm_1byte(u8 op, size_t z, size_t v, bool adsize)
{
	if (op < 0x40 && (op & 7) == 4)
		return 1;		/* add al, ib ... cmp al, ib */
	if (op < 0x40 && (op & 7) == 5)
		return z;		/* add eax, iz ... */
	if (op >= 0x70 && op <= 0x7f)
		return 1;		/* jcc rel8 */
	if (op >= 0xa0 && op <= 0xa3)
		return adsize ? 4 : 8;	/* mov moffs */
	if (op >= 0xb0 && op <= 0xb7)
		return 1;
	if (op >= 0xb8 && op <= 0xbf)
		return v;
	if (op >= 0xe0 && op <= 0xe7)
		return 1;		/* loop, jrcxz, in, out */
	switch (op) {
	case 0x68: case 0x69: case 0x81: case 0xa9: case 0xc7:
	case 0xe8: case 0xe9:	/* rel16 under 66h, as QEMU decodes it */
		return z;
	case 0x6a: case 0x6b: case 0x80: case 0x82: case 0x83: case 0xa8:
	case 0xc0: case 0xc1: case 0xc6: case 0xcd: case 0xd4: case 0xd5:
	case 0xeb:
		return 1;
	case 0xc2: case 0xca:
		return 2;
	case 0xc8:
		return 3;		/* enter iw, ib */
	}
	return 0;
}

/* The immediate bytes of a 0x0f-map opcode (VEX and EVEX map 1 too). */
static size_t imm_0f(u8 op)
{
	switch (op) {
	case 0x0f:			/* 3DNow!: the opcode is an ib suffix */
	case 0x70: case 0x71: case 0x72: case 0x73:
	case 0xa4: case 0xac: case 0xba:
	case 0xc2: case 0xc4: case 0xc5: case 0xc6:
		return 1;
	}
	return 0;
}

size_t insn_length(const u8 *d, size_t size)
{
	size_t i = 0, imm = 0;
	bool opsize = false, adsize = false, rexw = false, modrm, rm_imm = false;
	bool reg_only = false;
	size_t z, v;
	u8 op, m;

#define NEED(k) do { if ((k) > size) return 0; } while (0)
	for (;; i++) {
		NEED(i + 1);
		op = d[i];
		if ((op & 0xf0) == 0x40) {
			rexw = op & 8;
			continue;
		}
		if (op == 0x66)
			opsize = true;
		else if (op == 0x67)
			adsize = true;
		else if (op != 0xf0 && op != 0xf2 && op != 0xf3 && op != 0x2e &&
			 op != 0x36 && op != 0x3e && op != 0x26 && op != 0x64 &&
			 op != 0x65)
			break;
		rexw = false;		/* a REX prefix counts only last */
	}
	i++;
	z = opsize && !rexw ? 2 : 4;	/* REX.W wins over 66h */
	v = rexw ? 8 : z;
	if (op == 0xc4 || op == 0xc5 || op == 0x62) {
		/* VEX (2 or 3 bytes) or EVEX (4): the map is in the prefix */
		size_t len = op == 0xc5 ? 2 : op == 0xc4 ? 3 : 4;
		u8 map;

		NEED(i + len);
		map = op == 0xc5 ? 1 : d[i] & (op == 0x62 ? 7 : 0x1f);
		op = d[i + len - 1];
		i += len;
		/* vzeroupper/vzeroall are the one ModRM-less VEX opcode */
		modrm = !(map == 1 && op == 0x77);
		imm = map == 3 ? 1 : map == 1 ? imm_0f(op) : 0;
	} else if (op == 0x8f && i < size && (d[i] & 0x1f) >= 8) {
		/* AMD's XOP (3 bytes; 8f with map < 8 is pop r/m): map 8
		 * carries an ib, map 10 an id */
		u8 map;

		NEED(i + 3);
		map = d[i] & 0x1f;
		i += 3;
		modrm = true;
		imm = map == 8 ? 1 : map == 10 ? 4 : 0;
	} else if (op == 0x0f) {
		NEED(i + 1);
		op = d[i++];
		if (op == 0x38 || op == 0x3a) {
			NEED(i + 1);
			imm = op == 0x3a;
			i++;
			modrm = true;
		} else {
			modrm = !bit(no_modrm_0f, op);
			/* mov to and from control and debug registers ignore
			 * ModRM's mod: always a register, never memory */
			reg_only = op >= 0x20 && op <= 0x23;
			imm = (op & 0xf0) == 0x80 ? z : imm_0f(op);
		}
	} else {
		modrm = bit(modrm_1byte, op);
		imm = imm_1byte(op, z, v, adsize);
		rm_imm = op == 0xf6 || op == 0xf7;
	}
	if (modrm) {
		NEED(i + 1);
		m = d[i++];
		if (rm_imm && (m >> 3 & 7) < 2)
			imm = op == 0xf6 ? 1 : z;	/* test r/m, imm */
		if (m >> 6 != 3 && !reg_only) {
			if ((m & 7) == 4) {		/* SIB */
				NEED(i + 1);
				if (m >> 6 == 0 && (d[i] & 7) == 5)
					i += 4;		/* no base: disp32 */
				i++;
			} else if (m >> 6 == 0 && (m & 7) == 5) {
				i += 4;			/* rip + disp32 */
			}
			if (m >> 6 == 1)
				i += 1;
			else if (m >> 6 == 2)
				i += 4;
		}
	}
	i += imm;
	NEED(i);
#undef NEED
	return i;
}
