/* SPDX-License-Identifier: GPL-2.0-or-later */
/* TCP input: header prediction fast path for established connections,
 * the RFC 793 segment-arrival state machine for everything else, ACK
 * processing (window, retransmit queue, RTT, congestion window), data
 * queueing and the delayed-ACK decision. */
#include "internal.h"

#define TCP_HP_MASK	0xf0f7ffffu	/* ignore reserved bits and PSH */
#define ACK_SCHED	1
#define ACK_NOW		2
#define TCP_FIN_TIMEOUT	60000
#define TCP_QUICKACKS	16
#define TCP_OOW_ACK_MS	500	/* Linux's tcp_invalid_ratelimit */

void tcp_set_state(struct sock *sk, int state)
{
	int old = sk->state;

	if (old == state)
		return;
	if (state == TCP_CLOSED &&
	    (old == TCP_ESTABLISHED || old == TCP_CLOSE_WAIT))
		sk->net->mib.tcp_estab_resets++;
	sk->state = (u8)state;
	if (state != TCP_ESTABLISHED)
		tcp_sk(sk)->pred_flags = 0;
	sk_wake_state(sk);
}

int tcp_parse_options(const struct tcphdr *th, struct tcp_sock *tp, bool syn)
{
	const u8 *p = (const u8 *)(th + 1);
	s32 len = (s32)tcp_hdr_len(th) - (s32)sizeof(*th);

	while (len > 0) {
		u8 kind = p[0];
		u8 olen;

		if (kind == TCPOPT_EOL)
			break;
		if (kind == TCPOPT_NOP) {
			p++;
			len--;
			continue;
		}
		if (unlikely(len < 2))
			return -EINVAL;
		olen = p[1];
		if (unlikely(olen < 2 || olen > len))
			return -EINVAL;
		if (kind == TCPOPT_MSS && olen == TCPOLEN_MSS && syn) {
			u16 mss = get_be16(p + 2);

			if (mss)
				tp->rx_mss = mss;
		} else if (kind == TCPOPT_WINDOW && olen == TCPOLEN_WINDOW &&
			   syn) {
			tp->snd_wscale = min(p[2], (u8)14);
			tp->wscale_ok = 1;
		} else if (kind == TCPOPT_SACK_PERM &&
			   olen == TCPOLEN_SACK_PERM && syn) {
			tp->sack_ok = 1;
		}
		/* Timestamps are recognised but not used. */
		p += olen;
		len -= olen;
	}
	return 0;
}

void tcp_init_transfer(struct tcp_sock *tp)
{
	u32 mss = tp->rx_mss ? tp->rx_mss : TCP_MSS_DEFAULT;

	if (!tp->wscale_ok) {
		tp->snd_wscale = 0;
		tp->rcv_wscale = 0;
	}
	tp->mss_cache = (u16)min(mss, (u32)tp->advmss);
	tp->rcv_mss = min((u32)tp->mss_cache, (u32)TCP_MSS_DEFAULT);
	tp->snd_cwnd = TCP_INIT_CWND;
	tp->snd_ssthresh = 0x7fffffff;
	tp->quick_acks = TCP_QUICKACKS;
	tp->max_window = tp->snd_wnd;
	tp->copied_seq = tp->rcv_nxt;
	tcp_update_pred_flags(tp);
}

void tcp_done(struct sock *sk)
{
	struct tcp_sock *tp = tcp_sk(sk);

	tcp_set_state(sk, TCP_CLOSED);
	tcp_clear_timers(tp);
	tcp_unhash(sk);
	skb_queue_purge(&sk->write_queue);
	skb_queue_purge(&tp->out_of_order_queue);
	tp->send_head = NULL;
	tp->packets_out = 0;
	sk->shutdown = RCV_SHUTDOWN | SEND_SHUTDOWN;
	if (sk->parent) {
		struct sock *parent = sk->parent;

		if (!list_empty(&sk->accept_node)) {
			list_del(&sk->accept_node);
			parent->accept_len--;
		} else {
			parent->syn_pending--;
		}
		sk->parent = NULL;
	}
	if (sk->flags & SOCK_ORPHAN)
		sk_free(sk);	/* deferred: see sk_free() */
}

static void tcp_reset(struct sock *sk)
{
	sk->err = sk->state == TCP_SYN_SENT ? ECONNREFUSED : ECONNRESET;
	tcp_done(sk);
}

