/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Host test of TCP: handshake, data, close from either side and both,
 * RST, refused connections, sequence numbers across 2^32, retransmission
 * and the RTT estimate, delayed ACKs, zero-window probes, option
 * parsing, and reassembly of segments that arrive beyond a hole. */
#include <string.h>
#include <stdlib.h>
#include "check.h"
#include "../../kernel/net/internal.h"
#include <kfront/net/socket.h>

#define PORT 7001

struct pair {
	struct net_stack *net;
	struct sock *l, *c, *s;
};

static void dump_drops(const struct net_stack *net)
{
	int i;

	for (i = 0; i < NET_DROP_MAX; i++)
		if (net->drops[i])
			fprintf(stderr, "  drop %s: %llu\n",
				net_drop_reason_name(i),
				(unsigned long long)net->drops[i]);
}

static struct sockaddr_in server_addr(struct net_stack *net)
{
	struct sockaddr_in sa = { net->dev->ip_addr, htons(PORT) };

	return sa;
}

static void pair_open(struct pair *p, u32 isn_clock)
{
	struct net_config cfg;
	struct sockaddr_in sa;

	net_default_config(&cfg);
	p->net = net_stack_create(&cfg);
	CHECK(p->net != NULL);
	p->net->isn_clock = isn_clock;
	sa = server_addr(p->net);
	CHECK(sock_create(p->net, SOCK_STREAM, &p->l) == 0);
	CHECK(sock_bind(p->l, &sa) == 0);
	CHECK(sock_listen(p->l, 4) == 0);
	CHECK(sock_create(p->net, SOCK_STREAM, &p->c) == 0);
	CHECK(sock_state(p->c) == TCP_CLOSED);
	CHECK(sock_connect(p->c, &sa) == 0);
	CHECK(sock_accept(p->l, &p->s) == 0);
	CHECK(sock_state(p->c) == TCP_ESTABLISHED);
	CHECK(sock_state(p->s) == TCP_ESTABLISHED);
}

static void pair_close(struct pair *p)
{
	sock_close(p->l);
	net_stack_destroy(p->net);
}

static void test_handshake(void)
{
	struct pair p;
	struct tcp_sock *ct, *st;

	pair_open(&p, 0);
	ct = tcp_sk(p.c);
	st = tcp_sk(p.s);
	CHECK(p.net->mib.tcp_active_opens == 1);
	CHECK(p.net->mib.tcp_passive_opens == 1);
	CHECK(ct->snd_nxt == ct->iss + 1 && ct->snd_una == ct->iss + 1);
	CHECK(ct->rcv_nxt == st->iss + 1 && st->rcv_nxt == ct->iss + 1);
	CHECK(ct->wscale_ok && ct->snd_wscale == TCP_RCV_WSCALE);
	CHECK(ct->mss_cache == 1460 && st->mss_cache == 1460);
	CHECK(sock_accept(p.l, &p.s) == -EAGAIN);
	CHECK(net_drop_total(p.net) == 0);
	sock_close(p.c);
	sock_close(p.s);
	pair_close(&p);
}

/* Sends len bytes through a->b in chunks and checks every byte. */
static void transfer(struct sock *a, struct sock *b, u32 len, u32 chunk)
{
	u8 *src = malloc(len), *dst = malloc(len);
	u32 sent = 0, got = 0, i;

	for (i = 0; i < len; i++)
		src[i] = (u8)(i * 7 + (i >> 8));
	while (got < len) {
		if (sent < len) {
			ssize_t n = sock_send(a, src + sent,
					      min(chunk, len - sent));
			CHECK(n > 0);
			if (n <= 0)
				break;
			sent += (u32)n;
		}
		while (got < sent) {
			ssize_t n = sock_recv(b, dst + got, len - got);

			if (n == -EAGAIN)
				break;
			CHECK(n > 0);
			if (n <= 0)
				goto out;
			got += (u32)n;
		}
	}
out:
	CHECK(got == len);
	CHECK(!memcmp(src, dst, len));
	free(src);
	free(dst);
}

