/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Interfaces between the layers of the stack (not for benchmark code). */
#ifndef KFRONT_NET_INTERNAL_H
#define KFRONT_NET_INTERNAL_H

#include <kfront/compiler.h>
#include <kfront/errno.h>
#include <kfront/string.h>
#include <kfront/net/byteorder.h>
#include <kfront/net/checksum.h>
#include <kfront/net/net.h>
#include <kfront/net/proto.h>
#include <kfront/net/skbuff.h>
#include <kfront/net/sock.h>
#include <kfront/net/filter.h>


#define MAX_HEADER	128	/* headroom for TCP/IP/Ethernet headers */
#define IP_DEFAULT_TTL	64

/* TCP's use of skb->cb. */
struct tcp_skb_cb {
	u32 seq;
	u32 end_seq;		/* seq + data + SYN + FIN */
	u32 ack_seq;
	u8 tcp_flags;
	u8 retrans;
	u16 pad;
	u64 when;		/* virtual time last sent, for RTT samples */
};

static inline struct tcp_skb_cb *TCP_SKB_CB(struct sk_buff *skb)
{
	BUILD_BUG_ON(sizeof(struct tcp_skb_cb) > SKB_CB_SIZE);
	return (struct tcp_skb_cb *)skb->cb;
}

/* UDP and IP use skb->cb for addresses on the receive path. */
struct inet_skb_cb {
	be32 saddr;
	be32 daddr;
	be16 sport;
	be16 dport;
};

static inline struct inet_skb_cb *INET_SKB_CB(struct sk_buff *skb)
{
	return (struct inet_skb_cb *)skb->cb;
}

static inline struct ethhdr *eth_hdr(const struct sk_buff *skb)
{
	return (struct ethhdr *)skb_mac_header(skb);
}

static inline struct iphdr *ip_hdr(const struct sk_buff *skb)
{
	return (struct iphdr *)skb_network_header(skb);
}

static inline struct tcphdr *tcp_hdr(const struct sk_buff *skb)
{
	return (struct tcphdr *)skb_transport_header(skb);
}

static inline struct udphdr *udp_hdr(const struct sk_buff *skb)
{
	return (struct udphdr *)skb_transport_header(skb);
}

static inline void net_count_drop(struct net_stack *net,
				  enum net_drop_reason reason)
{
	net->drops[reason]++;
}

/* Drops on the receive path take the frame's reason with them. */
static inline int net_drop(struct sk_buff *skb, enum net_drop_reason reason)
{
	kfree_skb_reason(skb, reason);
	return -reason - 1000;
}

/* eth.c */
int eth_rcv(struct sk_buff *skb);
int eth_header(struct sk_buff *skb, const u8 *daddr, u16 proto);

/* arp.c */
int arp_table_init(struct net_stack *net);
void arp_table_destroy(struct net_stack *net);
int arp_rcv(struct sk_buff *skb);
int neigh_output(struct net_stack *net, struct sk_buff *skb, be32 nexthop);

/* ipv4.c */
int ip_rcv(struct sk_buff *skb);
int ip_queue_xmit(struct sk_buff *skb, be32 saddr, be32 daddr, u8 proto);
bool ip_is_local(const struct net_stack *net, be32 addr);

/* filter.c: the footprint chain (rules: <kfront/net/filter.h>). */
int nf_chain_init(struct net_stack *net, u32 rules);
void nf_chain_destroy(struct net_stack *net);
int nf_hook_input(struct net_stack *net, struct sk_buff *skb);

/* udp.c */
int udp_table_init(struct net_stack *net);
void udp_table_destroy(struct net_stack *net);
int udp_rcv(struct sk_buff *skb);
extern const struct proto udp_prot;

/* tcp_ipv4.c: connection tables. */
int tcp_hash_init(struct net_stack *net);
void tcp_hash_destroy(struct net_stack *net);
struct sock *tcp_lookup(struct net_stack *net, be32 saddr, be16 sport,
			be32 daddr, be16 dport);
struct sock *tcp_lookup_listener(struct net_stack *net, be32 daddr,
				 be16 dport);
