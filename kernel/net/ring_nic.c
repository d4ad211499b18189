/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Driver for the descriptor-ring NIC: TX and RX rings with ownership bits,
 * a doorbell register, interrupt cause register and NAPI-style polling.
 * Instantiated here over the loopback emulation (loopnic_hw.c). */
#include <kfront/slab.h>
#include "internal.h"
#include "ring_nic.h"

#define RNIC_RX_BUF	(SKB_DATA_STD - NET_IP_ALIGN)

struct rnic_priv {
	struct net_device *dev;
	const struct rnic_hw_ops *hw_ops;
	void *hw;
	u32 size;		/* descriptors per ring, power of two */
	u32 tx_next;		/* next TX descriptor to fill */
	u32 tx_clean;		/* next TX descriptor to reclaim */
	u32 tx_inflight;
	u32 rx_next;		/* next RX descriptor to check */
	struct rnic_desc *tx_ring;
	struct rnic_desc *rx_ring;
	struct sk_buff **tx_skb;
	struct sk_buff **rx_skb;
};

static inline struct rnic_priv *rnic_priv(struct net_device *dev)
{
	return dev->priv;
}

static inline void rnic_wr(struct rnic_priv *p, enum rnic_reg reg, u64 v)
{
	p->hw_ops->write(p->hw, reg, v);
}

static inline u64 rnic_rd(struct rnic_priv *p, enum rnic_reg reg)
{
	return p->hw_ops->read(p->hw, reg);
}

/* Gives a fresh buffer to the device at RX slot i. */
static int rnic_post_rx(struct rnic_priv *p, u32 i)
{
	struct rnic_desc *d = &p->rx_ring[i];
	struct sk_buff *skb;

	skb = alloc_skb(p->dev->net, SKB_DATA_STD);
	if (unlikely(!skb))
		return -ENOMEM;
	skb_reserve(skb, NET_IP_ALIGN);
	p->rx_skb[i] = skb;
	d->addr = (u64)(uintptr)skb->data;
	d->buf_len = (u16)min(skb_tailroom(skb), (u32)RNIC_RX_BUF);
	d->len = 0;
	d->status = 0;
	d->flags = RNIC_DESC_OWN;
	return 0;
}

static void rnic_irq(void *arg)
{
	struct net_device *dev = arg;
	struct rnic_priv *p = rnic_priv(dev);
	u64 icr = rnic_rd(p, RNIC_REG_ICR);

	dev->stats.irqs++;
	if (likely(icr & (RNIC_INT_RXT | RNIC_INT_TXDW)))
		napi_schedule(dev);
}

static int rnic_alloc_rings(struct rnic_priv *p)
{
	u32 n = p->size;

	p->tx_ring = kzalloc(n * sizeof(struct rnic_desc));
	p->rx_ring = kzalloc(n * sizeof(struct rnic_desc));
	p->tx_skb = kzalloc(n * sizeof(struct sk_buff *));
	p->rx_skb = kzalloc(n * sizeof(struct sk_buff *));
	if (!p->tx_ring || !p->rx_ring || !p->tx_skb || !p->rx_skb)
		return -ENOMEM;
	return 0;
}

static void rnic_free_rings(struct rnic_priv *p)
{
	u32 i;

	for (i = 0; p->tx_skb && i < p->size; i++)
		consume_skb(p->tx_skb[i]);
	for (i = 0; p->rx_skb && i < p->size; i++)
		consume_skb(p->rx_skb[i]);
	kfree(p->tx_ring);
	kfree(p->rx_ring);
	kfree(p->tx_skb);
	kfree(p->rx_skb);
	p->tx_ring = p->rx_ring = NULL;
	p->tx_skb = p->rx_skb = NULL;
}

static int rnic_open(struct net_device *dev)
{
	struct rnic_priv *p = rnic_priv(dev);
	u32 i;
	int err;

	err = rnic_alloc_rings(p);
	for (i = 0; !err && i < p->size; i++)
		err = rnic_post_rx(p, i);
	if (err) {
		rnic_free_rings(p);
		return err;
	}
	p->hw_ops->set_irq(p->hw, rnic_irq, dev);
	rnic_wr(p, RNIC_REG_TX_BASE, (u64)(uintptr)p->tx_ring);
	rnic_wr(p, RNIC_REG_TX_LEN, p->size);
	rnic_wr(p, RNIC_REG_RX_BASE, (u64)(uintptr)p->rx_ring);
	rnic_wr(p, RNIC_REG_RX_LEN, p->size);
	rnic_wr(p, RNIC_REG_RX_TAIL, p->size - 1);
	rnic_wr(p, RNIC_REG_IMS, RNIC_INT_RXT | RNIC_INT_TXDW);
	rnic_wr(p, RNIC_REG_CTRL, RNIC_CTRL_EN);
	dev->flags |= IFF_UP;
	return 0;
}

static void rnic_stop(struct net_device *dev)
{
	struct rnic_priv *p = rnic_priv(dev);

	rnic_wr(p, RNIC_REG_CTRL, 0);
	rnic_wr(p, RNIC_REG_IMS, 0);
	dev->flags &= ~IFF_UP;
	rnic_free_rings(p);
}