static void test_close_active_client(void)
{
	struct pair p;
	u8 buf[8];
	u32 socks;

	pair_open(&p, 0);
	transfer(p.c, p.s, 5000, 1000);
	transfer(p.s, p.c, 3000, 3000);
	socks = p.net->nr_socks;
	sock_close(p.c);
	CHECK(sock_state(p.c) == TCP_FIN_WAIT2);
	CHECK(sock_state(p.s) == TCP_CLOSE_WAIT);
	CHECK(sock_recv(p.s, buf, sizeof(buf)) == 0);	/* EOF */
	sock_close(p.s);				/* LAST_ACK -> freed */
	CHECK(p.net->nr_socks == socks - 1);
	CHECK(sock_state(p.c) == TCP_TIME_WAIT);
	net_clock_advance(p.net, TCP_TIMEWAIT_LEN - 1);
	CHECK(sock_state(p.c) == TCP_TIME_WAIT);
	net_clock_advance(p.net, 2);
	CHECK(p.net->nr_socks == socks - 2);
	CHECK(net_drop_total(p.net) == 0);
	pair_close(&p);
}

static void test_close_active_server(void)
{
	struct pair p;
	u8 buf[8];

	pair_open(&p, 0);
	transfer(p.c, p.s, 100, 10);
	sock_close(p.s);
	CHECK(sock_state(p.c) == TCP_CLOSE_WAIT);
	CHECK(sock_recv(p.c, buf, sizeof(buf)) == 0);
	CHECK(sock_send(p.c, "y", 1) > 0);	/* the server is gone for reading */
	CHECK(sock_state(p.c) == TCP_CLOSED);	/* ... so it answered RST */
	CHECK(sock_recv(p.c, buf, sizeof(buf)) == -ECONNRESET ||
	      sock_recv(p.c, buf, sizeof(buf)) == 0);
	sock_close(p.c);
	net_clock_advance(p.net, TCP_TIMEWAIT_LEN + 1);
	CHECK(p.net->nr_socks == 1);
	pair_close(&p);
}

static void test_close_simultaneous(void)
{
	struct pair p;
	struct tcp_sock *ct;

	pair_open(&p, 0);
	ct = tcp_sk(p.c);
	/* Hold the softirq so both FINs are on the wire before either
	 * arrives. */
	p.net->in_softirq = true;
	sock_close(p.c);
	sock_close(p.s);
	CHECK(sock_state(p.c) == TCP_FIN_WAIT1);
	p.net->in_softirq = false;
	net_softirq(p.net);
	CHECK(sock_state(p.c) == TCP_TIME_WAIT);
	CHECK(ct->snd_una == ct->snd_nxt);
	net_clock_advance(p.net, TCP_TIMEWAIT_LEN + 1);
	CHECK(p.net->nr_socks == 1);
	CHECK(net_drop_total(p.net) == 0);
	pair_close(&p);
}

static void test_reset(void)
{
	struct pair p;
	u8 buf[4];

	pair_open(&p, 0);
	transfer(p.c, p.s, 10, 10);
	sock_abort(p.c);
	CHECK(sock_state(p.s) == TCP_CLOSED);
	CHECK(p.s->err == ECONNRESET);
	CHECK(sock_recv(p.s, buf, sizeof(buf)) == -ECONNRESET);
	CHECK(sock_send(p.s, buf, 1) == -ECONNRESET);
	CHECK(p.net->mib.tcp_out_rsts == 1);
	sock_close(p.s);
	pair_close(&p);
}

