/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Scaffolding shared by the net.* benchmarks: stack and socket set-up,
 * payload patterns, and run verification folded into the digest. */
#include <kfront/errno.h>
#include <kfront/printk.h>
#include <kfront/slab.h>
#include <kfront/string.h>
#include <kfront/net/byteorder.h>
#include <kfront/net/netbench.h>

static void netbench_data_ready(struct sock *sk)
{
	struct netbench *nb = sk->user_data;

	nb->wakeups++;
}

int netbench_fail(struct bench_ctx *ctx, const char *what, u64 got,
		  u64 want)
{
	if (!ctx->err[0])
		snprintf(ctx->err, sizeof(ctx->err), "%s: got %llu, want %llu",
			 what, (unsigned long long)got,
			 (unsigned long long)want);
	return -EPROTO;
}

void netbench_fill(u8 *buf, u32 len, u64 seed)
{
	u64 x = seed * 0x9e3779b97f4a7c15ULL + 0x632be59bd9b4e019ULL;
	u32 i;

	for (i = 0; i < len; i++) {
		if (!(i & 7)) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
		}
		buf[i] = (u8)(x >> ((i & 7) * 8));
	}
}

int netbench_init(struct bench_ctx *ctx, struct netbench *nb, u32 buf_len)
{
	struct net_config cfg;

	memset(nb, 0, sizeof(*nb));
	net_default_config(&cfg);
	cfg.footprint = ctx->footprint;
	if (cfg.footprint > net_filter_rule_count()) {
		snprintf(ctx->err, sizeof(ctx->err),
			 "footprint=%u: only %u filter rules",
			 ctx->footprint, net_filter_rule_count());
		return -E2BIG;
	}
	nb->net = net_stack_create(&cfg);
	nb->buf_len = buf_len;
	nb->tx_buf = kmalloc(buf_len);
	nb->rx_buf = kmalloc(buf_len);
	if (!nb->net || !nb->tx_buf || !nb->rx_buf) {
		netbench_destroy(nb);
		return -ENOMEM;
	}
	return 0;
}

static int netbench_listen(struct netbench *nb, const struct sockaddr_in *sa)
{
	int err = sock_create(nb->net, SOCK_STREAM, &nb->listener);

	if (!err)
		err = sock_bind(nb->listener, sa);
	if (!err)
		err = sock_listen(nb->listener, 8);
	return err;
}

int netbench_tcp_connect(struct bench_ctx *ctx, struct netbench *nb)
{
	struct sockaddr_in sa = {
		.sin_addr = nb->net->dev->ip_addr,
		.sin_port = htons(NETBENCH_PORT),
	};
	int err;

	err = netbench_listen(nb, &sa);
	if (!err)
		err = sock_create(nb->net, SOCK_STREAM, &nb->client);
	if (!err)
		err = sock_connect(nb->client, &sa);
	if (!err)
		err = sock_accept(nb->listener, &nb->server);
	if (err) {
		snprintf(ctx->err, sizeof(ctx->err), "tcp connect: %d", err);
		return err;
	}
	sock_set_data_ready(nb->client, netbench_data_ready, nb);
	sock_set_data_ready(nb->server, netbench_data_ready, nb);
	return 0;
}

int netbench_udp_pair(struct bench_ctx *ctx, struct netbench *nb)
{
	struct sockaddr_in srv = {
		.sin_addr = nb->net->dev->ip_addr,
		.sin_port = htons(NETBENCH_PORT),
	};
	struct sockaddr_in cli = {
		.sin_addr = nb->net->dev->ip_addr,
		.sin_port = htons(NETBENCH_PORT + 1),
	};
	int err;

	err = sock_create(nb->net, SOCK_DGRAM, &nb->server);
	if (!err)
		err = sock_bind(nb->server, &srv);
	if (!err)
		err = sock_create(nb->net, SOCK_DGRAM, &nb->client);
	if (!err)
		err = sock_bind(nb->client, &cli);
	if (err) {
		snprintf(ctx->err, sizeof(ctx->err), "udp sockets: %d", err);
		return err;
	}
	sock_set_data_ready(nb->client, netbench_data_ready, nb);
	sock_set_data_ready(nb->server, netbench_data_ready, nb);
	return 0;
}

/* Orderly close from the client side, then 2MSL so TIME_WAIT ends. */
void netbench_destroy(struct netbench *nb)
{
	if (nb->net) {
		if (nb->client)
			sock_close(nb->client);
		if (nb->server)
			sock_close(nb->server);
		if (nb->listener)
			sock_close(nb->listener);
		net_clock_advance(nb->net, 2 * 60000 + 1000);
		net_stack_destroy(nb->net);
	}
	kfree(nb->tx_buf);
	kfree(nb->rx_buf);
	memset(nb, 0, sizeof(*nb));
}

/*
 * The teardown of every net.* benchmark: ctx->priv is one allocation that
 * starts with its struct netbench (the whole state, or its first member).
 */
void netbench_teardown(struct bench_ctx *ctx)
{
	struct netbench *nb = ctx->priv;

	if (!nb)
		return;
	netbench_destroy(nb);
	kfree(nb);
	ctx->priv = NULL;
}

void netbench_tick(struct netbench *nb)
{
	if (!(++nb->ops % NETBENCH_CLOCK_EVERY))
		net_clock_advance(nb->net, 1);
}

void netbench_run_begin(struct netbench *nb)
{
	nb->mib0 = nb->net->mib;
	nb->drops0 = net_drop_total(nb->net);
}

int netbench_run_end(struct bench_ctx *ctx, struct netbench *nb)
{
	const struct net_mib *m = &nb->net->mib;
	u64 drops = net_drop_total(nb->net) - nb->drops0;
	u64 d = ctx->digest;

	if (drops)
		return netbench_fail(ctx, "packets dropped", drops, 0);
	d = bench_digest_fold(d, m->ip_in_delivers - nb->mib0.ip_in_delivers);
	d = bench_digest_fold(d, m->tcp_out_segs - nb->mib0.tcp_out_segs);
	d = bench_digest_fold(d, m->tcp_pure_acks - nb->mib0.tcp_pure_acks);
	d = bench_digest_fold(d, m->tcp_hp_hits - nb->mib0.tcp_hp_hits);
	d = bench_digest_fold(d, m->udp_in_datagrams -
				 nb->mib0.udp_in_datagrams);
	d = bench_digest_fold(d, net_filter_digest(nb->net));
	ctx->digest = d;
	return 0;
}

int netbench_rr_finish(struct bench_ctx *ctx, struct netbench *nb, u64 iters,
		       u64 sum, const char *leftover)
{
	if (sock_rx_pending(nb->client) || sock_rx_pending(nb->server))
		return netbench_fail(ctx, leftover,
				     sock_rx_pending(nb->client) +
				     sock_rx_pending(nb->server), 0);
	ctx->digest = bench_digest_fold(ctx->digest, iters);
	ctx->digest = bench_digest_fold(ctx->digest, sum);
	return netbench_run_end(ctx, nb);
}

int netbench_open(struct bench_ctx *ctx, struct netbench *nb, u32 buf_len,
		  bool tcp)
{
	int err = netbench_init(ctx, nb, buf_len);

	if (!err)
		err = tcp ? netbench_tcp_connect(ctx, nb) :
			    netbench_udp_pair(ctx, nb);
	if (err)
		netbench_destroy(nb);
	return err;
}
