/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Host test: malformed and unexpected frames put on the loopback wire are
 * dropped and counted under the right reason, and the stack keeps
 * working afterwards. */
#include <string.h>
#include "check.h"
#include "../../kernel/net/internal.h"
#include <kfront/net/socket.h>

#define SRV_PORT 7001

struct frame {
	u8 pad[2];	/* keeps the IP header 4-byte aligned, as NET_IP_ALIGN */
	u8 b[1600];
	u32 len;
	struct iphdr *ip;
	u8 *l4;
};

static struct net_stack *net;
static struct sock *srv, *cli, *acc, *udp;

static void fix_ip(struct frame *f)
{
	f->ip->check = 0;
	f->ip->check = ip_fast_csum(f->ip, ip_hdr_ihl(f->ip));
}

static void fix_l4(struct frame *f, u8 proto)
{
	u32 len = ntohs(f->ip->tot_len) - ip_hdr_ihl(f->ip) * 4u;
	u16 *check = proto == IPPROTO_TCP ? &((struct tcphdr *)f->l4)->check :
			&((struct udphdr *)f->l4)->check;

	*check = 0;
	*check = csum_tcpudp_magic(f->ip->saddr, f->ip->daddr, len, proto,
				   csum_partial(f->l4, len, 0));
}

/* A valid frame from ourselves to ourselves with payload_len bytes. */
static void build(struct frame *f, u8 proto, u16 sport, u16 dport,
		  u32 payload_len)
{
	struct ethhdr *eth = (struct ethhdr *)f->b;
	u32 l4len = proto == IPPROTO_TCP ? 20 : 8;

	memset(f, 0, sizeof(*f));
	memcpy(eth->h_dest, net->dev->dev_addr, ETH_ALEN);
	memcpy(eth->h_source, "\x02\x11\x22\x33\x44\x55", ETH_ALEN);
	eth->h_proto = htons(ETH_P_IP);
	f->ip = (struct iphdr *)(f->b + ETH_HLEN);
	f->ip->ver_ihl = 0x45;
	f->ip->tot_len = htons((u16)(20 + l4len + payload_len));
	f->ip->ttl = 64;
	f->ip->protocol = proto;
	f->ip->saddr = net->dev->ip_addr;
	f->ip->daddr = net->dev->ip_addr;
	f->l4 = (u8 *)(f->ip + 1);
	if (proto == IPPROTO_TCP) {
		struct tcphdr *th = (struct tcphdr *)f->l4;

		th->source = htons(sport);
		th->dest = htons(dport);
		th->doff_res = 5 << 4;
		th->flags = TCPHDR_ACK;
		th->window = htons(1000);
	} else {
		struct udphdr *uh = (struct udphdr *)f->l4;

		uh->source = htons(sport);
		uh->dest = htons(dport);
		uh->len = htons((u16)(8 + payload_len));
	}
	memset(f->l4 + l4len, 'p', payload_len);
	f->len = ETH_HLEN + 20 + l4len + payload_len;
	fix_ip(f);
	fix_l4(f, proto);
}

static void expect_drop(struct frame *f, enum net_drop_reason reason)
{
	u64 before = net_drop_count(net, reason);

	CHECK(net_rx_frame(net, f->b, f->len) == 0);
	if (net_drop_count(net, reason) <= before)
		fprintf(stderr, "  expected a %s drop\n",
			net_drop_reason_name(reason));
	CHECK(net_drop_count(net, reason) > before);
}

static void setup(void)
{
	struct net_config cfg;
	struct sockaddr_in sa;

	net_default_config(&cfg);
	net = net_stack_create(&cfg);
	sa.sin_addr = net->dev->ip_addr;
	sa.sin_port = htons(SRV_PORT);
	CHECK(sock_create(net, SOCK_STREAM, &srv) == 0);
	CHECK(sock_bind(srv, &sa) == 0 && sock_listen(srv, 4) == 0);
	CHECK(sock_create(net, SOCK_STREAM, &cli) == 0);
	CHECK(sock_connect(cli, &sa) == 0 && sock_accept(srv, &acc) == 0);
	sa.sin_port = htons(SRV_PORT + 1);
	CHECK(sock_create(net, SOCK_DGRAM, &udp) == 0);
	CHECK(sock_bind(udp, &sa) == 0);
}

