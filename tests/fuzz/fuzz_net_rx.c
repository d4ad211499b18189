/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer target: arbitrary frames into the receive path of a stack
 * that has a listener, an established TCP connection and a UDP socket.
 *
 * Build and run (from the repository root; filter_rules.c is generated):
 *   python3 kernel/net/gen_filters.py /tmp/filter_rules.c
 *   clang -std=gnu11 -g -O1 -fsanitize=fuzzer,address,undefined \
 *     -fno-sanitize-recover=undefined -DKFRONT_HOST=1 -D_GNU_SOURCE \
 *     -Iinclude -Iarch/x86/include -Ikernel/net \
 *     tests/fuzz/fuzz_net_rx.c kernel/net/?*.c /tmp/filter_rules.c \
 *     tests/unit/host_shim.c -o /tmp/fuzz_net_rx
 *   /tmp/fuzz_net_rx -max_total_time=30 -max_len=4096 [corpus dir]
 *
 * Input: a sequence of records [ctl][len lo][len hi][frame bytes]. ctl
 * bits ask for fix-ups so that mutated frames get past the checksums and
 * reach TCP's state machine: 0x01 IP checksum, 0x02 TCP/UDP checksum,
 * 0x04 aim at the established connection (addresses, ports, sequence
 * numbers near the expected ones), 0x08 aim at the listener, 0x10 fix the
 * IP total length; the top 3 bits advance the virtual clock.
 */
#include <stdint.h>
#include <string.h>
#include "internal.h"
#include <kfront/net/socket.h>

#define PORT		7001
#define FRAME_MAX	1600

struct fuzz_env {
	struct net_stack *net;
	struct sock *listener, *client, *server, *udp;
};

static int env_open(struct fuzz_env *e)
{
	struct net_config cfg;
	struct sockaddr_in sa;

	memset(e, 0, sizeof(*e));
	net_default_config(&cfg);
	cfg.footprint = 8;
	cfg.ring_size = 32;	/* small rings: fast set-up, overruns reachable */
	e->net = net_stack_create(&cfg);
	if (!e->net)
		return -1;
	sa.sin_addr = e->net->dev->ip_addr;
	sa.sin_port = htons(PORT);
	if (sock_create(e->net, SOCK_STREAM, &e->listener) ||
	    sock_bind(e->listener, &sa) || sock_listen(e->listener, 4) ||
	    sock_create(e->net, SOCK_STREAM, &e->client) ||
	    sock_connect(e->client, &sa) ||
	    sock_accept(e->listener, &e->server))
		return -1;
	sa.sin_port = htons(PORT + 1);
	if (sock_create(e->net, SOCK_DGRAM, &e->udp) || sock_bind(e->udp, &sa))
		return -1;
	return 0;
}

static void env_close(struct fuzz_env *e)
{
	if (!e->net)
		return;
	if (e->client)
		sock_close(e->client);
	if (e->server)
		sock_close(e->server);
	if (e->listener)
		sock_close(e->listener);
	if (e->udp)
		sock_close(e->udp);
	net_clock_advance(e->net, 300000);
	net_stack_destroy(e->net);
}

static void retarget_tcp(struct fuzz_env *e, struct tcphdr *th, bool estab)
{
	struct tcp_sock *tp = tcp_sk(e->server);

	if (estab) {
		/* Keep the fuzzer's low bits as offsets near the edges. */
		th->source = e->client->sport;
		th->dest = e->server->sport;
		th->seq = htonl(tp->rcv_nxt + (s8)(ntohl(th->seq) & 0xff));
		th->ack_seq = htonl(tp->snd_una +
				    (s8)(ntohl(th->ack_seq) & 0xff));
	} else {
		th->dest = htons(PORT);
	}
}

static void fix_frame(struct fuzz_env *e, u8 *f, u32 len, u8 ctl)
{
	struct ethhdr *eth = (struct ethhdr *)f;
	struct iphdr *iph = (struct iphdr *)(f + ETH_HLEN);
	u32 ihl, l4len;
	u8 *l4;

	if (len < ETH_HLEN + sizeof(*iph) || eth->h_proto != htons(ETH_P_IP))
		return;
	if (ctl & 0x0c) {
		memcpy(eth->h_dest, e->net->dev->dev_addr, ETH_ALEN);
		iph->saddr = e->net->dev->ip_addr;
		iph->daddr = e->net->dev->ip_addr;
	}
	if (ctl & 0x10)
		iph->tot_len = htons((u16)(len - ETH_HLEN));
	ihl = ip_hdr_ihl(iph) * 4u;
	if (ihl < sizeof(*iph) || ETH_HLEN + ihl > len ||
	    ntohs(iph->tot_len) < ihl || ETH_HLEN + ntohs(iph->tot_len) > len)
		goto ip;
	l4 = f + ETH_HLEN + ihl;
	l4len = ntohs(iph->tot_len) - ihl;
	if (iph->protocol == IPPROTO_TCP && l4len >= sizeof(struct tcphdr)) {
		struct tcphdr *th = (struct tcphdr *)l4;

		if (ctl & 0x0c)
			retarget_tcp(e, th, ctl & 0x04);
		if (ctl & 0x02) {
			th->check = 0;
			th->check = csum_tcpudp_magic(iph->saddr, iph->daddr,
				l4len, IPPROTO_TCP, csum_partial(th, l4len, 0));
		}
	} else if (iph->protocol == IPPROTO_UDP &&
		   l4len >= sizeof(struct udphdr) && (ctl & 0x02)) {
		struct udphdr *uh = (struct udphdr *)l4;

		uh->check = 0;
		uh->check = csum_tcpudp_magic(iph->saddr, iph->daddr, l4len,
			IPPROTO_UDP, csum_partial(uh, l4len, 0));
	}
ip:
	if (ctl & 0x01 && ihl >= sizeof(*iph) && ETH_HLEN + ihl <= len) {
		iph->check = 0;
		iph->check = ip_fast_csum(iph, ihl / 4);
	}
}

/* Let the applications react as a benchmark would. */
static void poke_sockets(struct fuzz_env *e, u8 ctl)
{
	u8 buf[2048];

	if (e->client->state == TCP_ESTABLISHED && (ctl & 0x20))
		sock_send(e->client, "fuzz", 4);
	sock_recv(e->server, buf, sizeof(buf));
	sock_recv(e->client, buf, sizeof(buf));
	sock_recv(e->udp, buf, sizeof(buf));
	if (ctl >> 5)
		net_clock_advance(e->net, (u64)(ctl >> 5) * 97);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static u8 frame_mem[FRAME_MAX + 8] __attribute__((aligned(8)));
	u8 *frame = frame_mem + NET_IP_ALIGN;	/* IP header 4-aligned */
	struct fuzz_env e;

	if (env_open(&e) == 0) {
		while (size >= 3) {
			u8 ctl = data[0];
			u32 len = (u32)(data[1] | data[2] << 8) % FRAME_MAX;

			data += 3;
			size -= 3;
			if (len > size)
				len = (u32)size;
			memcpy(frame, data, len);
			data += len;
			size -= len;
			fix_frame(&e, frame, len, ctl);
			net_rx_frame(e.net, frame, len);
			poke_sockets(&e, ctl);
		}
	}
	env_close(&e);
	return 0;
}