/* Frees the skbs of TX descriptors the device has written back. */
static void rnic_tx_reclaim(struct rnic_priv *p)
{
	while (p->tx_inflight) {
		struct rnic_desc *d = &p->tx_ring[p->tx_clean];

		if (d->flags & RNIC_DESC_OWN)
			break;
		consume_skb(p->tx_skb[p->tx_clean]);
		p->tx_skb[p->tx_clean] = NULL;
		d->status = 0;
		p->tx_clean = (p->tx_clean + 1) & (p->size - 1);
		p->tx_inflight--;
	}
}

static enum netdev_tx rnic_start_xmit(struct sk_buff *skb,
				      struct net_device *dev)
{
	struct rnic_priv *p = rnic_priv(dev);
	struct rnic_desc *d;
	u32 i;

	if (unlikely(p->tx_inflight >= p->size - 1)) {
		rnic_tx_reclaim(p);
		if (p->tx_inflight >= p->size - 1) {
			dev->stats.tx_busy++;
			return NETDEV_TX_BUSY;
		}
	}
	/* Short frames are padded to the Ethernet minimum. */
	if (unlikely(skb->len < ETH_ZLEN)) {
		u32 pad = ETH_ZLEN - skb->len;

		if (skb_tailroom(skb) >= pad)
			memset(skb_put(skb, pad), 0, pad);
	}
	i = p->tx_next;
	d = &p->tx_ring[i];
	p->tx_skb[i] = skb;
	d->addr = (u64)(uintptr)skb->data;
	d->len = (u16)skb->len;
	d->status = 0;
	d->flags = RNIC_DESC_OWN | RNIC_DESC_EOP;
	p->tx_next = (i + 1) & (p->size - 1);
	p->tx_inflight++;
	dev->stats.tx_packets++;
	dev->stats.tx_bytes += skb->len;
	rnic_wr(p, RNIC_REG_TX_TAIL, p->tx_next);
	return NETDEV_TX_OK;
}

/* Takes the frame out of RX slot i and re-arms the slot. */
static struct sk_buff *rnic_rx_one(struct rnic_priv *p, u32 i)
{
	struct rnic_desc *d = &p->rx_ring[i];
	struct sk_buff *skb = p->rx_skb[i];
	u16 len = d->len;
	u8 status = d->status;

	if (unlikely(!(status & RNIC_STAT_EOP) || (status & RNIC_STAT_ERR) ||
		     rnic_post_rx(p, i))) {
		/* Recycle the old buffer in place: the frame is lost. */
		p->dev->stats.rx_dropped++;
		net_count_drop(p->dev->net, NET_DROP_NIC_RX_OVERRUN);
		d->len = 0;
		d->status = 0;
		d->flags = RNIC_DESC_OWN;
		return NULL;
	}
	skb_put(skb, len);
	skb->dev = p->dev;
	return skb;
}

static int rnic_poll(struct net_device *dev, int budget)
{
	struct rnic_priv *p = rnic_priv(dev);
	int done = 0;

	dev->stats.polls++;
	rnic_tx_reclaim(p);
	while (done < budget) {
		u32 i = p->rx_next;
		struct sk_buff *skb;

		if (p->rx_ring[i].flags & RNIC_DESC_OWN)
			break;
		skb = rnic_rx_one(p, i);
		p->rx_next = (i + 1) & (p->size - 1);
		rnic_wr(p, RNIC_REG_RX_TAIL, i);
		done++;
		if (unlikely(!skb))
			continue;
		dev->stats.rx_packets++;
		dev->stats.rx_bytes += skb->len;
		netif_receive_skb(skb);
	}
	dev->stats.rx_missed = rnic_rd(p, RNIC_REG_MISSED);
	if (done < budget)
		dev->napi_scheduled = false;
	return done;
}

static void rnic_uninit(struct net_device *dev)
{
	struct rnic_priv *p = rnic_priv(dev);

	p->hw_ops->free(p->hw);
	kfree(p);
	dev->priv = NULL;
}

static const struct net_device_ops rnic_netdev_ops = {
	.ndo_open = rnic_open,
	.ndo_stop = rnic_stop,
	.ndo_start_xmit = rnic_start_xmit,
	.ndo_poll = rnic_poll,
	.ndo_uninit = rnic_uninit,
};

struct net_device *loopnic_create(struct net_stack *net, u32 ring_size)
{
	struct net_device *dev = kzalloc(sizeof(*dev));
	struct rnic_priv *p = kzalloc(sizeof(*p));

	if (!dev || !p || ring_size < 4 || (ring_size & (ring_size - 1)))
		goto fail;
	p->hw = loopnic_hw_create(&p->hw_ops);
	if (!p->hw)
		goto fail;
	p->dev = dev;
	p->size = ring_size;
	memcpy(dev->name, "rnic0", 6);
	dev->mtu = ETH_DATA_LEN;
	dev->flags = IFF_LOOPBACK;
	memset(dev->broadcast, 0xff, ETH_ALEN);
	dev->ops = &rnic_netdev_ops;
	dev->net = net;
	dev->priv = p;
	return dev;
fail:
	kfree(p);
	kfree(dev);
	return NULL;
}

void netdev_destroy(struct net_device *dev)
{
	if (!dev)
		return;
	if (dev->flags & IFF_UP)
		dev->ops->ndo_stop(dev);
	dev->ops->ndo_uninit(dev);
	kfree(dev);
}
