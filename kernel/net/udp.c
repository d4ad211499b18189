/* SPDX-License-Identifier: GPL-2.0-or-later */
/* UDP: a port-hashed socket table, checksummed send and receive with the
 * IPv4 pseudo-header, datagram queues. */
#include <kfront/slab.h>
#include "internal.h"

#define UDP_HASH_SIZE	64
#define UDP_MAX_PAYLOAD	(ETH_DATA_LEN - sizeof(struct iphdr) - \
			 sizeof(struct udphdr))
#define UDP_RCVBUF_DEFAULT	(128 * 1024)

struct udp_table {
	struct hlist_head hash[UDP_HASH_SIZE];
};

static inline struct hlist_head *udp_bucket(struct udp_table *t, be16 port)
{
	return &t->hash[(ntohs(port) * 0x9e37u) & (UDP_HASH_SIZE - 1)];
}

int udp_table_init(struct net_stack *net)
{
	net->udp = kzalloc(sizeof(*net->udp));
	return net->udp ? 0 : -ENOMEM;
}

void udp_table_destroy(struct net_stack *net)
{
	kfree(net->udp);
	net->udp = NULL;
}

static struct sock *udp_lookup(struct net_stack *net, be32 daddr,
			       be16 dport)
{
	struct hlist_node *pos;

	hlist_for_each(pos, udp_bucket(net->udp, dport)) {
		struct sock *sk = hlist_entry(pos, struct sock, hash_node);

		if (sk->sport == dport && (!sk->saddr || sk->saddr == daddr))
			return sk;
	}
	return NULL;
}

static int udp_sock_init(struct sock *sk)
{
	sk->rcvbuf = UDP_RCVBUF_DEFAULT;
	sk->sndbuf = UDP_RCVBUF_DEFAULT;
	return 0;
}

static int udp_v4_get_port(struct sock *sk, be16 port)
{
	struct net_stack *net = sk->net;
	u32 tries;

	for (tries = 0; !port && tries < 16384; tries++) {
		be16 p = htons(net->port_rover);

		net->port_rover = net->port_rover >= 65535 ? 49152 :
				  (u16)(net->port_rover + 1);
		if (!udp_lookup(net, 0, p))
			port = p;
	}
	if (!port || udp_lookup(net, sk->saddr, port))
		return -EADDRINUSE;
	sk->sport = port;
	hlist_add_head(&sk->hash_node, udp_bucket(net->udp, port));
	sk->flags |= SOCK_HASHED | SOCK_BOUND;
	return 0;
}

static int udp_v4_bind(struct sock *sk, const struct sockaddr_in *addr)
{
	if (sk->flags & SOCK_BOUND)
		return -EINVAL;
	if (addr->sin_addr && !ip_is_local(sk->net, addr->sin_addr))
		return -EINVAL;
	sk->saddr = addr->sin_addr;
	return udp_v4_get_port(sk, addr->sin_port);
}

/* connect() on UDP only sets the default destination. */
static int udp_v4_connect(struct sock *sk, const struct sockaddr_in *addr)
{
	int err;

	if (!(sk->flags & SOCK_BOUND)) {
		err = udp_v4_get_port(sk, 0);
		if (err)
			return err;
	}
	sk->daddr = addr->sin_addr;
	sk->dport = addr->sin_port;
	return 0;
}

static struct sk_buff *udp_build(struct sock *sk, const void *buf, u32 len,
				 be32 daddr, be16 dport)
{
	be32 saddr = sk->saddr ? sk->saddr : sk->net->dev->ip_addr;
	struct sk_buff *skb;
	struct udphdr *uh;
	wsum csum;

	skb = alloc_skb(sk->net, MAX_HEADER + len);
	if (unlikely(!skb))
		return NULL;
	skb_reserve(skb, MAX_HEADER);
	skb->sk = sk;
	/* Checksum while copying: the data is touched only once. */
	csum = csum_partial_copy(buf, skb_put(skb, len), len, 0);
	uh = (struct udphdr *)skb_push(skb, sizeof(*uh));
	skb_reset_transport_header(skb);
	uh->source = sk->sport;
	uh->dest = dport;
	uh->len = htons((u16)skb->len);
	uh->check = 0;
	uh->check = csum_tcpudp_magic(saddr, daddr, skb->len, IPPROTO_UDP,
				      csum_partial(uh, sizeof(*uh), csum));
	if (!uh->check)
		uh->check = 0xffff;	/* 0 means "no checksum" (RFC 768) */
	INET_SKB_CB(skb)->saddr = saddr;
	return skb;
}

