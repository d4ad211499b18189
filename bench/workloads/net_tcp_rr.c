/* SPDX-License-Identifier: GPL-2.0-or-later */
/* net.tcp_rr: netperf TCP_RR over the loopback NIC: a 1-byte request and
 * a 1-byte response between two connected sockets per transaction. */
#include <kfront/errno.h>
#include <kfront/slab.h>
#include <kfront/net/netbench.h>

static int tcp_rr_setup(struct bench_ctx *ctx)
{
	struct netbench *nb = kzalloc(sizeof(*nb));
	int err;

	if (!nb)
		return -ENOMEM;
	err = netbench_open(ctx, nb, 64, true);
	if (err) {
		kfree(nb);
		return err;
	}
	sock_set_nodelay(nb->client, true);
	sock_set_nodelay(nb->server, true);
	ctx->priv = nb;
	return 0;
}

static int tcp_rr_one(struct bench_ctx *ctx, struct netbench *nb, u8 req)
{
	u8 resp = (u8)~req;
	u8 got;
	ssize_t n;

	n = sock_send(nb->client, &req, 1);
	if (n != 1)
		return netbench_fail(ctx, "tcp_rr request send", (u64)n, 1);
	n = sock_recv(nb->server, &got, 1);
	if (n != 1 || got != req)
		return netbench_fail(ctx, "tcp_rr request", n == 1 ? got : (u64)n,
				     req);
	n = sock_send(nb->server, &resp, 1);
	if (n != 1)
		return netbench_fail(ctx, "tcp_rr response send", (u64)n, 1);
	n = sock_recv(nb->client, &got, 1);
	if (n != 1 || got != resp)
		return netbench_fail(ctx, "tcp_rr response",
				     n == 1 ? got : (u64)n, resp);
	return 0;
}

/* Both sockets stay connected, and every request and response woke its
 * reader at least once (a segment may wake it more than once). */
static int tcp_rr_check(struct bench_ctx *ctx, struct netbench *nb,
			u64 iters, u64 wakeups)
{
	if (wakeups < 2 * iters)
		return netbench_fail(ctx, "tcp_rr wakeups", wakeups, 2 * iters);
	if (sock_state(nb->client) != TCP_ESTABLISHED ||
	    sock_state(nb->server) != TCP_ESTABLISHED)
		return netbench_fail(ctx, "tcp_rr state",
				     sock_state(nb->client), TCP_ESTABLISHED);
	return 0;
}

static int tcp_rr_run(struct bench_ctx *ctx, u64 iters)
{
	return NETBENCH_RR_RUN(ctx, iters, tcp_rr_one, 131, 7, tcp_rr_check,
			       "tcp_rr leftover bytes");
}

const struct bench_desc bench_net_tcp_rr = {
	.name = "net.tcp_rr",
	.op = "transaction",
	.flags = BENCH_F_FOOTPRINT,
	.default_iters = 20000,
	.quick_iters = 2000,
	.setup = tcp_rr_setup,
	.run = tcp_rr_run,
	.teardown = netbench_teardown,
};
