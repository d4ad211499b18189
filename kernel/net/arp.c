/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ARP and the neighbour cache: a hash table of entries with states,
 * resolution with queued packets, probes on the virtual clock. */
#include <kfront/slab.h>
#include "internal.h"

#define NEIGH_HASH_BITS		4
#define NEIGH_HASH_SIZE		(1u << NEIGH_HASH_BITS)
#define NEIGH_MAX_QUEUE		8
#define NEIGH_MAX_PROBES	3
#define NEIGH_RETRANS_MS	1000
#define NEIGH_REACHABLE_MS	30000
#define NEIGH_MAX_ENTRIES	64

enum neigh_state {
	NUD_INCOMPLETE,
	NUD_REACHABLE,
	NUD_STALE,
	NUD_FAILED,
};

struct neighbour {
	struct hlist_node node;
	struct net_stack *net;
	be32 ip;
	u8 ha[ETH_ALEN];
	u8 state;
	u8 probes;
	u64 confirmed;
	struct sk_buff_head queue;	/* packets waiting for resolution */
	struct net_timer timer;
};

struct neigh_table {
	struct hlist_head buckets[NEIGH_HASH_SIZE];
	u32 entries;
};

static inline u32 neigh_hash(be32 ip)
{
	u32 h = ip * 0x9e3779b1u;

	return h >> (32 - NEIGH_HASH_BITS);
}

static struct neighbour *neigh_lookup(struct neigh_table *tbl, be32 ip)
{
	struct hlist_node *pos;

	hlist_for_each(pos, &tbl->buckets[neigh_hash(ip)]) {
		struct neighbour *n = hlist_entry(pos, struct neighbour, node);

		if (n->ip == ip)
			return n;
	}
	return NULL;
}

static void neigh_free(struct neigh_table *tbl, struct neighbour *n)
{
	net_timer_del(&n->timer);
	hlist_del(&n->node);
	skb_queue_purge(&n->queue);
	tbl->entries--;
	kfree(n);
}

static int arp_send(struct net_stack *net, u16 op, be32 tip, const u8 *tha,
		    const u8 *dest)
{
	struct net_device *dev = net->dev;
	struct arphdr_eth *arp;
	struct sk_buff *skb;

	skb = alloc_skb(net, MAX_HEADER + sizeof(*arp));
	if (unlikely(!skb))
		return -ENOMEM;
	skb_reserve(skb, MAX_HEADER);
	skb->dev = dev;
	arp = (struct arphdr_eth *)skb_put(skb, sizeof(*arp));
	arp->ar_hrd = htons(ARPHRD_ETHER);
	arp->ar_pro = htons(ETH_P_IP);
	arp->ar_hln = ETH_ALEN;
	arp->ar_pln = 4;
	arp->ar_op = htons(op);
	memcpy(arp->ar_sha, dev->dev_addr, ETH_ALEN);
	memcpy(arp->ar_sip, &dev->ip_addr, 4);
	memcpy(arp->ar_tha, tha, ETH_ALEN);
	memcpy(arp->ar_tip, &tip, 4);
	skb_reset_network_header(skb);
	eth_header(skb, dest, ETH_P_ARP);
	if (op == ARPOP_REQUEST)
		net->mib.arp_requests_out++;
	return dev_queue_xmit(skb);
}

static void neigh_solicit(struct neighbour *n)
{
	static const u8 zero[ETH_ALEN];
	const u8 *dest = n->net->dev->broadcast;

	/* A stale entry is re-checked by unicast, as Linux does. */
	if (n->state == NUD_STALE)
		dest = n->ha;
	n->probes++;
	arp_send(n->net, ARPOP_REQUEST, n->ip, zero, dest);
}

static void neigh_timer_fn(struct net_timer *t)
{
	struct neighbour *n = container_of(t, struct neighbour, timer);
	struct net_stack *net = n->net;

	if (n->state != NUD_INCOMPLETE)
		return;
	if (n->probes >= NEIGH_MAX_PROBES) {
		n->state = NUD_FAILED;
		while (!skb_queue_empty(&n->queue))
			kfree_skb_reason(__skb_dequeue(&n->queue),
					 NET_DROP_NEIGH_FAILED);
		return;
	}
	neigh_solicit(n);
	net_timer_mod(net, &n->timer, net->now + NEIGH_RETRANS_MS);
}

static struct neighbour *neigh_create(struct net_stack *net, be32 ip)
{
	struct neigh_table *tbl = net->arp;
	struct neighbour *n;

	if (unlikely(tbl->entries >= NEIGH_MAX_ENTRIES))
		return NULL;
	n = kzalloc(sizeof(*n));
	if (unlikely(!n))
		return NULL;
	n->net = net;
	n->ip = ip;
	n->state = NUD_INCOMPLETE;
	skb_queue_head_init(&n->queue);
	net_timer_init(&n->timer, neigh_timer_fn);
	hlist_add_head(&n->node, &tbl->buckets[neigh_hash(ip)]);
	tbl->entries++;
	return n;
}

