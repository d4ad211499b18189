/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The real wire for net.wire_* benchmarks: a real NIC (virtio-net, e1000)
 * and a peer program on the host (peer=ADDR:PORT), offered by the runtime
 * (bench/harness/wire.c) to the measured code through bench_ctx.wire.
 *
 * An ops table rather than functions called by name: the benchmark
 * drivers are built into every variant, also for the host harness, where
 * there is no card; there ctx->wire is simply NULL. */
#ifndef KFRONT_WIRE_H
#define KFRONT_WIRE_H

#include <kfront/types.h>
#include <kfront/net/sock.h>

/* Local ports each link owns: a benchmark may open this many
 * connections from one stack. */
#define WIRE_LINK_PORTS	4

struct net_device;

/* One stack's share of the card. */
struct wire_link {
	struct net_device *dev;		/* for net_config.dev */
	be32 ip_addr;
	be32 netmask;
	be32 gateway;
	struct sockaddr_in peer;	/* the host peer */
	u16 local_port;			/* host order: the first of the link's
					 * WIRE_LINK_PORTS ports */
};

struct wire_ops {
	/* "virtio0 10.0.2.15/24 peer 10.0.2.2:40011" */
	const char *desc;
	int (*link_open)(struct wire_link *l, char *err, size_t errlen);
	/* After the stack on the link is destroyed. */
	void (*link_close)(struct wire_link *l);
	/* Wall-clock milliseconds (TSC), for the stack's timers. */
	u64 (*now_ms)(void);
};

struct cmdline;

/* From peer=, ip=, gw=, nic=: NULL with err empty when no peer= was
 * given, NULL with err filled on bad input or a missing card. */
const struct wire_ops *wire_setup(const struct cmdline *cl, char *err,
				  size_t errlen);

#endif
