/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sched.pipe: lmbench lat_pipe, two threads ping-pong over two pipes. */
#include <kfront/bench.h>
#include <kfront/errno.h>
#include <kfront/printk.h>
#include <kfront/sched.h>
#include <kfront/slab.h>
#include <kfront/string.h>

#define PIPE_BENCH_RING		64	/* small: long messages wrap and split */
#define PIPE_MSG_DEFAULT	48
#define PIPE_MSG_MIN		16
#define PIPE_MSG_MAX		256
#define PIPE_REPLY_XOR		0x5a
#define PIPE_WORK_NS		100	/* virtual cost of handling a message */

struct pipe_bench {
	struct rq *rq;
	struct pipe ping;		/* client -> server */
	struct pipe pong;		/* server -> client */
	u32 msg_len;
	u32 live;
	u64 gen;			/* bumped by run() to start the client */
	u64 target;			/* round trips to do in this run */
	u64 done;
	u64 seq;			/* next request, across runs */
	u64 server_seq;			/* next request the server expects */
	u64 csum;			/* running checksum of all replies */
	u64 bad;
	const char *why;		/* first failure */
	bool stop;
	bool parked;
	struct wait_queue_head start_wq;
	struct wait_queue_head done_wq;
};

static __cold void pipe_bench_bad(struct pipe_bench *pb, const char *why)
{
	if (!pb->bad++)
		pb->why = why;
}

/* Request: 8-byte sequence number, then bytes that depend on it. */
static void pipe_msg_fill(u8 *msg, u32 len, u64 seq)
{
	u32 i;

	memcpy(msg, &seq, sizeof(seq));
	for (i = sizeof(seq); i < len; i++)
		msg[i] = (u8)(seq * 131 + i * 7);
}

static bool pipe_msg_ok(const u8 *msg, u32 len, u64 seq, u8 xor)
{
	u64 got;
	u32 i;

	memcpy(&got, msg, sizeof(got));
	if (got != seq)
		return false;
	for (i = sizeof(seq); i < len; i++)
		if (msg[i] != (u8)((seq * 131 + i * 7) ^ xor))
			return false;
	return true;
}

/* Fletcher-style: catches reordered bytes, not only changed ones. */
static u64 pipe_msg_sum(u64 csum, const u8 *msg, u32 len)
{
	u32 a = (u32)csum, b = (u32)(csum >> 32), i;

	for (i = 0; i < len; i++) {
		a = (a + msg[i]) % 65521;
		b = (b + a) % 65521;
	}
	return ((u64)b << 32) | a;
}

/* A pipe read returns what is there; a message needs all of it. */
static ssize_t pipe_read_full(struct pipe *p, u8 *buf, u32 len)
{
	u32 got = 0;
	ssize_t n;

	while (got < len) {
		n = pipe_read(p, buf + got, len - got);
		if (unlikely(n <= 0))
			return got ? (ssize_t)got : n;
		got += (u32)n;
	}
	return got;
}

static void pipe_server_fn(void *arg)
{
	struct pipe_bench *pb = arg;
	u8 msg[PIPE_MSG_MAX];
	u32 len = pb->msg_len, i;

	for (;;) {
		ssize_t n = pipe_read_full(&pb->ping, msg, len);

		if (n == 0)
			break;		/* client side closed: teardown */
		if (unlikely(n != len ||
			     !pipe_msg_ok(msg, len, pb->server_seq, 0)))
			pipe_bench_bad(pb, "server: bad request");
		pb->server_seq++;
		for (i = sizeof(u64); i < len; i++)
			msg[i] ^= PIPE_REPLY_XOR;
		sched_clock_advance(PIPE_WORK_NS);
		if (unlikely(pipe_write(&pb->pong, msg, len) != len))
			pipe_bench_bad(pb, "server: short write");
	}
	pb->live--;
	wake_up(&pb->done_wq);
}

static void pipe_round_trip(struct pipe_bench *pb, u8 *msg, u8 *reply)
{
	u32 len = pb->msg_len;

	pipe_msg_fill(msg, len, pb->seq);
	sched_clock_advance(PIPE_WORK_NS);
	if (unlikely(pipe_write(&pb->ping, msg, len) != len))
		pipe_bench_bad(pb, "client: short write");
	if (unlikely(pipe_read_full(&pb->pong, reply, len) != len))
		pipe_bench_bad(pb, "client: short read");
	else if (unlikely(!pipe_msg_ok(reply, len, pb->seq, PIPE_REPLY_XOR)))
		pipe_bench_bad(pb, "client: bad reply");
	pb->csum = pipe_msg_sum(pb->csum, reply, len);
	pb->seq++;
}

