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

#endif
