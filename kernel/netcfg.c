/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Static IPv4 configuration of a real NIC from the command line:
 * ip=ADDR/PREFIX, gw=ADDR, nic=virtio|e1000|auto. */
#include <kfront/errno.h>
#include <kfront/nic.h>
#include <kfront/netserve.h>
#include <kfront/pci.h>
#include <kfront/printk.h>
#include <kfront/string.h>
#include <kfront/net/byteorder.h>

/* "a.b.c.d" then an optional "/prefix"; returns the end or NULL. */
static const char *parse_ipv4(const char *s, be32 *addr)
{
	u32 a = 0;

	for (int part = 0; part < 4; part++) {
		u32 v = 0;
		int digits = 0;

		while (*s >= '0' && *s <= '9' && digits < 4) {
			v = v * 10 + (u32)(*s++ - '0');
			digits++;
		}
		if (!digits || v > 255)
			return NULL;
		a = a << 8 | v;
		if (part < 3 && *s++ != '.')
			return NULL;
	}
	*addr = htonl(a);
	return s;
}

static int parse_ip_prefix(const char *s, be32 *addr, be32 *mask)
{
	u32 prefix = 24;

	s = parse_ipv4(s, addr);
	if (!s)
		return -EINVAL;
	if (*s == '/') {
		s++;
		if (*s < '0' || *s > '9')
			return -EINVAL;
		/* two digits at most: a longer number could wrap to a
		 * valid prefix */
		for (prefix = 0; *s >= '0' && *s <= '9'; s++) {
			if (prefix >= 10)
				return -EINVAL;
			prefix = prefix * 10 + (u32)(*s - '0');
		}
		if (prefix < 1 || prefix > 30)
			return -EINVAL;
	}
	if (*s)
		return -EINVAL;
	*mask = htonl(~0u << (32 - prefix));
	return 0;
}

int netcfg_parse_peer(const char *s, struct sockaddr_in *sa)
{
	u32 port = 0;
	int digits = 0;

	s = parse_ipv4(s, &sa->sin_addr);
	if (!s || *s++ != ':' || !sa->sin_addr)
		return -EINVAL;
	for (; *s >= '0' && *s <= '9' && digits < 6; s++, digits++)
		port = port * 10 + (u32)(*s - '0');
	if (*s || !digits || !port || port > 65535)
		return -EINVAL;
	sa->sin_port = htons((u16)port);
	return 0;
}

int netcfg_from_cmdline(const struct cmdline *cl, struct net_config *cfg,
			char *err, size_t errlen)
{
	const char *ip = cmdline_str(cl, "ip");
	const char *gw = cmdline_str(cl, "gw");
	const char *nic = cmdline_str(cl, "nic");
	char clip[CMDLINE_CLIP_BUF], clip2[CMDLINE_CLIP_BUF];
	struct net_device *dev;

	net_default_config(cfg);
	if (parse_ip_prefix(ip, &cfg->ip_addr, &cfg->netmask)) {
		snprintf(err, errlen, "ip=%s: want ADDR/PREFIX, e.g. 10.0.2.15/24",
			 cmdline_clip(clip, sizeof(clip), ip));
		return -EINVAL;
	}
	if (gw && (!(gw = parse_ipv4(gw, &cfg->gateway)) || *gw)) {
		snprintf(err, errlen, "gw=%s: want an IPv4 address",
			 cmdline_clip(clip, sizeof(clip), cmdline_str(cl, "gw")));
		return -EINVAL;
	}
	if (cfg->gateway &&
	    ((cfg->gateway ^ cfg->ip_addr) & cfg->netmask)) {
		snprintf(err, errlen, "gw=%s is not on the subnet of ip=%s",
			 cmdline_clip(clip, sizeof(clip), cmdline_str(cl, "gw")),
			 cmdline_clip(clip2, sizeof(clip2), ip));
		return -EINVAL;
	}
	if (pci_init((enum pci_access)cmdline_uint(cl, "pci"),
		     err, errlen) < 0)
		return -ENODEV;
	dev = nic_find(nic);
	if (!dev) {
		snprintf(err, errlen, "nic=%s: no such network card found",
			 cmdline_clip(clip, sizeof(clip), nic));
		return -ENODEV;
	}
	memcpy(cfg->mac, dev->dev_addr, ETH_ALEN);
	cfg->dev = dev;
	return 0;
}