static int neigh_xmit(struct neighbour *n, struct sk_buff *skb)
{
	if (unlikely(eth_header(skb, n->ha, ETH_P_IP)))
		return net_drop(skb, NET_DROP_NO_MEM);
	return dev_queue_xmit(skb);
}

/* Sends the packets that waited for this entry to resolve. */
static void neigh_flush_queue(struct neighbour *n)
{
	struct sk_buff *skb;

	while ((skb = __skb_dequeue(&n->queue)) != NULL)
		neigh_xmit(n, skb);
}

static void neigh_update(struct neighbour *n, const u8 *ha)
{
	memcpy(n->ha, ha, ETH_ALEN);
	n->state = NUD_REACHABLE;
	n->probes = 0;
	n->confirmed = n->net->now;
	net_timer_del(&n->timer);
	neigh_flush_queue(n);
}

static int neigh_resolve(struct net_stack *net, struct neighbour *n,
			 struct sk_buff *skb)
{
	if (n->queue.qlen >= NEIGH_MAX_QUEUE)
		kfree_skb_reason(__skb_dequeue(&n->queue),
				 NET_DROP_NEIGH_QUEUE_FULL);
	__skb_queue_tail(&n->queue, skb);
	if (!n->timer.pending) {
		n->state = NUD_INCOMPLETE;
		n->probes = 0;
		neigh_solicit(n);
		net_timer_mod(net, &n->timer, net->now + NEIGH_RETRANS_MS);
	}
	return 0;
}

int neigh_output(struct net_stack *net, struct sk_buff *skb, be32 nexthop)
{
	struct neighbour *n = neigh_lookup(net->arp, nexthop);

	if (unlikely(!n)) {
		n = neigh_create(net, nexthop);
		if (!n)
			return net_drop(skb, NET_DROP_NEIGH_FAILED);
	}
	if (likely(n->state == NUD_REACHABLE)) {
		if (unlikely(net->now - n->confirmed > NEIGH_REACHABLE_MS))
			n->state = NUD_STALE;
		return neigh_xmit(n, skb);
	}
	if (n->state == NUD_STALE) {
		neigh_solicit(n);
		n->confirmed = net->now;	/* one probe per period */
		n->state = NUD_REACHABLE;
		return neigh_xmit(n, skb);
	}
	return neigh_resolve(net, n, skb);
}

static bool arp_hdr_valid(const struct arphdr_eth *arp)
{
	return arp->ar_hrd == htons(ARPHRD_ETHER) &&
	       arp->ar_pro == htons(ETH_P_IP) &&
	       arp->ar_hln == ETH_ALEN && arp->ar_pln == 4 &&
	       (arp->ar_op == htons(ARPOP_REQUEST) ||
		arp->ar_op == htons(ARPOP_REPLY));
}

static bool is_zero_or_mcast_sha(const struct arphdr_eth *arp)
{
	const u8 *a = arp->ar_sha;

	return (a[0] & 1) || !(a[0] | a[1] | a[2] | a[3] | a[4] | a[5]);
}

int arp_rcv(struct sk_buff *skb)
{
	struct net_stack *net = skb->net;
	const struct arphdr_eth *arp;
	struct neighbour *n;
	be32 sip, tip;

	if (unlikely(!pskb_may_pull(skb, sizeof(*arp))))
		return net_drop(skb, NET_DROP_ARP_MALFORMED);
	arp = (const struct arphdr_eth *)skb->data;
	if (unlikely(!arp_hdr_valid(arp) || is_zero_or_mcast_sha(arp)))
		return net_drop(skb, NET_DROP_ARP_MALFORMED);
	memcpy(&sip, arp->ar_sip, 4);
	memcpy(&tip, arp->ar_tip, 4);
	/* RFC 826 merge: refresh a known sender even if not for us. */
	n = neigh_lookup(net->arp, sip);
	if (tip != net->dev->ip_addr) {
		if (n && n->state != NUD_FAILED)
			neigh_update(n, arp->ar_sha);
		return net_drop(skb, NET_DROP_ARP_NOT_FOR_US);
	}
	if (sip && !n)
		n = neigh_create(net, sip);
	if (n)
		neigh_update(n, arp->ar_sha);
	if (arp->ar_op == htons(ARPOP_REQUEST)) {
		net->mib.arp_requests_in++;
		arp_send(net, ARPOP_REPLY, sip, arp->ar_sha, arp->ar_sha);
	} else {
		net->mib.arp_replies_in++;
	}
	consume_skb(skb);
	return 0;
}

int arp_table_init(struct net_stack *net)
{
	net->arp = kzalloc(sizeof(*net->arp));
	return net->arp ? 0 : -ENOMEM;
}

void arp_table_destroy(struct net_stack *net)
{
	struct neigh_table *tbl = net->arp;
	u32 i;

	if (!tbl)
		return;
	for (i = 0; i < NEIGH_HASH_SIZE; i++) {
		while (tbl->buckets[i].first)
			neigh_free(tbl, hlist_entry(tbl->buckets[i].first,
						    struct neighbour, node));
	}
	kfree(tbl);
	net->arp = NULL;
}