static void test_refused_and_unread_rst(void)
{
	struct net_config cfg;
	struct net_stack *net;
	struct sockaddr_in sa;
	struct sock *c;
	struct pair p;

	net_default_config(&cfg);
	net = net_stack_create(&cfg);
	sa = server_addr(net);
	CHECK(sock_create(net, SOCK_STREAM, &c) == 0);
	CHECK(sock_connect(c, &sa) == -ECONNREFUSED);
	CHECK(sock_state(c) == TCP_CLOSED);
	CHECK(net_drop_count(net, NET_DROP_TCP_NO_SOCKET) == 1);
	sock_close(c);
	CHECK(net->nr_socks == 0);
	net_stack_destroy(net);

	/* Closing with unread data resets the peer (RFC 2525). */
	pair_open(&p, 0);
	CHECK(sock_send(p.c, "abc", 3) == 3);
	sock_close(p.s);
	CHECK(sock_state(p.c) == TCP_CLOSED && p.c->err == ECONNRESET);
	sock_close(p.c);
	pair_close(&p);
}

static void test_seq_arith(void)
{
	CHECK(before(1, 2));
	CHECK(!before(2, 1));
	CHECK(!before(5, 5));
	CHECK(before(0xfffffff0u, 0x10));	/* across the wrap */
	CHECK(after(0x10, 0xfffffff0u));
	CHECK(!after(0xfffffff0u, 0x10));
	CHECK(before(0x7fffffffu, 0xfffffffeu));
	CHECK(between(0, 0xffffff00u, 0x100));
	CHECK(between(0xffffff00u, 0xffffff00u, 0x100));
	CHECK(between(0x100, 0xffffff00u, 0x100));
	CHECK(!between(0x101, 0xffffff00u, 0x100));
	CHECK(!between(0xfffffeffu, 0xffffff00u, 0x100));
}

static void test_wraparound(void)
{
	struct pair p;
	struct tcp_sock *ct, *st;

	/* ISNs land within 64 KiB below 2^32: the transfer must cross. */
	pair_open(&p, 0xfffe0000u);
	ct = tcp_sk(p.c);
	st = tcp_sk(p.s);
	CHECK(ct->iss >= 0xfffe0000u || ct->iss < 0x10000u);
	transfer(p.c, p.s, 300000, 16384);
	transfer(p.s, p.c, 300000, 7000);
	CHECK(ct->snd_nxt < 0x80000u);		/* wrapped */
	CHECK(st->snd_nxt < 0x80000u);
	net_clock_advance(p.net, TCP_DELACK_MAX);	/* flush delayed ACKs */
	CHECK(ct->snd_una == ct->snd_nxt && st->snd_una == st->snd_nxt);
	CHECK(ct->bytes_acked == 300000 && st->bytes_received == 300000);
	CHECK(net_drop_total(p.net) == 0);
	dump_drops(p.net);
	sock_close(p.c);
	sock_close(p.s);
	CHECK(sock_state(p.c) == TCP_TIME_WAIT);
	pair_close(&p);
}

static void test_retransmit(void)
{
	struct pair p;
	struct tcp_sock *ct;
	u8 buf[2000];
	int i;

	pair_open(&p, 0);
	ct = tcp_sk(p.c);
	transfer(p.c, p.s, 20000, 2000);
	net_clock_advance(p.net, TCP_DELACK_MAX);	/* flush delayed ACKs */
	CHECK(ct->srtt != 0 && ct->rto >= TCP_RTO_MIN);
	/* Lose a segment: the device is down while it is sent. */
	p.net->dev->flags &= ~IFF_UP;
	memset(buf, 0xab, sizeof(buf));
	CHECK(sock_send(p.c, buf, 1000) == 1000);
	p.net->dev->flags |= IFF_UP;
	CHECK(net_drop_count(p.net, NET_DROP_DEV_DOWN) == 1);
	CHECK(ct->packets_out == 1 && ct->rtx_timer.pending);
	CHECK(sock_recv(p.s, buf, sizeof(buf)) == -EAGAIN);
	net_clock_advance(p.net, ct->rto);
	CHECK(p.net->mib.tcp_timeouts == 1);
	CHECK(p.net->mib.tcp_retrans_segs == 1);
	CHECK(ct->snd_cwnd == 1 && ct->backoff == 1);
	net_clock_advance(p.net, TCP_DELACK_MAX);
	CHECK(ct->packets_out == 0 && !ct->rtx_timer.pending);
	CHECK(ct->backoff == 0);
	CHECK(sock_recv(p.s, buf, sizeof(buf)) == 1000);
	CHECK(buf[0] == 0xab && buf[999] == 0xab);
	/* Lose everything: the connection times out after backoff. */
	p.net->dev->flags &= ~IFF_UP;
	CHECK(sock_send(p.c, buf, 10) == 10);
	for (i = 0; i < 1000; i++)
		net_clock_advance(p.net, 1000);
	CHECK(sock_state(p.c) == TCP_CLOSED && p.c->err == ETIMEDOUT);
	p.net->dev->flags |= IFF_UP;
	sock_close(p.c);
	sock_close(p.s);
	pair_close(&p);
}

