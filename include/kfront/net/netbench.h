/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared scaffolding of the net.* benchmarks (bench/workloads/net_*.c): a stack per
 * instance, connected socket pairs, payload patterns, verification. */
#ifndef KFRONT_NET_NETBENCH_H
#define KFRONT_NET_NETBENCH_H

#include <kfront/bench.h>
#include <kfront/net/net.h>
#include <kfront/net/socket.h>

#define NETBENCH_PORT		5001
#define NETBENCH_CLOCK_EVERY	16	/* operations per virtual millisecond */

struct netbench {
	struct net_stack *net;
	struct sock *listener;
	struct sock *client;
	struct sock *server;
	u8 *tx_buf;
	u8 *rx_buf;
	u32 buf_len;
	u64 ops;		/* operations since setup */
	u64 wakeups;		/* data_ready callbacks seen */
	struct net_mib mib0;	/* counters at the start of a run */
	u64 drops0;
};

int netbench_init(struct bench_ctx *ctx, struct netbench *nb, u32 buf_len);
int netbench_tcp_connect(struct bench_ctx *ctx, struct netbench *nb);
int netbench_udp_pair(struct bench_ctx *ctx, struct netbench *nb);
/* netbench_init then a connected TCP pair (tcp) or a UDP pair; on failure
 * everything is released again except nb's own memory. */
int netbench_open(struct bench_ctx *ctx, struct netbench *nb, u32 buf_len,
		  bool tcp);
void netbench_destroy(struct netbench *nb);
/* bench_desc.teardown of a state that starts with its struct netbench. */
void netbench_teardown(struct bench_ctx *ctx);

/* Fills buf with a pattern that depends on seed (a stream offset or a
 * message number), so the receiver can check every byte. */
void netbench_fill(u8 *buf, u32 len, u64 seed);
int netbench_fail(struct bench_ctx *ctx, const char *what, u64 got,
		  u64 want);
void netbench_run_begin(struct netbench *nb);
/* Checks nothing was dropped and folds the run's counters. */
int netbench_run_end(struct bench_ctx *ctx, struct netbench *nb);
void netbench_tick(struct netbench *nb);

/*
 * The run of a request/response workload (net.tcp_rr, net.udp_rr): request
 * byte i is derived from the operation count, the workload's transaction
 * `one` is run `iters` times, then `check` verifies what is particular to the
 * protocol (given the wakeups seen) and netbench_rr_finish what is common.
 * A macro rather than a function taking callbacks, so that every variant
 * sees a direct call to the workload's own transaction, which the compiler
 * may inline as it would in the code being measured. Evaluates to 0 or the
 * first failure.
 */
#define NETBENCH_RR_RUN(ctx, iters, one, mul, add, check, leftover) ({	\
	struct netbench *__rr_nb = (ctx)->priv;				\
	u64 __rr_i, __rr_sum = 0, __rr_wake0 = __rr_nb->wakeups;	\
	int __rr_err = 0;						\
									\
	netbench_run_begin(__rr_nb);					\
	for (__rr_i = 0; __rr_i < (iters); __rr_i++) {			\
		u8 __rr_req = (u8)(__rr_nb->ops * (mul) + (add));	\
									\
		__rr_err = one((ctx), __rr_nb, __rr_req);		\
		if (__rr_err)						\
			break;						\
		__rr_sum = __rr_sum * 31 + __rr_req;			\
		netbench_tick(__rr_nb);					\
	}								\
	if (!__rr_err)							\
		__rr_err = check((ctx), __rr_nb, (iters),		\
				 __rr_nb->wakeups - __rr_wake0);	\
	if (!__rr_err)							\
		__rr_err = netbench_rr_finish((ctx), __rr_nb, (iters),	\
					      __rr_sum, (leftover));	\
	__rr_err;							\
})

/* End of a request/response run: nothing left unread on either socket
 * (`leftover` names what would be, for the failure record), the run's
 * transaction count and request sum folded into the digest. */
int netbench_rr_finish(struct bench_ctx *ctx, struct netbench *nb, u64 iters,
		       u64 sum, const char *leftover);

#endif