static void tcp_ack_update_window(struct sock *sk, const struct tcphdr *th,
				  u32 seq, u32 ack)
{
	struct tcp_sock *tp = tcp_sk(sk);
	u32 nwin = ntohs(th->window);

	if (likely(!(th->flags & TCPHDR_SYN)))
		nwin <<= tp->snd_wscale;
	if (after(ack, tp->snd_una) || after(seq, tp->snd_wl1) ||
	    (seq == tp->snd_wl1 && nwin > tp->snd_wnd)) {
		tp->snd_wl1 = seq;
		if (tp->snd_wnd != nwin) {
			tp->snd_wnd = nwin;
			sk->net->mib.tcp_win_updates++;
			if (nwin > tp->max_window)
				tp->max_window = nwin;
			if (sk->state == TCP_ESTABLISHED)
				tcp_update_pred_flags(tp);
		}
	}
}

/* Frees fully acknowledged segments; returns how many. */
static u32 tcp_clean_rtx_queue(struct sock *sk, u32 ack)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct sk_buff *skb;
	bool rtt_done = false;
	u32 acked = 0;

	while ((skb = skb_peek(&sk->write_queue)) != NULL &&
	       skb != tp->send_head) {
		struct tcp_skb_cb *cb = TCP_SKB_CB(skb);

		if (after(cb->end_seq, ack))
			break;
		/* Karn: no RTT samples from retransmitted segments. */
		if (!rtt_done && !cb->retrans) {
			tcp_rtt_sample(tp, (u32)(sk->net->now - cb->when));
			rtt_done = true;
		}
		__skb_unlink(skb, &sk->write_queue);
		consume_skb(skb);
		if (tp->packets_out)
			tp->packets_out--;
		acked++;
	}
	return acked;
}

/* Reno: slow start below ssthresh, then one segment per window. */
static void tcp_cong_avoid(struct tcp_sock *tp, u32 acked, u32 in_flight)
{
	if (in_flight < tp->snd_cwnd)
		return;		/* not limited by cwnd: no growth */
	if (tp->snd_cwnd < tp->snd_ssthresh) {
		tp->snd_cwnd += acked;
		return;
	}
	tp->snd_cwnd_cnt += acked;
	if (tp->snd_cwnd_cnt >= tp->snd_cwnd) {
		tp->snd_cwnd_cnt = 0;
		tp->snd_cwnd++;
	}
}

static void tcp_dup_ack(struct sock *sk, u32 payload)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct sk_buff *head;

	if (payload || !tp->packets_out)
		return;
	if (++tp->dup_acks != 3)
		return;
	/* Fast retransmit (RFC 5681 3.2). */
	tp->snd_ssthresh = max(tp->packets_out / 2, 2u);
	tp->snd_cwnd = tp->snd_ssthresh + 3;
	head = skb_peek(&sk->write_queue);
	if (head && head != tp->send_head)
		tcp_retransmit_skb(sk, head);
}

/* 0, or the drop reason when the ACK is for data never sent. */
static int tcp_ack(struct sock *sk, const struct tcphdr *th,
		   struct tcp_skb_cb *cb, u32 payload)
{
	struct tcp_sock *tp = tcp_sk(sk);
	u32 ack = cb->ack_seq;
	u32 prior_una = tp->snd_una;
	u32 prior_wnd = tp->snd_wnd;
	u32 in_flight = tp->packets_out;
	u32 acked;

	if (unlikely(before(ack, prior_una)))
		return 0;	/* old duplicate: its data may still count */
	if (unlikely(after(ack, tp->snd_nxt)))
		return NET_DROP_TCP_ACK_UNSENT;
	tcp_ack_update_window(sk, th, cb->seq, ack);
	if (ack == prior_una) {
		/* A window update is not a duplicate ACK (RFC 5681 2). */
		if (tp->snd_wnd == prior_wnd)
			tcp_dup_ack(sk, payload);
		return 0;
	}
	tp->snd_una = ack;
	tp->bytes_acked += ack - prior_una;
	acked = tcp_clean_rtx_queue(sk, ack);
	tcp_cong_avoid(tp, acked, in_flight);
	tp->dup_acks = 0;
	tp->backoff = 0;
	tp->retransmits = 0;
	tcp_rearm_rto(sk);
	return 0;
}

static void tcp_event_data_recv(struct tcp_sock *tp, u32 len)
{
	if (len > tp->rcv_mss)
		tp->rcv_mss = min(len, (u32)tp->advmss);
	tp->ack_pending |= ACK_SCHED;
}

