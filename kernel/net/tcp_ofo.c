/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The out-of-order queue. A segment that arrives beyond a hole waits here,
 * in sequence order, until the hole is filled, so one lost segment costs
 * one retransmission rather than everything sent after it (and with three
 * duplicate ACKs the sender need not even wait for its timer).
 *
 * A sorted list, where Linux uses an rbtree: the queue is capped at
 * TCP_OFO_MAX_SEGS, so a peer sending scattered scraps cannot make the
 * walk long, and arrivals after a loss append at the tail, where the walk
 * starts. The queued bytes count against the receive buffer. */
#include "internal.h"

#define TCP_OFO_MAX_SEGS	64

static void tcp_ofo_trim_front(struct sk_buff *skb, u32 seq)
{
	struct tcp_skb_cb *cb = TCP_SKB_CB(skb);
	u32 cut = min(seq - cb->seq, skb->len);

	skb_pull(skb, cut);
	cb->seq += cut;
}

/* Cuts the segment to end at seq: any FIN it carried goes too. */
static void tcp_ofo_trim_tail(struct sk_buff *skb, u32 seq)
{
	struct tcp_skb_cb *cb = TCP_SKB_CB(skb);

	skb_trim(skb, seq - cb->seq);
	cb->tcp_flags &= (u8)~TCPHDR_FIN;
	cb->end_seq = cb->seq + skb->len;
}

/*
 * Takes a segment whose payload (header already pulled) starts after
 * rcv_nxt. Returns 0 when it is queued (or merged into what is queued),
 * else the drop reason; the caller frees it then.
 */
int tcp_ofo_queue(struct sock *sk, struct sk_buff *skb)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct sk_buff_head *q = &tp->out_of_order_queue;
	struct tcp_skb_cb *cb = TCP_SKB_CB(skb);
	u32 right = tp->rcv_nxt + tcp_receive_window(tp);
	struct sk_buff *prev, *next;

	/* Only what the window offered is kept (tcp_sequence() checked
	 * the start, not the end). */
	if (after(cb->end_seq, right))
		tcp_ofo_trim_tail(skb, right);
	if (!after(cb->end_seq, cb->seq))
		return NET_DROP_TCP_OUT_OF_WINDOW;
	if (q->qlen >= TCP_OFO_MAX_SEGS ||
	    sk->receive_queue.bytes + q->bytes + skb->len > sk->rcvbuf)
		return NET_DROP_TCP_OFO;

	/* prev: the last queued segment starting at or before this one. */
	prev = skb_peek_tail(q);
	while (prev && after(TCP_SKB_CB(prev)->seq, cb->seq))
		prev = skb_queue_prev(q, prev);
	if (prev) {
		u32 prev_end = TCP_SKB_CB(prev)->end_seq;

		if (!after(cb->end_seq, prev_end))
			return NET_DROP_TCP_OLD_SEQ;	/* nothing new */
		if (before(cb->seq, prev_end))
			tcp_ofo_trim_front(skb, prev_end);
	}
	/* Later segments this one covers are superseded; one it overlaps
	 * in part keeps its bytes and this one gives up its tail. */
	next = prev ? skb_queue_next(q, prev) : skb_peek(q);
	while (next && !after(TCP_SKB_CB(next)->end_seq, cb->end_seq)) {
		struct sk_buff *covered = next;

		next = skb_queue_next(q, next);
		__skb_unlink(covered, q);
		consume_skb(covered);
	}
	if (next && after(cb->end_seq, TCP_SKB_CB(next)->seq))
		tcp_ofo_trim_tail(skb, TCP_SKB_CB(next)->seq);
	__skb_queue_after(q, prev, skb);
	tp->pred_flags = 0;	/* the fast path would not drain the queue */
	sk->net->mib.tcp_ofo_queued++;
	return 0;
}

/*
 * After rcv_nxt advanced: moves every queued segment that now starts at
 * or before it to the receive queue. Returns TCP_OFO_MOVED if data moved
 * and TCP_OFO_FIN if a FIN was reached (the caller handles it, as for
 * an in-order FIN).
 */
int tcp_ofo_drain(struct sock *sk)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct sk_buff_head *q = &tp->out_of_order_queue;
	struct sk_buff *skb;
	int ret = 0;

	while ((skb = skb_peek(q)) && !after(TCP_SKB_CB(skb)->seq, tp->rcv_nxt)) {
		struct tcp_skb_cb *cb = TCP_SKB_CB(skb);
		bool fin = cb->tcp_flags & TCPHDR_FIN;
		int reason;

		__skb_unlink(skb, q);
		if (!after(cb->end_seq, tp->rcv_nxt)) {
			consume_skb(skb);	/* retransmitted meanwhile */
			continue;
		}
		tcp_ofo_trim_front(skb, tp->rcv_nxt);
		if (!skb->len) {
			consume_skb(skb);	/* only the FIN is left */
		} else if ((reason = tcp_queue_rcv(sk, skb))) {
			/* Not acknowledged yet: the sender will resend it. */
			kfree_skb_reason(skb, reason);
			break;
		} else {
			ret |= TCP_OFO_MOVED;
		}
		if (fin) {
			ret |= TCP_OFO_FIN;
			skb_queue_purge(q);	/* nothing follows a FIN */
			break;
		}
	}
	return ret;
}