/*
 * One segment lost, four after it delivered: the receiver keeps the four
 * (out-of-order queue), its duplicate ACKs make the sender retransmit the
 * lost one without waiting for the timer, and that single retransmission
 * completes the stream, in order.
 */
static void test_reordering(void)
{
	struct pair p;
	struct tcp_sock *ct, *st;
	u8 out[5000], in[6000];
	ssize_t n, got = 0;

	pair_open(&p, 0);
	ct = tcp_sk(p.c);
	st = tcp_sk(p.s);
	sock_set_nodelay(p.c, true);
	transfer(p.c, p.s, 20000, 2000);	/* open the congestion window */
	net_clock_advance(p.net, TCP_DELACK_MAX);
	for (u32 i = 0; i < sizeof(out); i++)
		out[i] = (u8)(i * 13 + 5);
	p.net->dev->flags &= ~IFF_UP;
	CHECK(sock_send(p.c, out, 1000) == 1000);	/* lost */
	p.net->dev->flags |= IFF_UP;
	for (int i = 1; i < 5; i++)
		CHECK(sock_send(p.c, out + 1000 * i, 1000) == 1000);
	CHECK(p.net->mib.tcp_ofo_queued >= 3);
	CHECK(p.net->mib.tcp_retrans_segs == 1);	/* fast retransmit */
	CHECK(p.net->mib.tcp_timeouts == 0);
	CHECK(skb_queue_empty(&st->out_of_order_queue));
	CHECK(st->pred_flags != 0);			/* fast path again */
	while ((n = sock_recv(p.s, in + got, sizeof(in) - (size_t)got)) > 0)
		got += n;
	CHECK(got == 5000);
	CHECK(!memcmp(in, out, 5000));
	net_clock_advance(p.net, TCP_DELACK_MAX);
	CHECK(ct->snd_una == ct->write_seq && ct->packets_out == 0);
	CHECK(p.net->mib.tcp_retrans_segs == 1);	/* nothing else resent */
	CHECK(net_drop_count(p.net, NET_DROP_TCP_OFO) == 0);
	sock_close(p.c);
	sock_close(p.s);
	pair_close(&p);
}

static void test_delayed_ack(void)
{
	struct pair p;
	struct tcp_sock *st;
	u8 b;
	int i;

	pair_open(&p, 0);
	st = tcp_sk(p.s);
	/* Exhaust quick-ack mode first. */
	for (i = 0; i < 20; i++) {
		CHECK(sock_send(p.c, "q", 1) == 1);
		CHECK(sock_recv(p.s, &b, 1) == 1);
		net_clock_advance(p.net, 50);
	}
	CHECK(st->quick_acks == 0);
	CHECK(sock_send(p.c, "d", 1) == 1);
	CHECK(st->ack_pending && st->delack_timer.pending);
	CHECK(tcp_sk(p.c)->packets_out == 1);
	net_clock_advance(p.net, TCP_DELACK_MIN);
	CHECK(!st->ack_pending && tcp_sk(p.c)->packets_out == 0);
	CHECK(p.net->mib.tcp_delayed_acks >= 1);
	/* A response piggybacks the ACK: no timer left behind. */
	CHECK(sock_send(p.c, "r", 1) == 1);
	CHECK(sock_send(p.s, "s", 1) == 1);
	CHECK(!st->delack_timer.pending);
	sock_close(p.c);
	sock_close(p.s);
	pair_close(&p);
}