static void tcp_ack_snd_check(struct sock *sk)
{
	struct tcp_sock *tp = tcp_sk(sk);

	if (!tp->ack_pending)
		return;
	/* More than one full segment unacknowledged, quick-ack mode, or an
	 * explicit request: ACK now; otherwise delay (RFC 1122 4.2.3.2). */
	if ((tp->ack_pending & ACK_NOW) || tp->quick_acks ||
	    tp->rcv_nxt - tp->rcv_wup > tp->rcv_mss) {
		sk->net->mib.tcp_quick_acks++;
		tcp_send_ack(sk);
		return;
	}
	tcp_send_delayed_ack(sk);
}

static void tcp_data_snd_check(struct sock *sk)
{
	if (tcp_sk(sk)->send_head)
		tcp_push(sk);
}

static void tcp_fin(struct sock *sk)
{
	struct tcp_sock *tp = tcp_sk(sk);

	sk->shutdown |= RCV_SHUTDOWN;
	tp->ack_pending |= ACK_NOW;
	switch (sk->state) {
	case TCP_SYN_RECV:
	case TCP_ESTABLISHED:
		tcp_set_state(sk, TCP_CLOSE_WAIT);
		break;
	case TCP_FIN_WAIT1:
		/* Simultaneous close: our FIN is not yet acknowledged. */
		tcp_set_state(sk, TCP_CLOSING);
		break;
	case TCP_FIN_WAIT2:
		tcp_time_wait(sk);
		break;
	default:
		break;
	}
	sk_wake_data(sk);	/* EOF is readable */
}

int tcp_queue_rcv(struct sock *sk, struct sk_buff *skb)
{
	struct tcp_sock *tp = tcp_sk(sk);

	if (unlikely(sk->receive_queue.bytes + skb->len > sk->rcvbuf))
		return NET_DROP_TCP_RCVBUF_FULL;
	__skb_queue_tail(&sk->receive_queue, skb);
	tp->rcv_nxt += skb->len;
	tp->bytes_received += skb->len;
	tcp_event_data_recv(tp, skb->len);
	return 0;
}

/* Data beyond a hole: queued out of order, and answered at once with a
 * duplicate ACK, which tells the sender a segment went missing
 * (RFC 5681 4.2). */
static void tcp_data_queue_ofo(struct sock *sk, struct sk_buff *skb, u32 hlen)
{
	int reason;

	tcp_sk(sk)->ack_pending |= ACK_NOW;
	skb_pull(skb, hlen);
	reason = tcp_ofo_queue(sk, skb);
	if (reason)
		kfree_skb_reason(skb, reason);
}

/* In-order data and FIN, then whatever of the out-of-order queue they
 * make contiguous; old segments are answered with an immediate
 * (duplicate) ACK and dropped. */
static void tcp_data_queue(struct sock *sk, struct sk_buff *skb)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct tcp_skb_cb *cb = TCP_SKB_CB(skb);
	bool fin = cb->tcp_flags & TCPHDR_FIN;
	u32 hlen = tcp_hdr_len((const struct tcphdr *)skb->data);
	bool queued = false, wake = false;

	if (skb->len == hlen && !fin) {
		consume_skb(skb);
		return;
	}
	if (unlikely(cb->seq != tp->rcv_nxt)) {
		if (after(cb->seq, tp->rcv_nxt)) {
			tcp_data_queue_ofo(sk, skb, hlen);
			return;
		}
		if (!after(cb->end_seq, tp->rcv_nxt)) {
			tp->ack_pending |= ACK_NOW;
			kfree_skb_reason(skb, NET_DROP_TCP_OLD_SEQ);
			return;
		}
		/* Partly old: keep only the new part. */
		hlen += tp->rcv_nxt - cb->seq;
		cb->seq = tp->rcv_nxt;
	}
	if (unlikely(hlen > skb->len)) {
		hlen = skb->len;	/* only the FIN is new */
	}
	skb_pull(skb, hlen);
	if (skb->len && !(sk->shutdown & RCV_SHUTDOWN)) {
		int reason = tcp_queue_rcv(sk, skb);

		if (unlikely(reason)) {
			tp->ack_pending |= ACK_NOW;
			kfree_skb_reason(skb, reason);
			return;
		}
		queued = true;
	}
	if (fin)
		tp->rcv_nxt++;
	if (unlikely(!skb_queue_empty(&tp->out_of_order_queue)) && !fin) {
		/* A hole filled: ACK at once (RFC 5681 4.2), and let the
		 * fast path back in once the queue is empty. */
		int moved = tcp_ofo_drain(sk);

		wake |= moved & TCP_OFO_MOVED;
		if (moved & TCP_OFO_FIN) {
			tp->rcv_nxt++;
			fin = true;
		}
		tp->ack_pending |= ACK_NOW;
		if (skb_queue_empty(&tp->out_of_order_queue) &&
		    sk->state == TCP_ESTABLISHED)
			tcp_update_pred_flags(tp);
	}
	if (!queued)
		consume_skb(skb);
	if (queued || wake)
		sk_wake_data(sk);
	if (fin)
		tcp_fin(sk);
}

