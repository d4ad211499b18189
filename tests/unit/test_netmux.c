/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Host test of the port switch (drivers/netmux.c) with real stacks: two
 * stacks share one card through the switch, as two variants do in the
 * wire benchmarks, and talk TCP to a third stack at the other end of a
 * simulated cable. Each must see its own connection's segments and none
 * of the other's (a stray segment would be answered with a reset), ARP
 * must reach both, and a frame for a port nobody holds is counted. */
#include <string.h>
#include <stdlib.h>
#include "check.h"
#include "../../kernel/net/internal.h"
#include <kfront/netmux.h>
#include <kfront/net/socket.h>

#define CABLE_SLOTS	256
#define PEER_PORT	5001
#define MUX_IP		0x0a000001	/* 10.0.0.1 */
#define PEER_IP		0x0a000002	/* 10.0.0.2 */

/* One end of a cable: frames sent at one end queue at the other. */
struct cable_end {
	struct net_device dev;
	struct cable_end *other;
	u8 frame[CABLE_SLOTS][ETH_FRAME_LEN];
	u32 len[CABLE_SLOTS];
	u32 head, tail;
	u64 sent;
};

static int cable_open(struct net_device *dev)
{
	dev->flags |= IFF_UP;
	return 0;
}

static void cable_stop(struct net_device *dev)
{
	dev->flags &= ~IFF_UP;
}

static enum netdev_tx cable_xmit(struct sk_buff *skb, struct net_device *dev)
{
	struct cable_end *e = dev->priv, *o = e->other;

	if (o->tail - o->head == CABLE_SLOTS)
		return NETDEV_TX_BUSY;
	memcpy(o->frame[o->tail % CABLE_SLOTS], skb->data, skb->len);
	o->len[o->tail % CABLE_SLOTS] = skb->len;
	o->tail++;
	e->sent++;
	dev->stack_ops->tx_done(dev, skb);
	return NETDEV_TX_OK;
}

static int cable_poll(struct net_device *dev, int budget)
{
	struct cable_end *e = dev->priv;
	int n = 0;

	while (n < budget && e->head != e->tail) {
		u32 i = e->head++ % CABLE_SLOTS;

		dev->stack_ops->rx_frame(dev, e->frame[i], e->len[i]);
		n++;
	}
	if (e->head == e->tail)
		dev->napi_scheduled = false;
	return n;
}

static void cable_uninit(struct net_device *dev)
{
	(void)dev;
}

static const struct net_device_ops cable_ops = {
	.ndo_open = cable_open,
	.ndo_stop = cable_stop,
	.ndo_start_xmit = cable_xmit,
	.ndo_poll = cable_poll,
	.ndo_uninit = cable_uninit,
};

static struct cable_end ends[2];

static void cable_init(void)
{
	static const u8 mac[2][ETH_ALEN] = {
		{ 0x52, 0x54, 0, 0, 0, 1 }, { 0x52, 0x54, 0, 0, 0, 2 },
	};

	for (int i = 0; i < 2; i++) {
		struct net_device *d = &ends[i].dev;

		strcpy(d->name, i ? "peer0" : "card0");
		memcpy(d->dev_addr, mac[i], ETH_ALEN);
		memset(d->broadcast, 0xff, ETH_ALEN);
		d->mtu = ETH_DATA_LEN;
		d->ops = &cable_ops;
		d->priv = &ends[i];
		ends[i].other = &ends[1 - i];
	}
}

static struct net_stack *stack_on(struct net_device *dev, u32 ip)
{
	struct net_config cfg;

	net_default_config(&cfg);
	cfg.dev = dev;
	cfg.ip_addr = htonl(ip);
	cfg.netmask = htonl(0xffffff00);
	return net_stack_create(&cfg);
}

/* Lets every stack poll until the cable is quiet. */
static void pump(struct net_stack **nets, int n)
{
	for (int round = 0; round < 64; round++) {
		bool busy = false;

		for (int i = 0; i < n; i++) {
			napi_schedule(nets[i]->dev);
			net_clock_advance(nets[i], 1);
		}
		for (int i = 0; i < 2; i++)
			busy |= ends[i].head != ends[i].tail;
		if (!busy)
			return;
	}
}

static void test_ports(void)
{
	struct net_device *a, *b;

	CHECK(netmux_open_ports(0, 4) == NULL);
	CHECK(netmux_open_ports(65534, 4) == NULL);	/* past 65535 */
	a = netmux_open_ports(41000, 4);
	CHECK(a != NULL);
	CHECK(netmux_open_ports(41003, 4) == NULL);	/* overlaps a */
	CHECK(netmux_open_ports(40997, 4) == NULL);
	b = netmux_open_ports(41004, 4);
	CHECK(b != NULL && b != a);
	CHECK(!memcmp(a->dev_addr, ends[0].dev.dev_addr, ETH_ALEN));
	CHECK_STR(a->name, "card0.41000");
	netmux_close_port(a);
	a = netmux_open_ports(41002, 2);		/* a's ports again */
	CHECK(a != NULL);
	netmux_close_port(a);
	netmux_close_port(b);
}

