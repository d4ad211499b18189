/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A port switch in front of one real card (see <kfront/netmux.h>): upper
 * devices that share the card's addresses, one local TCP/UDP port each.
 *
 * Transmit goes straight through to the card. Receive is demultiplexed
 * in the card's poll: whichever stack polls, every frame goes to the
 * stack whose port it is for, at once, so no stack ever sees another's
 * segments and none waits for the others to poll. */
#include <kfront/compiler.h>
#include <kfront/errno.h>
#include <kfront/netmux.h>
#include <kfront/printk.h>
#include <kfront/string.h>
#include <kfront/net/byteorder.h>
#include <kfront/net/skbuff.h>

#define ETH_P_IPV4	0x0800
#define IPPROTO_TCP	6
#define IPPROTO_UDP	17

struct netmux {
	struct net_device *lower;
	struct net_device upper[NETMUX_PORTS];
	u16 base[NETMUX_PORTS];		/* first port, host order; 0 = free */
	u16 count[NETMUX_PORTS];
	bool polling;
	u64 unclaimed;
};

static struct netmux mux;

/* The local port a TCP or UDP frame is for, host order; 0 for any other
 * frame (ARP, ICMP, IP fragments after the first), which every upper
 * device gets. */
static u16 frame_dport(const u8 *frame, u32 len)
{
	const u8 *ip = frame + ETH_HLEN;
	u32 ihl;

	if (len < ETH_HLEN + 20 ||
	    (frame[12] << 8 | frame[13]) != ETH_P_IPV4)
		return 0;
	ihl = (u32)(ip[0] & 0x0f) * 4;
	if ((ip[0] >> 4) != 4 || ihl < 20 || len < ETH_HLEN + ihl + 4)
		return 0;
	if (ip[9] != IPPROTO_TCP && ip[9] != IPPROTO_UDP)
		return 0;
	if ((ip[6] & 0x1f) || ip[7])	/* not the first fragment */
		return 0;
	return (u16)(ip[ihl + 2] << 8 | ip[ihl + 3]);
}

static void upper_rx(struct net_device *up, const u8 *frame, u32 len)
{
	if (!(up->flags & IFF_UP) || !up->stack_ops) {
		up->stats.rx_dropped++;
		return;
	}
	up->stats.rx_packets++;
	up->stats.rx_bytes += len;
	up->stack_ops->rx_frame(up, frame, len);
}

static void mux_rx_frame(struct net_device *lower, const u8 *frame, u32 len)
{
	u16 dport = frame_dport(frame, len);

	(void)lower;
	for (int i = 0; i < NETMUX_PORTS; i++) {
		if (!mux.base[i])
			continue;
		if (!dport || (u16)(dport - mux.base[i]) < mux.count[i]) {
			upper_rx(&mux.upper[i], frame, len);
			if (dport)
				return;
		}
	}
	if (dport)
		mux.unclaimed++;
}

/* The skb came down through an upper device (skb->dev): it goes back to
 * that device's stack. */
static void mux_tx_done(struct net_device *lower, struct sk_buff *skb)
{
	struct net_device *up = skb->dev;

	(void)lower;
	up->stats.tx_packets++;
	up->stats.tx_bytes += skb->len;
	up->stack_ops->tx_done(up, skb);
}

static const struct netdev_stack_ops mux_lower_ops = {
	.rx_frame = mux_rx_frame,
	.tx_done = mux_tx_done,
};

static int upper_open(struct net_device *up)
{
	up->flags |= IFF_UP;
	return 0;
}

static void upper_stop(struct net_device *up)
{
	up->flags &= ~IFF_UP;
}

static enum netdev_tx upper_start_xmit(struct sk_buff *skb,
				       struct net_device *up)
{
	struct net_device *lower = mux.lower;
	enum netdev_tx rc = lower->ops->ndo_start_xmit(skb, lower);

	if (rc != NETDEV_TX_OK)
		up->stats.tx_busy++;
	return rc;
}

/* Polls the card for everyone; this device is done when the card is. A
 * poll that starts inside another (a stack answering from its receive
 * path and polling again) finds nothing to do: the outer one goes on. */
static int upper_poll(struct net_device *up, int budget)
{
	struct net_device *lower = mux.lower;
	int n;

	up->stats.polls++;
	if (mux.polling)
		return 0;
	mux.polling = true;
	napi_schedule(lower);
	n = lower->ops->ndo_poll(lower, budget);
	mux.polling = false;
	if (!lower->napi_scheduled)
		up->napi_scheduled = false;
	return n;
}

static void upper_uninit(struct net_device *up)
{
	(void)up;
}

static const struct net_device_ops upper_ops = {
	.ndo_open = upper_open,
	.ndo_stop = upper_stop,
	.ndo_start_xmit = upper_start_xmit,
	.ndo_poll = upper_poll,
	.ndo_uninit = upper_uninit,
};

int netmux_init(struct net_device *lower)
{
	int err;

	if (mux.lower)
		return mux.lower == lower ? 0 : -EBUSY;
	if (lower->stack_ops)
		return -EBUSY;
	err = lower->ops->ndo_open(lower);
	if (err)
		return err;
	lower->stack_ops = &mux_lower_ops;
	lower->owner = &mux;
	mux.lower = lower;
	return 0;
}

struct net_device *netmux_open_ports(u16 base, u16 count)
{
	struct net_device *lower = mux.lower;

	if (!lower || !base || !count || base + count - 1 > 0xffff)
		return NULL;
	for (int i = 0; i < NETMUX_PORTS; i++) {
		if (mux.base[i] && base < mux.base[i] + mux.count[i] &&
		    mux.base[i] < base + count)
			return NULL;	/* one stack per port */
	}
	for (int i = 0; i < NETMUX_PORTS; i++) {
		struct net_device *up = &mux.upper[i];

		if (mux.base[i])
			continue;
		memset(up, 0, sizeof(*up));
		/* Cut to fit: "e1000-0.40000" is 13 characters. */
		snprintf(up->name, sizeof(up->name), "%.9s.%u", lower->name, base);
		memcpy(up->dev_addr, lower->dev_addr, ETH_ALEN);
		memcpy(up->broadcast, lower->broadcast, ETH_ALEN);
		up->mtu = lower->mtu;
		up->ops = &upper_ops;
		up->owner = &mux;
		mux.base[i] = base;
		mux.count[i] = count;
		return up;
	}
	return NULL;
}

void netmux_close_port(struct net_device *up)
{
	for (int i = 0; i < NETMUX_PORTS; i++) {
		if (&mux.upper[i] == up) {
			mux.base[i] = 0;
			up->flags = 0;
			up->stack_ops = NULL;
		}
	}
}

u64 netmux_unclaimed(void)
{
	return mux.unclaimed;
}
