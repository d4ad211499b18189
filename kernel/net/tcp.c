/* SPDX-License-Identifier: GPL-2.0-or-later */
/* TCP socket operations: connect, listen, accept, send, receive, close,
 * and the creation of connection state for active and passive opens. */
#include "internal.h"

#define TCP_ISN_STEP	0x10000u

void tcp_init_sock(struct tcp_sock *tp)
{
	struct sock *sk = &tp->sk;

	tcp_init_timers(tp);
	skb_queue_head_init(&tp->out_of_order_queue);
	sk->rcvbuf = TCP_RCVBUF_DEFAULT;
	sk->sndbuf = TCP_SNDBUF_DEFAULT;
	tp->advmss = (u16)(ETH_DATA_LEN - sizeof(struct iphdr) -
			   sizeof(struct tcphdr));
	tp->mss_cache = TCP_MSS_DEFAULT;
	tp->rcv_wscale = TCP_RCV_WSCALE;
	tp->rto = TCP_TIMEOUT_INIT;
	tp->ato = TCP_DELACK_MIN;
	tp->snd_cwnd = TCP_INIT_CWND;
	tp->snd_ssthresh = 0x7fffffff;
	tp->rcv_mss = TCP_MSS_DEFAULT;
}

static int tcp_sock_init(struct sock *sk)
{
	tcp_init_sock(tcp_sk(sk));
	return 0;
}

/* Deterministic ISNs (a keyed hash plus a per-stack clock): identical
 * inputs give identical sequence numbers in every compiler variant. */
u32 tcp_new_isn(struct net_stack *net, be32 saddr, be16 sport, be32 daddr,
		be16 dport)
{
	u32 h = net->isn_secret;

	h ^= saddr;
	h *= 0x85ebca6bu;
	h ^= daddr + ((u32)sport << 16 | dport);
	h *= 0xc2b2ae35u;
	h ^= h >> 16;
	net->isn_clock += TCP_ISN_STEP;
	return net->isn_clock + (h & 0xffff);
}

static void tcp_set_iss(struct tcp_sock *tp, u32 iss)
{
	tp->iss = iss;
	tp->snd_una = iss;
	tp->snd_nxt = iss;
	tp->write_seq = iss;
	tp->snd_sml = iss;
}

static int tcp_v4_bind(struct sock *sk, const struct sockaddr_in *addr)
{
	if (addr->sin_addr && !ip_is_local(sk->net, addr->sin_addr))
		return -EINVAL;
	if (sk->state != TCP_CLOSED)
		return -EINVAL;
	sk->saddr = addr->sin_addr;
	return tcp_bind_port(sk, addr->sin_port);
}

static int tcp_v4_listen(struct sock *sk, u32 backlog)
{
	int err;

	if (sk->state != TCP_CLOSED)
		return -EINVAL;
	if (!(sk->flags & SOCK_BOUND)) {
		err = tcp_bind_port(sk, 0);
		if (err)
			return err;
	}
	sk->max_backlog = backlog ? backlog : 1;
	sk->state = TCP_LISTEN;
	return tcp_listen_hash(sk);
}

static int tcp_v4_connect(struct sock *sk, const struct sockaddr_in *addr)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct net_stack *net = sk->net;
	int err;

	if (sk->state == TCP_ESTABLISHED)
		return -EISCONN;
	if (sk->state == TCP_SYN_SENT)
		return -EALREADY;
	if (sk->state != TCP_CLOSED || !addr->sin_port)
		return -EINVAL;
	if (!(sk->flags & SOCK_BOUND)) {
		err = tcp_bind_port(sk, 0);
		if (err)
			return err;
	}
	if (!sk->saddr)
		sk->saddr = net->dev->ip_addr;
	sk->daddr = addr->sin_addr;
	sk->dport = addr->sin_port;
	if (tcp_lookup(net, sk->daddr, sk->dport, sk->saddr, sk->sport))
		return -EADDRINUSE;
	tcp_set_iss(tp, tcp_new_isn(net, sk->saddr, sk->sport, sk->daddr,
				    sk->dport));
	tcp_set_state(sk, TCP_SYN_SENT);
	tcp_hash(sk);
	net->mib.tcp_active_opens++;
	err = tcp_send_syn(sk);
	return err ? err : -EINPROGRESS;
}

