/* SPDX-License-Identifier: GPL-2.0-or-later */
/* serve=echo,discard[,control]: echo (RFC 862) and discard (RFC 863) over
 * TCP and UDP, and a UDP control port, in a loop that polls the NIC and
 * drives the stack's clock from the TSC.
 *
 * Which copy of the stack: the services run the runtime build of
 * kernel/net (listed in kernel/meson.build next to the variants' copies),
 * not a compiler variant's. The services are a fixed peer for
 * interoperability tests, so they must not change with the variant set
 * (a clang or experimental variant may not even be present), and the
 * variants' blobs keep exporting nothing but their descriptor. The cost:
 * the image carries one more copy of the stack, and these tests prove the
 * sources (and the runtime flags' build of them), not each variant's
 * object code; the wire benchmarks are where the variants meet Linux. */
#include <kfront/counters.h>
#include <kfront/errno.h>
#include <kfront/exit.h>
#include <kfront/list.h>
#include <kfront/netserve.h>
#include <kfront/printk.h>
#include <kfront/slab.h>
#include <kfront/string.h>
#include <kfront/svc_policy.h>
#include <kfront/net/byteorder.h>
#include <kfront/net/socket.h>

#define ECHO_PORT	7
#define DISCARD_PORT	9
#define CONTROL_PORT	7777	/* "stats", "close" and "stop" datagrams */
#define SVC_BUF		16384	/* per-connection echo buffer */
/* The stack's queue of half-open and unaccepted connections. The loop
 * drains it on every pass into its own table and wait queue, where each
 * connection is counted; this only has to absorb a burst of SYNs that
 * arrives within one pass. SYNs beyond it are dropped by the stack
 * (TCP_LISTEN_OVERFLOW) and the peer sends them again. */
#define SVC_LISTEN_BACKLOG 128
#define UDP_MAX		1472	/* one Ethernet frame of payload */
#define STOP_DRAIN_MS	200

enum svc_kind { SVC_ECHO, SVC_DISCARD };

struct svc_conn {
	struct list_head node;
	struct sock *sk;
	enum svc_kind kind;
	u32 len, off;		/* echo data waiting to go back */
	bool eof;
	u64 bytes_in, bytes_out;
	struct svc_activity act;	/* for the idle timeout */
	u8 buf[SVC_BUF];
};

struct netserve {
	struct net_stack *net;
	struct sock *tcp_listen[2];	/* indexed by enum svc_kind */
	struct sock *udp[2];
	struct sock *control;
	struct list_head conns;		/* being served: stats.conns */
	struct svc_waitq waitq;		/* accepted, waiting for a slot */
	bool stop;
	u64 tsc_hz, tsc0;
	u64 idle_ms;			/* serve_idle_ms= */
	struct svc_stats stats;		/* totals for control and summary */
	u8 dgram[UDP_MAX];
};

static const char *const svc_names[] = { "echo", "discard" };
static const u16 svc_ports[] = { ECHO_PORT, DISCARD_PORT };

static struct sock *svc_socket(struct net_stack *net, int type, u16 port)
{
	struct sockaddr_in addr = { .sin_addr = 0, .sin_port = htons(port) };
	struct sock *sk;

	if (sock_create(net, type, &sk))
		return NULL;
	if (sock_bind(sk, &addr) ||
	    (type == SOCK_STREAM && sock_listen(sk, SVC_LISTEN_BACKLOG))) {
		sock_close(sk);
		return NULL;
	}
	return sk;
}

static void conn_start(struct netserve *ns, struct svc_conn *c)
{
	struct tcp_sock *tp = tcp_sk(c->sk);

	svc_activity_start(&c->act, tp->snd_una, tp->rcv_nxt, ns->net->now);
	list_add_tail(&c->node, &ns->conns);
	ns->stats.conns++;
	ns->stats.accepted++;
}

static enum svc_end end_reason(int err)
{
	if (!err)
		return SVC_END_CLOSED;
	return err == -ECONNRESET ? SVC_END_PEER_RESET : SVC_END_ERROR;
}

static void conn_end(struct netserve *ns, struct svc_conn *c,
		     enum svc_end why)
{
	printk("netserve: tcp %s from port %u: %llu bytes in, %llu out, %s\n",
	       svc_names[c->kind], ntohs(c->sk->dport),
	       (unsigned long long)c->bytes_in,
	       (unsigned long long)c->bytes_out, svc_end_name(why));
	ns->stats.ended[why]++;
	/* An idle connection is reset, not closed with a FIN: a FIN would
	 * look to the client like the end of a complete echo (a silent
	 * wrong result), and would hold the socket in FIN_WAIT until a
	 * peer that may be dead or hostile answers. After an error the
	 * socket is already closed: sock_close frees it. A clean end sends
	 * our FIN; the stack finishes the close alone. */
	if (why == SVC_END_IDLE)
		sock_abort(c->sk);
	else
		sock_close(c->sk);
	list_del(&c->node);
	ns->stats.conns--;
	kfree(c);
}

