/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The real wire for net.wire_* (see <kfront/wire.h>): the card named by
 * nic=, addressed by ip=/gw=, behind the port switch of drivers/netmux.c
 * so that every variant's stack can hold its own connections to the
 * peer= program on the host at once. Runtime code, built once. */
#include <kfront/cmdline.h>
#include <kfront/counters.h>
#include <kfront/errno.h>
#include <kfront/netmux.h>
#include <kfront/netserve.h>
#include <kfront/printk.h>
#include <kfront/string.h>
#include <kfront/wire.h>
#include <kfront/net/byteorder.h>

/* Local ports handed out from here, WIRE_LINK_PORTS per link and never
 * twice in a boot, so a late segment for a closed connection finds no
 * port rather than a new connection with the same 4-tuple. */
#define WIRE_PORT_FIRST	40000
#define WIRE_PORT_LAST	60000

static struct {
	struct net_config cfg;
	struct sockaddr_in peer;
	u16 next_port;
	u64 tsc_hz;
	char desc[96];
} wire;

static int wire_link_open(struct wire_link *l, char *err, size_t errlen)
{
	u16 base = wire.next_port;

	memset(l, 0, sizeof(*l));
	if (base + WIRE_LINK_PORTS > WIRE_PORT_LAST) {
		snprintf(err, errlen, "wire: out of local ports");
		return -EADDRINUSE;
	}
	l->dev = netmux_open_ports(base, WIRE_LINK_PORTS);
	if (!l->dev) {
		snprintf(err, errlen, "wire: more than %d stacks on %s at once",
			 NETMUX_PORTS, wire.cfg.dev->name);
		return -EBUSY;
	}
	wire.next_port = (u16)(base + WIRE_LINK_PORTS);
	l->ip_addr = wire.cfg.ip_addr;
	l->netmask = wire.cfg.netmask;
	l->gateway = wire.cfg.gateway;
	l->peer = wire.peer;
	l->local_port = base;
	return 0;
}

static void wire_link_close(struct wire_link *l)
{
	if (l->dev)
		netmux_close_port(l->dev);
	l->dev = NULL;
}

static u64 wire_now_ms(void)
{
	return counters_tsc() / (wire.tsc_hz / 1000);
}

static const struct wire_ops wire_ops_table = {
	.desc = wire.desc,
	.link_open = wire_link_open,
	.link_close = wire_link_close,
	.now_ms = wire_now_ms,
};

const struct wire_ops *wire_setup(const struct cmdline *cl, char *err,
				  size_t errlen)
{
	const char *peer = cmdline_str(cl, "peer");
	char clip[CMDLINE_CLIP_BUF];
	const u8 *ip, *pa;
	int rc;

	err[0] = 0;
	if (!peer)
		return NULL;
	if (netcfg_parse_peer(peer, &wire.peer)) {
		snprintf(err, errlen, "peer=%s: want ADDR:PORT, e.g. 10.0.2.2:5001",
			 cmdline_clip(clip, sizeof(clip), peer));
		return NULL;
	}
	if (netcfg_from_cmdline(cl, &wire.cfg, err, errlen))
		return NULL;
	wire.tsc_hz = counters_tsc_hz();
	if (wire.tsc_hz < 1000) {
		snprintf(err, errlen, "peer=: no TSC rate, so no clock for TCP");
		return NULL;
	}
	rc = netmux_init(wire.cfg.dev);
	if (rc) {
		snprintf(err, errlen, "peer=: %s: cannot open the card (%d)",
			 wire.cfg.dev->name, rc);
		return NULL;
	}
	wire.next_port = WIRE_PORT_FIRST;
	ip = (const u8 *)&wire.cfg.ip_addr;
	pa = (const u8 *)&wire.peer.sin_addr;
	snprintf(wire.desc, sizeof(wire.desc),
		 "%s %u.%u.%u.%u peer %u.%u.%u.%u:%u", wire.cfg.dev->name,
		 ip[0], ip[1], ip[2], ip[3], pa[0], pa[1], pa[2], pa[3],
		 ntohs(wire.peer.sin_port));
	return &wire_ops_table;
}
