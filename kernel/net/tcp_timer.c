/* SPDX-License-Identifier: GPL-2.0-or-later */
/* TCP timers on the virtual clock: retransmission (with the RFC 6298 RTT
 * estimator), delayed ACK, and TIME_WAIT / orphaned FIN_WAIT2 expiry. */
#include "internal.h"

void tcp_rearm_rto(struct sock *sk)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct net_stack *net = sk->net;

	if (!tp->packets_out) {
		net_timer_del(&tp->rtx_timer);
		return;
	}
	net_timer_mod(net, &tp->rtx_timer, net->now + tp->rto);
}

/* Jacobson/Karels in fixed point: srtt holds 8*SRTT, mdev 4*RTTVAR. */
void tcp_rtt_sample(struct tcp_sock *tp, u32 rtt)
{
	s32 m = (s32)(rtt ? rtt : 1);
	u32 rto;

	if (likely(tp->srtt)) {
		m -= (s32)(tp->srtt >> 3);
		tp->srtt = (u32)((s32)tp->srtt + m);
		if (m < 0)
			m = -m;
		m -= (s32)(tp->mdev >> 2);
		tp->mdev = (u32)((s32)tp->mdev + m);
	} else {
		tp->srtt = (u32)m << 3;
		tp->mdev = (u32)m << 1;
	}
	rto = (tp->srtt >> 3) + max(tp->mdev, 1u);
	tp->rto = min(max(rto, (u32)TCP_RTO_MIN), (u32)TCP_RTO_MAX);
}

static void tcp_write_err(struct sock *sk)
{
	sk->err = ETIMEDOUT;
	sk->net->mib.tcp_estab_resets++;
	tcp_done(sk);
}

/* Persist: probe the closed window, backing off to TCP_RTO_MAX. The
 * peer may hold its window shut as long as it likes: never give up. */
static void tcp_probe_timer(struct sock *sk)
{
	struct tcp_sock *tp = tcp_sk(sk);
	u64 when = (u64)tp->rto << min(tp->backoff, (u8)16);

	tcp_send_probe(sk);
	if (tp->backoff < TCP_MAX_RETRIES)
		tp->backoff++;
	net_timer_mod(sk->net, &tp->rtx_timer,
		      sk->net->now + min(when, (u64)TCP_RTO_MAX));
}

static void tcp_retransmit_timer(struct net_timer *t)
{
	struct tcp_sock *tp = container_of(t, struct tcp_sock, rtx_timer);
	struct sock *sk = &tp->sk;
	struct sk_buff *head = skb_peek(&sk->write_queue);
	u32 limit;

	if (sk->state == TCP_CLOSED)
		return;
	if (!tp->packets_out) {
		if (tp->send_head)
			tcp_probe_timer(sk);
		return;
	}
	if (!head)
		return;
	limit = (sk->state == TCP_SYN_SENT || sk->state == TCP_SYN_RECV) ?
		TCP_SYN_RETRIES : TCP_MAX_RETRIES;
	if (tp->backoff >= limit) {
		tcp_write_err(sk);
		return;
	}
	sk->net->mib.tcp_timeouts++;
	/* Loss: back to slow start from one segment (RFC 5681 3.1). */
	tp->snd_ssthresh = max(tp->packets_out / 2, 2u);
	tp->snd_cwnd = 1;
	tp->snd_cwnd_cnt = 0;
	tp->dup_acks = 0;
	tcp_retransmit_skb(sk, head);
	tp->backoff++;
	tp->rto = min(tp->rto * 2, (u32)TCP_RTO_MAX);
	net_timer_mod(sk->net, &tp->rtx_timer, sk->net->now + tp->rto);
}

static void tcp_delack_timer(struct net_timer *t)
{
	struct tcp_sock *tp = container_of(t, struct tcp_sock, delack_timer);
	struct sock *sk = &tp->sk;

	if (!tp->ack_pending || sk->state == TCP_CLOSED)
		return;
	sk->net->mib.tcp_delayed_acks++;
	tcp_send_ack(sk);
}

static void tcp_tw_timer(struct net_timer *t)
{
	struct tcp_sock *tp = container_of(t, struct tcp_sock, tw_timer);

	tcp_done(&tp->sk);
}

void tcp_init_timers(struct tcp_sock *tp)
{
	net_timer_init(&tp->rtx_timer, tcp_retransmit_timer);
	net_timer_init(&tp->delack_timer, tcp_delack_timer);
	net_timer_init(&tp->tw_timer, tcp_tw_timer);
}

void tcp_clear_timers(struct tcp_sock *tp)
{
	net_timer_del(&tp->rtx_timer);
	net_timer_del(&tp->delack_timer);
	net_timer_del(&tp->tw_timer);
	tp->ack_pending = 0;
}

/* TIME_WAIT keeps the full socket hashed so a retransmitted FIN is
 * answered; it expires after 2*MSL on the virtual clock. */
void tcp_time_wait(struct sock *sk)
{
	struct tcp_sock *tp = tcp_sk(sk);

	tcp_set_state(sk, TCP_TIME_WAIT);
	net_timer_del(&tp->rtx_timer);
	net_timer_del(&tp->delack_timer);
	net_timer_mod(sk->net, &tp->tw_timer, sk->net->now + TCP_TIMEWAIT_LEN);
}