/* Refused connections are reset ("connection reset" at once, not a hang
 * until some timeout) and counted by reason. */
static void conn_refuse(struct netserve *ns, struct sock *sk,
			enum svc_refuse why)
{
	printk("netserve: tcp refused from port %u: %s\n", ntohs(sk->dport),
	       svc_refuse_name(why));
	sock_abort(sk);
	ns->stats.refused[why]++;
}

/* Freed slots go to the waiting connections first, oldest first. */
static void svc_promote_waiting(struct netserve *ns)
{
	while (ns->stats.conns < SVC_MAX_CONNS && ns->waitq.len) {
		conn_start(ns, svc_waitq_pop(&ns->waitq));
		ns->stats.waiting--;
	}
}

static void svc_admit(struct netserve *ns, struct sock *child,
		      enum svc_kind kind)
{
	enum svc_admit admit = svc_admit_decide(ns->stats.conns,
						ns->waitq.len);
	struct svc_conn *c;

	if (admit == SVC_ADMIT_REFUSE) {
		conn_refuse(ns, child, SVC_REFUSE_FULL);
		return;
	}
	c = kzalloc(sizeof(*c));
	if (!c) {
		conn_refuse(ns, child, SVC_REFUSE_NO_MEMORY);
		return;
	}
	sock_set_nodelay(child, true);
	c->sk = child;
	c->kind = kind;
	if (admit == SVC_ADMIT_SERVE) {
		conn_start(ns, c);
		return;
	}
	/* Its data waits in the stack's receive buffer, flow-controlled by
	 * the window; its idle clock starts when it gets a slot. */
	svc_waitq_push(&ns->waitq, c);
	ns->stats.waiting++;
	ns->stats.queued++;
}

static void svc_accept(struct netserve *ns, enum svc_kind kind)
{
	struct sock *child;

	while (!sock_accept(ns->tcp_listen[kind], &child))
		svc_admit(ns, child, kind);
}

/* A connection with no progress either way for idle_ms is cut. */
static bool conn_idle(struct netserve *ns, struct svc_conn *c)
{
	struct tcp_sock *tp = tcp_sk(c->sk);

	return svc_activity_idle(&c->act, tp->snd_una, tp->rcv_nxt,
				 ns->net->now, ns->idle_ms);
}

/* Moves what it can; returns 0, or -errno when the connection is over
 * (1 for a clean end). */
static int conn_service(struct netserve *ns, struct svc_conn *c)
{
	ssize_t n;

	/* Read only when the echo buffer is empty: a peer that does not
	 * read its echo is flow-controlled by our receive window. */
	if (!c->len && !c->eof) {
		n = sock_recv(c->sk, c->buf, SVC_BUF);
		if (n > 0) {
			c->bytes_in += (u64)n;
			ns->stats.tcp_in += (u64)n;
			if (c->kind == SVC_ECHO)
				c->len = (u32)n;
		} else if (n == 0) {
			c->eof = true;
		} else if (n != -EAGAIN) {
			return (int)n;
		}
	}
	if (c->off < c->len) {
		n = sock_send(c->sk, c->buf + c->off, c->len - c->off);
		if (n > 0) {
			c->off += (u32)n;
			c->bytes_out += (u64)n;
			ns->stats.tcp_out += (u64)n;
			if (c->off == c->len)
				c->off = c->len = 0;
		} else if (n != -EAGAIN) {
			return (int)n;
		}
	}
	return c->eof && !c->len ? 1 : 0;
}

static void tcp_service_all(struct netserve *ns)
{
	struct list_head *pos, *tmp;

	svc_promote_waiting(ns);
	for (int k = SVC_ECHO; k <= SVC_DISCARD; k++) {
		if (ns->tcp_listen[k])
			svc_accept(ns, (enum svc_kind)k);
	}
	list_for_each_safe(pos, tmp, &ns->conns) {
		struct svc_conn *c = list_entry(pos, struct svc_conn, node);
		int rc = conn_service(ns, c);

		if (rc)
			conn_end(ns, c, end_reason(rc > 0 ? 0 : rc));
		else if (conn_idle(ns, c))
			conn_end(ns, c, SVC_END_IDLE);
	}
}

