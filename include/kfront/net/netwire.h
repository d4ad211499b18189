/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared scaffolding of the net.wire_* benchmarks (bench/workloads/net_wire_*.c):
 * one stack per variant on its share of the real NIC, connections to the
 * host peer (tools/kfront/wirepeer.py), and waits that poll the card and
 * run the stack's timers on wall-clock time, with a deadline.
 *
 * The peer protocol: each connection starts with one line naming its
 * role, "rr", "stream TOKEN SEED LEN" or "sync TOKEN"; see
 * docs/nic.md. */
#ifndef KFRONT_NET_NETWIRE_H
#define KFRONT_NET_NETWIRE_H

#include <kfront/bench.h>
#include <kfront/wire.h>
#include <kfront/net/net.h>
#include <kfront/net/socket.h>

/* No wait for the peer lasts longer: a vanished peer is an error, not a
 * watchdog timeout. */
#define NETWIRE_TIMEOUT_MS	5000
#define NETWIRE_MAX_SOCKS	WIRE_LINK_PORTS

struct netwire {
	const struct wire_ops *ops;
	struct wire_link link;
	struct net_stack *net;
	struct sock *sk[NETWIRE_MAX_SOCKS];
	u64 t0;			/* wall clock at set-up, ms */
	struct net_mib mib0;	/* counters at the start of a run */
	u64 drops0;
};

/* A stack on a fresh link; 0 or -errno with ctx->err filled. */
int netwire_init(struct bench_ctx *ctx, struct netwire *nw);
/* Connects sk[i] from the link's port i to the peer and sends the role
 * line; 0 or -errno with ctx->err filled. */
int netwire_connect(struct bench_ctx *ctx, struct netwire *nw, int i,
		    const char *hello);
/* Closes the connections (waiting for the peer to see the FINs), then
 * frees the stack and the link. */
void netwire_destroy(struct netwire *nw);
/* bench_desc.teardown of a state that starts with its struct netwire. */
void netwire_teardown(struct bench_ctx *ctx);

/* One look at the card, and the stack's clock brought up to date. */
void netwire_poll(struct netwire *nw);
/* The wall clock, ms, against which deadlines are set. */
u64 netwire_now(const struct netwire *nw);

/* Sends all of buf (polling while the send window is full). */
int netwire_send_all(struct bench_ctx *ctx, struct netwire *nw, int i,
		     const void *buf, u32 len);
/* Receives one '\n'-terminated line (without it) into buf. */
int netwire_recv_line(struct bench_ctx *ctx, struct netwire *nw, int i,
		      char *buf, u32 size);

void netwire_run_begin(struct netwire *nw);
/* Checks nothing was dropped and folds the run's counters. */
int netwire_run_end(struct bench_ctx *ctx, struct netwire *nw);

#endif
