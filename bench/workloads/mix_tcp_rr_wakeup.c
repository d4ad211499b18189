/* SPDX-License-Identifier: GPL-2.0-or-later */
/* mix.tcp_rr_wakeup: TCP_RR whose server socket is owned by a kernel
 * thread that sleeps on a wait queue and is woken by data_ready through
 * the scheduler for every request: netperf's real path inside a kernel. */
#include <kfront/errno.h>
#include <kfront/printk.h>
#include <kfront/sched.h>
#include <kfront/slab.h>
#include <kfront/net/netbench.h>

/*
 * The client is the benchmark driver itself, not a thread of its own. The
 * driver is a task of the instance between sched_enter() and
 * sched_leave(), so it can sleep on a wait queue like any thread: it
 * stands for the netperf process, blocked in recv() until its socket's
 * data_ready wakes it. A client thread would add a start/finish handshake
 * with the driver per run and nothing to the per-transaction path, and
 * sched_driver_wait() gives the driver stall detection for free: a lost
 * wake-up ends the run with an error instead of hanging the machine.
 */

/* One end of the connection: who sleeps there, and how often data_ready
 * fired and actually woke someone. */
struct rrw_side {
	struct wait_queue_head wq;
	u64 ready;			/* data_ready callbacks */
	u64 woken;			/* tasks those callbacks woke */
};

/* Counters at the start of a run, to check and fold per-run deltas. */
struct rrw_snap {
	u64 seq;
	u64 srv_woken;
	u64 cli_ready;
	u64 cli_woken;
	struct sched_stats st;
};

struct rr_wakeup {
	struct netbench nb;
	struct rq *rq;
	struct rrw_side server;		/* the server thread sleeps here */
	struct rrw_side client;		/* the driver sleeps here */
	u64 seq;			/* next request the client sends */
	u64 server_seq;			/* next request the server expects */
	u64 req_sum;			/* running sums: catch reordering */
	u64 resp_sum;
	u64 bad;
	const char *why;		/* first failure seen by the server */
	bool stop;
	bool live;			/* the server thread has not exited */
};

/* Odd multiplier: 256 consecutive requests all differ, so a lost,
 * repeated or reordered byte shows. */
static inline u8 rrw_req_byte(u64 seq)
{
	return (u8)(seq * 131 + 7);
}

static __cold void rrw_bad(struct rr_wakeup *w, const char *why)
{
	if (!w->bad++)
		w->why = why;
}

/* Both run from net_softirq in whatever task made the socket call; the
 * wake-up only queues the sleeper and asks for a switch if it should
 * preempt: the switch itself waits for the caller's next cond_resched. */
static void rrw_server_data_ready(struct sock *sk)
{
	struct rr_wakeup *w = sk->user_data;

	w->server.ready++;
	w->server.woken += wake_up(&w->server.wq);
}

static void rrw_client_data_ready(struct sock *sk)
{
	struct rr_wakeup *w = sk->user_data;

	w->client.ready++;
	w->client.woken += wake_up(&w->client.wq);
}

/* One request in, one response out. false: the socket failed and the
 * thread must stop rather than spin on data it cannot read. */
static bool rrw_serve_one(struct rr_wakeup *w, struct sock *sk)
{
	u8 req, resp;
	ssize_t n;

	n = sock_recv(sk, &req, 1);
	if (unlikely(n != 1)) {
		rrw_bad(w, "server: recv failed");
		return false;
	}
	if (unlikely(req != rrw_req_byte(w->server_seq)))
		rrw_bad(w, "server: request out of order");
	w->server_seq++;
	resp = (u8)~req;
	n = sock_send(sk, &resp, 1);
	if (unlikely(n != 1)) {
		rrw_bad(w, "server: send failed");
		return false;
	}
	return true;
}

static void rrw_server_fn(void *arg)
{
	struct rr_wakeup *w = arg;
	struct sock *sk = w->nb.server;

	for (;;) {
		wait_event(w->server.wq, sock_rx_pending(sk) || w->stop);
		if (unlikely(w->stop))
			break;
		if (unlikely(!rrw_serve_one(w, sk)))
			break;
		/* Return from the send: the client it woke may preempt us. */
		cond_resched();
	}
	w->live = false;
}

