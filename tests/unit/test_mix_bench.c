/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Host tests of mix.tcp_rr_wakeup: setup, runs with verification, equal
 * digests across fresh instances, wake-ups really through the scheduler,
 * injected faults reported, teardown without leaks. */
#include <stdlib.h>
#include <string.h>
/* Included, not linked, so the tests can reach the private state. */
#include "../../bench/workloads/mix_tcp_rr_wakeup.c"
#include "../../kernel/sched/sched.h"	/* struct rq: the server task */
#include "check.h"

static const u64 run_iters[] = { 300, 1, 0, 300, 517 };

/* The same schedule of runs on a fresh instance; returns the digest (0 on
 * any failure, which is also a CHECK failure). */
static u64 mix_session(u32 footprint)
{
	const struct bench_desc *b = &bench_mix_tcp_rr_wakeup;
	struct bench_ctx ctx;
	unsigned int i;
	int ret;

	memset(&ctx, 0, sizeof(ctx));
	ctx.footprint = footprint;
	ret = b->setup(&ctx);
	CHECK(ret == 0);
	if (ret) {
		fprintf(stderr, "setup: %d %s\n", ret, ctx.err);
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(run_iters); i++) {
		ret = b->run(&ctx, run_iters[i]);
		if (ret)
			fprintf(stderr, "footprint %u run %u: %s\n", footprint,
				i, ctx.err);
		CHECK(ret == 0);
	}
	CHECK(ctx.err[0] == '\0');
	b->teardown(&ctx);
	CHECK(ctx.priv == NULL);
	return ret ? 0 : ctx.digest;
}

static void test_digests(void)
{
	u64 a = mix_session(0), b = mix_session(0);
	u64 c = mix_session(64), d = mix_session(64);

	CHECK(a != 0 && c != 0);
	CHECK_EQ_U64(a, b);	/* same inputs, same digest */
	CHECK_EQ_U64(c, d);
	printf("mix.tcp_rr_wakeup digest %016llx (footprint=64: %016llx)\n",
	       (unsigned long long)a, (unsigned long long)c);
}

/* One sleep and one wake-up of the server per transaction, two switches
 * at least (harness -> server -> harness). */
static void test_wakeups(void)
{
	struct bench_ctx ctx;
	struct rr_wakeup *w;
	struct sched_stats before, after;
	u64 srv0, cli0, cliw0, sleeps;
	struct task *server;

	memset(&ctx, 0, sizeof(ctx));
	CHECK(rrw_setup(&ctx) == 0);
	w = ctx.priv;
	server = list_first_entry(&w->rq->tasks, struct task, tasks);
	sleeps = server->nvcsw;
	srv0 = w->server.woken;
	cli0 = w->client.ready;
	cliw0 = w->client.woken;
	sched_get_stats(w->rq, &before);
	CHECK(rrw_run(&ctx, 1000) == 0);
	sched_get_stats(w->rq, &after);
	CHECK_EQ_U64(w->server.woken - srv0, 1000);
	CHECK(w->client.ready - cli0 >= 1000);
	CHECK_EQ_U64(server->nvcsw - sleeps, 1000);
	CHECK(after.nr_switches - before.nr_switches >= 2000);
	printf("1000 transactions: %llu switches, %llu wake-ups, %llu "
	       "preemptions, client woken %llu times\n",
	       (unsigned long long)(after.nr_switches - before.nr_switches),
	       (unsigned long long)(after.nr_wakeups - before.nr_wakeups),
	       (unsigned long long)(after.nr_preempt - before.nr_preempt),
	       (unsigned long long)(w->client.woken - cliw0));
	rrw_teardown(&ctx);
	CHECK(ctx.priv == NULL);
}

/* Run once, corrupt state as a miscompile might, run again: the second
 * run must fail with want in the message. */
static void test_fault(void (*corrupt)(struct rr_wakeup *w), const char *want)
{
	struct bench_ctx ctx;

	memset(&ctx, 0, sizeof(ctx));
	CHECK(rrw_setup(&ctx) == 0);
	CHECK(rrw_run(&ctx, 200) == 0);
	corrupt(ctx.priv);
	CHECK(rrw_run(&ctx, 200) == -EPROTO);
	CHECK(strstr(ctx.err, want) != NULL);
	if (!strstr(ctx.err, want))
		fprintf(stderr, "want \"%s\", got \"%s\"\n", want, ctx.err);
	rrw_teardown(&ctx);
	CHECK(ctx.priv == NULL);
}

static void corrupt_server_seq(struct rr_wakeup *w)
{
	w->server_seq += 1;
}

/* A wake-up that never comes: the harness must report the stall, not
 * hang, and teardown must still free everything. */
static void corrupt_lost_wakeup(struct rr_wakeup *w)
{
	sock_set_data_ready(w->nb.server, NULL, NULL);
}

static void corrupt_stray_byte(struct rr_wakeup *w)
{
	u8 b = 0;

	sock_send(w->nb.server, &b, 1);
}

/* Set up and tear down without a run: the server thread is stopped
 * from its first sleep, and nothing leaks (LeakSanitizer checks). */
static void test_setup_only(void)
{
	struct bench_ctx ctx;
	int i;

	for (i = 0; i < 3; i++) {
		memset(&ctx, 0, sizeof(ctx));
		ctx.footprint = i * 16;
		CHECK(rrw_setup(&ctx) == 0);
		rrw_teardown(&ctx);
		CHECK(ctx.priv == NULL);
	}
}

int main(void)
{
	test_setup_only();
	test_digests();
	test_wakeups();
	test_fault(corrupt_server_seq, "request out of order");
	test_fault(corrupt_lost_wakeup, "stalled");
	test_fault(corrupt_stray_byte, "response");
	return check_report("test_mix_bench");
}