/*
 * ACKs in answer to invalid segments (out of window, challenge ACKs, ACKs
 * of unsent data) are rate limited: two desynchronised ends would
 * otherwise ACK each other forever (RFC 5961 10).
 */
static void tcp_send_oow_ack(struct sock *sk)
{
	struct tcp_sock *tp = tcp_sk(sk);
	u64 now = sk->net->now;

	if (tp->oow_acked && now - tp->last_oow_ack < TCP_OOW_ACK_MS)
		return;
	tp->oow_acked = 1;
	tp->last_oow_ack = now;
	tcp_send_ack(sk);
}

/* RFC 793 acceptability test, wrap-safe. */
static bool tcp_sequence(const struct tcp_sock *tp, u32 seq, u32 end_seq)
{
	return !before(end_seq, tp->rcv_wup) &&
	       !after(seq, tp->rcv_nxt + tcp_receive_window(tp));
}

/* Returns a drop reason if the segment must go (answered as needed). */
static int tcp_validate_incoming(struct sock *sk, struct sk_buff *skb)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct tcp_skb_cb *cb = TCP_SKB_CB(skb);

	if (unlikely(!tcp_sequence(tp, cb->seq, cb->end_seq))) {
		if (!(cb->tcp_flags & TCPHDR_RST))
			tcp_send_oow_ack(sk);
		return before(cb->end_seq, tp->rcv_wup) ?
		       NET_DROP_TCP_OLD_SEQ : NET_DROP_TCP_OUT_OF_WINDOW;
	}
	if (unlikely(cb->tcp_flags & TCPHDR_RST)) {
		/* RFC 5961 3.2: only an exact match resets. */
		if (cb->seq == tp->rcv_nxt)
			tcp_reset(sk);
		else
			tcp_send_oow_ack(sk);
		return NET_DROP_TCP_RESET;
	}
	if (unlikely(cb->tcp_flags & TCPHDR_SYN)) {
		tcp_send_oow_ack(sk);	/* challenge ACK, RFC 5961 4.2 */
		return NET_DROP_TCP_BAD_FLAGS;
	}
	if (unlikely(!(cb->tcp_flags & TCPHDR_ACK)))
		return NET_DROP_TCP_BAD_FLAGS;
	return 0;
}

static bool tcp_fin_acked(const struct sock *sk)
{
	const struct tcp_sock *tp = container_of(sk, struct tcp_sock, sk);

	return (sk->shutdown & SEND_SHUTDOWN) && tp->snd_una == tp->write_seq;
}

/* The handshake's last ACK: the child joins its listener's queue. */
static int tcp_synrecv_ack(struct sock *sk, struct sk_buff *skb)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct sock *parent = sk->parent;
	u32 ack = TCP_SKB_CB(skb)->ack_seq;

	if (unlikely(!between(ack, tp->snd_una + 1, tp->snd_nxt))) {
		tcp_send_reset(sk->net, skb);
		return NET_DROP_TCP_ACK_UNSENT;
	}
	tcp_init_transfer(tp);
	tcp_set_state(sk, TCP_ESTABLISHED);
	if (parent) {
		parent->syn_pending--;
		list_add_tail(&sk->accept_node, &parent->accept_queue);
		parent->accept_len++;
		sk_wake_data(parent);
	}
	return 0;
}

