/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Sockets: the protocol-independent struct sock, the per-protocol
 * operations table, and the TCP and UDP socket states. */
#ifndef KFRONT_NET_SOCK_H
#define KFRONT_NET_SOCK_H

#include <kfront/types.h>
#include <kfront/list.h>
#include <kfront/net/net.h>
#include <kfront/net/skbuff.h>

#define SOCK_STREAM	1
#define SOCK_DGRAM	2

struct sockaddr_in {
	be32 sin_addr;
	be16 sin_port;
};

enum tcp_state {
	TCP_CLOSED,
	TCP_LISTEN,
	TCP_SYN_SENT,
	TCP_SYN_RECV,
	TCP_ESTABLISHED,
	TCP_FIN_WAIT1,
	TCP_FIN_WAIT2,
	TCP_CLOSING,
	TCP_TIME_WAIT,
	TCP_CLOSE_WAIT,
	TCP_LAST_ACK,
	TCP_MAX_STATES
};

/* sk->shutdown */
#define RCV_SHUTDOWN	1
#define SEND_SHUTDOWN	2

/* sk->flags */
#define SOCK_ORPHAN	0x01	/* the user closed it; the protocol frees it */
#define SOCK_HASHED	0x02
#define SOCK_NODELAY	0x04	/* TCP: no Nagle */
#define SOCK_BOUND	0x08
#define SOCK_DEAD	0x10	/* freed at the next garbage collection */

struct sock;

/* Per-protocol socket operations, dispatched by the socket layer. */
struct proto {
	const char *name;
	size_t obj_size;
	int (*init)(struct sock *sk);
	int (*bind)(struct sock *sk, const struct sockaddr_in *addr);
	int (*listen)(struct sock *sk, u32 backlog);
	int (*connect)(struct sock *sk, const struct sockaddr_in *addr);
	int (*accept)(struct sock *sk, struct sock **child);
	ssize_t (*sendmsg)(struct sock *sk, const void *buf, size_t len,
			   const struct sockaddr_in *to);
	ssize_t (*recvmsg)(struct sock *sk, void *buf, size_t len,
			   struct sockaddr_in *from);
	void (*close)(struct sock *sk);
	void (*destroy)(struct sock *sk);
};

struct sock {
	struct hlist_node hash_node;	/* lookup table membership */
	struct hlist_node bind_node;	/* TCP: bound-port table */
	struct list_head accept_node;	/* in the listener's accept queue */
	struct list_head all_node;	/* every socket of the stack */
	struct net_stack *net;
	const struct proto *prot;
	u8 type;
	u8 state;
	u8 shutdown;
	u8 flags;
	be32 saddr;
	be32 daddr;
	be16 sport;
	be16 dport;
	int err;
	u32 rcvbuf;
	u32 sndbuf;
	struct sk_buff_head receive_queue;
	struct sk_buff_head write_queue;
	/* Wakeup hooks: called from the softirq when data or state change. */
	void (*data_ready)(struct sock *sk);
	void (*state_change)(struct sock *sk);
	void *user_data;
	struct sock *parent;		/* listener of an unaccepted child */
	struct list_head accept_queue;
	u32 max_backlog;
	u32 accept_len;
	u32 syn_pending;		/* children still in SYN_RECV */
};

struct tcp_sock {
	struct sock sk;
	/* Send sequence space (RFC 793 names). */
	u32 iss;
	u32 snd_una;
	u32 snd_nxt;
	u32 snd_wnd;
	u32 snd_wl1;
	u32 snd_wl2;
	u32 write_seq;		/* next byte the user writes */
	u32 snd_sml;		/* end of the last small segment sent */
	u32 max_window;
	/* Receive sequence space. */
	u32 irs;
	u32 rcv_nxt;
	u32 rcv_wnd;		/* last advertised window, bytes */
	u32 rcv_wup;		/* rcv_nxt when rcv_wnd was advertised */
	u32 copied_seq;		/* next byte the user reads */
	struct sk_buff_head out_of_order_queue;	/* beyond a hole, by seq */
	/* Segment sizes and options. */
	u16 mss_cache;		/* effective send MSS */
	u16 advmss;		/* MSS we advertise */
	u16 rx_mss;		/* MSS the peer advertised */
	u8 snd_wscale;
	u8 rcv_wscale;
	u8 wscale_ok;
	u8 sack_ok;
	u8 retransmits;
	u8 backoff;
	/* Congestion control (Reno). */
	u32 snd_cwnd;
	u32 snd_ssthresh;
	u32 snd_cwnd_cnt;
	u32 packets_out;
	u32 dup_acks;
	/* RTT estimate (RFC 6298), milliseconds: srtt << 3, mdev << 2. */
	u32 srtt;
	u32 mdev;
	u32 rto;
	/* Delayed ACK. */
	u8 ack_pending;
	u8 quick_acks;
	u16 ato;
	u32 rcv_mss;		/* estimate of the peer's segment size */
	u32 pred_flags;		/* header prediction, as in Linux */
	u8 oow_acked;		/* last_oow_ack is valid */
	u64 last_oow_ack;	/* rate limit for ACKs to invalid segments */
	struct sk_buff *send_head;	/* first unsent skb in write_queue */
	struct net_timer rtx_timer;
	struct net_timer delack_timer;
	struct net_timer tw_timer;
	u64 bytes_acked;
	u64 bytes_received;
	u64 segs_in;
	u64 segs_out;
};

struct udp_sock {
	struct sock sk;
	u64 dgrams_in;
	u64 dgrams_out;
};

static inline struct tcp_sock *tcp_sk(struct sock *sk)
{
	return container_of(sk, struct tcp_sock, sk);
}

static inline struct udp_sock *udp_sk(struct sock *sk)
{
	return container_of(sk, struct udp_sock, sk);
}

/* Sequence numbers compare modulo 2^32 (RFC 1982 style). */
static inline bool before(u32 seq1, u32 seq2)
{
	return (s32)(seq1 - seq2) < 0;
}

#define after(seq2, seq1)	before(seq1, seq2)

/* seq2 <= seq1 <= seq3, wrap-safe */
static inline bool between(u32 seq1, u32 seq2, u32 seq3)
{
	return seq3 - seq2 >= seq1 - seq2;
}

#endif