/* A receiver that stops reading closes its window; the window update it
 * sends when it reads again is lost, and only the sender's persist timer
 * (zero-window probes) gets the data moving again. */
static void test_zero_window_probe(void)
{
	static u8 buf[16384];
	struct pair p;
	struct tcp_sock *ct;
	u64 sent = 0, got = 0;
	ssize_t n;
	int i;

	pair_open(&p, 0);
	ct = tcp_sk(p.c);
	memset(buf, 0x5a, sizeof(buf));
	for (i = 0; i < 100; i++) {
		n = sock_send(p.c, buf, sizeof(buf));
		if (n > 0)
			sent += (u64)n;
		net_clock_advance(p.net, 1);
	}
	CHECK(ct->snd_wnd < ct->mss_cache && ct->packets_out == 0);
	CHECK(ct->send_head != NULL && ct->rtx_timer.pending);
	/* The reader drains its queue; its window update is lost. */
	p.net->dev->flags &= ~IFF_UP;
	while ((n = sock_recv(p.s, buf, sizeof(buf))) > 0)
		got += (u64)n;
	p.net->dev->flags |= IFF_UP;
	CHECK(ct->snd_wnd < ct->mss_cache);
	for (i = 0; i < 2000 && got < sent; i++) {
		net_clock_advance(p.net, 10);
		while ((n = sock_recv(p.s, buf, sizeof(buf))) > 0)
			got += (u64)n;
	}
	CHECK(got == sent);
	CHECK(buf[0] == 0x5a);
	sock_close(p.c);
	sock_close(p.s);
	pair_close(&p);
}

static void test_options(void)
{
	u8 raw[60] = { 0 };
	struct tcphdr *th = (struct tcphdr *)raw;
	struct tcp_sock tp;
	u8 *o = raw + 20;

	memset(&tp, 0, sizeof(tp));
	o[0] = TCPOPT_MSS; o[1] = 4; o[2] = 0x05; o[3] = 0x00;	/* 1280 */
	o[4] = TCPOPT_NOP;
	o[5] = TCPOPT_WINDOW; o[6] = 3; o[7] = 20;		/* clamped */
	o[8] = TCPOPT_SACK_PERM; o[9] = 2;
	o[10] = TCPOPT_TIMESTAMP; o[11] = 10;
	o[20] = TCPOPT_EOL;
	th->doff_res = 6 << 4 | 0;
	th->doff_res = (u8)(((20 + 24) / 4) << 4);
	CHECK(tcp_parse_options(th, &tp, true) == 0);
	CHECK(tp.rx_mss == 1280);
	CHECK(tp.wscale_ok && tp.snd_wscale == 14);
	CHECK(tp.sack_ok);
	/* An option running past the header is malformed. */
	o[10] = TCPOPT_TIMESTAMP; o[11] = 40;
	CHECK(tcp_parse_options(th, &tp, true) == -EINVAL);
	o[10] = 99; o[11] = 1;					/* len < 2 */
	CHECK(tcp_parse_options(th, &tp, true) == -EINVAL);
}

int main(void)
{
	test_seq_arith();
	test_options();
	test_handshake();
	test_close_active_client();
	test_close_active_server();
	test_close_simultaneous();
	test_reset();
	test_refused_and_unread_rst();
	test_wraparound();
	test_retransmit();
	test_reordering();
	test_delayed_ack();
	test_zero_window_probe();
	return check_report("test_net_tcp");
}
