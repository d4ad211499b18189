/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sched.ctxsw: lmbench lat_ctx, N kernel threads in a ring pass a token. */
#include <kfront/bench.h>
#include <kfront/errno.h>
#include <kfront/printk.h>
#include <kfront/sched.h>
#include <kfront/slab.h>

#define CTXSW_DEFAULT_THREADS	8
#define CTXSW_MAX_THREADS	64
#define NO_TOKEN		(~0ULL)

struct ctxsw;

struct ctxsw_thread {
	struct ctxsw *c;
	struct wait_queue_head wq;
	u64 token;		/* NO_TOKEN unless holding it */
	u64 last;		/* last token received */
	u64 seen;
	u64 sum;		/* order-sensitive hash of tokens seen */
	u32 idx;
};

struct ctxsw {
	struct rq *rq;
	struct ctxsw_thread *th;
	u32 nr;
	u32 live;
	u64 next;		/* first token of the next run */
	u64 end;		/* the token that ends this run */
	bool finished;
	bool stop;
	u64 bad;
	u64 bad_seq;
	u32 bad_idx;
	struct wait_queue_head done_wq;
};

static __cold void ctxsw_bad(struct ctxsw *c, struct ctxsw_thread *t, u64 seq)
{
	if (!c->bad++) {
		c->bad_seq = seq;
		c->bad_idx = t->idx;
	}
}

/* Token seq belongs to thread seq % nr and comes nr after its last one. */
static void ctxsw_receive(struct ctxsw *c, struct ctxsw_thread *t, u64 seq)
{
	if (unlikely(seq % c->nr != t->idx))
		ctxsw_bad(c, t, seq);
	else if (unlikely(t->seen && seq != t->last + c->nr))
		ctxsw_bad(c, t, seq);
	t->last = seq;
	t->seen++;
	t->sum = (t->sum ^ seq) * 0x100000001b3ULL;
}

static void ctxsw_pass(struct ctxsw *c, struct ctxsw_thread *t, u64 seq)
{
	struct ctxsw_thread *next = &c->th[t->idx + 1 == c->nr ? 0 : t->idx + 1];

	next->token = seq;
	wake_up(&next->wq);
}

static void ctxsw_thread_fn(void *arg)
{
	struct ctxsw_thread *t = arg;
	struct ctxsw *c = t->c;
	u64 seq;

	for (;;) {
		wait_event(t->wq, t->token != NO_TOKEN || c->stop);
		if (unlikely(c->stop))
			break;
		seq = t->token;
		t->token = NO_TOKEN;
		if (unlikely(seq == c->end)) {
			/* Not received: the next run starts with it. */
			c->finished = true;
			wake_up(&c->done_wq);
			continue;
		}
		ctxsw_receive(c, t, seq);
		ctxsw_pass(c, t, seq + 1);
	}
	c->live--;
	wake_up(&c->done_wq);
}

static bool ctxsw_done(void *arg)
{
	return ((struct ctxsw *)arg)->finished;
}

static int ctxsw_verify(struct bench_ctx *ctx, struct ctxsw *c)
{
	u64 seen = 0, sum = 0;
	u32 i;

	if (unlikely(c->bad)) {
		snprintf(ctx->err, sizeof(ctx->err),
			 "ctxsw: %llu tokens out of order, first %llu at thread %u",
			 (unsigned long long)c->bad,
			 (unsigned long long)c->bad_seq, c->bad_idx);
		return -EPROTO;
	}
	for (i = 0; i < c->nr; i++) {
		seen += c->th[i].seen;
		sum ^= c->th[i].sum;
	}
	/* Every token below end was received exactly once, since setup. */
	if (unlikely(seen != c->end)) {
		snprintf(ctx->err, sizeof(ctx->err),
			 "ctxsw: %llu tokens received, %llu passed",
			 (unsigned long long)seen, (unsigned long long)c->end);
		return -EPROTO;
	}
	ctx->digest = bench_digest_fold(ctx->digest, c->end);
	ctx->digest = bench_digest_fold(ctx->digest, sum);
	return 0;
}

static int ctxsw_run(struct bench_ctx *ctx, u64 iters)
{
	struct ctxsw *c = ctx->priv;
	struct ctxsw_thread *first = &c->th[c->next % c->nr];
	int ret;

	c->end = c->next + iters;
	c->finished = false;
	sched_enter(c->rq);
	first->token = c->next;
	wake_up(&first->wq);
	ret = sched_driver_wait(c->rq, &c->done_wq, ctxsw_done, c);
	sched_leave(c->rq);
	if (unlikely(ret)) {
		snprintf(ctx->err, sizeof(ctx->err), "ctxsw: %s",
			 sched_error(c->rq));
		return ret;
	}
	c->next = c->end;
	return ctxsw_verify(ctx, c);
}

/* Every thread, so it sees c->stop. */
static void ctxsw_wake_all(void *arg)
{
	struct ctxsw *c = arg;
	u32 i;

	for (i = 0; i < c->nr; i++)
		wake_up(&c->th[i].wq);
}

static void ctxsw_teardown(struct bench_ctx *ctx)
{
	struct ctxsw *c = ctx->priv;

	if (!c)
		return;
	sched_driver_stop(c->rq, &c->stop, ctxsw_wake_all, c);
	sched_destroy(c->rq);
	kfree(c->th);
	kfree(c);
	ctx->priv = NULL;
}

static int ctxsw_setup(struct bench_ctx *ctx)
{
	struct ctxsw *c = kzalloc(sizeof(*c));
	char name[32];		/* kthread_create() keeps TASK_COMM_LEN */
	u32 i;

	if (unlikely(!c))
		return -ENOMEM;
	ctx->priv = c;
	c->nr = ctx->param ? min(max(ctx->param, 2u), CTXSW_MAX_THREADS)
			   : CTXSW_DEFAULT_THREADS;
	init_waitqueue_head(&c->done_wq);
	c->rq = sched_create();
	c->th = kzalloc(c->nr * sizeof(*c->th));
	if (unlikely(!c->rq || !c->th))
		goto fail;
	for (i = 0; i < c->nr; i++) {
		struct ctxsw_thread *t = &c->th[i];
		struct task *p;

		t->c = c;
		t->idx = i;
		t->token = NO_TOKEN;
		init_waitqueue_head(&t->wq);
		snprintf(name, sizeof(name), "ctxsw/%u", i);
		p = kthread_create(c->rq, ctxsw_thread_fn, t, name, 0);
		if (unlikely(!p))
			goto fail;
		wake_up_new_task(p);
		c->live++;
	}
	/* Let every thread reach its first wait before the first run. */
	sched_enter(c->rq);
	i = sched_driver_settle(c->rq);
	sched_leave(c->rq);
	if (likely(!i))
		return 0;
fail:
	ctxsw_teardown(ctx);
	return -ENOMEM;
}

const struct bench_desc bench_sched_ctxsw = {
	.name		= "sched.ctxsw",
	.op		= "token pass",
	.default_iters	= 200000,
	.quick_iters	= 20000,
	.setup		= ctxsw_setup,
	.run		= ctxsw_run,
	.teardown	= ctxsw_teardown,
};