static void pipe_client_fn(void *arg)
{
	struct pipe_bench *pb = arg;
	u8 msg[PIPE_MSG_MAX], reply[PIPE_MSG_MAX];
	u64 gen = 0;

	for (;;) {
		wait_event(pb->start_wq, pb->gen != gen || pb->stop);
		if (unlikely(pb->stop))
			break;
		gen = pb->gen;
		while (pb->done < pb->target) {
			pipe_round_trip(pb, msg, reply);
			pb->done++;
		}
		pb->parked = true;
		wake_up(&pb->done_wq);
	}
	pipe_close(&pb->ping);
	pb->live--;
	wake_up(&pb->done_wq);
}

static bool pipe_bench_done(void *arg)
{
	return ((struct pipe_bench *)arg)->parked;
}

static int pipe_bench_verify(struct bench_ctx *ctx, struct pipe_bench *pb)
{
	u64 bytes = pb->seq * pb->msg_len;

	if (unlikely(pb->bad)) {
		snprintf(ctx->err, sizeof(ctx->err), "pipe: %llu errors, first: %s",
			 (unsigned long long)pb->bad, pb->why);
		return -EPROTO;
	}
	if (unlikely(pb->done != pb->target || pb->server_seq != pb->seq ||
		     pb->ping.bytes_read != bytes || pb->pong.bytes_read != bytes ||
		     pb->ping.bytes_written != bytes ||
		     pb->pong.bytes_written != bytes)) {
		snprintf(ctx->err, sizeof(ctx->err),
			 "pipe: %llu/%llu round trips, %llu bytes in flight",
			 (unsigned long long)pb->done,
			 (unsigned long long)pb->target,
			 (unsigned long long)(pb->ping.bytes_written -
					      pb->pong.bytes_read));
		return -EPROTO;
	}
	ctx->digest = bench_digest_fold(ctx->digest, pb->seq);
	ctx->digest = bench_digest_fold(ctx->digest, pb->csum);
	return 0;
}

static int pipe_bench_run(struct bench_ctx *ctx, u64 iters)
{
	struct pipe_bench *pb = ctx->priv;
	int ret;

	pb->target = iters;
	pb->done = 0;
	pb->parked = false;
	pb->gen++;
	sched_enter(pb->rq);
	wake_up(&pb->start_wq);
	ret = sched_driver_wait(pb->rq, &pb->done_wq, pipe_bench_done, pb);
	sched_leave(pb->rq);
	if (unlikely(ret)) {
		snprintf(ctx->err, sizeof(ctx->err), "pipe: %s",
			 sched_error(pb->rq));
		return ret;
	}
	return pipe_bench_verify(ctx, pb);
}

/* Both threads wait for their start, so they see pb->stop. */
static void pipe_bench_wake(void *arg)
{
	struct pipe_bench *pb = arg;

	wake_up(&pb->start_wq);
}

static void pipe_bench_teardown(struct bench_ctx *ctx)
{
	struct pipe_bench *pb = ctx->priv;

	if (!pb)
		return;
	sched_driver_stop(pb->rq, &pb->stop, pipe_bench_wake, pb);
	sched_destroy(pb->rq);
	pipe_release(&pb->ping);
	pipe_release(&pb->pong);
	kfree(pb);
	ctx->priv = NULL;
}

static int pipe_bench_setup(struct bench_ctx *ctx)
{
	struct pipe_bench *pb = kzalloc(sizeof(*pb));
	struct task *client, *server;
	int ret = -ENOMEM;

	if (unlikely(!pb))
		return -ENOMEM;
	ctx->priv = pb;
	pb->msg_len = ctx->param ? min(max(ctx->param, (u32)PIPE_MSG_MIN),
				       (u32)PIPE_MSG_MAX) : PIPE_MSG_DEFAULT;
	init_waitqueue_head(&pb->start_wq);
	init_waitqueue_head(&pb->done_wq);
	if (pipe_init(&pb->ping, PIPE_BENCH_RING) ||
	    pipe_init(&pb->pong, PIPE_BENCH_RING))
		goto fail;
	pb->rq = sched_create();
	if (unlikely(!pb->rq))
		goto fail;
	client = kthread_create(pb->rq, pipe_client_fn, pb, "pipe/client", 0);
	server = kthread_create(pb->rq, pipe_server_fn, pb, "pipe/server", 0);
	if (unlikely(!client || !server))
		goto fail;
	wake_up_new_task(client);
	wake_up_new_task(server);
	pb->live = 2;
	sched_enter(pb->rq);
	ret = sched_driver_settle(pb->rq);
	sched_leave(pb->rq);
	if (likely(!ret))
		return 0;
fail:
	pipe_bench_teardown(ctx);
	return ret;
}

const struct bench_desc bench_sched_pipe = {
	.name		= "sched.pipe",
	.op		= "round trip",
	.default_iters	= 100000,
	.quick_iters	= 10000,
	.setup		= pipe_bench_setup,
	.run		= pipe_bench_run,
	.teardown	= pipe_bench_teardown,
};
