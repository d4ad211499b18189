/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Packet buffer allocation, cloning and freeing, with a per-stack cache
 * of buffer heads and standard-size data areas on top of kmalloc. */
#include <kfront/slab.h>
#include "internal.h"

#define SKB_SHINFO_SIZE	ALIGN_UP(sizeof(struct skb_shared_info), 16)

void skb_cache_init(struct net_stack *net)
{
	struct skb_cache *c = &net->cache;

	INIT_LIST_HEAD(&c->free_skbs);
	INIT_LIST_HEAD(&c->free_data);
	c->nr_skbs = 0;
	c->nr_data = 0;
	c->max_cached = 512;
	c->live = 0;
}

void skb_cache_destroy(struct net_stack *net)
{
	struct skb_cache *c = &net->cache;
	struct list_head *pos, *n;

	list_for_each_safe(pos, n, &c->free_skbs)
		kfree(list_entry(pos, struct sk_buff, list));
	/* A free data area holds its own list node at its start. */
	list_for_each_safe(pos, n, &c->free_data)
		kfree(pos);
	INIT_LIST_HEAD(&c->free_skbs);
	INIT_LIST_HEAD(&c->free_data);
	c->nr_skbs = 0;
	c->nr_data = 0;
}

static struct sk_buff *skb_head_get(struct net_stack *net)
{
	struct skb_cache *c = &net->cache;
	struct sk_buff *skb;

	if (likely(!list_empty(&c->free_skbs))) {
		skb = list_first_entry(&c->free_skbs, struct sk_buff, list);
		list_del(&skb->list);
		c->nr_skbs--;
		return skb;
	}
	return kmalloc(sizeof(*skb));
}

static void skb_head_put(struct net_stack *net, struct sk_buff *skb)
{
	struct skb_cache *c = &net->cache;

	if (likely(c->nr_skbs < c->max_cached)) {
		list_add(&skb->list, &c->free_skbs);
		c->nr_skbs++;
		return;
	}
	kfree(skb);
}

static u8 *skb_data_get(struct net_stack *net, u32 size, bool *pooled)
{
	struct skb_cache *c = &net->cache;
	struct list_head *area;

	if (likely(size <= SKB_DATA_STD)) {
		*pooled = true;
		if (likely(!list_empty(&c->free_data))) {
			area = c->free_data.next;
			list_del(area);
			c->nr_data--;
			return (u8 *)area;
		}
		return kmalloc(SKB_DATA_STD + SKB_SHINFO_SIZE);
	}
	*pooled = false;
	return kmalloc(size + SKB_SHINFO_SIZE);
}

static void skb_data_put(struct net_stack *net, u8 *head, bool pooled)
{
	struct skb_cache *c = &net->cache;

	if (likely(pooled && c->nr_data < c->max_cached)) {
		list_add((struct list_head *)head, &c->free_data);
		c->nr_data++;
		return;
	}
	kfree(head);
}

static void skb_init_head(struct sk_buff *skb, struct net_stack *net)
{
	INIT_LIST_HEAD(&skb->list);
	skb->net = net;
	skb->dev = NULL;
	skb->sk = NULL;
	skb->len = 0;
	skb->protocol = 0;
	skb->mac_header = SKB_HDR_UNSET;
	skb->network_header = SKB_HDR_UNSET;
	skb->transport_header = SKB_HDR_UNSET;
	skb->pkt_type = 0;
	skb->cloned = 0;
	skb->csum_valid = 0;
	skb->pad = 0;
	memset(skb->cb, 0, sizeof(skb->cb));
}

struct sk_buff *alloc_skb(struct net_stack *net, u32 size)
{
	struct skb_shared_info *shinfo;
	struct sk_buff *skb;
	bool pooled;
	u8 *data;

	skb = skb_head_get(net);
	if (unlikely(!skb))
		goto nomem;
	data = skb_data_get(net, size, &pooled);
	if (unlikely(!data)) {
		skb_head_put(net, skb);
		goto nomem;
	}
	skb_init_head(skb, net);
	skb->head = data;
	skb->data = data;
	skb->tail = 0;
	skb->end = pooled ? SKB_DATA_STD : size;
	skb->truesize = skb->end + sizeof(*skb);
	shinfo = skb_shinfo(skb);
	shinfo->dataref = 1;
	shinfo->pooled = pooled;
	net->cache.live++;
	return skb;
nomem:
	net_count_drop(net, NET_DROP_NO_MEM);
	return NULL;
}

/* A new head sharing the data area: TCP keeps the original for
 * retransmission and hands the clone to the device. */
struct sk_buff *skb_clone(struct sk_buff *skb)
{
	struct net_stack *net = skb->net;
	struct sk_buff *n;

	n = skb_head_get(net);
	if (unlikely(!n)) {
		net_count_drop(net, NET_DROP_NO_MEM);
		return NULL;
	}
	memcpy(n, skb, sizeof(*n));
	INIT_LIST_HEAD(&n->list);
	n->cloned = 1;
	skb->cloned = 1;
	skb_shinfo(skb)->dataref++;
	net->cache.live++;
	return n;
}

static void skb_release(struct sk_buff *skb)
{
	struct skb_shared_info *shinfo = skb_shinfo(skb);
	struct net_stack *net = skb->net;

	if (--shinfo->dataref == 0)
		skb_data_put(net, skb->head, shinfo->pooled);
	net->cache.live--;
	skb_head_put(net, skb);
}

void kfree_skb_reason(struct sk_buff *skb, enum net_drop_reason reason)
{
	if (unlikely(!skb))
		return;
	net_count_drop(skb->net, reason);
	skb_release(skb);
}

void consume_skb(struct sk_buff *skb)
{
	if (unlikely(!skb))
		return;
	skb_release(skb);
}

void skb_queue_purge(struct sk_buff_head *q)
{
	struct sk_buff *skb;

	while ((skb = __skb_dequeue(q)) != NULL)
		consume_skb(skb);
}