static bool rrw_response_ready(void *arg)
{
	struct rr_wakeup *w = arg;

	return sock_rx_pending(w->nb.client) != 0;
}

static __cold int rrw_sched_fail(struct bench_ctx *ctx, struct rr_wakeup *w)
{
	const char *why = w->bad ? w->why : sched_error(w->rq);

	snprintf(ctx->err, sizeof(ctx->err), "tcp_rr_wakeup: %s",
		 why ? why : "no response");
	return -EPROTO;
}

/*
 * Send the request, sleep until the response's data_ready wakes us, read
 * it. sched_driver_wait() also lets the server finish and block again,
 * so every request finds it asleep: one wake-up per transaction.
 */
static int rrw_transaction(struct bench_ctx *ctx, struct rr_wakeup *w)
{
	struct sock *sk = w->nb.client;
	u8 req = rrw_req_byte(w->seq), resp = (u8)~req, got;
	ssize_t n;

	n = sock_send(sk, &req, 1);
	if (unlikely(n != 1))
		return netbench_fail(ctx, "tcp_rr_wakeup request send",
				     (u64)n, 1);
	cond_resched();
	if (unlikely(sched_driver_wait(w->rq, &w->client.wq,
					rrw_response_ready, w)))
		return rrw_sched_fail(ctx, w);
	n = sock_recv(sk, &got, 1);
	if (unlikely(n != 1 || got != resp))
		return netbench_fail(ctx, "tcp_rr_wakeup response",
				     n == 1 ? got : (u64)n, resp);
	w->req_sum = w->req_sum * 31 + req;
	w->resp_sum = w->resp_sum * 37 + got;
	w->seq++;
	netbench_tick(&w->nb);
	return 0;
}

static void rrw_snapshot(const struct rr_wakeup *w, struct rrw_snap *s)
{
	s->seq = w->seq;
	s->srv_woken = w->server.woken;
	s->cli_ready = w->client.ready;
	s->cli_woken = w->client.woken;
	sched_get_stats(w->rq, &s->st);
}

static int rrw_check_sockets(struct bench_ctx *ctx, struct rr_wakeup *w)
{
	struct sock *c = w->nb.client, *s = w->nb.server;

	if (unlikely(sock_state(c) != TCP_ESTABLISHED))
		return netbench_fail(ctx, "tcp_rr_wakeup client state",
				     sock_state(c), TCP_ESTABLISHED);
	if (unlikely(sock_state(s) != TCP_ESTABLISHED))
		return netbench_fail(ctx, "tcp_rr_wakeup server state",
				     sock_state(s), TCP_ESTABLISHED);
	if (unlikely(sock_rx_pending(c) || sock_rx_pending(s)))
		return netbench_fail(ctx, "tcp_rr_wakeup leftover bytes",
				     sock_rx_pending(c) + sock_rx_pending(s), 0);
	return 0;
}

/* Every request answered in order, and really through the scheduler. */
static int rrw_check_counts(struct bench_ctx *ctx, struct rr_wakeup *w,
			    const struct rrw_snap *s0, u64 iters)
{
	if (unlikely(w->bad))
		return rrw_sched_fail(ctx, w);
	if (unlikely(w->seq - s0->seq != iters || w->server_seq != w->seq))
		return netbench_fail(ctx, "tcp_rr_wakeup requests served",
				     w->server_seq, w->seq);
	if (unlikely(w->server.woken - s0->srv_woken < iters))
		return netbench_fail(ctx, "tcp_rr_wakeup server wake-ups",
				     w->server.woken - s0->srv_woken, iters);
	if (unlikely(w->client.ready - s0->cli_ready < iters))
		return netbench_fail(ctx, "tcp_rr_wakeup client data_ready",
				     w->client.ready - s0->cli_ready, iters);
	return 0;
}

/* Only counts and sums: identical in every compiler variant. */
static void rrw_fold(struct bench_ctx *ctx, const struct rr_wakeup *w,
		     const struct rrw_snap *s0, u64 iters)
{
	struct sched_stats st;
	u64 d = ctx->digest;

	sched_get_stats(w->rq, &st);
	d = bench_digest_fold(d, iters);
	d = bench_digest_fold(d, w->req_sum);
	d = bench_digest_fold(d, w->resp_sum);
	d = bench_digest_fold(d, w->server.woken - s0->srv_woken);
	d = bench_digest_fold(d, w->client.ready - s0->cli_ready);
	d = bench_digest_fold(d, w->client.woken - s0->cli_woken);
	d = bench_digest_fold(d, st.nr_switches - s0->st.nr_switches);
	d = bench_digest_fold(d, st.nr_wakeups - s0->st.nr_wakeups);
	d = bench_digest_fold(d, st.nr_preempt - s0->st.nr_preempt);
	ctx->digest = d;
}