/* Effects of an acceptable ACK on the closing states. */
static bool tcp_ack_state_change(struct sock *sk)
{
	struct tcp_sock *tp = tcp_sk(sk);

	switch (sk->state) {
	case TCP_FIN_WAIT1:
		if (tcp_fin_acked(sk)) {
			tcp_set_state(sk, TCP_FIN_WAIT2);
			/* Nobody will read an orphan: don't wait forever. */
			if (sk->flags & SOCK_ORPHAN)
				net_timer_mod(sk->net, &tp->tw_timer,
					      sk->net->now + TCP_FIN_TIMEOUT);
		}
		break;
	case TCP_CLOSING:
		if (tcp_fin_acked(sk))
			tcp_time_wait(sk);
		break;
	case TCP_LAST_ACK:
		if (tcp_fin_acked(sk)) {
			tcp_done(sk);
			return true;
		}
		break;
	case TCP_TIME_WAIT:
		/* A retransmitted FIN: ACK it and restart 2MSL. */
		tp->ack_pending |= ACK_NOW;
		net_timer_mod(sk->net, &tp->tw_timer,
			      sk->net->now + TCP_TIMEWAIT_LEN);
		break;
	default:
		break;
	}
	return false;
}

static int tcp_rcv_listen(struct sock *sk, struct sk_buff *skb)
{
	u8 flags = TCP_SKB_CB(skb)->tcp_flags;
	struct sock *child;

	if (flags & TCPHDR_RST)
		return net_drop(skb, NET_DROP_TCP_RESET);
	if (flags & TCPHDR_ACK) {
		tcp_send_reset(sk->net, skb);
		return net_drop(skb, NET_DROP_TCP_NO_SOCKET);
	}
	if (!(flags & TCPHDR_SYN))
		return net_drop(skb, NET_DROP_TCP_BAD_FLAGS);
	if (unlikely(sk->accept_len + sk->syn_pending >= sk->max_backlog))
		return net_drop(skb, NET_DROP_TCP_LISTEN_OVERFLOW);
	child = tcp_create_child(sk, skb);
	if (unlikely(!child))
		return net_drop(skb, NET_DROP_TCP_BAD_OPTIONS);
	sk->net->mib.tcp_passive_opens++;
	tcp_send_synack(child);
	consume_skb(skb);
	return 0;
}

static int tcp_synsent_check(struct tcp_sock *tp, struct sk_buff *skb)
{
	struct tcp_skb_cb *cb = TCP_SKB_CB(skb);
	u8 flags = cb->tcp_flags;

	if (flags & TCPHDR_ACK) {
		if (!after(cb->ack_seq, tp->iss) ||
		    after(cb->ack_seq, tp->snd_nxt)) {
			tcp_send_reset(tp->sk.net, skb);
			return NET_DROP_TCP_ACK_UNSENT;
		}
	}
	if (flags & TCPHDR_RST) {
		if (flags & TCPHDR_ACK)
			tcp_reset(&tp->sk);
		return NET_DROP_TCP_RESET;
	}
	/* Simultaneous open (SYN without ACK) is not supported. */
	if ((flags & (TCPHDR_SYN | TCPHDR_ACK)) != (TCPHDR_SYN | TCPHDR_ACK))
		return NET_DROP_TCP_BAD_FLAGS;
	if (tcp_parse_options((const struct tcphdr *)skb->data, tp, true))
		return NET_DROP_TCP_BAD_OPTIONS;
	return 0;
}

static int tcp_rcv_synsent(struct sock *sk, struct sk_buff *skb)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct tcp_skb_cb *cb = TCP_SKB_CB(skb);
	const struct tcphdr *th = (const struct tcphdr *)skb->data;
	int reason = tcp_synsent_check(tp, skb);

	if (reason)
		return net_drop(skb, reason);
	tp->irs = cb->seq;
	tp->rcv_nxt = cb->seq + 1;
	tp->rcv_wup = tp->rcv_nxt;
	tp->snd_wl1 = cb->seq;
	tp->snd_wnd = ntohs(th->window);	/* unscaled on a SYN */
	tp->snd_una = cb->ack_seq;
	tcp_clean_rtx_queue(sk, cb->ack_seq);
	tcp_rearm_rto(sk);
	tcp_init_transfer(tp);
	tcp_set_state(sk, TCP_ESTABLISHED);
	consume_skb(skb);
	tcp_send_ack(sk);
	tcp_data_snd_check(sk);
	return 0;
}

/* Step 7 of RFC 793 segment arrival: the text and the FIN. Returns
 * non-zero if the socket died and the segment was dropped. */
