/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Named CPU front-end geometries (model=NAME[@POLICY]) and key=value
 * overrides. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "fesim.h"

/*
 * Sources (figures marked [?] are not published by the vendor and are our
 * assumption, chosen so that the published total comes out right):
 *  [IOM]  Intel 64 and IA-32 Architectures Optimization Reference Manual
 *         (order no. 248966): Sandy Bridge "Decoded ICache" section (32 sets
 *         x 8 ways x 6 uops, a 32-byte window uses at most 3 ways, uops with
 *         64-bit immediates take two slots, the DSB is inclusive of the L1i);
 *         Skylake section (same DSB, 1.5K uops; 32 KiB 8-way L1i; iTLB 128
 *         entries 8-way for 4 KiB, 8 entries for 2M/4M per thread);
 *         Golden Cove section (32 KiB L1i, Decoded ICache 4K uops, iTLB 256
 *         entries for 4 KiB, 32 for 2M/4M).
 *  [SOG]  AMD Software Optimization Guide for Family 19h (pub. 57647, Zen 4):
 *         32 KiB 8-way L1i with 64-byte lines, 6.75K-op op cache fed by
 *         32-byte fetch windows, L1 iTLB of 64 fully associative entries for
 *         all page sizes. The Family 17h guide (pub. 56305, Zen 2) gives the
 *         op cache layout 64 sets x 8 ways x 8 ops = 4K; Zen 4 scaled to
 *         64 sets x 12 ways x 9 ops = 6912 [?].
 *  [JCC]  Intel, "Mitigations for Jump Conditional Code Erratum" (white
 *         paper 341810, Nov 2019): on Skylake to Cascade Lake with the
 *         microcode update, jumps (jcc, macro-fused op+jcc, jmp, call, ret)
 *         that cross or end on a 32-byte boundary are not cached in the
 *         Decoded ICache. Golden Cove is not affected.
 *  [TLB]  Second-level TLBs: [IOM] Skylake TLB table (STLB 1536 entries,
 *         12-way, shared by 4 KiB and 2/4 MiB pages); [IOM] Golden Cove TLB
 *         table (STLB 2048 entries, 16-way, 4 KiB and 2/4 MiB); [SOG] Zen 4
 *         (L2 ITLB 512 entries, 8-way, 4 KiB and 2 MiB; the same in the
 *         Family 17h guide).
 *  [PF]   Next-line instruction prefetch: all three vendors' cores prefetch
 *         instruction lines sequentially ahead of fetch ([SOG] "instruction
 *         prefetch"; Intel does not document its instruction prefetcher in
 *         [IOM], Intel's engineers describe it as sequential in the virtual
 *         address space). The trigger modelled (tagged next-line: a demand
 *         miss or the first use of a prefetched line fetches line + 1) is
 *         our assumption [?].
 *  kfront /work/shared/notes/pmu.md, "Sizes" collects the same figures.
 */
static const struct model_cfg presets[] = {
	{
		.name = "skylake",			/* [IOM] Skylake */
		.l1i_size = 32768, .l1i_assoc = 8, .l1i_line = 64,
		.uop_window = 32, .uop_sets = 32, .uop_ways = 8,
		.uop_per_way = 6, .uop_max_ways = 3, .uop_inclusive = 1,
		.uop_jcc_erratum = 1,			/* [JCC] */
		.itlb4k_entries = 128, .itlb4k_assoc = 8,
		.itlb2m_entries = 8, .itlb2m_assoc = 8,
		.stlb_entries = 1536, .stlb_assoc = 12,	/* [TLB] */
		.l1i_prefetch = 1,			/* [PF] */
	},
	{
		/* Skylake without the JCC-erratum microcode update (or a
		 * Skylake-derived core the erratum does not concern) */
		.name = "skylake-nojcc",		/* [IOM] Skylake */
		.l1i_size = 32768, .l1i_assoc = 8, .l1i_line = 64,
		.uop_window = 32, .uop_sets = 32, .uop_ways = 8,
		.uop_per_way = 6, .uop_max_ways = 3, .uop_inclusive = 1,
		.uop_jcc_erratum = 0,
		.itlb4k_entries = 128, .itlb4k_assoc = 8,
		.itlb2m_entries = 8, .itlb2m_assoc = 8,
		.stlb_entries = 1536, .stlb_assoc = 12,	/* [TLB] */
		.l1i_prefetch = 1,			/* [PF] */
	},
	{
		.name = "goldencove",			/* [IOM] Golden Cove */
		.l1i_size = 32768, .l1i_assoc = 8, .l1i_line = 64,
		/* 4K uops; layout 64 sets x 8 ways x 8 uops, 64-byte
		 * windows, <= 3 ways per window [?] */
		.uop_window = 64, .uop_sets = 64, .uop_ways = 8,
		.uop_per_way = 8, .uop_max_ways = 3, .uop_inclusive = 1,
		.itlb4k_entries = 256, .itlb4k_assoc = 8,	/* 8-way [?] */
		.itlb2m_entries = 32, .itlb2m_assoc = 32,
		.stlb_entries = 2048, .stlb_assoc = 16,	/* [TLB] */
		.l1i_prefetch = 1,			/* [PF] */
	},
	{
		.name = "zen4",				/* [SOG] Zen 4 */
		.l1i_size = 32768, .l1i_assoc = 8, .l1i_line = 64,
		/* 6.75K ops = 64 sets x 12 ways x 9 ops [?], 32-byte
		 * windows, <= 3 ways per window [?], not inclusive [?] */
		.uop_window = 32, .uop_sets = 64, .uop_ways = 12,
		.uop_per_way = 9, .uop_max_ways = 3, .uop_inclusive = 0,
		.itlb4k_entries = 64, .itlb4k_assoc = 64,
		.itlb2m_entries = 64, .itlb2m_assoc = 64,
		.stlb_entries = 512, .stlb_assoc = 8,	/* [TLB] */
		.l1i_prefetch = 1,			/* [PF] */
	},
	{
		/* Not a real CPU: a small front end that makes code-size
		 * differences between variants show up as misses. */
		.name = "small",
		.l1i_size = 8192, .l1i_assoc = 4, .l1i_line = 64,
		.uop_window = 32, .uop_sets = 16, .uop_ways = 8,
		.uop_per_way = 4, .uop_max_ways = 3, .uop_inclusive = 1,
		.itlb4k_entries = 32, .itlb4k_assoc = 4,
		.itlb2m_entries = 4, .itlb2m_assoc = 4,
		.stlb_entries = 64, .stlb_assoc = 4,
	},
};