/* Passive open: a child socket in SYN_RECV from a listener and a SYN. */
struct sock *tcp_create_child(struct sock *listener, struct sk_buff *skb)
{
	const struct iphdr *iph = ip_hdr(skb);
	const struct tcphdr *th = (const struct tcphdr *)skb->data;
	struct tcp_skb_cb *cb = TCP_SKB_CB(skb);
	struct net_stack *net = listener->net;
	struct tcp_sock *tp;
	struct sock *sk;

	sk = sk_alloc(net, &tcp_prot, sizeof(struct tcp_sock), SOCK_STREAM);
	if (unlikely(!sk))
		return NULL;
	tp = tcp_sk(sk);
	if (unlikely(tcp_parse_options(th, tp, true))) {
		sk_free(sk);
		return NULL;
	}
	sk->saddr = iph->daddr;
	sk->sport = th->dest;
	sk->daddr = iph->saddr;
	sk->dport = th->source;
	sk->flags |= SOCK_ORPHAN | (listener->flags & SOCK_NODELAY);
	sk->parent = listener;
	sk->state = TCP_SYN_RECV;
	listener->syn_pending++;
	tp->irs = cb->seq;
	tp->rcv_nxt = cb->seq + 1;
	tp->rcv_wup = tp->rcv_nxt;
	tp->snd_wl1 = cb->seq;
	tp->snd_wnd = ntohs(th->window);
	tcp_set_iss(tp, tcp_new_isn(net, sk->saddr, sk->sport, sk->daddr,
				    sk->dport));
	tcp_hash(sk);
	return sk;
}

static int tcp_v4_accept(struct sock *sk, struct sock **child)
{
	struct sock *c;

	if (sk->state != TCP_LISTEN)
		return -EINVAL;
	if (list_empty(&sk->accept_queue))
		return -EAGAIN;
	c = list_first_entry(&sk->accept_queue, struct sock, accept_node);
	list_del(&c->accept_node);
	sk->accept_len--;
	c->parent = NULL;
	c->flags &= (u8)~SOCK_ORPHAN;
	*child = c;
	return 0;
}

static int tcp_send_space(struct sock *sk)
{
	struct tcp_sock *tp = tcp_sk(sk);
	u32 used = tp->write_seq - tp->snd_una;

	return used >= sk->sndbuf ? 0 : (int)(sk->sndbuf - used);
}

/* Appends user data to the write queue in MSS-sized segments. */
static ssize_t tcp_sendmsg(struct sock *sk, const void *buf, size_t len,
			   const struct sockaddr_in *to)
{
	struct tcp_sock *tp = tcp_sk(sk);
	const u8 *src = buf;
	size_t copied = 0;

	if (unlikely(sk->err))
		return -sk->err;
	if (unlikely(sk->shutdown & SEND_SHUTDOWN))
		return -EPIPE;
	if (unlikely(sk->state != TCP_ESTABLISHED &&
		     sk->state != TCP_CLOSE_WAIT))
		return -ENOTCONN;
	while (copied < len) {
		struct sk_buff *skb = skb_peek_tail(&sk->write_queue);
		u32 space = (u32)tcp_send_space(sk);
		u32 chunk;

		if (!space)
			break;
		if (!skb || !tp->send_head || skb->len >= tp->mss_cache ||
		    (TCP_SKB_CB(skb)->tcp_flags & (TCPHDR_SYN | TCPHDR_FIN))) {
			skb = tcp_stream_alloc_skb(sk, tp->mss_cache);
			if (unlikely(!skb))
				break;
			TCP_SKB_CB(skb)->seq = tp->write_seq;
			TCP_SKB_CB(skb)->end_seq = tp->write_seq;
			TCP_SKB_CB(skb)->tcp_flags = TCPHDR_ACK | TCPHDR_PSH;
			__skb_queue_tail(&sk->write_queue, skb);
			if (!tp->send_head)
				tp->send_head = skb;
		}
		chunk = (u32)min(len - copied, (size_t)(tp->mss_cache - skb->len));
		chunk = min(chunk, space);
		memcpy(skb_put(skb, chunk), src + copied, chunk);
		sk->write_queue.bytes += chunk;
		TCP_SKB_CB(skb)->end_seq += chunk;
		tp->write_seq += chunk;
		copied += chunk;
	}
	if (copied)
		tcp_push(sk);
	return copied ? (ssize_t)copied : -EAGAIN;
}

/* After the user read data: advertise the opened window if it at least
 * doubled, so a sender stalled on a full buffer resumes. The space that
 * counts is what the window field can carry: a peer without window
 * scaling (QEMU's slirp) caps it at 64 KiB, and an "update" that cannot
 * move the right edge is a duplicate ACK to the peer; three of them make
 * it retransmit data we already have, as Linux's and BSD's fast
 * retransmit do. */
