/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One network stack instance: its device, tables, counters, virtual clock
 * and timers. Everything lives here, nothing in globals, so benchmarks can
 * create and destroy stacks any number of times. */
#ifndef KFRONT_NET_NET_H
#define KFRONT_NET_NET_H

#include <kfront/types.h>
#include <kfront/list.h>
#include <kfront/net/drop.h>
#include <kfront/net/netdevice.h>

struct neigh_table;
struct inet_hashinfo;
struct udp_table;
struct nf_chain;

/* A one-shot timer on the stack's virtual clock (milliseconds). */
struct net_timer {
	struct list_head node;
	u64 expires;
	void (*fn)(struct net_timer *t);
	bool pending;
};

/* Protocol counters, in the spirit of /proc/net/snmp. */
struct net_mib {
	u64 ip_in_receives;
	u64 ip_in_delivers;
	u64 ip_out_requests;
	u64 arp_requests_in;
	u64 arp_replies_in;
	u64 arp_requests_out;
	u64 udp_in_datagrams;
	u64 udp_out_datagrams;
	u64 tcp_in_segs;
	u64 tcp_out_segs;
	u64 tcp_retrans_segs;
	u64 tcp_active_opens;
	u64 tcp_passive_opens;
	u64 tcp_estab_resets;
	u64 tcp_out_rsts;
	u64 tcp_hp_hits;	/* header prediction took the fast path */
	u64 tcp_delayed_acks;
	u64 tcp_quick_acks;
	u64 tcp_pure_acks;
	u64 tcp_win_updates;
	u64 tcp_timeouts;
	u64 tcp_ofo_queued;	/* segments kept beyond a hole */
	u64 filter_evals;
};

struct skb_cache {
	struct list_head free_skbs;	/* struct sk_buff, linked by list */
	struct list_head free_data;	/* SKB_DATA_STD areas */
	u32 nr_skbs;
	u32 nr_data;
	u32 max_cached;
	u64 live;			/* skbs allocated and not yet freed */
};

struct net_config {
	be32 ip_addr;
	be32 netmask;
	be32 gateway;		/* default route, 0 = on-link only */
	/* A registered NIC to take over (<kfront/nic.h>); NULL creates the
	 * descriptor-ring loopback NIC. A taken-over device is stopped, not
	 * freed, when the stack is destroyed: it belongs to its driver. */
	struct net_device *dev;
	u8 mac[ETH_ALEN];	/* loopback NIC only */
	u32 ring_size;		/* descriptors per NIC ring, power of two */
	u32 footprint;		/* packet-filter rules on every packet */
};

struct net_stack {
	u64 now;			/* virtual clock, milliseconds */
	struct list_head timers;
	struct list_head socks;		/* every live socket */
	struct list_head sock_gc;	/* dead sockets, freed outside softirq */
	u32 nr_socks;
	struct net_device *dev;
	bool dev_borrowed;		/* from net_config.dev: not ours to free */
	be32 gateway;
	struct neigh_table *arp;
	struct inet_hashinfo *tcp_hash;
	struct udp_table *udp;
	struct nf_chain *filter;
	struct skb_cache cache;
	u32 isn_secret;			/* fixed: identical inputs, identical ISNs */
	u32 isn_clock;
	u16 ip_id;
	u16 port_rover;
	bool in_softirq;
	struct net_mib mib;
	u64 drops[NET_DROP_MAX];
};

struct net_stack *net_stack_create(const struct net_config *cfg);
void net_stack_destroy(struct net_stack *net);
void net_default_config(struct net_config *cfg);

/* Runs pending device polls and the protocol work they cause, the way a
 * kernel runs softirqs on the way out of a system call. */
void net_softirq(struct net_stack *net);
/* Advances the virtual clock, fires expired timers, runs the softirq. */
void net_clock_advance(struct net_stack *net, u64 ms);

void net_timer_init(struct net_timer *t, void (*fn)(struct net_timer *t));
void net_timer_mod(struct net_stack *net, struct net_timer *t, u64 expires);
void net_timer_del(struct net_timer *t);

/* Puts a raw Ethernet frame on the wire of the loopback device: it comes
 * back through the RX ring like any frame (tests, fuzzing). */
int net_rx_frame(struct net_stack *net, const void *frame, u32 len);

/* The packet-filter chain (the footprint knob). */
u32 net_filter_rule_count(void);
u64 net_filter_digest(const struct net_stack *net);

static inline u64 net_drop_count(const struct net_stack *net,
				 enum net_drop_reason reason)
{
	return net->drops[reason];
}

u64 net_drop_total(const struct net_stack *net);

#endif
