/* SPDX-License-Identifier: GPL-2.0-or-later */
/* TCP over IPv4: the connection tables (established by 4-tuple, listeners
 * and bound ports by port) and the receive demultiplexer. */
#include <kfront/slab.h>
#include "internal.h"

#define TCP_EHASH_BITS	8
#define TCP_EHASH_SIZE	(1u << TCP_EHASH_BITS)
#define TCP_LHASH_SIZE	32
#define TCP_BHASH_SIZE	64

struct inet_hashinfo {
	struct hlist_head ehash[TCP_EHASH_SIZE];
	struct hlist_head lhash[TCP_LHASH_SIZE];
	struct hlist_head bhash[TCP_BHASH_SIZE];
	u32 ehash_count;
};

/* Jenkins-style mix of the 4-tuple (a fixed seed keeps runs identical). */
static inline u32 inet_ehashfn(be32 laddr, be16 lport, be32 faddr,
			       be16 fport)
{
	u32 a = laddr ^ 0x3c6ef372u;
	u32 b = faddr + 0xa54ff53au;
	u32 c = ((u32)lport << 16 | fport) ^ 0x510e527fu;

	a -= c; a ^= (c << 4) | (c >> 28); c += b;
	b -= a; b ^= (a << 6) | (a >> 26); a += c;
	c -= b; c ^= (b << 8) | (b >> 24); b += a;
	a -= c; a ^= (c << 16) | (c >> 16); c += b;
	return c ^ (b >> 7) ^ a;
}

static inline u32 port_hash(be16 port, u32 size)
{
	return (ntohs(port) * 0x9e37u) & (size - 1);
}

int tcp_hash_init(struct net_stack *net)
{
	net->tcp_hash = kzalloc(sizeof(*net->tcp_hash));
	return net->tcp_hash ? 0 : -ENOMEM;
}

struct sock *tcp_lookup(struct net_stack *net, be32 saddr, be16 sport,
			be32 daddr, be16 dport)
{
	struct inet_hashinfo *h = net->tcp_hash;
	u32 hash = inet_ehashfn(daddr, dport, saddr, sport);
	struct hlist_node *pos;

	hlist_for_each(pos, &h->ehash[hash & (TCP_EHASH_SIZE - 1)]) {
		struct sock *sk = hlist_entry(pos, struct sock, hash_node);

		if (likely(sk->sport == dport && sk->dport == sport &&
			   sk->saddr == daddr && sk->daddr == saddr))
			return sk;
	}
	return NULL;
}

struct sock *tcp_lookup_listener(struct net_stack *net, be32 daddr,
				 be16 dport)
{
	struct inet_hashinfo *h = net->tcp_hash;
	struct hlist_node *pos;

	hlist_for_each(pos, &h->lhash[port_hash(dport, TCP_LHASH_SIZE)]) {
		struct sock *sk = hlist_entry(pos, struct sock, hash_node);

		if (sk->sport == dport && (!sk->saddr || sk->saddr == daddr))
			return sk;
	}
	return NULL;
}

void tcp_hash(struct sock *sk)
{
	struct inet_hashinfo *h = sk->net->tcp_hash;
	u32 hash = inet_ehashfn(sk->saddr, sk->sport, sk->daddr, sk->dport);

	hlist_add_head(&sk->hash_node, &h->ehash[hash & (TCP_EHASH_SIZE - 1)]);
	sk->flags |= SOCK_HASHED;
	h->ehash_count++;
}

int tcp_listen_hash(struct sock *sk)
{
	struct inet_hashinfo *h = sk->net->tcp_hash;

	hlist_add_head(&sk->hash_node,
		       &h->lhash[port_hash(sk->sport, TCP_LHASH_SIZE)]);
	sk->flags |= SOCK_HASHED;
	return 0;
}

void tcp_unhash(struct sock *sk)
{
	if (sk->flags & SOCK_HASHED) {
		hlist_del(&sk->hash_node);
		sk->flags &= (u8)~SOCK_HASHED;
		if (sk->state != TCP_LISTEN)
			sk->net->tcp_hash->ehash_count--;
	}
	if (sk->flags & SOCK_BOUND) {
		hlist_del(&sk->bind_node);
		sk->flags &= (u8)~SOCK_BOUND;
	}
}

static bool tcp_port_in_use(struct inet_hashinfo *h, be16 port)
{
	struct hlist_node *pos;

	hlist_for_each(pos, &h->bhash[port_hash(port, TCP_BHASH_SIZE)]) {
		if (hlist_entry(pos, struct sock, bind_node)->sport == port)
			return true;
	}
	return false;
}

