/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The socket layer: allocation and deferred freeing of sockets, wakeup
 * hooks, and the calls benchmarks make, dispatched through struct proto.
 * Every call ends by running the softirq, as a kernel does on its way
 * back from a system call. */
#include <kfront/slab.h>
#include "internal.h"

static const char *const tcp_state_names[TCP_MAX_STATES] = {
	[TCP_CLOSED] = "CLOSED",
	[TCP_LISTEN] = "LISTEN",
	[TCP_SYN_SENT] = "SYN_SENT",
	[TCP_SYN_RECV] = "SYN_RECV",
	[TCP_ESTABLISHED] = "ESTABLISHED",
	[TCP_FIN_WAIT1] = "FIN_WAIT1",
	[TCP_FIN_WAIT2] = "FIN_WAIT2",
	[TCP_CLOSING] = "CLOSING",
	[TCP_TIME_WAIT] = "TIME_WAIT",
	[TCP_CLOSE_WAIT] = "CLOSE_WAIT",
	[TCP_LAST_ACK] = "LAST_ACK",
};

const char *tcp_state_name(int state)
{
	if (state < 0 || state >= TCP_MAX_STATES)
		return "?";
	return tcp_state_names[state];
}

struct sock *sk_alloc(struct net_stack *net, const struct proto *prot,
		      size_t size, int type)
{
	struct sock *sk = kzalloc(size);

	if (unlikely(!sk))
		return NULL;
	sk->net = net;
	sk->prot = prot;
	sk->type = (u8)type;
	sk->state = TCP_CLOSED;
	skb_queue_head_init(&sk->receive_queue);
	skb_queue_head_init(&sk->write_queue);
	INIT_LIST_HEAD(&sk->accept_node);
	INIT_LIST_HEAD(&sk->accept_queue);
	list_add_tail(&sk->all_node, &net->socks);
	net->nr_socks++;
	if (prot->init && prot->init(sk)) {
		list_del(&sk->all_node);
		net->nr_socks--;
		kfree(sk);
		return NULL;
	}
	return sk;
}

/*
 * Protocol state goes now; the memory goes at the next garbage collection,
 * because the receive path that killed the socket may still hold it.
 */
void sk_free(struct sock *sk)
{
	if (sk->flags & SOCK_DEAD) {
		/* Second call, from the collector or the stack's teardown. */
		list_del(&sk->all_node);
		kfree(sk);
		return;
	}
	sk->flags |= SOCK_DEAD;
	sk->prot->destroy(sk);
	skb_queue_purge(&sk->receive_queue);
	skb_queue_purge(&sk->write_queue);
	sk->data_ready = NULL;
	sk->state_change = NULL;
	list_del(&sk->all_node);
	list_add_tail(&sk->all_node, &sk->net->sock_gc);
	sk->net->nr_socks--;
}

void sk_gc(struct net_stack *net)
{
	while (!list_empty(&net->sock_gc))
		sk_free(list_first_entry(&net->sock_gc, struct sock, all_node));
}

/* Protocol work the call caused (net_softirq also frees the sockets
 * it killed). */
static void sock_syscall_exit(struct net_stack *net)
{
	net_softirq(net);
}

void sk_wake_data(struct sock *sk)
{
	if (sk->data_ready)
		sk->data_ready(sk);
}

void sk_wake_state(struct sock *sk)
{
	if (sk->state_change)
		sk->state_change(sk);
}

int sock_create(struct net_stack *net, int type, struct sock **out)
{
	const struct proto *prot;
	struct sock *sk;

	if (type == SOCK_STREAM)
		prot = &tcp_prot;
	else if (type == SOCK_DGRAM)
		prot = &udp_prot;
	else
		return -EINVAL;
	sk = sk_alloc(net, prot, prot->obj_size, type);
	if (!sk)
		return -ENOMEM;
	*out = sk;
	return 0;
}

int sock_bind(struct sock *sk, const struct sockaddr_in *addr)
{
	return sk->prot->bind(sk, addr);
}

int sock_listen(struct sock *sk, u32 backlog)
{
	if (!sk->prot->listen)
		return -EOPNOTSUPP;
	return sk->prot->listen(sk, backlog);
}

int sock_connect(struct sock *sk, const struct sockaddr_in *addr)
{
	int err = sk->prot->connect(sk, addr);

	sock_syscall_exit(sk->net);
	if (err == -EINPROGRESS && sk->state == TCP_ESTABLISHED)
		err = 0;
	if (err == -EINPROGRESS && sk->err)
		err = -sk->err;
	return err;
}

int sock_accept(struct sock *sk, struct sock **child)
{
	if (!sk->prot->accept)
		return -EOPNOTSUPP;
	return sk->prot->accept(sk, child);
}

ssize_t sock_send(struct sock *sk, const void *buf, size_t len)
{
	ssize_t n = sk->prot->sendmsg(sk, buf, len, NULL);

	sock_syscall_exit(sk->net);
	return n;
}

ssize_t sock_recv(struct sock *sk, void *buf, size_t len)
{
	ssize_t n = sk->prot->recvmsg(sk, buf, len, NULL);

	sock_syscall_exit(sk->net);
	return n;
}

ssize_t sock_sendto(struct sock *sk, const void *buf, size_t len,
		    const struct sockaddr_in *to)
{
	ssize_t n = sk->prot->sendmsg(sk, buf, len, to);

	sock_syscall_exit(sk->net);
	return n;
}

ssize_t sock_recvfrom(struct sock *sk, void *buf, size_t len,
		      struct sockaddr_in *from)
{
	ssize_t n = sk->prot->recvmsg(sk, buf, len, from);

	sock_syscall_exit(sk->net);
	return n;
}

void sock_close(struct sock *sk)
{
	struct net_stack *net = sk->net;

	sk->data_ready = NULL;
	sk->state_change = NULL;
	sk->prot->close(sk);
	sock_syscall_exit(net);
}

void sock_abort(struct sock *sk)
{
	struct net_stack *net = sk->net;

	if (sk->type == SOCK_STREAM && sk->state != TCP_CLOSED &&
	    sk->state != TCP_LISTEN && sk->state != TCP_SYN_SENT)
		tcp_send_active_reset(sk);
	if (sk->type == SOCK_STREAM && sk->state != TCP_LISTEN) {
		sk->flags |= SOCK_ORPHAN;
		if (sk->state == TCP_CLOSED)
			sk_free(sk);
		else
			tcp_done(sk);
	} else {
		sk->prot->close(sk);
	}
	sock_syscall_exit(net);
}

void sock_set_nodelay(struct sock *sk, bool on)
{
	if (on)
		sk->flags |= SOCK_NODELAY;
	else
		sk->flags &= (u8)~SOCK_NODELAY;
}

void sock_set_data_ready(struct sock *sk, void (*fn)(struct sock *sk),
			 void *user_data)
{
	sk->data_ready = fn;
	sk->user_data = user_data;
}

int sock_state(const struct sock *sk)
{
	return sk->state;
}

u32 sock_rx_pending(const struct sock *sk)
{
	return sk->receive_queue.bytes;
}
