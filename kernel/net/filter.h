/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The packet-filter rule interface shared by filter.c and the rules that
 * gen_filters.py generates (each one distinct code, for the footprint
 * sweep). */
#ifndef KFRONT_NET_FILTER_H
#define KFRONT_NET_FILTER_H

#include "internal.h"

/* Mutable per-rule state: counters, a token bucket, a small FSM. */
struct nf_rule_state {
	u64 hits;
	u64 s[4];
	u64 last;
	u32 tokens;
	u32 fsm;
};

typedef int (*nf_match_fn)(struct nf_rule_state *st, const struct nf_pkt *p);

extern const nf_match_fn nf_rule_table[];
extern const u32 nf_rule_table_size;

#endif