static void udp_service(struct netserve *ns, enum svc_kind kind)
{
	struct sockaddr_in from;
	ssize_t n;

	while ((n = sock_recvfrom(ns->udp[kind], ns->dgram, UDP_MAX,
				  &from)) >= 0) {
		ns->stats.udp_in++;
		if (kind == SVC_ECHO &&
		    sock_sendto(ns->udp[kind], ns->dgram, (size_t)n, &from) >= 0)
			ns->stats.udp_out++;
	}
}

/* "close": every connection ends from our side once its echo is out, so
 * that kfront, not the peer, sends the first FIN (an active close). */
static void close_all(struct netserve *ns)
{
	struct list_head *pos;

	list_for_each(pos, &ns->conns)
		list_entry(pos, struct svc_conn, node)->eof = true;
}

/* Copies the stack's count of SYNs dropped over the listen backlog
 * into the totals: those connections were never accepted, and the peer
 * retries them (so this counts segments, not connection attempts). */
static const struct svc_stats *svc_stats_now(struct netserve *ns)
{
	ns->stats.syn_dropped = ns->net->drops[NET_DROP_TCP_LISTEN_OVERFLOW];
	return &ns->stats;
}

static void control_service(struct netserve *ns)
{
	char reply[512];
	struct sockaddr_in from;
	ssize_t n;

	while ((n = sock_recvfrom(ns->control, ns->dgram, UDP_MAX - 1,
				  &from)) >= 0) {
		int len;

		ns->dgram[n] = 0;
		if (n && ns->dgram[n - 1] == '\n')
			ns->dgram[n - 1] = 0;
		if (!strcmp((char *)ns->dgram, "stop"))
			ns->stop = true;
		else if (!strcmp((char *)ns->dgram, "close"))
			close_all(ns);
		len = svc_stats_format(reply, sizeof(reply), svc_stats_now(ns));
		len += snprintf(reply + len, sizeof(reply) - (size_t)len, "%s",
				ns->stop ? " stopping" : "");
		sock_sendto(ns->control, reply, (size_t)len, &from);
	}
}

/* The stack's clock follows the TSC in whole milliseconds. */
static void netserve_tick(struct netserve *ns)
{
	struct net_stack *net = ns->net;
	u64 now = (counters_tsc() - ns->tsc0) / (ns->tsc_hz / 1000);

	napi_schedule(net->dev);	/* polled: look at the rings every time */
	if (now > net->now)
		net_clock_advance(net, now - net->now);
	else
		net_softirq(net);
}

/* Is word one of the comma-separated items of list? */
static bool list_has(const char *list, const char *word)
{
	size_t n = strlen(word);

	while (*list) {
		const char *end = strchr(list, ',');
		size_t len = end ? (size_t)(end - list) : strlen(list);

		if (len == n && !strncmp(list, word, n))
			return true;
		list += len + (end ? 1 : 0);
	}
	return false;
}

/* Is the item of @len bytes at @s the word @name? */
static bool item_is(const char *s, size_t len, const char *name)
{
	return len == strlen(name) && !strncmp(s, name, len);
}

/* Every item of serve= names a service: one that does not (a typo, an
 * empty item) is an error, not a service silently left out. */
static int check_serve_items(const char *list)
{
	for (;;) {
		const char *end = strchr(list, ',');
		size_t len = end ? (size_t)(end - list) : strlen(list);

		if (!item_is(list, len, svc_names[SVC_ECHO]) &&
		    !item_is(list, len, svc_names[SVC_DISCARD]) &&
		    !item_is(list, len, "control")) {
			printk("netserve: error: serve= item '%.*s'%s is not a "
			       "service: want echo, discard, control\n",
			       (int)(len < 64 ? len : 64), list,
			       len < 64 ? "" : "...");
			return -EINVAL;
		}
		if (!end)
			return 0;
		list = end + 1;
	}
}

static int netserve_open(struct netserve *ns, const char *list)
{
	bool any = false;

	for (int k = SVC_ECHO; k <= SVC_DISCARD; k++) {
		if (!list_has(list, svc_names[k]))
			continue;
		ns->tcp_listen[k] = svc_socket(ns->net, SOCK_STREAM,
					       svc_ports[k]);
		ns->udp[k] = svc_socket(ns->net, SOCK_DGRAM, svc_ports[k]);
		if (!ns->tcp_listen[k] || !ns->udp[k])
			return -ENOMEM;
		printk("netserve: %s on tcp and udp port %u\n", svc_names[k],
		       svc_ports[k]);
		any = true;
	}
	if (list_has(list, "control")) {
		ns->control = svc_socket(ns->net, SOCK_DGRAM, CONTROL_PORT);
		if (!ns->control)
			return -ENOMEM;
		printk("netserve: control on udp port %u\n", CONTROL_PORT);
		any = true;
	}
	return any ? 0 : -EINVAL;
}