static void test_ip(void)
{
	struct frame f;

	build(&f, IPPROTO_UDP, 1, SRV_PORT + 1, 4);
	f.ip->ver_ihl = 0x65;
	fix_ip(&f);
	expect_drop(&f, NET_DROP_IP_BAD_VERSION);
	build(&f, IPPROTO_UDP, 1, SRV_PORT + 1, 4);
	f.ip->ver_ihl = 0x43;
	fix_ip(&f);
	expect_drop(&f, NET_DROP_IP_BAD_IHL);
	build(&f, IPPROTO_UDP, 1, SRV_PORT + 1, 4);
	f.ip->ver_ihl = 0x4f;	/* 60-byte header in a 46-byte packet */
	expect_drop(&f, NET_DROP_IP_BAD_IHL);
	build(&f, IPPROTO_UDP, 1, SRV_PORT + 1, 4);
	f.ip->check ^= 0x0100;
	expect_drop(&f, NET_DROP_IP_BAD_CSUM);
	build(&f, IPPROTO_UDP, 1, SRV_PORT + 1, 4);
	f.ip->tot_len = htons(400);	/* truncated datagram */
	fix_ip(&f);
	expect_drop(&f, NET_DROP_IP_BAD_TOTLEN);
	build(&f, IPPROTO_UDP, 1, SRV_PORT + 1, 4);
	f.ip->frag_off = htons(IP_MF);
	fix_ip(&f);
	expect_drop(&f, NET_DROP_IP_FRAGMENT);
	build(&f, IPPROTO_UDP, 1, SRV_PORT + 1, 4);
	f.ip->frag_off = htons(185);
	fix_ip(&f);
	expect_drop(&f, NET_DROP_IP_FRAGMENT);
	build(&f, IPPROTO_UDP, 1, SRV_PORT + 1, 4);
	f.ip->ttl = 0;
	fix_ip(&f);
	expect_drop(&f, NET_DROP_IP_TTL_EXPIRED);
	build(&f, IPPROTO_UDP, 1, SRV_PORT + 1, 4);
	f.ip->daddr = IPV4_ADDR(10, 0, 0, 99);
	fix_ip(&f);
	expect_drop(&f, NET_DROP_IP_NOT_FOR_US);
	build(&f, IPPROTO_UDP, 1, SRV_PORT + 1, 4);
	f.ip->protocol = 1;
	fix_ip(&f);
	expect_drop(&f, NET_DROP_IP_UNKNOWN_PROTO);
}

static void test_l2(void)
{
	struct frame f;

	build(&f, IPPROTO_UDP, 1, SRV_PORT + 1, 4);
	((struct ethhdr *)f.b)->h_proto = htons(0x86dd);
	expect_drop(&f, NET_DROP_ETH_UNKNOWN_PROTO);
	build(&f, IPPROTO_UDP, 1, SRV_PORT + 1, 4);
	((struct ethhdr *)f.b)->h_dest[5] ^= 1;
	expect_drop(&f, NET_DROP_ETH_OTHERHOST);
	build(&f, IPPROTO_UDP, 1, SRV_PORT + 1, 4);
	((struct ethhdr *)f.b)->h_proto = htons(ETH_P_ARP);
	expect_drop(&f, NET_DROP_ARP_MALFORMED);
}