/* Binds to port, or to a free ephemeral port when port is 0. */
int tcp_bind_port(struct sock *sk, be16 port)
{
	struct net_stack *net = sk->net;
	struct inet_hashinfo *h = net->tcp_hash;
	u32 tries;

	if (sk->flags & SOCK_BOUND)
		return -EINVAL;
	for (tries = 0; !port && tries < 16384; tries++) {
		be16 p = htons(net->port_rover);

		net->port_rover = net->port_rover >= 65535 ? 49152 :
				  (u16)(net->port_rover + 1);
		if (!tcp_port_in_use(h, p))
			port = p;
	}
	if (!port)
		return -EADDRINUSE;
	if (tcp_port_in_use(h, port))
		return -EADDRINUSE;
	sk->sport = port;
	hlist_add_head(&sk->bind_node, &h->bhash[port_hash(port,
							  TCP_BHASH_SIZE)]);
	sk->flags |= SOCK_BOUND;
	return 0;
}

void tcp_hash_destroy(struct net_stack *net)
{
	struct list_head *pos, *n;

	if (!net->tcp_hash)
		return;
	/* Every socket, TCP or not, is on net->socks: free them all. */
	if (net->socks.next) {
		list_for_each_safe(pos, n, &net->socks)
			sk_free(list_entry(pos, struct sock, all_node));
		list_for_each_safe(pos, n, &net->sock_gc)
			sk_free(list_entry(pos, struct sock, all_node));
	}
	kfree(net->tcp_hash);
	net->tcp_hash = NULL;
}

static int tcp_v4_check_header(struct sk_buff *skb)
{
	const struct iphdr *iph = ip_hdr(skb);
	const struct tcphdr *th;
	u32 doff;

	if (unlikely(!pskb_may_pull(skb, sizeof(*th))))
		return NET_DROP_TCP_TOO_SHORT;
	th = (const struct tcphdr *)skb->data;
	doff = tcp_hdr_len(th);
	if (unlikely(doff < sizeof(*th) || !pskb_may_pull(skb, doff)))
		return NET_DROP_TCP_BAD_OFFSET;
	if (unlikely(csum_tcpudp_magic(iph->saddr, iph->daddr, skb->len,
				       IPPROTO_TCP,
				       csum_partial(th, skb->len, 0))))
		return NET_DROP_TCP_BAD_CSUM;
	/* Contradictory flag sets never come from a sane peer. */
	if (unlikely((th->flags & (TCPHDR_SYN | TCPHDR_FIN)) ==
		     (TCPHDR_SYN | TCPHDR_FIN) ||
		     (th->flags & (TCPHDR_SYN | TCPHDR_RST)) ==
		     (TCPHDR_SYN | TCPHDR_RST)))
		return NET_DROP_TCP_BAD_FLAGS;
	return 0;
}

static void tcp_v4_fill_cb(struct sk_buff *skb, const struct tcphdr *th)
{
	struct tcp_skb_cb *cb = TCP_SKB_CB(skb);
	u32 payload = skb->len - tcp_hdr_len(th);

	cb->seq = ntohl(th->seq);
	cb->end_seq = cb->seq + payload + !!(th->flags & TCPHDR_SYN) +
		      !!(th->flags & TCPHDR_FIN);
	cb->ack_seq = ntohl(th->ack_seq);
	cb->tcp_flags = th->flags;
	cb->retrans = 0;
	cb->when = 0;
}

int tcp_v4_rcv(struct sk_buff *skb)
{
	struct net_stack *net = skb->net;
	const struct iphdr *iph = ip_hdr(skb);
	const struct tcphdr *th;
	struct sock *sk;
	int reason;

	reason = tcp_v4_check_header(skb);
	if (unlikely(reason))
		return net_drop(skb, reason);
	th = (const struct tcphdr *)skb->data;
	tcp_v4_fill_cb(skb, th);
	net->mib.tcp_in_segs++;

	sk = tcp_lookup(net, iph->saddr, th->source, iph->daddr, th->dest);
	if (unlikely(!sk))
		sk = tcp_lookup_listener(net, iph->daddr, th->dest);
	if (unlikely(!sk)) {
		tcp_send_reset(net, skb);
		return net_drop(skb, NET_DROP_TCP_NO_SOCKET);
	}
	tcp_sk(sk)->segs_in++;
	if (likely(sk->state == TCP_ESTABLISHED))
		return tcp_rcv_established(sk, skb);
	return tcp_rcv_state_process(sk, skb);
}

/* For the footprint rules: the state of the connection a packet hits. */
u8 tcp_conn_state(struct net_stack *net, const struct nf_pkt *p)
{
	struct sock *sk;

	if (p->proto != IPPROTO_TCP)
		return 0;
	sk = tcp_lookup(net, p->saddr, htons(p->sport), p->daddr,
			htons(p->dport));
	return sk ? sk->state : 0;
}
