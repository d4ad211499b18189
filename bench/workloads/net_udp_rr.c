/* SPDX-License-Identifier: GPL-2.0-or-later */
/* net.udp_rr: netperf UDP_RR over the loopback NIC: a 1-byte request
 * datagram and a 1-byte response per transaction. */
#include <kfront/errno.h>
#include <kfront/slab.h>
#include <kfront/net/netbench.h>

static int udp_rr_setup(struct bench_ctx *ctx)
{
	struct netbench *nb = kzalloc(sizeof(*nb));
	int err;

	if (!nb)
		return -ENOMEM;
	err = netbench_init(ctx, nb, 64);
	if (!err)
		err = netbench_udp_pair(ctx, nb);
	if (err) {
		netbench_destroy(nb);
		kfree(nb);
		return err;
	}
	ctx->priv = nb;
	return 0;
}

static int udp_rr_one(struct bench_ctx *ctx, struct netbench *nb, u8 req)
{
	struct sockaddr_in srv = {
		.sin_addr = nb->server->saddr,
		.sin_port = nb->server->sport,
	};
	struct sockaddr_in from;
	u8 resp = (u8)(req ^ 0x5a);
	u8 got;
	ssize_t n;

	n = sock_sendto(nb->client, &req, 1, &srv);
	if (n != 1)
		return netbench_fail(ctx, "udp_rr request send", (u64)n, 1);
	n = sock_recvfrom(nb->server, &got, 1, &from);
	if (n != 1 || got != req)
		return netbench_fail(ctx, "udp_rr request", n == 1 ? got : (u64)n,
				     req);
	if (from.sin_port != nb->client->sport)
		return netbench_fail(ctx, "udp_rr source port", from.sin_port,
				     nb->client->sport);
	n = sock_sendto(nb->server, &resp, 1, &from);
	if (n != 1)
		return netbench_fail(ctx, "udp_rr response send", (u64)n, 1);
	n = sock_recvfrom(nb->client, &got, 1, NULL);
	if (n != 1 || got != resp)
		return netbench_fail(ctx, "udp_rr response",
				     n == 1 ? got : (u64)n, resp);
	return 0;
}

static int udp_rr_run(struct bench_ctx *ctx, u64 iters)
{
	struct netbench *nb = ctx->priv;
	u64 i, sum = 0, wake0 = nb->wakeups;
	int err;

	netbench_run_begin(nb);
	for (i = 0; i < iters; i++) {
		u8 req = (u8)(nb->ops * 37 + 11);

		err = udp_rr_one(ctx, nb, req);
		if (err)
			return err;
		sum = sum * 31 + req;
		netbench_tick(nb);
	}
	if (nb->wakeups - wake0 != 2 * iters)
		return netbench_fail(ctx, "udp_rr wakeups", nb->wakeups - wake0,
				     2 * iters);
	if (sock_rx_pending(nb->client) || sock_rx_pending(nb->server))
		return netbench_fail(ctx, "udp_rr leftover datagrams",
				     sock_rx_pending(nb->client) +
				     sock_rx_pending(nb->server), 0);
	ctx->digest = bench_digest_fold(ctx->digest, iters);
	ctx->digest = bench_digest_fold(ctx->digest, sum);
	return netbench_run_end(ctx, nb);
}

const struct bench_desc bench_net_udp_rr = {
	.name = "net.udp_rr",
	.op = "transaction",
	.flags = BENCH_F_FOOTPRINT,
	.default_iters = 20000,
	.quick_iters = 2000,
	.setup = udp_rr_setup,
	.run = udp_rr_run,
	.teardown = netbench_teardown,
};