static void test_udp(void)
{
	struct frame f;
	u8 buf[16];

	build(&f, IPPROTO_UDP, 1, SRV_PORT + 1, 4);
	CHECK(net_rx_frame(net, f.b, f.len) == 0);
	CHECK(sock_recv(udp, buf, sizeof(buf)) == 4 && buf[0] == 'p');
	build(&f, IPPROTO_UDP, 1, SRV_PORT + 1, 4);
	f.l4[9] ^= 1;
	expect_drop(&f, NET_DROP_UDP_BAD_CSUM);
	build(&f, IPPROTO_UDP, 1, SRV_PORT + 1, 4);
	((struct udphdr *)f.l4)->len = htons(100);
	expect_drop(&f, NET_DROP_UDP_BAD_LEN);
	build(&f, IPPROTO_UDP, 1, SRV_PORT + 9, 4);
	expect_drop(&f, NET_DROP_UDP_NO_SOCKET);
	build(&f, IPPROTO_UDP, 1, SRV_PORT + 1, 0);
	f.ip->tot_len = htons(24);	/* 4 bytes of UDP header */
	fix_ip(&f);
	expect_drop(&f, NET_DROP_UDP_TOO_SHORT);
}

static void test_tcp(void)
{
	struct tcp_sock *tp = tcp_sk(acc);
	struct frame f;
	struct tcphdr *th;
	u16 cport = ntohs(cli->sport);

	build(&f, IPPROTO_TCP, cport, SRV_PORT, 4);
	f.l4[21] ^= 0x40;
	expect_drop(&f, NET_DROP_TCP_BAD_CSUM);
	build(&f, IPPROTO_TCP, cport, SRV_PORT, 4);
	((struct tcphdr *)f.l4)->doff_res = 4 << 4;
	fix_l4(&f, IPPROTO_TCP);
	expect_drop(&f, NET_DROP_TCP_BAD_OFFSET);
	build(&f, IPPROTO_TCP, cport, SRV_PORT, 4);
	((struct tcphdr *)f.l4)->doff_res = 15 << 4;
	fix_l4(&f, IPPROTO_TCP);
	expect_drop(&f, NET_DROP_TCP_BAD_OFFSET);
	build(&f, IPPROTO_TCP, cport, SRV_PORT, 0);
	f.ip->tot_len = htons(30);	/* 10 bytes of TCP header */
	fix_ip(&f);
	expect_drop(&f, NET_DROP_TCP_TOO_SHORT);
	build(&f, IPPROTO_TCP, cport, SRV_PORT, 0);
	((struct tcphdr *)f.l4)->flags = TCPHDR_SYN | TCPHDR_FIN;
	fix_l4(&f, IPPROTO_TCP);
	expect_drop(&f, NET_DROP_TCP_BAD_FLAGS);
	build(&f, IPPROTO_TCP, 40000, 9, 0);
	expect_drop(&f, NET_DROP_TCP_NO_SOCKET);
	/* Established connection: old data, future data, unsent ACK. */
	build(&f, IPPROTO_TCP, cport, SRV_PORT, 10);
	th = (struct tcphdr *)f.l4;
	th->seq = htonl(tp->rcv_nxt - 5000000);
	th->ack_seq = htonl(tp->snd_una);
	fix_l4(&f, IPPROTO_TCP);
	expect_drop(&f, NET_DROP_TCP_OLD_SEQ);
	/* Future data is kept (out-of-order queue), once. */
	th->seq = htonl(tp->rcv_nxt + 100);
	fix_l4(&f, IPPROTO_TCP);
	{
		u64 queued = net->mib.tcp_ofo_queued, drops = net_drop_total(net);

		CHECK(net_rx_frame(net, f.b, f.len) == 0);
		CHECK_EQ_U64(net->mib.tcp_ofo_queued, queued + 1);
		CHECK_EQ_U64(net_drop_total(net), drops);
		CHECK_EQ_U64(tp->out_of_order_queue.qlen, 1);
	}
	expect_drop(&f, NET_DROP_TCP_OLD_SEQ);	/* the same again: nothing new */
	th->seq = htonl(tp->rcv_nxt);
	th->ack_seq = htonl(tp->snd_nxt + 1000);
	fix_l4(&f, IPPROTO_TCP);
	expect_drop(&f, NET_DROP_TCP_ACK_UNSENT);
	th->ack_seq = htonl(tp->snd_una);
	th->flags = TCPHDR_RST;
	th->seq = htonl(tp->rcv_nxt + 1);	/* in window, not exact */
	fix_l4(&f, IPPROTO_TCP);
	expect_drop(&f, NET_DROP_TCP_RESET);
	CHECK(sock_state(acc) == TCP_ESTABLISHED);	/* RFC 5961 */
}

