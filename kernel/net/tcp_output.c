/* SPDX-License-Identifier: GPL-2.0-or-later */
/* TCP output: building segments (header, options, checksum), the send
 * loop under the congestion and receive windows, ACKs, SYN, FIN, RST. */
#include "internal.h"

#define TCP_SYN_OPT_LEN	12	/* MSS 4, NOP+window scale 4, NOP+NOP+SACK_PERM 4 */

struct sk_buff *tcp_stream_alloc_skb(struct sock *sk, u32 size)
{
	struct sk_buff *skb = alloc_skb(sk->net, MAX_HEADER + size);

	if (unlikely(!skb))
		return NULL;
	skb_reserve(skb, MAX_HEADER);
	skb->sk = sk;
	return skb;
}

/* Window to advertise, scaled; never shrinks the right edge already
 * offered (RFC 7323 2.4). */
u32 tcp_select_window(struct sock *sk)
{
	struct tcp_sock *tp = tcp_sk(sk);
	u32 queued = sk->receive_queue.bytes;
	u32 space = sk->rcvbuf > queued ? sk->rcvbuf - queued : 0;
	u32 cur = tp->rcv_wnd;
	u32 new_win;

	if (after(tp->rcv_wup + cur, tp->rcv_nxt))
		cur = tp->rcv_wup + cur - tp->rcv_nxt;
	else
		cur = 0;
	new_win = space & ~((1u << tp->rcv_wscale) - 1);
	if (unlikely(new_win < cur))
		new_win = ALIGN_UP(cur, 1u << tp->rcv_wscale);
	if (new_win > (65535u << tp->rcv_wscale))
		new_win = 65535u << tp->rcv_wscale;
	tp->rcv_wnd = new_win;
	tp->rcv_wup = tp->rcv_nxt;
	return new_win >> tp->rcv_wscale;
}

static u8 *tcp_write_syn_options(struct tcp_sock *tp, u8 *p)
{
	p[0] = TCPOPT_MSS;
	p[1] = TCPOLEN_MSS;
	put_be16(p + 2, tp->advmss);
	p[4] = TCPOPT_NOP;
	p[5] = TCPOPT_WINDOW;
	p[6] = TCPOLEN_WINDOW;
	p[7] = tp->rcv_wscale;
	p[8] = TCPOPT_NOP;
	p[9] = TCPOPT_NOP;
	p[10] = TCPOPT_SACK_PERM;
	p[11] = TCPOLEN_SACK_PERM;
	return p + TCP_SYN_OPT_LEN;
}

static void tcp_event_ack_sent(struct tcp_sock *tp)
{
	if (tp->quick_acks)
		tp->quick_acks--;
	tp->ack_pending = 0;
	net_timer_del(&tp->delack_timer);
}

static void tcp_fill_header(struct sock *sk, struct sk_buff *skb,
			    struct tcphdr *th, u32 hlen)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct tcp_skb_cb *cb = TCP_SKB_CB(skb);
	u8 flags = cb->tcp_flags;
	u32 win;

	th->source = sk->sport;
	th->dest = sk->dport;
	th->seq = htonl(cb->seq);
	th->doff_res = (u8)((hlen / 4) << 4);
	/* Everything after the SYN carries an ACK. */
	if (likely(sk->state != TCP_SYN_SENT || !(flags & TCPHDR_SYN)))
		flags |= (flags & TCPHDR_RST) ? 0 : TCPHDR_ACK;
	th->flags = flags;
	th->ack_seq = (flags & TCPHDR_ACK) ? htonl(tp->rcv_nxt) : 0;
	if (unlikely(flags & TCPHDR_SYN)) {
		/* Window scaling is not in force on SYNs (RFC 7323). */
		win = min(sk->rcvbuf, 65535u);
		tp->rcv_wnd = win;
		tp->rcv_wup = tp->rcv_nxt;
	} else {
		win = tcp_select_window(sk);
	}
	th->window = htons((u16)win);
	th->check = 0;
	th->urg_ptr = 0;
}

/* Pushes the TCP header onto (a clone of) skb and passes it to IP. */
int tcp_transmit_skb(struct sock *sk, struct sk_buff *skb, bool clone)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct net_stack *net = sk->net;
	u32 hlen = sizeof(struct tcphdr);
	struct tcphdr *th;

	if (unlikely(TCP_SKB_CB(skb)->tcp_flags & TCPHDR_SYN))
		hlen += TCP_SYN_OPT_LEN;
	if (likely(clone)) {
		skb = skb_clone(skb);
		if (unlikely(!skb))
			return -ENOBUFS;
	}
	th = (struct tcphdr *)skb_push(skb, hlen);
	skb_reset_transport_header(skb);
	tcp_fill_header(sk, skb, th, hlen);
	if (unlikely(hlen > sizeof(*th)))
		tcp_write_syn_options(tp, (u8 *)(th + 1));
	th->check = csum_tcpudp_magic(sk->saddr, sk->daddr, skb->len,
				      IPPROTO_TCP,
				      csum_partial(th, skb->len, 0));
	if (likely(th->flags & TCPHDR_ACK))
		tcp_event_ack_sent(tp);
	tp->segs_out++;
	net->mib.tcp_out_segs++;
	/* A drop below IP is a loss like any other: the RTO repairs it. */
	ip_queue_xmit(skb, sk->saddr, sk->daddr, IPPROTO_TCP);
	return 0;
}

