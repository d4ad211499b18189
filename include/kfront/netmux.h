/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One real network card shared by several stack instances, switched by
 * local TCP/UDP port (drivers/netmux.c).
 *
 * The wire benchmarks connect every compiler variant's own copy of the
 * stack to the same host peer through the same card, and the harness
 * interleaves their runs; a late ACK or window update for one variant's
 * connection must reach that variant's stack, never another's (which
 * would answer it with a reset). Each stack gets an upper device with
 * the card's MAC and IPv4 address and a few local ports of its own; the switch
 * delivers TCP and UDP by destination port, and everything else (ARP,
 * ICMP) to every upper device, each of which answers alike. */
#ifndef KFRONT_NETMUX_H
#define KFRONT_NETMUX_H

#include <kfront/net/netdevice.h>

#define NETMUX_PORTS	8

/* Takes the card over (it must not be owned by a stack) and opens it;
 * 0 or -errno. There is one switch per boot. */
int netmux_init(struct net_device *lower);
/* An upper device that receives what is sent to local ports base ..
 * base + count - 1 (host order), for a stack's net_config.dev; NULL when
 * all devices are in use or a port is taken. */
struct net_device *netmux_open_ports(u16 base, u16 count);
/* Frees the upper device; the stack that used it must be destroyed. */
void netmux_close_port(struct net_device *upper);
/* TCP/UDP frames for a port no upper device holds (dropped). */
u64 netmux_unclaimed(void);

#endif