/*
 * A peer scattering scraps beyond a hole: the out-of-order queue takes
 * overlapping pieces apart correctly and stops at its cap, counting the
 * rest as TCP_OFO drops; what it holds is freed with the socket.
 */
static void test_tcp_ofo(void)
{
	struct tcp_sock *tp = tcp_sk(acc);
	struct sk_buff_head *q = &tp->out_of_order_queue;
	u16 cport = ntohs(cli->sport);
	u32 base = tp->rcv_nxt + 1000;
	struct frame f;
	struct tcphdr *th;
	struct sk_buff *skb;

	skb_queue_purge(q);
	/* [base+10, +20), then [base+5, +25) covering it, then
	 * [base, +8) and [base+22, +30) overlapping the ends. */
	static const u32 pieces[][2] = { { 10, 10 }, { 5, 20 }, { 0, 8 },
					 { 22, 8 } };
	for (unsigned i = 0; i < 4; i++) {
		build(&f, IPPROTO_TCP, cport, SRV_PORT, pieces[i][1]);
		th = (struct tcphdr *)f.l4;
		th->seq = htonl(base + pieces[i][0]);
		th->ack_seq = htonl(tp->snd_una);
		fix_l4(&f, IPPROTO_TCP);
		CHECK(net_rx_frame(net, f.b, f.len) == 0);
	}
	/* Expected: [0,5) [5,25) [25,30): contiguous, no byte twice. */
	CHECK_EQ_U64(q->qlen, 3);
	CHECK_EQ_U64(q->bytes, 30);
	{
		u32 expect = base;

		for (skb = skb_peek(q); skb; skb = skb_queue_next(q, skb)) {
			CHECK_EQ_U64(TCP_SKB_CB(skb)->seq, expect);
			expect = TCP_SKB_CB(skb)->end_seq;
		}
		CHECK_EQ_U64(expect, base + 30);
	}
	/* One-byte scraps two bytes apart until the cap. */
	for (u32 i = 0; q->qlen < 64 && i < 100; i++) {
		build(&f, IPPROTO_TCP, cport, SRV_PORT, 1);
		th = (struct tcphdr *)f.l4;
		th->seq = htonl(base + 100 + 2 * i);
		th->ack_seq = htonl(tp->snd_una);
		fix_l4(&f, IPPROTO_TCP);
		CHECK(net_rx_frame(net, f.b, f.len) == 0);
	}
	CHECK_EQ_U64(q->qlen, 64);
	th->seq = htonl(base + 99);
	fix_l4(&f, IPPROTO_TCP);
	expect_drop(&f, NET_DROP_TCP_OFO);
	/* Beyond the offered window: not kept. */
	th->seq = htonl(tp->rcv_nxt + tp->rcv_wnd + 10);
	fix_l4(&f, IPPROTO_TCP);
	expect_drop(&f, NET_DROP_TCP_OUT_OF_WINDOW);
	CHECK(tp->pred_flags == 0);
	skb_queue_purge(q);	/* the hole will never fill */
}

/* After all that, the connection still carries data both ways. */
static void test_survives(void)
{
	u8 buf[8];

	CHECK(sock_send(cli, "ping", 4) == 4);
	CHECK(sock_recv(acc, buf, sizeof(buf)) == 4 && !memcmp(buf, "ping", 4));
	CHECK(sock_send(acc, "pong", 4) == 4);
	CHECK(sock_recv(cli, buf, sizeof(buf)) == 4 && !memcmp(buf, "pong", 4));
}

int main(void)
{
	setup();
	test_l2();
	test_ip();
	test_udp();
	test_tcp();
	test_tcp_ofo();
	test_survives();
	sock_close(cli);
	sock_close(acc);
	sock_close(srv);
	sock_close(udp);
	net_clock_advance(net, 200000);
	CHECK(net->nr_socks == 0);
	net_stack_destroy(net);
	return check_report("test_net_drop");
}
