/* SPDX-License-Identifier: GPL-2.0-or-later */
/* net.tcp_stream: netperf TCP_STREAM over the loopback NIC: 16 KiB sends
 * (MSS segmentation, checksums, copies); one operation is one send, which
 * the receiver drains and verifies. */
#include <kfront/compiler.h>
#include <kfront/errno.h>
#include <kfront/slab.h>
#include <kfront/string.h>
#include <kfront/net/checksum.h>
#include <kfront/net/netbench.h>

#define STREAM_SEND_DEFAULT	16384
#define STREAM_WINDOWS		8	/* distinct payloads, by send offset */
#define STREAM_MEMCMP_EVERY	64	/* full byte compare, else checksum */

struct tcp_stream {
	struct netbench nb;
	u32 size;
	sum16 window_csum[STREAM_WINDOWS];
};

/* netbench_teardown() frees the state through its nb. */
BUILD_BUG_ON(offsetof(struct tcp_stream, nb) != 0);

static inline u32 stream_offset(u64 op)
{
	return (u32)(op % STREAM_WINDOWS) * 61;
}

static int tcp_stream_setup(struct bench_ctx *ctx)
{
	struct tcp_stream *ts = kzalloc(sizeof(*ts));
	u32 i;
	int err;

	if (!ts)
		return -ENOMEM;
	ts->size = ctx->param ? ctx->param : STREAM_SEND_DEFAULT;
	err = netbench_open(ctx, &ts->nb, ts->size + STREAM_WINDOWS * 61, true);
	if (err) {
		kfree(ts);
		return err;
	}
	netbench_fill(ts->nb.tx_buf, ts->nb.buf_len, 0x5354524dULL);
	for (i = 0; i < STREAM_WINDOWS; i++)
		ts->window_csum[i] = csum_fold(csum_partial(
			ts->nb.tx_buf + stream_offset(i), ts->size, 0));
	ctx->priv = ts;
	return 0;
}

static int tcp_stream_drain(struct bench_ctx *ctx, struct tcp_stream *ts)
{
	struct netbench *nb = &ts->nb;
	u32 got = 0;

	while (got < ts->size) {
		ssize_t n = sock_recv(nb->server, nb->rx_buf + got,
				      ts->size - got);

		if (n <= 0)
			return netbench_fail(ctx, "tcp_stream received", got,
					     ts->size);
		got += (u32)n;
	}
	return 0;
}

static int tcp_stream_one(struct bench_ctx *ctx, struct tcp_stream *ts,
			  u64 *csum_sum)
{
	struct netbench *nb = &ts->nb;
	u64 op = nb->ops;
	const u8 *src = nb->tx_buf + stream_offset(op);
	sum16 c;
	ssize_t n;
	int err;

	n = sock_send(nb->client, src, ts->size);
	if (n != (ssize_t)ts->size)
		return netbench_fail(ctx, "tcp_stream send", (u64)n, ts->size);
	err = tcp_stream_drain(ctx, ts);
	if (err)
		return err;
	c = csum_fold(csum_partial(nb->rx_buf, ts->size, 0));
	if (c != ts->window_csum[op % STREAM_WINDOWS])
		return netbench_fail(ctx, "tcp_stream payload checksum", c,
				     ts->window_csum[op % STREAM_WINDOWS]);
	if (!(op % STREAM_MEMCMP_EVERY) && memcmp(nb->rx_buf, src, ts->size))
		return netbench_fail(ctx, "tcp_stream payload bytes", op, 0);
	*csum_sum += c;
	return 0;
}

static int tcp_stream_run(struct bench_ctx *ctx, u64 iters)
{
	struct tcp_stream *ts = ctx->priv;
	struct netbench *nb = &ts->nb;
	u64 i, csum_sum = 0;
	int err;

	netbench_run_begin(nb);
	for (i = 0; i < iters; i++) {
		err = tcp_stream_one(ctx, ts, &csum_sum);
		if (err)
			return err;
		netbench_tick(nb);
	}
	if (sock_state(nb->client) != TCP_ESTABLISHED ||
	    sock_state(nb->server) != TCP_ESTABLISHED)
		return netbench_fail(ctx, "tcp_stream state",
				     sock_state(nb->client), TCP_ESTABLISHED);
	if (sock_rx_pending(nb->server))
		return netbench_fail(ctx, "tcp_stream leftover bytes",
				     sock_rx_pending(nb->server), 0);
	ctx->digest = bench_digest_fold(ctx->digest, iters * ts->size);
	ctx->digest = bench_digest_fold(ctx->digest, csum_sum);
	return netbench_run_end(ctx, nb);
}

const struct bench_desc bench_net_tcp_stream = {
	.name = "net.tcp_stream",
	.op = "send",
	.flags = BENCH_F_FOOTPRINT,
	.default_iters = 4000,
	.quick_iters = 400,
	.setup = tcp_stream_setup,
	.run = tcp_stream_run,
	.teardown = netbench_teardown,
};