static void tcp_cleanup_rbuf(struct sock *sk)
{
	struct tcp_sock *tp = tcp_sk(sk);
	u32 cur = tp->rcv_wup + tp->rcv_wnd - tp->rcv_nxt;
	u32 space = min(sk->rcvbuf - sk->receive_queue.bytes,
			65535u << tp->rcv_wscale);

	if (sk->state != TCP_ESTABLISHED && sk->state != TCP_FIN_WAIT1 &&
	    sk->state != TCP_FIN_WAIT2)
		return;
	if (space >= 2 * cur && space - cur >= tp->mss_cache) {
		sk->net->mib.tcp_win_updates++;
		tcp_send_ack(sk);
	}
}

static ssize_t tcp_recvmsg(struct sock *sk, void *buf, size_t len,
			   struct sockaddr_in *from)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct sk_buff_head *q = &sk->receive_queue;
	u8 *dst = buf;
	size_t copied = 0;
	struct sk_buff *skb;

	if (skb_queue_empty(q)) {
		if (sk->shutdown & RCV_SHUTDOWN)
			return sk->err ? -sk->err : 0;
		if (sk->state == TCP_CLOSED || sk->state == TCP_LISTEN)
			return sk->err ? -sk->err : -ENOTCONN;
		return -EAGAIN;
	}
	while (copied < len && (skb = skb_peek(q)) != NULL) {
		u32 n = (u32)min((size_t)skb->len, len - copied);

		memcpy(dst + copied, skb->data, n);
		copied += n;
		if (n == skb->len) {
			__skb_unlink(skb, q);
			consume_skb(skb);
		} else {
			skb_pull(skb, n);
			q->bytes -= n;
		}
	}
	tp->copied_seq += (u32)copied;
	if (from) {
		from->sin_addr = sk->daddr;
		from->sin_port = sk->dport;
	}
	tcp_cleanup_rbuf(sk);
	return (ssize_t)copied;
}

static void tcp_close_listener(struct sock *sk)
{
	struct list_head *pos, *n;

	tcp_unhash(sk);
	/* Unaccepted children are reset; half-open ones die with us. */
	list_for_each_safe(pos, n, &sk->net->socks) {
		struct sock *c = list_entry(pos, struct sock, all_node);

		if (c->parent != sk)
			continue;
		if (c->state != TCP_SYN_RECV)
			tcp_send_active_reset(c);
		tcp_done(c);
	}
	sk->state = TCP_CLOSED;
	sk_free(sk);
}

static void tcp_close(struct sock *sk)
{
	sk->flags |= SOCK_ORPHAN;
	switch (sk->state) {
	case TCP_LISTEN:
		tcp_close_listener(sk);
		return;
	case TCP_CLOSED:
		sk_free(sk);
		return;
	case TCP_SYN_SENT:
		tcp_done(sk);
		return;
	default:
		break;
	}
	/* Unread data means the peer's data is lost: RST (RFC 2525 2.17). */
	if (!skb_queue_empty(&sk->receive_queue)) {
		tcp_send_active_reset(sk);
		tcp_done(sk);
		return;
	}
	if (sk->shutdown & SEND_SHUTDOWN)
		return;
	if (sk->state == TCP_ESTABLISHED || sk->state == TCP_SYN_RECV)
		tcp_set_state(sk, TCP_FIN_WAIT1);
	else if (sk->state == TCP_CLOSE_WAIT)
		tcp_set_state(sk, TCP_LAST_ACK);
	else
		return;
	sk->shutdown |= SEND_SHUTDOWN;
	tcp_send_fin(sk);
}

static void tcp_destroy(struct sock *sk)
{
	struct tcp_sock *tp = tcp_sk(sk);

	tcp_clear_timers(tp);
	tcp_unhash(sk);
	skb_queue_purge(&tp->out_of_order_queue);
	tp->send_head = NULL;
}

const struct proto tcp_prot = {
	.name = "TCP",
	.obj_size = sizeof(struct tcp_sock),
	.init = tcp_sock_init,
	.bind = tcp_v4_bind,
	.listen = tcp_v4_listen,
	.connect = tcp_v4_connect,
	.accept = tcp_v4_accept,
	.sendmsg = tcp_sendmsg,
	.recvmsg = tcp_recvmsg,
	.close = tcp_close,
	.destroy = tcp_destroy,
};