static void netserve_summary(struct netserve *ns)
{
	struct net_device *dev = ns->net->dev;

	const struct svc_stats *st = svc_stats_now(ns);
	char line[512];

	printk("netserve: summary: tcp %llu connections (%llu errors), "
	       "%llu bytes in, %llu out; udp %llu datagrams in, %llu out\n",
	       (unsigned long long)st->accepted,
	       (unsigned long long)svc_stats_errors(st),
	       (unsigned long long)st->tcp_in, (unsigned long long)st->tcp_out,
	       (unsigned long long)st->udp_in, (unsigned long long)st->udp_out);
	svc_stats_format(line, sizeof(line), st);
	printk("netserve: accounting: %s\n", line);
	printk("netserve: %s: rx %llu frames %llu bytes, tx %llu frames "
	       "%llu bytes, rx dropped %llu, tx busy %llu; tcp retrans %llu, "
	       "out of order %llu, drops %llu\n", dev->name,
	       (unsigned long long)dev->stats.rx_packets,
	       (unsigned long long)dev->stats.rx_bytes,
	       (unsigned long long)dev->stats.tx_packets,
	       (unsigned long long)dev->stats.tx_bytes,
	       (unsigned long long)dev->stats.rx_dropped,
	       (unsigned long long)dev->stats.tx_busy,
	       (unsigned long long)ns->net->mib.tcp_retrans_segs,
	       (unsigned long long)ns->net->mib.tcp_ofo_queued,
	       (unsigned long long)net_drop_total(ns->net));
	for (int r = 0; r < NET_DROP_MAX; r++) {
		if (ns->net->drops[r])
			printk("netserve: drop %s: %llu\n",
			       net_drop_reason_name((enum net_drop_reason)r),
			       (unsigned long long)ns->net->drops[r]);
	}
}

int netserve_main(const struct cmdline *cl)
{
	static struct netserve ns;
	struct net_config cfg;
	static char err[CMDLINE_ERR_MAX];	/* may quote an ip= value */
	const u8 *ip;

	if (check_serve_items(cmdline_str(cl, "serve")))
		return EXIT_USAGE;
	if (netcfg_from_cmdline(cl, &cfg, err, sizeof(err))) {
		printk("netserve: error: %s\n", err);
		return EXIT_USAGE;
	}
	counters_init();
	ns.tsc_hz = counters_tsc_hz();
	if (ns.tsc_hz < 1000) {
		printk("netserve: error: no TSC rate: no clock for TCP\n");
		return EXIT_PANIC;
	}
	ns.tsc0 = counters_tsc();
	INIT_LIST_HEAD(&ns.conns);
	svc_waitq_init(&ns.waitq);
	ns.idle_ms = cmdline_uint(cl, "serve_idle_ms");
	ns.net = net_stack_create(&cfg);
	if (!ns.net)
		return EXIT_NO_MEMORY;
	ip = (const u8 *)&cfg.ip_addr;
	printk("netserve: %s up, %u.%u.%u.%u\n", cfg.dev->name, ip[0], ip[1],
	       ip[2], ip[3]);
	if (netserve_open(&ns, cmdline_str(cl, "serve"))) {
		printk("netserve: error: serve=%s: want echo, discard, control\n",
		       cmdline_str(cl, "serve"));
		return EXIT_USAGE;
	}
	printk("netserve: %u connections at once, %u more wait, idle "
	       "timeout %llu ms\n", SVC_MAX_CONNS, SVC_WAIT_MAX,
	       (unsigned long long)ns.idle_ms);
	printk("netserve: ready\n");
	while (!ns.stop) {
		netserve_tick(&ns);
		tcp_service_all(&ns);
		for (int k = SVC_ECHO; k <= SVC_DISCARD; k++) {
			if (ns.udp[k])
				udp_service(&ns, (enum svc_kind)k);
		}
		if (ns.control)
			control_service(&ns);
	}
	/* Let the last replies leave the TX ring before QEMU goes away. */
	for (u64 end = ns.net->now + STOP_DRAIN_MS; ns.net->now < end;)
		netserve_tick(&ns);
	netserve_summary(&ns);
	return EXIT_OK;
}
