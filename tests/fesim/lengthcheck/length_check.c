/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Host check of the plugin's instruction-length decoder
 * (tools/fesim/insn_length.c) against a disassembler's lengths: each
 * input line is one instruction's bytes in hex ("48 8b 47 18"). For each
 * it prints the decoded length of all its bytes and the first of its
 * strict prefixes the decoder did not call short (0 when it called every
 * one short), so tests/fesim/test_insn_length.py can compare both with
 * the line's own length.
 */
#include <stdio.h>
#include <stdlib.h>

#include "fesim.h"

int main(void)
{
	char line[256];

	while (fgets(line, sizeof(line), stdin)) {
		u8 d[16];
		size_t n = 0, k, not_short = 0;
		char *p = line, *end;

		while (n < sizeof(d)) {
			unsigned long b = strtoul(p, &end, 16);

			if (end == p)
				break;
			d[n++] = (u8)b;
			p = end;
		}
		for (k = 1; k < n && !not_short; k++)
			if (insn_length(d, k) != 0)
				not_short = k;
		printf("%zu %zu\n", insn_length(d, n), not_short);
	}
	return 0;
}
