/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Network services on a real NIC (serve=echo,discard): the kernel main
 * loop that polls the card and answers peers such as the host's Linux. */
#ifndef KFRONT_NETSERVE_H
#define KFRONT_NETSERVE_H

#include <kfront/cmdline.h>
#include <kfront/net/net.h>
#include <kfront/net/sock.h>

/* Fills cfg from ip=ADDR/PREFIX, gw=ADDR and nic=NAME, taking the card
 * over from the PCI probe. 0, or -errno with err filled. */
int netcfg_from_cmdline(const struct cmdline *cl, struct net_config *cfg,
			char *err, size_t errlen);

/* "a.b.c.d:port" (peer=); 0 or -EINVAL. */
int netcfg_parse_peer(const char *s, struct sockaddr_in *sa);

/* Runs the services named by serve= until told to stop; an exit status. */
int netserve_main(const struct cmdline *cl);

#endif
