/* SPDX-License-Identifier: GPL-2.0-or-later */
/* net.wire_rr: netperf TCP_RR against a peer on the host, through the
 * real NIC: a 1-byte request, and the peer's 1-byte answer (the request's
 * complement), per transaction. The variant's stack does the sending,
 * the receiving and the waiting; the time also holds the emulated card,
 * QEMU's user-mode network and the host peer (records say "wire"). */
#include <kfront/errno.h>
#include <kfront/slab.h>
#include <kfront/net/netbench.h>
#include <kfront/net/netwire.h>

static int wire_rr_setup(struct bench_ctx *ctx)
{
	struct netwire *nw = kzalloc(sizeof(*nw));
	int err;

	if (!nw)
		return -ENOMEM;
	err = netwire_init(ctx, nw);
	if (!err)
		err = netwire_connect(ctx, nw, 0, "rr\n");
	if (err) {
		netwire_destroy(nw);
		kfree(nw);
		return err;
	}
	ctx->priv = nw;
	return 0;
}

static int wire_rr_one(struct bench_ctx *ctx, struct netwire *nw, u8 req)
{
	u64 deadline = 0;
	ssize_t n;
	u8 got;

	n = sock_send(nw->sk[0], &req, 1);
	if (n != 1)
		return netbench_fail(ctx, "wire_rr request send", (u64)n, 1);
	for (;;) {
		n = sock_recv(nw->sk[0], &got, 1);
		if (n == 1)
			break;
		if (n != -EAGAIN)
			return netbench_fail(ctx, "wire_rr response", (u64)n, 1);
		/* The deadline costs a clock read only once waiting starts. */
		if (!deadline)
			deadline = netwire_now(nw) + NETWIRE_TIMEOUT_MS;
		else if (netwire_now(nw) > deadline)
			return netbench_fail(ctx, "wire_rr: no response in ms",
					     NETWIRE_TIMEOUT_MS, 0);
		netwire_poll(nw);
	}
	if ((u8)(got ^ req) != 0xff)	/* the peer answers the complement */
		return netbench_fail(ctx, "wire_rr response", got,
				     (u8)(req ^ 0xff));
	return 0;
}

static int wire_rr_run(struct bench_ctx *ctx, u64 iters)
{
	struct netwire *nw = ctx->priv;
	u64 i, sum = 0;
	int err;

	netwire_run_begin(nw);
	for (i = 0; i < iters; i++) {
		u8 req = (u8)(i * 131 + 7);

		err = wire_rr_one(ctx, nw, req);
		if (err)
			return err;
		sum = sum * 31 + req;
	}
	if (sock_rx_pending(nw->sk[0]))
		return netbench_fail(ctx, "wire_rr leftover bytes",
				     sock_rx_pending(nw->sk[0]), 0);
	/* Only what the peer proved: segment and ACK counts depend on the
	 * timing of the emulator, and differ between variants. */
	ctx->digest = bench_digest_fold(ctx->digest, iters);
	ctx->digest = bench_digest_fold(ctx->digest, sum);
	return netwire_run_end(ctx, nw);
}

const struct bench_desc bench_net_wire_rr = {
	.name = "net.wire_rr",
	.op = "transaction",
	.flags = BENCH_F_FOOTPRINT | BENCH_F_WIRE,
	.default_iters = 2000,
	.quick_iters = 200,
	.setup = wire_rr_setup,
	.run = wire_rr_run,
	.teardown = netwire_teardown,
};
