/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The boundary between drivers and protocols: frames up from a device's
 * poll, frames down to its transmit routine. */
#include "internal.h"

void netif_receive_skb(struct sk_buff *skb)
{
	skb->net = skb->dev->net;
	skb_reset_mac_header(skb);
	eth_rcv(skb);
}

int dev_queue_xmit(struct sk_buff *skb)
{
	struct net_device *dev = skb->dev;
	enum netdev_tx rc;

	if (unlikely(!(dev->flags & IFF_UP))) {
		dev->stats.tx_dropped++;
		return net_drop(skb, NET_DROP_DEV_DOWN);
	}
	rc = dev->ops->ndo_start_xmit(skb, dev);
	if (unlikely(rc != NETDEV_TX_OK)) {
		/* No qdisc to hold it: the loss is TCP's to repair. */
		dev->stats.tx_dropped++;
		return net_drop(skb, NET_DROP_TX_RING_FULL);
	}
	return 0;
}

/* A frame from a real card (dev->stack_ops): into one of our buffers. */
static void netdev_rx_frame(struct net_device *dev, const u8 *frame, u32 len)
{
	struct sk_buff *skb;

	if (unlikely(len > SKB_DATA_STD - NET_IP_ALIGN)) {
		dev->stats.rx_dropped++;
		return;
	}
	skb = alloc_skb(dev->net, SKB_DATA_STD);
	if (unlikely(!skb)) {
		dev->stats.rx_dropped++;
		net_count_drop(dev->net, NET_DROP_NO_MEM);
		return;
	}
	skb_reserve(skb, NET_IP_ALIGN);
	memcpy(skb_put(skb, len), frame, len);
	skb->dev = dev;
	netif_receive_skb(skb);
}

static void netdev_tx_done(struct net_device *dev, struct sk_buff *skb)
{
	(void)dev;
	consume_skb(skb);
}

const struct netdev_stack_ops net_stack_dev_ops = {
	.rx_frame = netdev_rx_frame,
	.tx_done = netdev_tx_done,
};

int net_rx_frame(struct net_stack *net, const void *frame, u32 len)
{
	struct sk_buff *skb;

	if (len > SKB_DATA_STD - NET_IP_ALIGN)
		return -EMSGSIZE;
	skb = alloc_skb(net, SKB_DATA_STD);
	if (!skb)
		return -ENOMEM;
	memcpy(skb_put(skb, len), frame, len);
	skb->dev = net->dev;
	dev_queue_xmit(skb);
	net_softirq(net);
	return 0;
}