static bool tcp_nagle_hold(struct sock *sk, struct sk_buff *skb)
{
	struct tcp_sock *tp = tcp_sk(sk);

	if (skb->len >= tp->mss_cache || (sk->flags & SOCK_NODELAY))
		return false;
	if (TCP_SKB_CB(skb)->tcp_flags & TCPHDR_FIN)
		return false;
	/* Nagle with Minshall's refinement, as Linux: hold a small segment
	 * only while an earlier small one is unacknowledged. */
	return tp->packets_out != 0 && after(tp->snd_sml, tp->snd_una);
}

static bool tcp_snd_wnd_ok(const struct tcp_sock *tp, struct sk_buff *skb)
{
	u32 end = TCP_SKB_CB(skb)->end_seq;

	/* The SYN is sent before any window is known. */
	if (unlikely(TCP_SKB_CB(skb)->tcp_flags & TCPHDR_SYN))
		return true;
	return !after(end, tp->snd_una + tp->snd_wnd);
}

void tcp_write_xmit(struct sock *sk, bool push_partial)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct sk_buff *skb;

	while ((skb = tp->send_head) != NULL) {
		struct tcp_skb_cb *cb = TCP_SKB_CB(skb);

		if (unlikely(tp->packets_out >= tp->snd_cwnd))
			break;
		if (unlikely(!tcp_snd_wnd_ok(tp, skb)))
			break;
		if (!push_partial && skb_queue_next(&sk->write_queue, skb) ==
		    NULL && tcp_nagle_hold(sk, skb))
			break;
		cb->when = sk->net->now;
		if (unlikely(tcp_transmit_skb(sk, skb, true)))
			break;
		tp->send_head = skb_queue_next(&sk->write_queue, skb);
		if (after(cb->end_seq, tp->snd_nxt))
			tp->snd_nxt = cb->end_seq;
		tp->packets_out++;
		if (skb->len < tp->mss_cache)
			tp->snd_sml = cb->end_seq;
		/* The first segment in flight gets a fresh RTO, even if the
		 * timer was running as the zero-window probe timer. */
		if (!tp->rtx_timer.pending || tp->packets_out == 1)
			tcp_rearm_rto(sk);
	}
	/*
	 * Data waits on the peer's window with nothing in flight: no ACK
	 * will come to reopen it if the peer's window update is lost, so
	 * probe it (the persist timer, RFC 1122 4.2.2.17; Linux and the BSD
	 * stack in QEMU's slirp both hold zero windows for as long as
	 * their applications do not read).
	 */
	if (tp->send_head && !tp->packets_out && !tp->rtx_timer.pending)
		net_timer_mod(sk->net, &tp->rtx_timer, sk->net->now + tp->rto);
}

void tcp_push(struct sock *sk)
{
	tcp_write_xmit(sk, false);
}

void tcp_send_ack(struct sock *sk)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct sk_buff *skb;

	if (unlikely(sk->state == TCP_CLOSED))
		return;
	skb = tcp_stream_alloc_skb(sk, 0);
	if (unlikely(!skb)) {
		/* Retry from the delayed-ACK timer. */
		tcp_send_delayed_ack(sk);
		return;
	}
	TCP_SKB_CB(skb)->seq = tp->snd_nxt;
	TCP_SKB_CB(skb)->end_seq = tp->snd_nxt;
	TCP_SKB_CB(skb)->tcp_flags = TCPHDR_ACK;
	sk->net->mib.tcp_pure_acks++;
	tcp_transmit_skb(sk, skb, false);
}

/* A zero-window probe: an ACK with the old sequence number snd_una - 1,
 * which the peer must answer with an ACK that shows its window. */
void tcp_send_probe(struct sock *sk)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct sk_buff *skb = tcp_stream_alloc_skb(sk, 0);

	if (unlikely(!skb))
		return;
	TCP_SKB_CB(skb)->seq = tp->snd_una - 1;
	TCP_SKB_CB(skb)->end_seq = tp->snd_una - 1;
	TCP_SKB_CB(skb)->tcp_flags = TCPHDR_ACK;
	tcp_transmit_skb(sk, skb, false);
}

void tcp_send_delayed_ack(struct sock *sk)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct net_stack *net = sk->net;

	tp->ack_pending = 1;
	if (!tp->delack_timer.pending)
		net_timer_mod(net, &tp->delack_timer, net->now + tp->ato);
}

/* Queues a control segment (SYN or FIN) that occupies sequence space and
 * so lives on the write queue for retransmission. */
static struct sk_buff *tcp_queue_ctl(struct sock *sk, u8 flags)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct sk_buff *skb = tcp_stream_alloc_skb(sk, 0);

	if (unlikely(!skb))
		return NULL;
	TCP_SKB_CB(skb)->seq = tp->write_seq;
	TCP_SKB_CB(skb)->end_seq = tp->write_seq + 1;
	TCP_SKB_CB(skb)->tcp_flags = flags;
	tp->write_seq++;
	__skb_queue_tail(&sk->write_queue, skb);
	if (!tp->send_head)
		tp->send_head = skb;
	return skb;
}

