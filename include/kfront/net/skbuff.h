/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Packet buffers (sk_buff-like): a data area with headroom and tailroom,
 * protocol header offsets, a per-layer control block, and queues. The data
 * area is reference counted so that TCP can keep a segment for
 * retransmission while a clone of it sits on the NIC's TX ring. */
#ifndef KFRONT_NET_SKBUFF_H
#define KFRONT_NET_SKBUFF_H

#include <kfront/types.h>
#include <kfront/list.h>
#include <kfront/compiler.h>
#include <kfront/net/drop.h>

struct net_stack;
struct net_device;
struct sock;

#define SKB_DATA_STD	2048	/* pooled data area: one MTU frame + room */
#define NET_IP_ALIGN	2	/* so the IP header after Ethernet is aligned */
#define SKB_HDR_UNSET	0xffff
#define SKB_CB_SIZE	48

/* Lives at the end of each data area, shared by all clones. */
struct skb_shared_info {
	u32 dataref;
	u32 pooled;
};

struct sk_buff {
	struct list_head list;
	struct net_stack *net;
	struct net_device *dev;
	struct sock *sk;
	u8 *head;		/* start of the data area */
	u8 *data;		/* start of valid data */
	u32 tail;		/* offset of the end of valid data from head */
	u32 end;		/* offset of the end of the data area */
	u32 len;
	u16 protocol;		/* ethertype, host order */
	u16 mac_header;		/* offsets from head, SKB_HDR_UNSET if none */
	u16 network_header;
	u16 transport_header;
	u8 pkt_type;
	u8 cloned;
	u8 csum_valid;
	u8 pad;
	u32 truesize;
	u64 cb[SKB_CB_SIZE / 8]; /* owned by the current layer */
};

struct sk_buff_head {
	struct list_head list;
	u32 qlen;
	u32 bytes;
};

struct sk_buff *alloc_skb(struct net_stack *net, u32 size);
struct sk_buff *skb_clone(struct sk_buff *skb);
void kfree_skb_reason(struct sk_buff *skb, enum net_drop_reason reason);
void consume_skb(struct sk_buff *skb);
void skb_cache_init(struct net_stack *net);
void skb_cache_destroy(struct net_stack *net);

static inline void kfree_skb(struct sk_buff *skb)
{
	kfree_skb_reason(skb, NET_DROP_NOT_SPECIFIED);
}

static inline struct skb_shared_info *skb_shinfo(const struct sk_buff *skb)
{
	return (struct skb_shared_info *)(skb->head + skb->end);
}

static inline u8 *skb_tail_pointer(const struct sk_buff *skb)
{
	return skb->head + skb->tail;
}

static inline u32 skb_headroom(const struct sk_buff *skb)
{
	return (u32)(skb->data - skb->head);
}

static inline u32 skb_tailroom(const struct sk_buff *skb)
{
	return skb->end - skb->tail;
}

static inline void skb_reserve(struct sk_buff *skb, u32 len)
{
	skb->data += len;
	skb->tail += len;
}

/* The callers check room first; these never fail, as in Linux. */
static inline u8 *skb_put(struct sk_buff *skb, u32 len)
{
	u8 *p = skb_tail_pointer(skb);

	skb->tail += len;
	skb->len += len;
	return p;
}

static inline u8 *skb_push(struct sk_buff *skb, u32 len)
{
	skb->data -= len;
	skb->len += len;
	return skb->data;
}

static inline u8 *skb_pull(struct sk_buff *skb, u32 len)
{
	if (unlikely(len > skb->len))
		return NULL;
	skb->len -= len;
	skb->data += len;
	return skb->data;
}

static inline bool pskb_may_pull(const struct sk_buff *skb, u32 len)
{
	return likely(len <= skb->len);
}

static inline void skb_trim(struct sk_buff *skb, u32 len)
{
	if (skb->len > len) {
		skb->len = len;
		skb->tail = (u32)(skb->data - skb->head) + len;
	}
}

static inline void skb_reset_mac_header(struct sk_buff *skb)
{
	skb->mac_header = (u16)(skb->data - skb->head);
}

static inline void skb_reset_network_header(struct sk_buff *skb)
{
	skb->network_header = (u16)(skb->data - skb->head);
}

static inline void skb_reset_transport_header(struct sk_buff *skb)
{
	skb->transport_header = (u16)(skb->data - skb->head);
}

static inline u8 *skb_mac_header(const struct sk_buff *skb)
{
	return skb->head + skb->mac_header;
}

static inline u8 *skb_network_header(const struct sk_buff *skb)
{
	return skb->head + skb->network_header;
}

static inline u8 *skb_transport_header(const struct sk_buff *skb)
{
	return skb->head + skb->transport_header;
}

/* Queues. The double-underscore forms assume the caller serialises. */
static inline void skb_queue_head_init(struct sk_buff_head *q)
{
	INIT_LIST_HEAD(&q->list);
	q->qlen = 0;
	q->bytes = 0;
}

static inline bool skb_queue_empty(const struct sk_buff_head *q)
{
	return list_empty(&q->list);
}

static inline struct sk_buff *skb_peek(const struct sk_buff_head *q)
{
	if (list_empty(&q->list))
		return NULL;
	return list_first_entry(&q->list, struct sk_buff, list);
}

static inline struct sk_buff *skb_peek_tail(const struct sk_buff_head *q)
{
	if (list_empty(&q->list))
		return NULL;
	return list_entry(q->list.prev, struct sk_buff, list);
}

static inline struct sk_buff *skb_queue_next(const struct sk_buff_head *q,
					     const struct sk_buff *skb)
{
	if (skb->list.next == &q->list)
		return NULL;
	return list_entry(skb->list.next, struct sk_buff, list);
}

static inline struct sk_buff *skb_queue_prev(const struct sk_buff_head *q,
					     const struct sk_buff *skb)
{
	if (skb->list.prev == &q->list)
		return NULL;
	return list_entry(skb->list.prev, struct sk_buff, list);
}

/* Inserts skb after prev, or at the head when prev is NULL. */
static inline void __skb_queue_after(struct sk_buff_head *q,
				     struct sk_buff *prev, struct sk_buff *skb)
{
	list_add(&skb->list, prev ? &prev->list : &q->list);
	q->qlen++;
	q->bytes += skb->len;
}

static inline void __skb_queue_tail(struct sk_buff_head *q,
				    struct sk_buff *skb)
{
	list_add_tail(&skb->list, &q->list);
	q->qlen++;
	q->bytes += skb->len;
}

static inline void __skb_unlink(struct sk_buff *skb, struct sk_buff_head *q)
{
	list_del(&skb->list);
	q->qlen--;
	q->bytes -= skb->len;
}

static inline struct sk_buff *__skb_dequeue(struct sk_buff_head *q)
{
	struct sk_buff *skb = skb_peek(q);

	if (skb)
		__skb_unlink(skb, q);
	return skb;
}

void skb_queue_purge(struct sk_buff_head *q);

#endif
