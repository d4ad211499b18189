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
	err = netbench_open(ctx, nb, 64, false);
	if (err) {
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

/* Every datagram woke its reader exactly once. */
static int udp_rr_check(struct bench_ctx *ctx, struct netbench *nb,
			u64 iters, u64 wakeups)
{
	(void)nb;
	if (wakeups != 2 * iters)
		return netbench_fail(ctx, "udp_rr wakeups", wakeups, 2 * iters);
	return 0;
}

static int udp_rr_run(struct bench_ctx *ctx, u64 iters)
{
	return NETBENCH_RR_RUN(ctx, iters, udp_rr_one, 37, 11, udp_rr_check,
			       "udp_rr leftover datagrams");
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
