/* SPDX-License-Identifier: GPL-2.0-or-later */
/* IPv4: header validation and local delivery on receive, header building
 * and next-hop selection on send. No fragmentation: fragments are counted
 * and dropped. */
#include "internal.h"

#define IPOPT_END	0
#define IPOPT_NOOP	1

bool ip_is_local(const struct net_stack *net, be32 addr)
{
	return addr == net->dev->ip_addr;
}

static inline bool ipv4_is_bad_source(be32 addr)
{
	u32 a = ntohl(addr);

	/* Broadcast or multicast sources are never valid (RFC 1122). */
	return a == 0xffffffffu || (a & 0xf0000000u) == 0xe0000000u;
}

/* Walks the option TLVs; they are not acted on, only checked. */
static bool ip_options_valid(const u8 *opt, u32 len)
{
	while (len) {
		u32 olen;

		if (opt[0] == IPOPT_END)
			return true;
		if (opt[0] == IPOPT_NOOP) {
			opt++;
			len--;
			continue;
		}
		if (len < 2)
			return false;
		olen = opt[1];
		if (olen < 2 || olen > len)
			return false;
		opt += olen;
		len -= olen;
	}
	return true;
}

static int ip_rcv_check(struct sk_buff *skb, const struct iphdr *iph)
{
	u32 ihl = ip_hdr_ihl(iph) * 4u;
	u32 tot_len;

	if (unlikely(ip_hdr_version(iph) != 4))
		return NET_DROP_IP_BAD_VERSION;
	if (unlikely(ihl < sizeof(*iph) || !pskb_may_pull(skb, ihl)))
		return NET_DROP_IP_BAD_IHL;
	if (unlikely(ip_fast_csum(iph, ihl / 4)))
		return NET_DROP_IP_BAD_CSUM;
	tot_len = ntohs(iph->tot_len);
	if (unlikely(tot_len > skb->len || tot_len < ihl))
		return NET_DROP_IP_BAD_TOTLEN;
	if (unlikely(ihl > sizeof(*iph) &&
		     !ip_options_valid((const u8 *)(iph + 1),
				       ihl - sizeof(*iph))))
		return NET_DROP_IP_BAD_IHL;
	if (unlikely(ntohs(iph->frag_off) & (IP_MF | IP_OFFSET)))
		return NET_DROP_IP_FRAGMENT;
	if (unlikely(!iph->ttl))
		return NET_DROP_IP_TTL_EXPIRED;
	if (unlikely(ipv4_is_bad_source(iph->saddr)))
		return NET_DROP_IP_BAD_SADDR;
	if (unlikely(!ip_is_local(skb->net, iph->daddr)))
		return NET_DROP_IP_NOT_FOR_US;
	return 0;
}

int ip_rcv(struct sk_buff *skb)
{
	struct net_stack *net = skb->net;
	const struct iphdr *iph;
	int reason;

	net->mib.ip_in_receives++;
	if (unlikely(!pskb_may_pull(skb, sizeof(*iph))))
		return net_drop(skb, NET_DROP_IP_TOO_SHORT);
	iph = (const struct iphdr *)skb->data;
	reason = ip_rcv_check(skb, iph);
	if (unlikely(reason))
		return net_drop(skb, reason);
	/* Ethernet padding past the IP datagram is not payload. */
	skb_trim(skb, ntohs(iph->tot_len));
	skb_pull(skb, ip_hdr_ihl(iph) * 4u);
	skb_reset_transport_header(skb);
	if (unlikely(net->filter && nf_hook_input(net, skb) != NF_ACCEPT))
		return net_drop(skb, NET_DROP_FILTER);
	net->mib.ip_in_delivers++;
	switch (iph->protocol) {
	case IPPROTO_TCP:
		return tcp_v4_rcv(skb);
	case IPPROTO_UDP:
		return udp_rcv(skb);
	default:
		return net_drop(skb, NET_DROP_IP_UNKNOWN_PROTO);
	}
}

/* Two routes: the device's subnet is on-link, the rest goes through the
 * default gateway if there is one. */
static int ip_route_output(struct net_stack *net, be32 daddr, be32 *nexthop)
{
	struct net_device *dev = net->dev;

	if (likely(((daddr ^ dev->ip_addr) & dev->netmask) == 0)) {
		*nexthop = daddr;
		return 0;
	}
	if (net->gateway) {
		*nexthop = net->gateway;
		return 0;
	}
	return -ENETUNREACH;
}

int ip_queue_xmit(struct sk_buff *skb, be32 saddr, be32 daddr, u8 proto)
{
	struct net_stack *net = skb->net;
	struct iphdr *iph;
	be32 nexthop;

	if (unlikely(ip_route_output(net, daddr, &nexthop)))
		return net_drop(skb, NET_DROP_IP_NO_ROUTE);
	iph = (struct iphdr *)skb_push(skb, sizeof(*iph));
	skb_reset_network_header(skb);
	iph->ver_ihl = 0x45;
	iph->tos = 0;
	iph->tot_len = htons((u16)skb->len);
	iph->id = htons(net->ip_id++);
	iph->frag_off = htons(IP_DF);
	iph->ttl = IP_DEFAULT_TTL;
	iph->protocol = proto;
	iph->check = 0;
	iph->saddr = saddr;
	iph->daddr = daddr;
	iph->check = ip_fast_csum(iph, 5);
	skb->dev = net->dev;
	skb->protocol = ETH_P_IP;
	net->mib.ip_out_requests++;
	return neigh_output(net, skb, nexthop);
}