static int rrw_run(struct bench_ctx *ctx, u64 iters)
{
	struct rr_wakeup *w = ctx->priv;
	struct rrw_snap s0;
	u64 i;
	int err = 0;

	rrw_snapshot(w, &s0);
	netbench_run_begin(&w->nb);
	sched_enter(w->rq);
	for (i = 0; i < iters && likely(!err); i++)
		err = rrw_transaction(ctx, w);
	sched_leave(w->rq);
	if (!err)
		err = rrw_check_counts(ctx, w, &s0, iters);
	if (!err)
		err = rrw_check_sockets(ctx, w);
	if (err)
		return err;
	rrw_fold(ctx, w, &s0, iters);
	return netbench_run_end(ctx, &w->nb);
}

/* Stop the server thread where it sleeps, then close the connection. */
/* The server thread waits on its queue, so it sees w->stop. */
static void rrw_wake_server(void *arg)
{
	struct rr_wakeup *w = arg;

	wake_up(&w->server.wq);
}

static void rrw_teardown(struct bench_ctx *ctx)
{
	struct rr_wakeup *w = ctx->priv;

	if (!w)
		return;
	if (w->live)
		sched_driver_stop(w->rq, &w->stop, rrw_wake_server, w);
	sched_destroy(w->rq);
	/* The close handshake must not call into a dead scheduler. */
	if (w->nb.client)
		sock_set_data_ready(w->nb.client, NULL, NULL);
	if (w->nb.server)
		sock_set_data_ready(w->nb.server, NULL, NULL);
	netbench_destroy(&w->nb);
	kfree(w);
	ctx->priv = NULL;
}

static int rrw_connect(struct bench_ctx *ctx, struct rr_wakeup *w)
{
	int err = netbench_init(ctx, &w->nb, 64);

	if (!err)
		err = netbench_tcp_connect(ctx, &w->nb);
	if (err)
		return err;
	sock_set_nodelay(w->nb.client, true);
	sock_set_nodelay(w->nb.server, true);
	sock_set_data_ready(w->nb.client, rrw_client_data_ready, w);
	sock_set_data_ready(w->nb.server, rrw_server_data_ready, w);
	return 0;
}

/* Start the server thread and let it run up to its first sleep. */
static int rrw_start_server(struct bench_ctx *ctx, struct rr_wakeup *w)
{
	struct task *server;
	int err;

	w->rq = sched_create();
	if (unlikely(!w->rq))
		return -ENOMEM;
	server = kthread_create(w->rq, rrw_server_fn, w, "rr/server", 0);
	if (unlikely(!server))
		return -ENOMEM;
	wake_up_new_task(server);
	w->live = true;
	sched_enter(w->rq);
	err = sched_driver_settle(w->rq);
	sched_leave(w->rq);
	if (unlikely(err))
		snprintf(ctx->err, sizeof(ctx->err), "tcp_rr_wakeup: %s",
			 sched_error(w->rq));
	return err;
}

static int rrw_setup(struct bench_ctx *ctx)
{
	struct rr_wakeup *w = kzalloc(sizeof(*w));
	int err;

	if (unlikely(!w))
		return -ENOMEM;
	ctx->priv = w;
	init_waitqueue_head(&w->server.wq);
	init_waitqueue_head(&w->client.wq);
	err = rrw_connect(ctx, w);
	if (!err)
		err = rrw_start_server(ctx, w);
	if (err)
		rrw_teardown(ctx);
	return err;
}

const struct bench_desc bench_mix_tcp_rr_wakeup = {
	.name		= "mix.tcp_rr_wakeup",
	.op		= "transaction",
	.flags		= BENCH_F_FOOTPRINT,
	.default_iters	= 20000,
	.quick_iters	= 2000,
	.setup		= rrw_setup,
	.run		= rrw_run,
	.teardown	= rrw_teardown,
};
