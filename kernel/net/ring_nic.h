/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The descriptor-ring NIC: descriptor layout, registers, and the register
 * access interface between the driver and the (emulated) hardware. */
#ifndef KFRONT_NET_RING_NIC_H
#define KFRONT_NET_RING_NIC_H

#include <kfront/types.h>

/* desc->flags, written by the driver */
#define RNIC_DESC_OWN	0x80	/* the device owns the descriptor */
#define RNIC_DESC_EOP	0x01	/* last descriptor of a frame */
/* desc->status, written by the device */
#define RNIC_STAT_DD	0x01	/* descriptor done */
#define RNIC_STAT_EOP	0x02
#define RNIC_STAT_ERR	0x80	/* frame did not fit the RX buffer */

struct rnic_desc {
	u64 addr;		/* buffer address (identity-mapped DMA) */
	u16 len;		/* TX: frame length; RX: received length */
	u16 buf_len;		/* RX: buffer size */
	u8 flags;
	u8 status;
	u16 reserved;
};

/* Registers, 64-bit wide. */
enum rnic_reg {
	RNIC_REG_CTRL,		/* RNIC_CTRL_* */
	RNIC_REG_TX_BASE,
	RNIC_REG_TX_LEN,	/* descriptors in the TX ring */
	RNIC_REG_TX_TAIL,	/* doorbell: one past the last queued */
	RNIC_REG_TX_HEAD,	/* read only: next the device will send */
	RNIC_REG_RX_BASE,
	RNIC_REG_RX_LEN,
	RNIC_REG_RX_TAIL,	/* one past the last posted buffer */
	RNIC_REG_RX_HEAD,
	RNIC_REG_ICR,		/* interrupt cause, clear on read */
	RNIC_REG_IMS,		/* interrupt mask set */
	RNIC_REG_MISSED,	/* frames lost for lack of RX buffers */
	RNIC_NR_REGS
};

#define RNIC_CTRL_EN	0x1
#define RNIC_INT_TXDW	0x1	/* TX descriptor written back */
#define RNIC_INT_RXT	0x2	/* frame received */

/* How the driver reaches the device: MMIO for real hardware, function
 * calls into the emulation for the loopback device. */
struct rnic_hw_ops {
	u64 (*read)(void *hw, enum rnic_reg reg);
	void (*write)(void *hw, enum rnic_reg reg, u64 val);
	void (*set_irq)(void *hw, void (*handler)(void *arg), void *arg);
	void (*free)(void *hw);
};

/* The loopback emulation: every frame sent comes back as received. */
void *loopnic_hw_create(const struct rnic_hw_ops **ops);

#endif