static void test_two_stacks(void)
{
	struct net_device *up1, *up2;
	struct net_stack *s1, *s2, *peer, *all[3];
	struct sock *l, *c1, *c2, *acc[2], *mine1 = NULL, *mine2 = NULL;
	struct sockaddr_in to = { htonl(PEER_IP), htons(PEER_PORT) };
	struct sockaddr_in b1 = { htonl(MUX_IP), htons(40000) };
	struct sockaddr_in b2 = { htonl(MUX_IP), htons(40004) };
	char buf[16];
	u64 unclaimed0 = netmux_unclaimed();

	up1 = netmux_open_ports(40000, 4);
	up2 = netmux_open_ports(40004, 4);
	CHECK(up1 && up2);
	s1 = stack_on(up1, MUX_IP);
	s2 = stack_on(up2, MUX_IP);
	peer = stack_on(&ends[1].dev, PEER_IP);
	CHECK(s1 && s2 && peer);
	all[0] = s1, all[1] = s2, all[2] = peer;

	CHECK(sock_create(peer, SOCK_STREAM, &l) == 0);
	CHECK(sock_bind(l, &to) == 0);
	CHECK(sock_listen(l, 4) == 0);
	CHECK(sock_create(s1, SOCK_STREAM, &c1) == 0);
	CHECK(sock_bind(c1, &b1) == 0);
	CHECK(sock_create(s2, SOCK_STREAM, &c2) == 0);
	CHECK(sock_bind(c2, &b2) == 0);
	sock_connect(c1, &to);
	sock_connect(c2, &to);
	pump(all, 3);
	CHECK(sock_state(c1) == TCP_ESTABLISHED);
	CHECK(sock_state(c2) == TCP_ESTABLISHED);
	CHECK(sock_accept(l, &acc[0]) == 0);
	CHECK(sock_accept(l, &acc[1]) == 0);
	for (int i = 0; i < 2; i++) {
		if (acc[i]->dport == htons(40000))
			mine1 = acc[i];
		else if (acc[i]->dport == htons(40004))
			mine2 = acc[i];
	}
	CHECK(mine1 && mine2);
	if (!mine1 || !mine2)
		return;

	/* Data both ways on both connections, interleaved. */
	CHECK(sock_send(c1, "one", 3) == 3);
	CHECK(sock_send(c2, "two", 3) == 3);
	pump(all, 3);
	CHECK(sock_recv(mine1, buf, sizeof(buf)) == 3 && !memcmp(buf, "one", 3));
	CHECK(sock_recv(mine2, buf, sizeof(buf)) == 3 && !memcmp(buf, "two", 3));
	CHECK(sock_send(mine2, "to-2", 4) == 4);
	CHECK(sock_send(mine1, "to-1", 4) == 4);
	pump(all, 3);
	CHECK(sock_recv(c1, buf, sizeof(buf)) == 4 && !memcmp(buf, "to-1", 4));
	CHECK(sock_recv(c2, buf, sizeof(buf)) == 4 && !memcmp(buf, "to-2", 4));

	/* Both stacks learnt the peer's MAC from replies they both saw;
	 * neither saw a segment of the other's (it would have been a drop,
	 * TCP_NO_SOCKET, and a reset). */
	CHECK_EQ_U64(net_drop_total(s1), 0);
	CHECK_EQ_U64(net_drop_total(s2), 0);
	CHECK_EQ_U64(net_drop_total(peer), 0);
	CHECK_EQ_U64(s1->mib.tcp_out_rsts + s2->mib.tcp_out_rsts +
		     peer->mib.tcp_out_rsts, 0);
	CHECK(up1->stats.rx_packets > 0 && up2->stats.rx_packets > 0);
	CHECK(up1->stats.tx_packets > 0 && up2->stats.tx_packets > 0);

	/* A datagram for a port nobody holds goes nowhere, counted. */
	{
		struct sock *u;
		struct sockaddr_in nobody = { htonl(MUX_IP), htons(50000) };

		CHECK(sock_create(peer, SOCK_DGRAM, &u) == 0);
		CHECK(sock_sendto(u, "x", 1, &nobody) == 1);
		pump(all, 3);
		CHECK_EQ_U64(netmux_unclaimed() - unclaimed0, 1);
		sock_close(u);
	}

	/* Orderly closes from the switched side. */
	sock_close(c1);
	sock_close(c2);
	pump(all, 3);
	CHECK(sock_recv(mine1, buf, sizeof(buf)) == 0);
	CHECK(sock_recv(mine2, buf, sizeof(buf)) == 0);
	sock_close(mine1);
	sock_close(mine2);
	sock_close(l);
	pump(all, 3);
	net_stack_destroy(s1);
	net_stack_destroy(s2);
	net_stack_destroy(peer);
	netmux_close_port(up1);
	netmux_close_port(up2);
}

int main(void)
{
	cable_init();
	CHECK(netmux_open_ports(40000, 4) == NULL);	/* no card yet */
	CHECK(netmux_init(&ends[0].dev) == 0);
	CHECK(ends[0].dev.flags & IFF_UP);
	CHECK(netmux_init(&ends[1].dev) == -EBUSY);	/* one switch */
	test_ports();
	test_two_stacks();
	return check_report("netmux");
}
