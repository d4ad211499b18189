/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Why a packet was dropped: every drop is counted under one reason. */
#ifndef KFRONT_NET_DROP_H
#define KFRONT_NET_DROP_H

#define NET_DROP_REASONS(X)			\
	X(NOT_SPECIFIED)			\
	X(NO_MEM)				\
	X(NIC_RX_OVERRUN)			\
	X(TX_RING_FULL)				\
	X(DEV_DOWN)				\
	X(ETH_TOO_SHORT)			\
	X(ETH_OTHERHOST)			\
	X(ETH_UNKNOWN_PROTO)			\
	X(ARP_MALFORMED)			\
	X(ARP_NOT_FOR_US)			\
	X(NEIGH_FAILED)				\
	X(NEIGH_QUEUE_FULL)			\
	X(IP_TOO_SHORT)				\
	X(IP_BAD_VERSION)			\
	X(IP_BAD_IHL)				\
	X(IP_BAD_TOTLEN)			\
	X(IP_BAD_CSUM)				\
	X(IP_TTL_EXPIRED)			\
	X(IP_FRAGMENT)				\
	X(IP_BAD_SADDR)				\
	X(IP_NOT_FOR_US)			\
	X(IP_UNKNOWN_PROTO)			\
	X(IP_NO_ROUTE)				\
	X(FILTER)				\
	X(UDP_TOO_SHORT)			\
	X(UDP_BAD_LEN)				\
	X(UDP_BAD_CSUM)				\
	X(UDP_NO_SOCKET)			\
	X(UDP_RCVBUF_FULL)			\
	X(TCP_TOO_SHORT)			\
	X(TCP_BAD_OFFSET)			\
	X(TCP_BAD_CSUM)				\
	X(TCP_BAD_FLAGS)			\
	X(TCP_BAD_OPTIONS)			\
	X(TCP_NO_SOCKET)			\
	X(TCP_OLD_SEQ)				\
	X(TCP_OUT_OF_WINDOW)			\
	X(TCP_OFO)				\
	X(TCP_ACK_UNSENT)			\
	X(TCP_OLD_ACK)				\
	X(TCP_RESET)				\
	X(TCP_CLOSED)				\
	X(TCP_LISTEN_OVERFLOW)			\
	X(TCP_RCVBUF_FULL)			\
	X(TCP_NO_DATA)

enum net_drop_reason {
#define NET_DROP_ENUM(n) NET_DROP_##n,
	NET_DROP_REASONS(NET_DROP_ENUM)
#undef NET_DROP_ENUM
	NET_DROP_MAX
};

const char *net_drop_reason_name(enum net_drop_reason reason);

#endif