int preset_find(const char *name, struct model_cfg *cfg)
{
	size_t i;

	for (i = 0; i < sizeof(presets) / sizeof(presets[0]); i++) {
		if (!strcmp(presets[i].name, name)) {
			*cfg = presets[i];
			return 0;
		}
	}
	return -1;
}

void preset_names(char *buf, size_t len)
{
	size_t i, off = 0;

	buf[0] = 0;
	for (i = 0; i < sizeof(presets) / sizeof(presets[0]); i++)
		off += snprintf(buf + off, off < len ? len - off : 0, "%s%s",
				i ? "|" : "", presets[i].name);
}

#define FIELD(f) { #f, offsetof(struct model_cfg, f) }

static const struct {
	const char *key;
	size_t off;
} fields[] = {
	FIELD(l1i_size), FIELD(l1i_assoc), FIELD(l1i_line),
	FIELD(uop_window), FIELD(uop_sets), FIELD(uop_ways),
	FIELD(uop_per_way), FIELD(uop_max_ways), FIELD(uop_inclusive),
	FIELD(uop_jcc_erratum),
	FIELD(itlb4k_entries), FIELD(itlb4k_assoc),
	FIELD(itlb2m_entries), FIELD(itlb2m_assoc),
	FIELD(stlb_entries), FIELD(stlb_assoc), FIELD(l1i_prefetch),
	FIELD(l1i_policy), FIELD(itlb_policy), FIELD(uop_policy), FIELD(seed),
};

const char *const policy_names[POL_N] = { "lru", "plru", "random" };

static int policy_find(const char *name)
{
	int i;

	for (i = 0; i < POL_N; i++)
		if (!strcmp(policy_names[i], name))
			return i;
	return -1;
}

/*
 * A policy setting (MODEL@SETTING, docs/fesim.md "Replacement and
 * prefetch"): lru = LRU everywhere (the presets' default); plru =
 * tree-PLRU for the L1i and both TLB levels, LRU for the uop cache (whose
 * entries of 1 to 3 ways fit no tree); random = seeded random everywhere;
 * noprefetch = LRU everywhere and no next-line prefetch, because at large
 * footprints the prefetch decides the L1i misses as much as the code's
 * size does (docs/hybrid.md, "At 128 filter rules").
 */
int preset_setting(struct model_cfg *cfg, const char *policy)
{
	int pol = policy_find(policy);

	if (!strcmp(policy, "noprefetch")) {
		pol = POL_LRU;
		cfg->l1i_prefetch = 0;
	}
	if (pol < 0)
		return -1;
	cfg->l1i_policy = pol;
	cfg->itlb_policy = pol;
	cfg->uop_policy = pol == POL_PLRU ? POL_LRU : pol;
	return 0;
}

/* Returns 1 if @key names a geometry field (and sets it), 0 if not, -1 on a
 * bad value. */
int preset_override(struct model_cfg *cfg, const char *key, const char *val)
{
	char *end;
	unsigned long v;
	size_t i;

	for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		if (strcmp(fields[i].key, key))
			continue;
		v = strtoul(val, &end, 0);
		if (strstr(key, "_policy")) {
			/* by name; the uop cache takes lru or random only */
			int pol = policy_find(val);

			if (pol < 0 || (pol == POL_PLRU &&
					!strcmp(key, "uop_policy")))
				return -1;
			v = pol;
		} else if (*end || end == val || v > 0xffffffffUL) {
			return -1;
		}
		*(u32 *)((char *)cfg + fields[i].off) = v;
		return 1;
	}
	return 0;
}
