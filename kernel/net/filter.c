/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The input filter chain: every packet passes the first K generated
 * rules (the footprint knob), like an iptables chain of distinct matches. */
#include <kfront/slab.h>
#include "internal.h"

struct nf_chain {
	u32 nr;
	struct nf_rule_state *state;
};

u32 net_filter_rule_count(void)
{
	return nf_rule_table_size;
}

int nf_chain_init(struct net_stack *net, u32 rules)
{
	struct nf_chain *c;

	if (rules > nf_rule_table_size)
		return -E2BIG;
	net->filter = NULL;
	if (!rules)
		return 0;
	c = kzalloc(sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->state = kzalloc(sizeof(*c->state) * rules);
	if (!c->state) {
		kfree(c);
		return -ENOMEM;
	}
	c->nr = rules;
	net->filter = c;
	return 0;
}

void nf_chain_destroy(struct net_stack *net)
{
	if (!net->filter)
		return;
	kfree(net->filter->state);
	kfree(net->filter);
	net->filter = NULL;
}

static void nf_fill_l4(struct nf_pkt *p, const struct sk_buff *skb)
{
	const u8 *l4 = skb->data;

	if (p->proto == IPPROTO_TCP && skb->len >= sizeof(struct tcphdr)) {
		const struct tcphdr *th = (const struct tcphdr *)l4;
		u32 doff = min(tcp_hdr_len(th), skb->len);

		p->sport = ntohs(th->source);
		p->dport = ntohs(th->dest);
		p->tcp_flags = th->flags;
		p->seq = ntohl(th->seq);
		p->ack = ntohl(th->ack_seq);
		p->window = ntohs(th->window);
		p->payload = l4 + doff;
		p->payload_len = (u16)(skb->len - doff);
	} else if (p->proto == IPPROTO_UDP &&
		   skb->len >= sizeof(struct udphdr)) {
		const struct udphdr *uh = (const struct udphdr *)l4;

		p->sport = ntohs(uh->source);
		p->dport = ntohs(uh->dest);
		p->payload = l4 + sizeof(*uh);
		p->payload_len = (u16)(skb->len - sizeof(*uh));
	} else {
		p->payload = l4;
		p->payload_len = (u16)skb->len;
	}
}

static void nf_fill_pkt(struct net_stack *net, struct nf_pkt *p,
			const struct sk_buff *skb)
{
	const struct iphdr *iph = ip_hdr(skb);

	memset(p, 0, sizeof(*p));
	p->saddr = iph->saddr;
	p->daddr = iph->daddr;
	p->proto = iph->protocol;
	p->ttl = iph->ttl;
	p->tos = iph->tos;
	p->len = ntohs(iph->tot_len);
	p->now = net->now;
	nf_fill_l4(p, skb);
	p->conn_state = tcp_conn_state(net, p);
}

int nf_hook_input(struct net_stack *net, struct sk_buff *skb)
{
	struct nf_chain *c = net->filter;
	struct nf_pkt pkt;
	u32 i;

	nf_fill_pkt(net, &pkt, skb);
	for (i = 0; i < c->nr; i++) {
		if (unlikely(nf_rule_table[i](&c->state[i], &pkt) != NF_ACCEPT))
			return NF_DROP;
	}
	net->mib.filter_evals += c->nr;
	return NF_ACCEPT;
}

/* A digest of every rule's counters: the rules' arithmetic is measured
 * code too, so its results must agree across compiler variants. */
u64 net_filter_digest(const struct net_stack *net)
{
	const struct nf_chain *c = net->filter;
	u64 d = 0;
	u32 i;

	if (!c)
		return 0;
	for (i = 0; i < c->nr; i++) {
		const struct nf_rule_state *st = &c->state[i];

		d = d * 31 + st->hits;
		d ^= st->s[0] + (st->s[1] << 7) + (st->s[2] << 13) +
		     (st->s[3] << 19) + st->tokens + st->fsm;
	}
	return d;
}