void tcp_hash(struct sock *sk);
void tcp_unhash(struct sock *sk);
int tcp_listen_hash(struct sock *sk);
int tcp_bind_port(struct sock *sk, be16 port);
int tcp_v4_rcv(struct sk_buff *skb);
u8 tcp_conn_state(struct net_stack *net, const struct nf_pkt *p);

/* tcp_input.c */
int tcp_rcv_state_process(struct sock *sk, struct sk_buff *skb);
int tcp_rcv_established(struct sock *sk, struct sk_buff *skb);
int tcp_parse_options(const struct tcphdr *th, struct tcp_sock *tp,
		      bool syn);
void tcp_set_state(struct sock *sk, int state);
void tcp_done(struct sock *sk);
void tcp_init_transfer(struct tcp_sock *tp);

/* tcp_output.c */
int tcp_transmit_skb(struct sock *sk, struct sk_buff *skb, bool clone);
void tcp_write_xmit(struct sock *sk, bool push_partial);
void tcp_push(struct sock *sk);
void tcp_send_ack(struct sock *sk);
void tcp_send_delayed_ack(struct sock *sk);
void tcp_send_probe(struct sock *sk);
int tcp_send_syn(struct sock *sk);
int tcp_send_synack(struct sock *sk);
void tcp_send_fin(struct sock *sk);
void tcp_send_reset(struct net_stack *net, struct sk_buff *skb);
void tcp_send_active_reset(struct sock *sk);
int tcp_retransmit_skb(struct sock *sk, struct sk_buff *skb);
u32 tcp_select_window(struct sock *sk);
void tcp_update_pred_flags(struct tcp_sock *tp);
struct sk_buff *tcp_stream_alloc_skb(struct sock *sk, u32 size);

/* tcp_timer.c */
void tcp_init_timers(struct tcp_sock *tp);
void tcp_clear_timers(struct tcp_sock *tp);
void tcp_rearm_rto(struct sock *sk);
void tcp_rtt_sample(struct tcp_sock *tp, u32 rtt);
void tcp_time_wait(struct sock *sk);

/* tcp.c */
extern const struct proto tcp_prot;
struct sock *tcp_create_child(struct sock *listener, struct sk_buff *skb);
void tcp_init_sock(struct tcp_sock *tp);

/* tcp_ofo.c: segments beyond a hole. */
#define TCP_OFO_MOVED	1
#define TCP_OFO_FIN	2
int tcp_ofo_queue(struct sock *sk, struct sk_buff *skb);
int tcp_ofo_drain(struct sock *sk);
/* In-order payload onto the receive queue; a drop reason if it is full. */
int tcp_queue_rcv(struct sock *sk, struct sk_buff *skb);

/* Bytes of the last advertised window still open past rcv_nxt. */
static inline u32 tcp_receive_window(const struct tcp_sock *tp)
{
	s32 win = (s32)(tp->rcv_wup + tp->rcv_wnd - tp->rcv_nxt);

	return win < 0 ? 0 : (u32)win;
}
u32 tcp_new_isn(struct net_stack *net, be32 saddr, be16 sport, be32 daddr,
		be16 dport);

/* socket.c */
struct sock *sk_alloc(struct net_stack *net, const struct proto *prot,
		      size_t size, int type);
void sk_free(struct sock *sk);
void sk_gc(struct net_stack *net);
void sk_wake_data(struct sock *sk);
void sk_wake_state(struct sock *sk);

#define TCP_MSS_DEFAULT		536
#define TCP_INIT_CWND		10
#define TCP_RTO_MIN		200	/* ms */
#define TCP_RTO_MAX		60000
#define TCP_TIMEOUT_INIT	1000
#define TCP_DELACK_MIN		40
#define TCP_DELACK_MAX		200
#define TCP_TIMEWAIT_LEN	60000
#define TCP_MAX_RETRIES		15
#define TCP_SYN_RETRIES		6
#define TCP_RCVBUF_DEFAULT	(256 * 1024)
#define TCP_SNDBUF_DEFAULT	(256 * 1024)
#define TCP_RCV_WSCALE		3

#endif
