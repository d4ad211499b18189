/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The socket calls benchmarks and tests use (non-blocking: the work a
 * blocking call would wait for happens in net_softirq() over loopback). */
#ifndef KFRONT_NET_SOCKET_H
#define KFRONT_NET_SOCKET_H

#include <kfront/net/sock.h>

int sock_create(struct net_stack *net, int type, struct sock **out);
int sock_bind(struct sock *sk, const struct sockaddr_in *addr);
int sock_listen(struct sock *sk, u32 backlog);
/* 0 once established, -EINPROGRESS while the handshake is under way. */
int sock_connect(struct sock *sk, const struct sockaddr_in *addr);
/* -EAGAIN when no connection is ready. */
int sock_accept(struct sock *sk, struct sock **child);
ssize_t sock_send(struct sock *sk, const void *buf, size_t len);
ssize_t sock_recv(struct sock *sk, void *buf, size_t len);
ssize_t sock_sendto(struct sock *sk, const void *buf, size_t len,
		    const struct sockaddr_in *to);
ssize_t sock_recvfrom(struct sock *sk, void *buf, size_t len,
		      struct sockaddr_in *from);
/* Starts an orderly close; the stack frees the socket when done. */
void sock_close(struct sock *sk);
/* Abortive close: sends RST (TCP), frees at once. */
void sock_abort(struct sock *sk);
void sock_set_nodelay(struct sock *sk, bool on);
void sock_set_data_ready(struct sock *sk, void (*fn)(struct sock *sk),
			 void *user_data);
int sock_state(const struct sock *sk);
const char *tcp_state_name(int state);
/* Bytes queued for the user to read. */
u32 sock_rx_pending(const struct sock *sk);

#endif
