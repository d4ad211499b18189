/* SPDX-License-Identifier: GPL-2.0-or-later */
/* net.wire_stream: netperf TCP_STREAM against a peer on the host, through
 * the real NIC: 16 KiB sends of a known pattern; one operation is one
 * send taken whole by the stack. A run ends when the peer has read every
 * byte sent so far and checked it against the pattern, which it reports
 * on a second connection ("sync"), so the time is the stream's, not the
 * send buffer's. The time also holds the emulated card, QEMU's user-mode
 * network and the host peer (records say "wire"). */
#include <kfront/compiler.h>
#include <kfront/errno.h>
#include <kfront/printk.h>
#include <kfront/slab.h>
#include <kfront/string.h>
#include <kfront/net/netbench.h>
#include <kfront/net/netwire.h>

#define WIRE_STREAM_SEND	16384
#define WIRE_STREAM_SEED	0x57495245ULL	/* the peer fills alike */
#define SK_DATA			0
#define SK_SYNC			1

struct wire_stream {
	struct netwire nw;
	u64 sent;		/* bytes since set-up */
	u8 buf[WIRE_STREAM_SEND];
};

/* netwire_teardown() frees the state through its nw. */
BUILD_BUG_ON(offsetof(struct wire_stream, nw) != 0);

static int wire_stream_setup(struct bench_ctx *ctx)
{
	struct wire_stream *ws = kzalloc(sizeof(*ws));
	char hello[64];
	int err;

	if (!ws)
		return -ENOMEM;
	netbench_fill(ws->buf, WIRE_STREAM_SEND, WIRE_STREAM_SEED);
	err = netwire_init(ctx, &ws->nw);
	if (!err) {
		/* The link's first port names the stream for the peer. */
		snprintf(hello, sizeof(hello), "stream %u %llu %u\n",
			 ws->nw.link.local_port,
			 (unsigned long long)WIRE_STREAM_SEED, WIRE_STREAM_SEND);
		err = netwire_connect(ctx, &ws->nw, SK_DATA, hello);
	}
	if (!err) {
		snprintf(hello, sizeof(hello), "sync %u\n",
			 ws->nw.link.local_port);
		err = netwire_connect(ctx, &ws->nw, SK_SYNC, hello);
	}
	if (err) {
		netwire_destroy(&ws->nw);
		kfree(ws);
		return err;
	}
	ctx->priv = ws;
	return 0;
}

/* "COUNT BAD": bytes the peer has read, and how many differed from the
 * pattern. */
static int wire_stream_sync(struct bench_ctx *ctx, struct wire_stream *ws)
{
	char line[64];
	const char *p = line;
	u64 count = 0, bad = 0;
	int err, n;

	n = snprintf(line, sizeof(line), "%llu\n", (unsigned long long)ws->sent);
	err = netwire_send_all(ctx, &ws->nw, SK_SYNC, line, (u32)n);
	if (!err)
		err = netwire_recv_line(ctx, &ws->nw, SK_SYNC, line,
					sizeof(line));
	if (err)
		return err;
	while (*p >= '0' && *p <= '9')
		count = count * 10 + (u64)(*p++ - '0');
	if (*p++ != ' ')
		return netbench_fail(ctx, "wire_stream: bad sync reply", 0, 0);
	while (*p >= '0' && *p <= '9')
		bad = bad * 10 + (u64)(*p++ - '0');
	if (count != ws->sent)
		return netbench_fail(ctx, "wire_stream bytes at the peer",
				     count, ws->sent);
	if (bad)
		return netbench_fail(ctx, "wire_stream bytes corrupted", bad, 0);
	return 0;
}

static int wire_stream_run(struct bench_ctx *ctx, u64 iters)
{
	struct wire_stream *ws = ctx->priv;
	int err;

	netwire_run_begin(&ws->nw);
	for (u64 i = 0; i < iters; i++) {
		err = netwire_send_all(ctx, &ws->nw, SK_DATA, ws->buf,
				       WIRE_STREAM_SEND);
		if (err)
			return err;
		ws->sent += WIRE_STREAM_SEND;
	}
	err = wire_stream_sync(ctx, ws);
	if (err)
		return err;
	ctx->digest = bench_digest_fold(ctx->digest, iters * WIRE_STREAM_SEND);
	return netwire_run_end(ctx, &ws->nw);
}

const struct bench_desc bench_net_wire_stream = {
	.name = "net.wire_stream",
	.op = "16 KiB send",
	.flags = BENCH_F_FOOTPRINT | BENCH_F_WIRE,
	.default_iters = 256,
	.quick_iters = 32,
	.setup = wire_stream_setup,
	.run = wire_stream_run,
	.teardown = netwire_teardown,
};
