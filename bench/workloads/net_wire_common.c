/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Scaffolding shared by the net.wire_* benchmarks: a stack on the real
 * NIC, connections to the host peer, and polled waits with deadlines.
 * Built per variant like the rest of the measured code: the stack these
 * benchmarks drive is the variant's own copy. */
#include <kfront/errno.h>
#include <kfront/printk.h>
#include <kfront/slab.h>
#include <kfront/string.h>
#include <kfront/net/byteorder.h>
#include <kfront/net/netbench.h>
#include <kfront/net/netwire.h>
#include <kfront/net/sock.h>

#define NETWIRE_CLOSE_MS	2000

u64 netwire_now(const struct netwire *nw)
{
	return nw->ops->now_ms() - nw->t0;
}

void netwire_poll(struct netwire *nw)
{
	struct net_stack *net = nw->net;
	u64 now = netwire_now(nw);

	napi_schedule(net->dev);
	if (now > net->now)
		net_clock_advance(net, now - net->now);
	else
		net_softirq(net);
}

static int netwire_timeout(struct bench_ctx *ctx, struct netwire *nw,
			   const char *what, int i)
{
	if (!ctx->err[0])
		snprintf(ctx->err, sizeof(ctx->err),
			 "%s: no answer from the peer in %u ms (state %s)",
			 what, NETWIRE_TIMEOUT_MS, nw->sk[i] ?
			 tcp_state_name(sock_state(nw->sk[i])) : "none");
	return -ETIMEDOUT;
}

int netwire_init(struct bench_ctx *ctx, struct netwire *nw)
{
	struct net_config cfg;
	int err;

	memset(nw, 0, sizeof(*nw));
	nw->ops = ctx->wire;
	if (!nw->ops) {
		snprintf(ctx->err, sizeof(ctx->err),
			 "no wire: boot with a NIC and peer=ADDR:PORT "
			 "(./kfront run --wire)");
		return -ENODEV;
	}
	err = nw->ops->link_open(&nw->link, ctx->err, sizeof(ctx->err));
	if (err)
		return err;
	net_default_config(&cfg);
	cfg.dev = nw->link.dev;
	cfg.ip_addr = nw->link.ip_addr;
	cfg.netmask = nw->link.netmask;
	cfg.gateway = nw->link.gateway;
	cfg.footprint = ctx->footprint;
	if (cfg.footprint > net_filter_rule_count()) {
		snprintf(ctx->err, sizeof(ctx->err),
			 "footprint=%u: only %u filter rules", ctx->footprint,
			 net_filter_rule_count());
		netwire_destroy(nw);
		return -E2BIG;
	}
	nw->t0 = nw->ops->now_ms();
	nw->net = net_stack_create(&cfg);
	if (!nw->net) {
		netwire_destroy(nw);
		return -ENOMEM;
	}
	return 0;
}

int netwire_connect(struct bench_ctx *ctx, struct netwire *nw, int i,
		    const char *hello)
{
	struct sockaddr_in local = {
		.sin_addr = nw->link.ip_addr,
		.sin_port = htons((u16)(nw->link.local_port + i)),
	};
	u64 deadline;
	int err;

	err = sock_create(nw->net, SOCK_STREAM, &nw->sk[i]);
	if (!err)
		err = sock_bind(nw->sk[i], &local);
	if (!err)
		err = sock_connect(nw->sk[i], &nw->link.peer);
	deadline = netwire_now(nw) + NETWIRE_TIMEOUT_MS;
	while (err == -EINPROGRESS) {
		if (netwire_now(nw) > deadline)
			return netwire_timeout(ctx, nw, "connect", i);
		netwire_poll(nw);
		if (sock_state(nw->sk[i]) == TCP_ESTABLISHED)
			err = 0;
		else if (sock_state(nw->sk[i]) == TCP_CLOSED)
			err = -ECONNREFUSED;
	}
	if (err) {
		snprintf(ctx->err, sizeof(ctx->err),
			 "connect to the peer: %d%s", err, err == -ECONNREFUSED ?
			 " (refused: is the host peer running?)" : "");
		return err;
	}
	sock_set_nodelay(nw->sk[i], true);
	return netwire_send_all(ctx, nw, i, hello, (u32)strlen(hello));
}