static int tcp_rcv_data_stage(struct sock *sk, struct sk_buff *skb,
			      u32 payload)
{
	struct tcp_skb_cb *cb = TCP_SKB_CB(skb);

	switch (sk->state) {
	case TCP_FIN_WAIT1:
	case TCP_FIN_WAIT2:
		/* Nobody can read new data on a closed socket: abort. */
		if (unlikely((sk->flags & SOCK_ORPHAN) && payload &&
			     after(cb->end_seq - !!(cb->tcp_flags & TCPHDR_FIN),
				   tcp_sk(sk)->rcv_nxt))) {
			tcp_send_active_reset(sk);
			tcp_done(sk);
			return net_drop(skb, NET_DROP_TCP_CLOSED);
		}
		tcp_data_queue(sk, skb);
		break;
	case TCP_ESTABLISHED:
		tcp_data_queue(sk, skb);
		break;
	default:
		/* The peer's FIN is in: later data is not acceptable. */
		if (payload || (cb->tcp_flags & TCPHDR_FIN))
			tcp_sk(sk)->ack_pending |= ACK_NOW;
		consume_skb(skb);
		break;
	}
	return 0;
}

int tcp_rcv_state_process(struct sock *sk, struct sk_buff *skb)
{
	struct tcp_skb_cb *cb = TCP_SKB_CB(skb);
	const struct tcphdr *th = (const struct tcphdr *)skb->data;
	u32 payload = skb->len - tcp_hdr_len(th);
	int reason;

	switch (sk->state) {
	case TCP_LISTEN:
		return tcp_rcv_listen(sk, skb);
	case TCP_SYN_SENT:
		return tcp_rcv_synsent(sk, skb);
	case TCP_CLOSED:
		return net_drop(skb, NET_DROP_TCP_CLOSED);
	default:
		break;
	}
	if (unlikely(tcp_hdr_len(th) > sizeof(*th) &&
		     tcp_parse_options(th, tcp_sk(sk), false)))
		return net_drop(skb, NET_DROP_TCP_BAD_OPTIONS);
	reason = tcp_validate_incoming(sk, skb);
	if (unlikely(reason))
		return net_drop(skb, reason);
	if (sk->state == TCP_SYN_RECV) {
		reason = tcp_synrecv_ack(sk, skb);
		if (unlikely(reason))
			return net_drop(skb, reason);
	}
	reason = tcp_ack(sk, th, cb, payload);
	if (unlikely(reason)) {
		tcp_send_oow_ack(sk);
		return net_drop(skb, reason);
	}
	if (tcp_ack_state_change(sk)) {
		consume_skb(skb);	/* LAST_ACK done: sk may be gone */
		return 0;
	}
	reason = tcp_rcv_data_stage(sk, skb, payload);
	if (unlikely(reason))
		return reason;
	if (sk->state != TCP_CLOSED) {
		tcp_data_snd_check(sk);
		tcp_ack_snd_check(sk);
	}
	return 0;
}

/*
 * Header prediction (Van Jacobson): an in-order segment carrying only ACK
 * (and maybe PSH) with an unchanged window skips the general machine.
 */
int tcp_rcv_established(struct sock *sk, struct sk_buff *skb)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct tcp_skb_cb *cb = TCP_SKB_CB(skb);
	const struct tcphdr *th = (const struct tcphdr *)skb->data;
	u32 len;

	if (unlikely((get_be32((const u8 *)th + 12) & TCP_HP_MASK) !=
		     tp->pred_flags || cb->seq != tp->rcv_nxt ||
		     after(cb->ack_seq, tp->snd_nxt) ||
		     before(cb->ack_seq, tp->snd_una)))
		return tcp_rcv_state_process(sk, skb);
	len = skb->len - sizeof(*th);
	if (len == 0) {
		sk->net->mib.tcp_hp_hits++;
		tcp_ack(sk, th, cb, 0);
		consume_skb(skb);
		tcp_data_snd_check(sk);
		return 0;
	}
	if (unlikely(sk->receive_queue.bytes + len > sk->rcvbuf))
		return tcp_rcv_state_process(sk, skb);
	sk->net->mib.tcp_hp_hits++;
	skb_pull(skb, sizeof(*th));
	tcp_queue_rcv(sk, skb);
	if (cb->ack_seq != tp->snd_una)
		tcp_ack(sk, th, cb, len);
	tcp_data_snd_check(sk);
	tcp_ack_snd_check(sk);
	sk_wake_data(sk);
	return 0;
}
