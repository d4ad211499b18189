/* SPDX-License-Identifier: GPL-2.0-or-later */
/* net.udp_stream: netperf UDP_STREAM over the loopback NIC: MTU-sized
 * datagrams (no fragmentation), one operation per send; the receiver
 * drains in batches and checks order and payload. */
#include <kfront/compiler.h>
#include <kfront/errno.h>
#include <kfront/slab.h>
#include <kfront/string.h>
#include <kfront/net/checksum.h>
#include <kfront/net/netbench.h>

#define UDP_STREAM_DEFAULT	1472	/* 1500 - IP - UDP headers */
#define UDP_STREAM_WINDOWS	8
#define UDP_STREAM_BATCH	32	/* datagrams queued before draining */
#define UDP_SEQ_LEN		8

struct udp_stream {
	struct netbench nb;
	u32 size;
	u64 next_rx;		/* sequence number expected next */
	sum16 window_csum[UDP_STREAM_WINDOWS];
};

/* netbench_teardown() frees the state through its nb. */
BUILD_BUG_ON(offsetof(struct udp_stream, nb) != 0);

static inline u32 dgram_offset(u64 seq)
{
	return (u32)(seq % UDP_STREAM_WINDOWS) * 29;
}

static int udp_stream_setup(struct bench_ctx *ctx)
{
	struct udp_stream *us = kzalloc(sizeof(*us));
	u32 i;
	int err;

	if (!us)
		return -ENOMEM;
	us->size = ctx->param ? ctx->param : UDP_STREAM_DEFAULT;
	if (us->size < UDP_SEQ_LEN || us->size > UDP_STREAM_DEFAULT)
		us->size = UDP_STREAM_DEFAULT;
	err = netbench_open(ctx, &us->nb, us->size + UDP_STREAM_WINDOWS * 29, false);
	if (err) {
		kfree(us);
		return err;
	}
	netbench_fill(us->nb.tx_buf, us->nb.buf_len, 0x55445053ULL);
	for (i = 0; i < UDP_STREAM_WINDOWS; i++)
		us->window_csum[i] = csum_fold(csum_partial(
			us->nb.tx_buf + dgram_offset(i) + UDP_SEQ_LEN,
			us->size - UDP_SEQ_LEN, 0));
	ctx->priv = us;
	return 0;
}

static int udp_stream_drain(struct bench_ctx *ctx, struct udp_stream *us,
			    u64 *csum_sum)
{
	struct netbench *nb = &us->nb;
	ssize_t n;

	while ((n = sock_recv(nb->server, nb->rx_buf, us->size)) > 0) {
		u64 seq;
		sum16 c;

		memcpy(&seq, nb->rx_buf, UDP_SEQ_LEN);
		if (n != (ssize_t)us->size || seq != us->next_rx)
			return netbench_fail(ctx, "udp_stream datagram",
					     n != (ssize_t)us->size ? (u64)n : seq,
					     n != (ssize_t)us->size ? us->size :
					     us->next_rx);
		c = csum_fold(csum_partial(nb->rx_buf + UDP_SEQ_LEN,
					   us->size - UDP_SEQ_LEN, 0));
		if (c != us->window_csum[seq % UDP_STREAM_WINDOWS])
			return netbench_fail(ctx, "udp_stream payload", c,
				us->window_csum[seq % UDP_STREAM_WINDOWS]);
		*csum_sum += c;
		us->next_rx++;
	}
	return n == -EAGAIN ? 0 : netbench_fail(ctx, "udp_stream recv",
						(u64)n, 0);
}

static int udp_stream_send(struct bench_ctx *ctx, struct udp_stream *us)
{
	struct netbench *nb = &us->nb;
	u64 seq = nb->ops;
	u8 *src = nb->tx_buf + dgram_offset(seq);
	u8 saved[UDP_SEQ_LEN];
	struct sockaddr_in srv = {
		.sin_addr = nb->server->saddr,
		.sin_port = nb->server->sport,
	};
	ssize_t n;

	/* The sequence number goes in front of the pattern window. */
	memcpy(saved, src, UDP_SEQ_LEN);
	memcpy(src, &seq, UDP_SEQ_LEN);
	n = sock_sendto(nb->client, src, us->size, &srv);
	memcpy(src, saved, UDP_SEQ_LEN);
	if (n != (ssize_t)us->size)
		return netbench_fail(ctx, "udp_stream send", (u64)n, us->size);
	return 0;
}

static int udp_stream_run(struct bench_ctx *ctx, u64 iters)
{
	struct udp_stream *us = ctx->priv;
	struct netbench *nb = &us->nb;
	u64 i, csum_sum = 0, first = us->next_rx;
	int err;

	netbench_run_begin(nb);
	for (i = 0; i < iters; i++) {
		err = udp_stream_send(ctx, us);
		if (!err && !((i + 1) % UDP_STREAM_BATCH))
			err = udp_stream_drain(ctx, us, &csum_sum);
		if (err)
			return err;
		netbench_tick(nb);
	}
	err = udp_stream_drain(ctx, us, &csum_sum);
	if (err)
		return err;
	if (us->next_rx - first != iters)
		return netbench_fail(ctx, "udp_stream datagrams",
				     us->next_rx - first, iters);
	ctx->digest = bench_digest_fold(ctx->digest, iters * us->size);
	ctx->digest = bench_digest_fold(ctx->digest, csum_sum);
	return netbench_run_end(ctx, nb);
}

const struct bench_desc bench_net_udp_stream = {
	.name = "net.udp_stream",
	.op = "send",
	.flags = BENCH_F_FOOTPRINT,
	.default_iters = 20000,
	.quick_iters = 2000,
	.setup = udp_stream_setup,
	.run = udp_stream_run,
	.teardown = netbench_teardown,
};
