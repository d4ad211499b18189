/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Symbol lookup over the generated, address-sorted table. */
#include <kfront/ksyms.h>

/* Weak empty defaults for the first link; ksyms_table.c overrides them. */
__attribute__((weak, section(".ksyms"))) const struct ksym ksym_table[1];
__attribute__((weak, section(".ksyms"))) const u32 ksym_count;
__attribute__((weak, section(".ksyms"))) const char ksym_names[1];

const char *ksym_lookup(u64 addr, u64 *offset)
{
	u32 lo = 0, hi = ksym_count;

	/* Last symbol whose address is <= addr. */
	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;

		if (ksym_table[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	lo--;
	if (addr >= ksym_table[lo].addr + (ksym_table[lo].size ? ksym_table[lo].size : 1))
		return NULL;
	*offset = addr - ksym_table[lo].addr;
	return &ksym_names[ksym_table[lo].name];
}
