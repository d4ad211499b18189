/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Host tests of the sched.* benchmarks: setup, runs, verification,
 * determinism of the digest, injected faults, teardown without leaks. */
#include <stdlib.h>
#include <string.h>
/* The benchmark sources are included, not linked, so the tests can reach
 * their private state to inject faults. */
#include "../../bench/workloads/sched_ctxsw.c"
#include "../../bench/workloads/sched_pipe.c"
#include "../../bench/workloads/sched_chat.c"
#include "check.h"

static const u64 run_iters[] = { 300, 1, 0, 517 };

/* Runs the same schedule of runs on a fresh instance; returns the digest
 * (0 on any failure, which is also a CHECK failure). */
static u64 bench_session(const struct bench_desc *b, u32 param)
{
	struct bench_ctx ctx;
	unsigned int i;
	int ret;

	memset(&ctx, 0, sizeof(ctx));
	ctx.param = param;
	ret = b->setup(&ctx);
	CHECK(ret == 0);
	if (ret)
		return 0;
	for (i = 0; i < ARRAY_SIZE(run_iters); i++) {
		ret = b->run(&ctx, run_iters[i]);
		if (ret)
			fprintf(stderr, "%s param %u: %s\n", b->name, param,
				ctx.err);
		CHECK(ret == 0);
	}
	b->teardown(&ctx);
	CHECK(ctx.priv == NULL);
	return ctx.digest;
}

static void test_bench(const struct bench_desc *b, const u32 *params, int n)
{
	int i;

	CHECK(b->setup && b->run && b->teardown && b->default_iters);
	for (i = 0; i < n; i++) {
		u64 d1 = bench_session(b, params[i]);
		u64 d2 = bench_session(b, params[i]);

		/* Same inputs, same scheduling decisions, same digest. */
		CHECK(d1 != 0 && d1 == d2);
	}
}

/* Run once, corrupt private state as a miscompile might, run again:
 * the second run must report it. */
static void test_fault(const struct bench_desc *b, void (*corrupt)(void *priv),
		       const char *want)
{
	struct bench_ctx ctx;

	memset(&ctx, 0, sizeof(ctx));
	CHECK(b->setup(&ctx) == 0);
	CHECK(b->run(&ctx, 200) == 0);
	corrupt(ctx.priv);
	CHECK(b->run(&ctx, 200) == -EPROTO);
	CHECK(strstr(ctx.err, want) != NULL);
	if (!strstr(ctx.err, want))
		fprintf(stderr, "%s: got \"%s\"\n", b->name, ctx.err);
	b->teardown(&ctx);
}

static void corrupt_ctxsw(void *priv)
{
	((struct ctxsw *)priv)->th[3].last += 1;
}

static void corrupt_pipe(void *priv)
{
	((struct pipe_bench *)priv)->server_seq += 1;
}

static void corrupt_chat(void *priv)
{
	((struct chat *)priv)->members[2].last_seq[0] += 1;
}

/* The ring really passes one token per operation, one switch per pass. */
static void test_ctxsw_switches(void)
{
	struct bench_ctx ctx;
	struct ctxsw *c;
	struct sched_stats before, after;

	memset(&ctx, 0, sizeof(ctx));
	CHECK(ctxsw_setup(&ctx) == 0);
	c = ctx.priv;
	sched_get_stats(c->rq, &before);
	CHECK(ctxsw_run(&ctx, 1000) == 0);
	sched_get_stats(c->rq, &after);
	/* 1000 passes, plus the driver's hand-off and return. */
	CHECK(after.nr_switches - before.nr_switches >= 1000 &&
	      after.nr_switches - before.nr_switches <= 1004);
	CHECK(c->end == 1000);
	ctxsw_teardown(&ctx);
}

int main(void)
{
	static const u32 ctxsw_params[] = { 0, 2, 3, 64 };
	static const u32 pipe_params[] = { 0, 16, 64, 200 };
	static const u32 chat_params[] = { 0, 2, 16 };

	test_bench(&bench_sched_ctxsw, ctxsw_params, ARRAY_SIZE(ctxsw_params));
	test_bench(&bench_sched_pipe, pipe_params, ARRAY_SIZE(pipe_params));
	test_bench(&bench_sched_chat, chat_params, ARRAY_SIZE(chat_params));
	test_ctxsw_switches();
	test_fault(&bench_sched_ctxsw, corrupt_ctxsw, "out of order");
	test_fault(&bench_sched_pipe, corrupt_pipe, "bad request");
	test_fault(&bench_sched_chat, corrupt_chat, "out of sequence");
	return check_report("test_sched_bench");
}
