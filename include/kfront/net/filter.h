/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The packet-filter rule interface: what a rule sees of a packet, its
 * mutable state, and the table of rules that kernel/net/gen_filters.py
 * generates (each one distinct code, for the footprint sweep). */
#ifndef KFRONT_NET_FILTER_H
#define KFRONT_NET_FILTER_H

#include <kfront/types.h>
#include <kfront/compiler.h>
#include <kfront/net/byteorder.h>

/* What the rules match on, parsed once per packet. */
struct nf_pkt {
	be32 saddr;
	be32 daddr;
	u16 sport;		/* host order */
	u16 dport;
	u8 proto;
	u8 tcp_flags;
	u8 ttl;
	u8 tos;
	u16 len;		/* IP total length */
	u16 payload_len;
	const u8 *payload;
	u32 seq;
	u32 ack;
	u16 window;
	u8 conn_state;		/* TCP state of the matching socket, 0 if none */
	u8 dir;
	u64 now;
};

enum nf_verdict {
	NF_ACCEPT = 0,
	NF_DROP = 1,
};

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
