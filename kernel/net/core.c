/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Stack instances: creation and teardown, the softirq loop, the virtual
 * clock and its timers, and drop-reason names. */
#include <kfront/slab.h>
#include "internal.h"

#define NAPI_BUDGET	64
#define SOFTIRQ_ROUNDS	1024	/* bound on polls per softirq run */

static const char *const net_drop_names[NET_DROP_MAX] = {
#define NET_DROP_NAME(n) [NET_DROP_##n] = #n,
	NET_DROP_REASONS(NET_DROP_NAME)
#undef NET_DROP_NAME
};

const char *net_drop_reason_name(enum net_drop_reason reason)
{
	if ((unsigned int)reason >= NET_DROP_MAX)
		return "?";
	return net_drop_names[reason];
}

u64 net_drop_total(const struct net_stack *net)
{
	u64 total = 0;
	int i;

	for (i = 0; i < NET_DROP_MAX; i++)
		total += net->drops[i];
	return total;
}

void net_default_config(struct net_config *cfg)
{
	static const u8 mac[ETH_ALEN] = { 0x02, 0x00, 0x5e, 0x10, 0x00, 0x01 };

	memset(cfg, 0, sizeof(*cfg));
	cfg->ip_addr = IPV4_ADDR(10, 0, 0, 1);
	cfg->netmask = IPV4_ADDR(255, 255, 255, 0);
	memcpy(cfg->mac, mac, ETH_ALEN);
	cfg->ring_size = 256;
}

void net_timer_init(struct net_timer *t, void (*fn)(struct net_timer *t))
{
	INIT_LIST_HEAD(&t->node);
	t->fn = fn;
	t->expires = 0;
	t->pending = false;
}

void net_timer_mod(struct net_stack *net, struct net_timer *t, u64 expires)
{
	t->expires = expires;
	if (!t->pending) {
		list_add_tail(&t->node, &net->timers);
		t->pending = true;
	}
}

void net_timer_del(struct net_timer *t)
{
	if (t->pending) {
		list_del(&t->node);
		t->pending = false;
	}
}

/*
 * Fires the earliest timer due by target, with the clock set to its expiry
 * time, as jiffies would have advanced. One at a time: a handler may add or
 * delete any timer, including freeing the socket that holds others.
 */
static bool net_run_one_timer(struct net_stack *net, u64 target)
{
	struct net_timer *first = NULL;
	struct list_head *pos;

	list_for_each(pos, &net->timers) {
		struct net_timer *t = list_entry(pos, struct net_timer, node);

		if (t->expires <= target &&
		    (!first || t->expires < first->expires))
			first = t;
	}
	if (!first)
		return false;
	if (first->expires > net->now)
		net->now = first->expires;
	net_timer_del(first);
	first->fn(first);
	return true;
}

void net_softirq(struct net_stack *net)
{
	struct net_device *dev = net->dev;
	int rounds = 0;

	if (net->in_softirq)
		return;		/* the outer run will see the new work */
	net->in_softirq = true;
	while (dev->napi_scheduled && rounds++ < SOFTIRQ_ROUNDS)
		dev->ops->ndo_poll(dev, NAPI_BUDGET);
	net->in_softirq = false;
	/* Nothing below us holds a socket the protocols killed. */
	sk_gc(net);
}

void net_clock_advance(struct net_stack *net, u64 ms)
{
	u64 target = net->now + ms;

	while (net_run_one_timer(net, target))
		net_softirq(net);
	net->now = target;
	net_softirq(net);
}

static int net_stack_init_tables(struct net_stack *net, u32 footprint)
{
	int err;

	err = arp_table_init(net);
	if (!err)
		err = tcp_hash_init(net);
	if (!err)
		err = udp_table_init(net);
	if (!err)
		err = nf_chain_init(net, footprint);
	return err;
}

static struct net_device *net_attach_dev(struct net_stack *net,
					 const struct net_config *cfg)
{
	struct net_device *dev = cfg->dev;

	if (dev) {
		net->dev_borrowed = true;
		dev->stack_ops = &net_stack_dev_ops;
	} else {
		dev = loopnic_create(net, cfg->ring_size);
		if (!dev)
			return NULL;
		memcpy(dev->dev_addr, cfg->mac, ETH_ALEN);
	}
	net->dev = dev;
	dev->net = net;
	dev->ip_addr = cfg->ip_addr;
	dev->netmask = cfg->netmask;
	return dev;
}

struct net_stack *net_stack_create(const struct net_config *cfg)
{
	struct net_stack *net = kzalloc(sizeof(*net));
	struct net_device *dev;

	if (!net)
		return NULL;
	INIT_LIST_HEAD(&net->timers);
	INIT_LIST_HEAD(&net->socks);
	INIT_LIST_HEAD(&net->sock_gc);
	skb_cache_init(net);
	net->isn_secret = 0x5eed1234;
	net->ip_id = 1;
	net->port_rover = 49152;
	net->gateway = cfg->gateway;
	if (net_stack_init_tables(net, cfg->footprint))
		goto fail;
	dev = net_attach_dev(net, cfg);
	if (!dev || dev->ops->ndo_open(dev))
		goto fail;
	return net;
fail:
	net_stack_destroy(net);
	return NULL;
}

void net_stack_destroy(struct net_stack *net)
{
	if (!net)
		return;
	/* Sockets first: they hold timers and queued skbs. */
	tcp_hash_destroy(net);
	udp_table_destroy(net);
	if (net->dev_borrowed) {
		/* Stopping frees the ring buffers, which are our skbs. */
		if (net->dev->flags & IFF_UP)
			net->dev->ops->ndo_stop(net->dev);
		net->dev->net = NULL;
		net->dev->stack_ops = NULL;
	} else {
		netdev_destroy(net->dev);
	}
	net->dev = NULL;
	arp_table_destroy(net);
	nf_chain_destroy(net);
	skb_cache_destroy(net);
	kfree(net);
}