int netwire_send_all(struct bench_ctx *ctx, struct netwire *nw, int i,
		     const void *buf, u32 len)
{
	const u8 *p = buf;
	u64 deadline = 0;

	while (len) {
		ssize_t n = sock_send(nw->sk[i], p, len);

		if (n > 0) {
			p += n;
			len -= (u32)n;
			deadline = 0;
			continue;
		}
		if (n != -EAGAIN && n != 0)
			return netbench_fail(ctx, "wire send", (u64)-n, 0);
		if (!deadline)
			deadline = netwire_now(nw) + NETWIRE_TIMEOUT_MS;
		else if (netwire_now(nw) > deadline)
			return netwire_timeout(ctx, nw, "send", i);
		netwire_poll(nw);
	}
	return 0;
}

int netwire_recv_line(struct bench_ctx *ctx, struct netwire *nw, int i,
		      char *buf, u32 size)
{
	u64 deadline = netwire_now(nw) + NETWIRE_TIMEOUT_MS;
	u32 got = 0;

	/* Byte by byte: the line is short and nothing may be read past
	 * it. */
	while (got + 1 < size) {
		ssize_t n = sock_recv(nw->sk[i], buf + got, 1);

		if (n == 1) {
			if (buf[got] == '\n') {
				buf[got] = 0;
				return 0;
			}
			got++;
		} else if (n == -EAGAIN) {
			if (netwire_now(nw) > deadline)
				return netwire_timeout(ctx, nw, "reply", i);
			netwire_poll(nw);
		} else {
			return netbench_fail(ctx, "wire reply: connection ended",
					     (u64)-n, 0);
		}
	}
	return netbench_fail(ctx, "wire reply longer than", got, size - 1);
}

void netwire_run_begin(struct netwire *nw)
{
	nw->mib0 = nw->net->mib;
	nw->drops0 = net_drop_total(nw->net);
}

int netwire_run_end(struct bench_ctx *ctx, struct netwire *nw)
{
	u64 drops = net_drop_total(nw->net) - nw->drops0;

	/* A real wire may lose or reorder, but the peer here is on the same
	 * machine: a drop means a stack or driver fault worth seeing. */
	if (drops) {
		for (int r = 0; r < NET_DROP_MAX; r++) {
			if (nw->net->drops[r]) {
				snprintf(ctx->err, sizeof(ctx->err),
					 "%llu packets dropped (%s, ...)",
					 (unsigned long long)drops,
					 net_drop_reason_name((enum net_drop_reason)r));
				break;
			}
		}
		return -EPROTO;
	}
	for (int i = 0; i < NETWIRE_MAX_SOCKS; i++) {
		if (nw->sk[i] && sock_state(nw->sk[i]) != TCP_ESTABLISHED)
			return netbench_fail(ctx, "wire connection state",
					     (u64)sock_state(nw->sk[i]),
					     TCP_ESTABLISHED);
	}
	return 0;
}

/* Does any socket of the stack still wait for the peer? (The closed
 * sockets are the stack's to free, so they are found through its list,
 * not through our pointers.) */
static bool netwire_closing(struct net_stack *net)
{
	struct list_head *pos;

	list_for_each(pos, &net->socks) {
		struct sock *sk = list_entry(pos, struct sock, all_node);

		if (sk->state != TCP_CLOSED && sk->state != TCP_TIME_WAIT)
			return true;
	}
	return false;
}

/* Active close, then a wait for the peer's FIN; what is still open after
 * the wait goes with the stack, so a stuck peer costs two seconds. */
void netwire_destroy(struct netwire *nw)
{
	if (nw->net) {
		u64 deadline = netwire_now(nw) + NETWIRE_CLOSE_MS;

		for (int i = 0; i < NETWIRE_MAX_SOCKS; i++) {
			if (nw->sk[i])
				sock_close(nw->sk[i]);
		}
		do
			netwire_poll(nw);
		while (netwire_closing(nw->net) && netwire_now(nw) < deadline);
		net_stack_destroy(nw->net);
	}
	if (nw->ops)
		nw->ops->link_close(&nw->link);
	memset(nw, 0, sizeof(*nw));
}

/* The teardown of every net.wire_* benchmark: ctx->priv is one allocation
 * that starts with its struct netwire, as in netbench_teardown(). */
void netwire_teardown(struct bench_ctx *ctx)
{
	struct netwire *nw = ctx->priv;

	if (!nw)
		return;
	netwire_destroy(nw);
	kfree(nw);
	ctx->priv = NULL;
}
