/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Wire formats: Ethernet, ARP, IPv4, UDP and TCP headers. */
#ifndef KFRONT_NET_PROTO_H
#define KFRONT_NET_PROTO_H

#include <kfront/types.h>
#include <kfront/compiler.h>
#include <kfront/net/netdevice.h>

#define ETH_P_IP	0x0800
#define ETH_P_ARP	0x0806

struct ethhdr {
	u8 h_dest[ETH_ALEN];
	u8 h_source[ETH_ALEN];
	be16 h_proto;
} __packed;

#define ARPHRD_ETHER	1
#define ARPOP_REQUEST	1
#define ARPOP_REPLY	2

/* Ethernet/IPv4 ARP: addresses are unaligned in the packet. */
struct arphdr_eth {
	be16 ar_hrd;
	be16 ar_pro;
	u8 ar_hln;
	u8 ar_pln;
	be16 ar_op;
	u8 ar_sha[ETH_ALEN];
	u8 ar_sip[4];
	u8 ar_tha[ETH_ALEN];
	u8 ar_tip[4];
} __packed;

#define IPPROTO_TCP	6
#define IPPROTO_UDP	17

#define IP_DF		0x4000
#define IP_MF		0x2000
#define IP_OFFSET	0x1fff

struct iphdr {
	u8 ver_ihl;		/* version 4 in the high nibble */
	u8 tos;
	be16 tot_len;
	be16 id;
	be16 frag_off;
	u8 ttl;
	u8 protocol;
	u16 check;
	be32 saddr;
	be32 daddr;
};

static inline u8 ip_hdr_version(const struct iphdr *iph)
{
	return iph->ver_ihl >> 4;
}

static inline u8 ip_hdr_ihl(const struct iphdr *iph)
{
	return iph->ver_ihl & 0xf;
}

struct udphdr {
	be16 source;
	be16 dest;
	be16 len;
	u16 check;
};

#define TCPHDR_FIN	0x01
#define TCPHDR_SYN	0x02
#define TCPHDR_RST	0x04
#define TCPHDR_PSH	0x08
#define TCPHDR_ACK	0x10
#define TCPHDR_URG	0x20
#define TCPHDR_ECE	0x40
#define TCPHDR_CWR	0x80

struct tcphdr {
	be16 source;
	be16 dest;
	be32 seq;
	be32 ack_seq;
	u8 doff_res;		/* data offset in 32-bit words, high nibble */
	u8 flags;
	be16 window;
	u16 check;
	be16 urg_ptr;
};

static inline u32 tcp_hdr_len(const struct tcphdr *th)
{
	return (u32)(th->doff_res >> 4) * 4;
}

#define TCPOPT_EOL		0
#define TCPOPT_NOP		1
#define TCPOPT_MSS		2
#define TCPOPT_WINDOW		3
#define TCPOPT_SACK_PERM	4
#define TCPOPT_TIMESTAMP	8
#define TCPOLEN_MSS		4
#define TCPOLEN_WINDOW		3
#define TCPOLEN_SACK_PERM	2
#define TCPOLEN_TIMESTAMP	10

BUILD_BUG_ON(sizeof(struct ethhdr) != 14);
BUILD_BUG_ON(sizeof(struct arphdr_eth) != 28);
BUILD_BUG_ON(sizeof(struct iphdr) != 20);
BUILD_BUG_ON(sizeof(struct udphdr) != 8);
BUILD_BUG_ON(sizeof(struct tcphdr) != 20);

#endif
