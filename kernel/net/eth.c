/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Ethernet: frame classification on receive, header building on send. */
#include "internal.h"

#define PACKET_HOST		0
#define PACKET_BROADCAST	1

static inline bool ether_addr_equal(const u8 *a, const u8 *b)
{
	return !memcmp(a, b, ETH_ALEN);
}

static inline bool is_broadcast_ether_addr(const u8 *a)
{
	return (a[0] & a[1] & a[2] & a[3] & a[4] & a[5]) == 0xff;
}

int eth_rcv(struct sk_buff *skb)
{
	struct net_device *dev = skb->dev;
	const struct ethhdr *eth;

	if (unlikely(!pskb_may_pull(skb, ETH_HLEN)))
		return net_drop(skb, NET_DROP_ETH_TOO_SHORT);
	eth = (const struct ethhdr *)skb->data;
	if (likely(ether_addr_equal(eth->h_dest, dev->dev_addr))) {
		skb->pkt_type = PACKET_HOST;
	} else if (is_broadcast_ether_addr(eth->h_dest)) {
		skb->pkt_type = PACKET_BROADCAST;
	} else {
		/* No multicast groups are joined on this device. */
		return net_drop(skb, NET_DROP_ETH_OTHERHOST);
	}
	skb->protocol = ntohs(eth->h_proto);
	skb_pull(skb, ETH_HLEN);
	skb_reset_network_header(skb);

	switch (skb->protocol) {
	case ETH_P_IP:
		if (unlikely(skb->pkt_type != PACKET_HOST))
			return net_drop(skb, NET_DROP_ETH_OTHERHOST);
		return ip_rcv(skb);
	case ETH_P_ARP:
		return arp_rcv(skb);
	default:
		return net_drop(skb, NET_DROP_ETH_UNKNOWN_PROTO);
	}
}

int eth_header(struct sk_buff *skb, const u8 *daddr, u16 proto)
{
	struct ethhdr *eth;

	if (unlikely(skb_headroom(skb) < ETH_HLEN))
		return -ENOSPC;
	eth = (struct ethhdr *)skb_push(skb, ETH_HLEN);
	skb_reset_mac_header(skb);
	memcpy(eth->h_dest, daddr, ETH_ALEN);
	memcpy(eth->h_source, skb->dev->dev_addr, ETH_ALEN);
	eth->h_proto = htons(proto);
	return 0;
}