int tcp_send_syn(struct sock *sk)
{
	if (unlikely(!tcp_queue_ctl(sk, TCPHDR_SYN)))
		return -ENOBUFS;
	tcp_write_xmit(sk, true);
	return 0;
}

int tcp_send_synack(struct sock *sk)
{
	if (unlikely(!tcp_queue_ctl(sk, TCPHDR_SYN | TCPHDR_ACK)))
		return -ENOBUFS;
	tcp_write_xmit(sk, true);
	return 0;
}

void tcp_send_fin(struct sock *sk)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct sk_buff *tail = skb_peek_tail(&sk->write_queue);

	/* Piggyback the FIN on unsent data when there is some. */
	if (tail && tp->send_head && !(TCP_SKB_CB(tail)->tcp_flags &
				       (TCPHDR_SYN | TCPHDR_FIN))) {
		TCP_SKB_CB(tail)->tcp_flags |= TCPHDR_FIN;
		TCP_SKB_CB(tail)->end_seq++;
		tp->write_seq++;
	} else if (!tcp_queue_ctl(sk, TCPHDR_FIN | TCPHDR_ACK)) {
		return;		/* no memory: the close completes by RTO */
	}
	tcp_write_xmit(sk, true);
}

/* RST in answer to a segment that has no connection (RFC 793 p. 36). */
void tcp_send_reset(struct net_stack *net, struct sk_buff *in)
{
	const struct tcp_skb_cb *icb = TCP_SKB_CB(in);
	const struct iphdr *iph = ip_hdr(in);
	const struct tcphdr *ith = (const struct tcphdr *)in->data;
	struct sk_buff *skb;
	struct tcphdr *th;

	if (icb->tcp_flags & TCPHDR_RST)
		return;
	skb = alloc_skb(net, MAX_HEADER);
	if (unlikely(!skb))
		return;
	skb_reserve(skb, MAX_HEADER);
	th = (struct tcphdr *)skb_push(skb, sizeof(*th));
	memset(th, 0, sizeof(*th));
	th->source = ith->dest;
	th->dest = ith->source;
	th->doff_res = 5 << 4;
	if (icb->tcp_flags & TCPHDR_ACK) {
		th->seq = htonl(icb->ack_seq);
		th->flags = TCPHDR_RST;
	} else {
		th->ack_seq = htonl(icb->end_seq);
		th->flags = TCPHDR_RST | TCPHDR_ACK;
	}
	th->check = csum_tcpudp_magic(iph->daddr, iph->saddr, sizeof(*th),
				      IPPROTO_TCP,
				      csum_partial(th, sizeof(*th), 0));
	net->mib.tcp_out_rsts++;
	net->mib.tcp_out_segs++;
	ip_queue_xmit(skb, iph->daddr, iph->saddr, IPPROTO_TCP);
}

void tcp_send_active_reset(struct sock *sk)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct sk_buff *skb = tcp_stream_alloc_skb(sk, 0);

	if (unlikely(!skb))
		return;
	TCP_SKB_CB(skb)->seq = tp->snd_nxt;
	TCP_SKB_CB(skb)->end_seq = tp->snd_nxt;
	TCP_SKB_CB(skb)->tcp_flags = TCPHDR_RST | TCPHDR_ACK;
	sk->net->mib.tcp_out_rsts++;
	tcp_transmit_skb(sk, skb, false);
}

/* Deep copy, for a segment whose data area is still on the TX ring. */
static struct sk_buff *tcp_skb_copy(struct sock *sk, struct sk_buff *skb)
{
	struct sk_buff *n = tcp_stream_alloc_skb(sk, skb->len);

	if (unlikely(!n))
		return NULL;
	memcpy(skb_put(n, skb->len), skb->data, skb->len);
	memcpy(n->cb, skb->cb, sizeof(n->cb));
	return n;
}

int tcp_retransmit_skb(struct sock *sk, struct sk_buff *skb)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct sk_buff *out;

	if (skb_shinfo(skb)->dataref > 1) {
		out = tcp_skb_copy(sk, skb);
		if (unlikely(!out))
			return -ENOBUFS;
	} else {
		out = skb_clone(skb);
		if (unlikely(!out))
			return -ENOBUFS;
	}
	TCP_SKB_CB(skb)->retrans++;
	TCP_SKB_CB(skb)->when = sk->net->now;
	tp->retransmits++;
	sk->net->mib.tcp_retrans_segs++;
	return tcp_transmit_skb(sk, out, false);
}

/* Header prediction word: doff=5, ACK, and the current send window, as
 * the bytes at offset 12 of an expected segment read (PSH ignored). */
void tcp_update_pred_flags(struct tcp_sock *tp)
{
	tp->pred_flags = (5u << 28) | ((u32)TCPHDR_ACK << 16) |
			 (tp->snd_wnd >> tp->snd_wscale);
}
