/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Network devices: the stack talks to a driver only through
 * net_device_ops, so a real NIC (virtio-net, e1000) plugs in beside the
 * descriptor-ring loopback NIC. */
#ifndef KFRONT_NET_NETDEVICE_H
#define KFRONT_NET_NETDEVICE_H

#include <kfront/types.h>

struct sk_buff;
struct net_device;
struct net_stack;

#define ETH_ALEN	6
#define ETH_HLEN	14
#define ETH_ZLEN	60	/* minimum frame without FCS */
#define ETH_DATA_LEN	1500
#define ETH_FRAME_LEN	1514

enum netdev_tx {
	NETDEV_TX_OK = 0,
	NETDEV_TX_BUSY = 16,
};

#define IFF_UP		0x1
#define IFF_LOOPBACK	0x8

struct net_device_stats {
	u64 rx_packets;
	u64 tx_packets;
	u64 rx_bytes;
	u64 tx_bytes;
	u64 rx_dropped;
	u64 tx_dropped;
	u64 rx_missed;		/* the device found no RX descriptor */
	u64 tx_busy;
	u64 irqs;
	u64 polls;
};

struct net_device_ops {
	int (*ndo_open)(struct net_device *dev);
	void (*ndo_stop)(struct net_device *dev);
	/* Takes ownership of skb on NETDEV_TX_OK. */
	enum netdev_tx (*ndo_start_xmit)(struct sk_buff *skb,
					 struct net_device *dev);
	/* NAPI poll: receive up to budget frames, reclaim TX; returns the
	 * number received. */
	int (*ndo_poll)(struct net_device *dev, int budget);
	/* Frees the driver's private state (after ndo_stop). */
	void (*ndo_uninit)(struct net_device *dev);
};

/* What a driver calls in the stack that owns its card. Every compiler
 * variant carries its own copy of kernel/net (static functions, no
 * exported names), so a driver must not call alloc_skb() or
 * netif_receive_skb() by name: that would always reach the runtime's
 * copy, whichever copy took the card over. The owner installs these when
 * it attaches (net_stack_create(), or the port switch of drivers/netmux.c
 * that shares one card among several stacks). */
struct netdev_stack_ops {
	/* A frame the card received; the owner copies it before returning,
	 * so the driver may give its buffer back to the device at once. */
	void (*rx_frame)(struct net_device *dev, const u8 *frame, u32 len);
	/* A transmitted skb the driver has copied out of and is done with. */
	void (*tx_done)(struct net_device *dev, struct sk_buff *skb);
};

struct net_device {
	char name[16];
	u8 dev_addr[ETH_ALEN];
	u8 broadcast[ETH_ALEN];
	u32 mtu;
	u32 flags;
	be32 ip_addr;		/* one IPv4 address per device */
	be32 netmask;
	const struct net_device_ops *ops;
	struct net_stack *net;	/* the owning stack (NULL: see stack_ops) */
	const struct netdev_stack_ops *stack_ops; /* NULL: nobody attached */
	void *owner;		/* the owner's own state (netmux) */
	void *priv;		/* the driver's state */
	bool napi_scheduled;
	struct net_device_stats stats;
};

/* Called by a driver's interrupt handler: poll from the softirq. */
static inline void napi_schedule(struct net_device *dev)
{
	dev->napi_scheduled = true;
}

/* Entry points inside one copy of the stack (the loopback NIC, tests);
 * a real card's driver goes through dev->stack_ops instead. */
void netif_receive_skb(struct sk_buff *skb);
int dev_queue_xmit(struct sk_buff *skb);

/* The driver-facing functions of this copy of the stack. */
extern const struct netdev_stack_ops net_stack_dev_ops;

/* The descriptor-ring NIC wired as a loopback (kernel/net/ring_nic.c). */
struct net_device *loopnic_create(struct net_stack *net, u32 ring_size);
void netdev_destroy(struct net_device *dev);

#endif
