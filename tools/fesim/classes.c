/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Instruction classes the -O2 / -Os argument turns on (issue 19, item 2),
 * decoded from the instruction bytes at translation time: rep movs/stos,
 * div/idiv, length-changing prefixes, calls, returns, indirect branches,
 * instructions crossing 16- and 64-byte boundaries. docs/fesim.md,
 * "Instruction classes", says what each counter means.
 */
#include <stddef.h>

#include "fesim.h"

const char *const cls_names[FESIM_NCLS] = {
	[CLS_REP_MOVS] = "rep_movs",
	[CLS_REP_MOVS_ITERS] = "rep_movs_iters",
	[CLS_REP_STOS] = "rep_stos",
	[CLS_REP_STOS_ITERS] = "rep_stos_iters",
	[CLS_DIV] = "div",
	[CLS_LCP] = "lcp",
	[CLS_CALL] = "calls",
	[CLS_RET] = "rets",
	[CLS_INDIRECT] = "indirect_branches",
	[CLS_CROSS16] = "cross16",
	[CLS_CROSS64] = "cross64",
	[CLS_UNALIGNED_TARGET] = "unaligned_targets",
};

/* What the prefixes of an instruction say, and where its opcode starts. */
struct prefixes {
	size_t op;		/* index of the opcode byte */
	bool rep;		/* F2 or F3 */
	bool opsize;		/* 66 */
	bool rexw;		/* REX.W right before the opcode */
};

static struct prefixes scan_prefixes(const u8 *d, size_t size)
{
	struct prefixes p = { 0 };

	for (; p.op < size; p.op++) {
		u8 b = d[p.op];

		if ((b & 0xf0) == 0x40) {
			p.rexw = b & 8;
			continue;
		}
		/* a REX prefix counts only right before the opcode */
		p.rexw = false;
		if (b == 0xf2 || b == 0xf3)
			p.rep = true;
		else if (b == 0x66)
			p.opsize = true;
		else if (b != 0x67 && b != 0xf0 && b != 0x2e && b != 0x36 &&
			 b != 0x3e && b != 0x26 && b != 0x64 && b != 0x65)
			break;
	}
	return p;
}

/*
 * Opcodes whose immediate is imm32 by default and imm16 under 66h: the
 * prefix changes the instruction's length, which stalls Intel's
 * predecoder (LCP stall, Optimization Reference Manual, "Length-Changing
 * Prefixes"). mov r16, imm16 (B8+r) is left out: it is believed exempt on
 * Sandy Bridge and later (not verified on hardware here).
 */
static bool has_imm_z(const u8 *op, size_t n)
{
	u8 b = op[0], reg = n > 1 ? op[1] >> 3 & 7 : 0;

	switch (b) {
	case 0x05: case 0x0d: case 0x15: case 0x1d:	/* op ax, imm */
	case 0x25: case 0x2d: case 0x35: case 0x3d:
	case 0x68: case 0x69: case 0x81: case 0xa9:	/* push, imul, grp1, test */
		return true;
	case 0xc7:
		return reg == 0;			/* mov r/m16, imm16 */
	case 0xf7:
		return reg <= 1;			/* test r/m16, imm16 */
	}
	return false;
}

/* rep movs / rep stos, else REP_NONE. */
static u8 rep_kind(const u8 *op, size_t n, bool rep)
{
	if (!rep || !n)
		return REP_NONE;
	if (op[0] == 0xa4 || op[0] == 0xa5)
		return REP_MOVS;
	if (op[0] == 0xaa || op[0] == 0xab)
		return REP_STOS;
	return REP_NONE;
}

/* How control leaves an instruction, for branch-target alignment. */
static u8 branch_kind(const u8 *op, size_t n)
{
	u8 b = op[0], reg = n > 1 ? op[1] >> 3 & 7 : 0;

	if (b == 0xc3 || b == 0xc2 || b == 0xcb || b == 0xca)
		return BRK_RET;
	if ((b >= 0x70 && b <= 0x7f) || (b >= 0xe0 && b <= 0xe3) ||
	    b == 0xe8 || b == 0xe9 || b == 0xeb ||
	    (b == 0x0f && n > 1 && op[1] >= 0x80 && op[1] <= 0x8f) ||
	    (b == 0xff && reg >= 2 && reg <= 5))
		return BRK_JUMP;
	return BRK_NONE;
}

void insn_classes(const u8 *d, size_t size, u64 va, struct insn_info *out)
{
	struct prefixes p = scan_prefixes(d, size);
	const u8 *op = d + p.op;
	size_t n = size - p.op;
	u64 last = va + size - 1;
	u8 b, reg;

	out->mask = 0;
	out->rep = REP_NONE;
	out->branch = BRK_NONE;
	if (va >> 4 != last >> 4)
		out->mask |= 1u << CLS_CROSS16;
	if (va >> 6 != last >> 6)
		out->mask |= 1u << CLS_CROSS64;
	if (!n)
		return;
	b = op[0];
	reg = n > 1 ? op[1] >> 3 & 7 : 0;
	out->rep = rep_kind(op, n, p.rep);
	out->branch = branch_kind(op, n);
	if ((b == 0xf6 || b == 0xf7) && n > 1 && reg >= 6)
		out->mask |= 1u << CLS_DIV;
	if (p.opsize && !p.rexw && has_imm_z(op, n))
		out->mask |= 1u << CLS_LCP;
	if (b == 0xe8 || (b == 0xff && (reg == 2 || reg == 3)))
		out->mask |= 1u << CLS_CALL;
	if (out->branch == BRK_RET)
		out->mask |= 1u << CLS_RET;
	if (b == 0xff && n > 1 && reg >= 2 && reg <= 5)
		out->mask |= 1u << CLS_INDIRECT;
}