static ssize_t udp_sendmsg(struct sock *sk, const void *buf, size_t len,
			   const struct sockaddr_in *to)
{
	be32 daddr = to ? to->sin_addr : sk->daddr;
	be16 dport = to ? to->sin_port : sk->dport;
	struct sk_buff *skb;
	int err;

	if (unlikely(len > UDP_MAX_PAYLOAD))
		return -EMSGSIZE;	/* no fragmentation */
	if (unlikely(!dport))
		return -ENOTCONN;
	if (!(sk->flags & SOCK_BOUND)) {
		err = udp_v4_get_port(sk, 0);
		if (err)
			return err;
	}
	skb = udp_build(sk, buf, (u32)len, daddr, dport);
	if (unlikely(!skb))
		return -ENOBUFS;
	udp_sk(sk)->dgrams_out++;
	sk->net->mib.udp_out_datagrams++;
	/* Unreliable: a datagram lost below is counted there, not here. */
	ip_queue_xmit(skb, INET_SKB_CB(skb)->saddr, daddr, IPPROTO_UDP);
	return (ssize_t)len;
}

static ssize_t udp_recvmsg(struct sock *sk, void *buf, size_t len,
			   struct sockaddr_in *from)
{
	struct sk_buff *skb = __skb_dequeue(&sk->receive_queue);
	u32 n;

	if (!skb)
		return -EAGAIN;
	/* A short buffer truncates the datagram, as recv(2) does. */
	n = (u32)min((size_t)skb->len, len);
	memcpy(buf, skb->data, n);
	if (from) {
		from->sin_addr = INET_SKB_CB(skb)->saddr;
		from->sin_port = INET_SKB_CB(skb)->sport;
	}
	consume_skb(skb);
	return (ssize_t)n;
}

static int udp_rcv_check(struct sk_buff *skb, const struct udphdr *uh)
{
	const struct iphdr *iph = ip_hdr(skb);
	u32 ulen = ntohs(uh->len);

	if (unlikely(ulen < sizeof(*uh) || ulen > skb->len))
		return NET_DROP_UDP_BAD_LEN;
	skb_trim(skb, ulen);
	if (uh->check &&
	    unlikely(csum_tcpudp_magic(iph->saddr, iph->daddr, ulen,
				       IPPROTO_UDP,
				       csum_partial(uh, ulen, 0))))
		return NET_DROP_UDP_BAD_CSUM;
	return 0;
}

int udp_rcv(struct sk_buff *skb)
{
	struct net_stack *net = skb->net;
	const struct iphdr *iph = ip_hdr(skb);
	const struct udphdr *uh;
	struct sock *sk;
	int reason;

	if (unlikely(!pskb_may_pull(skb, sizeof(*uh))))
		return net_drop(skb, NET_DROP_UDP_TOO_SHORT);
	uh = (const struct udphdr *)skb->data;
	reason = udp_rcv_check(skb, uh);
	if (unlikely(reason))
		return net_drop(skb, reason);
	sk = udp_lookup(net, iph->daddr, uh->dest);
	if (unlikely(!sk))
		return net_drop(skb, NET_DROP_UDP_NO_SOCKET);
	if (unlikely(sk->receive_queue.bytes + skb->len > sk->rcvbuf))
		return net_drop(skb, NET_DROP_UDP_RCVBUF_FULL);
	INET_SKB_CB(skb)->saddr = iph->saddr;
	INET_SKB_CB(skb)->daddr = iph->daddr;
	INET_SKB_CB(skb)->sport = uh->source;
	INET_SKB_CB(skb)->dport = uh->dest;
	skb_pull(skb, sizeof(*uh));
	__skb_queue_tail(&sk->receive_queue, skb);
	udp_sk(sk)->dgrams_in++;
	net->mib.udp_in_datagrams++;
	sk_wake_data(sk);
	return 0;
}

static void udp_destroy(struct sock *sk)
{
	if (sk->flags & SOCK_HASHED) {
		hlist_del(&sk->hash_node);
		sk->flags &= (u8)~(SOCK_HASHED | SOCK_BOUND);
	}
}

static void udp_close(struct sock *sk)
{
	sk->flags |= SOCK_ORPHAN;
	sk_free(sk);
}

const struct proto udp_prot = {
	.name = "UDP",
	.obj_size = sizeof(struct udp_sock),
	.init = udp_sock_init,
	.bind = udp_v4_bind,
	.connect = udp_v4_connect,
	.sendmsg = udp_sendmsg,
	.recvmsg = udp_recvmsg,
	.close = udp_close,
	.destroy = udp_destroy,
};
