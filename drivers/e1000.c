/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Intel 8254x (e1000, the 82540EM QEMU emulates): legacy RX and TX
 * descriptor rings in driver-owned DMA memory, polled, interrupts masked. */
#include <asm/x86.h>
#include <kfront/compiler.h>
#include <kfront/errno.h>
#include <kfront/nic.h>
#include <kfront/pci.h>
#include <kfront/printk.h>
#include <kfront/slab.h>
#include <kfront/string.h>
#include <kfront/net/skbuff.h>

/* Registers (8254x SDM, section 13), byte offsets in BAR 0. */
#define E1000_CTRL	0x0000
#define E1000_STATUS	0x0008
#define E1000_EERD	0x0014	/* EEPROM read */
#define E1000_ICR	0x00c0	/* interrupt cause, clear on read */
#define E1000_IMC	0x00d8	/* interrupt mask clear */
#define E1000_RCTL	0x0100
#define E1000_TCTL	0x0400
#define E1000_TIPG	0x0410
#define E1000_RDBAL	0x2800
#define E1000_RDBAH	0x2804
#define E1000_RDLEN	0x2808
#define E1000_RDH	0x2810
#define E1000_RDT	0x2818
#define E1000_RDTR	0x2820	/* RX interrupt delay */
#define E1000_TDBAL	0x3800
#define E1000_TDBAH	0x3804
#define E1000_TDLEN	0x3808
#define E1000_TDH	0x3810
#define E1000_TDT	0x3818
#define E1000_MTA	0x5200	/* multicast table, 128 entries */
#define E1000_MTA_LEN	128
#define E1000_RAL0	0x5400
#define E1000_RAH0	0x5404
#define E1000_MPC	0x4010	/* missed packets count */

#define E1000_CTRL_FD	(1u << 0)	/* full duplex */
#define E1000_CTRL_ASDE	(1u << 5)	/* auto-speed detection */
#define E1000_CTRL_SLU	(1u << 6)	/* set link up */
#define E1000_CTRL_RST	(1u << 26)	/* device reset, self-clearing */

#define E1000_STATUS_LU	(1u << 1)	/* link up */

#define E1000_EERD_START	(1u << 0)
#define E1000_EERD_DONE		(1u << 4)	/* 82540/82545 layout */
#define E1000_EERD_ADDR_SHIFT	8
#define E1000_EERD_DATA_SHIFT	16

#define E1000_RAH_AV	(1u << 31)	/* address valid */

#define E1000_RCTL_EN		(1u << 1)
#define E1000_RCTL_BAM		(1u << 15)	/* accept broadcast */
#define E1000_RCTL_BSIZE_2048	(0u << 16)	/* with BSEX = 0 */
#define E1000_RCTL_SECRC	(1u << 26)	/* strip the Ethernet CRC */

#define E1000_TCTL_EN		(1u << 1)
#define E1000_TCTL_PSP		(1u << 3)	/* pad short packets */
#define E1000_TCTL_CT_SHIFT	4		/* collision threshold */
#define E1000_TCTL_COLD_SHIFT	12		/* collision distance */
#define E1000_TCTL_CT		(0x0fu << E1000_TCTL_CT_SHIFT)
#define E1000_TCTL_COLD_FD	(0x40u << E1000_TCTL_COLD_SHIFT)

/* IEEE 802.3 inter-packet gap for copper parts: IPGT 10, IPGR1 8, IPGR2 6. */
#define E1000_TIPG_DEFAULT	(10u | 8u << 10 | 6u << 20)

#define E1000_RXD_STAT_DD	(1u << 0)	/* descriptor done */
#define E1000_RXD_STAT_EOP	(1u << 1)	/* end of packet */
#define E1000_TXD_CMD_EOP	(1u << 0)
#define E1000_TXD_CMD_IFCS	(1u << 1)	/* insert the FCS */
#define E1000_TXD_CMD_RS	(1u << 3)	/* report status (sets DD) */
#define E1000_TXD_STAT_DD	(1u << 0)

#define E1000_RING_SIZE		256	/* descriptors; RDLEN % 128 == 0 */
#define E1000_BUF_SIZE		2048
#define E1000_RESET_POLLS	100000
#define E1000_EERD_POLLS	100000
#define E1000_MAC_WORDS		3	/* EEPROM words 0-2 hold the MAC */

struct e1000_rx_desc {
	u64 addr;
	u16 length;
	u16 csum;
	u8 status;
	u8 errors;
	u16 special;
};

struct e1000_tx_desc {
	u64 addr;
	u16 length;
	u8 cso;
	u8 cmd;
	u8 status;
	u8 css;
	u16 special;
};

BUILD_BUG_ON(sizeof(struct e1000_rx_desc) != 16);
BUILD_BUG_ON(sizeof(struct e1000_tx_desc) != 16);

struct e1000_priv {
	volatile u8 *regs;
	struct e1000_rx_desc *rx;
	struct e1000_tx_desc *tx;
	u8 *rx_bufs, *tx_bufs;
	u32 rx_next;		/* next RX descriptor to look at */
	u32 tx_tail;		/* next TX descriptor to fill (TDT) */
	u32 tx_clean;		/* oldest TX descriptor not yet done */
};

static inline u32 e1000_rd(struct e1000_priv *e, u32 reg)
{
	return *(volatile u32 *)(e->regs + reg);
}

static inline void e1000_wr(struct e1000_priv *e, u32 reg, u32 val)
{
	*(volatile u32 *)(e->regs + reg) = val;
}

static void e1000_tx_reclaim(struct e1000_priv *e)
{
	while (e->tx_clean != e->tx_tail &&
	       (READ_ONCE(e->tx[e->tx_clean].status) & E1000_TXD_STAT_DD))
		e->tx_clean = (e->tx_clean + 1) % E1000_RING_SIZE;
}

static enum netdev_tx e1000_start_xmit(struct sk_buff *skb,
				       struct net_device *dev)
{
	struct e1000_priv *e = dev->priv;
	u32 len = skb->len, frame_len = max(len, (u32)ETH_ZLEN);
	u32 i = e->tx_tail, next = (i + 1) % E1000_RING_SIZE;
	struct e1000_tx_desc *d = &e->tx[i];
	u8 *buf;

	if (unlikely(len > ETH_FRAME_LEN))
		return NETDEV_TX_BUSY;
	if (unlikely(next == e->tx_clean)) {
		e1000_tx_reclaim(e);
		if (next == e->tx_clean) {
			dev->stats.tx_busy++;
			return NETDEV_TX_BUSY;
		}
	}
	/* One copy into the descriptor's own buffer: the skb is done with
	 * when this returns, whatever the device's pace. */
	buf = e->tx_bufs + i * E1000_BUF_SIZE;
	memcpy(buf, skb->data, len);
	if (len < frame_len)
		memset(buf + len, 0, frame_len - len);
	d->length = (u16)frame_len;
	d->cso = 0;
	d->css = 0;
	d->special = 0;
	d->status = 0;
	d->cmd = E1000_TXD_CMD_EOP | E1000_TXD_CMD_IFCS | E1000_TXD_CMD_RS;
	e->tx_tail = next;
	barrier();		/* the descriptor before the doorbell */
	e1000_wr(e, E1000_TDT, next);
	nic_tx_done(dev, skb, len);
	return NETDEV_TX_OK;
}

static int e1000_poll(struct net_device *dev, int budget)
{
	struct e1000_priv *e = dev->priv;
	int done = 0;

	dev->stats.polls++;
	e1000_tx_reclaim(e);
	while (done < budget) {
		u32 i = e->rx_next;
		struct e1000_rx_desc *d = &e->rx[i];
		u8 status = READ_ONCE(d->status);

		if (!(status & E1000_RXD_STAT_DD))
			break;
		barrier();	/* length and data after the DD bit */
		/* A frame spread over buffers cannot happen with 2 KiB
		 * buffers and no long packets: drop it if it does. */
		if ((status & E1000_RXD_STAT_EOP) && !d->errors)
			nic_rx_frame(dev, e->rx_bufs + i * E1000_BUF_SIZE,
				       d->length);
		else
			dev->stats.rx_dropped++;
		d->status = 0;
		e->rx_next = (i + 1) % E1000_RING_SIZE;
		barrier();
		e1000_wr(e, E1000_RDT, i);	/* the buffer is the device's again */
		done++;
	}
	dev->stats.rx_missed += e1000_rd(e, E1000_MPC);	/* clears on read */
	if (done < budget)
		dev->napi_scheduled = false;
	return done;
}

static int e1000_open(struct net_device *dev)
{
	dev->flags |= IFF_UP;
	return 0;
}

static void e1000_stop(struct net_device *dev)
{
	dev->flags &= ~IFF_UP;
}

/* The device and its rings live for the whole boot. */
static void e1000_uninit(struct net_device *dev)
{
}

static const struct net_device_ops e1000_ops = {
	.ndo_open = e1000_open,
	.ndo_stop = e1000_stop,
	.ndo_start_xmit = e1000_start_xmit,
	.ndo_poll = e1000_poll,
	.ndo_uninit = e1000_uninit,
};

static int e1000_reset(struct e1000_priv *e)
{
	e1000_wr(e, E1000_IMC, 0xffffffffu);	/* mask every interrupt */
	e1000_wr(e, E1000_CTRL, e1000_rd(e, E1000_CTRL) | E1000_CTRL_RST);
	for (int i = 0; i < E1000_RESET_POLLS; i++) {
		if (!(e1000_rd(e, E1000_CTRL) & E1000_CTRL_RST))
			goto done;
		io_delay();
	}
	return -ETIMEDOUT;
done:
	e1000_wr(e, E1000_IMC, 0xffffffffu);	/* reset unmasks nothing, but be sure */
	(void)e1000_rd(e, E1000_ICR);		/* clear pending causes */
	return 0;
}

static int e1000_eeprom_read(struct e1000_priv *e, u32 word, u16 *val)
{
	e1000_wr(e, E1000_EERD, E1000_EERD_START |
		 word << E1000_EERD_ADDR_SHIFT);
	for (int i = 0; i < E1000_EERD_POLLS; i++) {
		u32 v = e1000_rd(e, E1000_EERD);

		if (v & E1000_EERD_DONE) {
			*val = (u16)(v >> E1000_EERD_DATA_SHIFT);
			return 0;
		}
		cpu_relax();
	}
	return -ETIMEDOUT;
}

/* The MAC the EEPROM loaded into receive address 0, or the EEPROM's. */
static int e1000_read_mac(struct e1000_priv *e, u8 *mac)
{
	u32 ral = e1000_rd(e, E1000_RAL0), rah = e1000_rd(e, E1000_RAH0);

	if (!(rah & E1000_RAH_AV)) {
		for (u32 w = 0; w < E1000_MAC_WORDS; w++) {
			u16 v;

			if (e1000_eeprom_read(e, w, &v))
				return -EIO;
			mac[2 * w] = (u8)v;
			mac[2 * w + 1] = (u8)(v >> 8);
		}
		ral = mac[0] | mac[1] << 8 | mac[2] << 16 | (u32)mac[3] << 24;
		rah = mac[4] | mac[5] << 8 | E1000_RAH_AV;
		e1000_wr(e, E1000_RAL0, ral);
		e1000_wr(e, E1000_RAH0, rah);
	}
	for (int i = 0; i < 4; i++)
		mac[i] = (u8)(ral >> (8 * i));
	mac[4] = (u8)rah;
	mac[5] = (u8)(rah >> 8);
	return 0;
}

static int e1000_setup_rings(struct e1000_priv *e)
{
	u64 rx_pa, tx_pa, rxb_pa, txb_pa;

	e->rx = nic_dma_alloc(E1000_RING_SIZE * sizeof(*e->rx), &rx_pa);
	e->tx = nic_dma_alloc(E1000_RING_SIZE * sizeof(*e->tx), &tx_pa);
	e->rx_bufs = nic_dma_alloc(E1000_RING_SIZE * E1000_BUF_SIZE, &rxb_pa);
	e->tx_bufs = nic_dma_alloc(E1000_RING_SIZE * E1000_BUF_SIZE, &txb_pa);
	if (!e->rx || !e->tx || !e->rx_bufs || !e->tx_bufs)
		return -ENOMEM;
	for (u32 i = 0; i < E1000_RING_SIZE; i++) {
		e->rx[i].addr = rxb_pa + (u64)i * E1000_BUF_SIZE;
		e->tx[i].addr = txb_pa + (u64)i * E1000_BUF_SIZE;
	}
	e1000_wr(e, E1000_RDBAL, (u32)rx_pa);
	e1000_wr(e, E1000_RDBAH, (u32)(rx_pa >> 32));
	e1000_wr(e, E1000_RDLEN, E1000_RING_SIZE * sizeof(*e->rx));
	e1000_wr(e, E1000_RDH, 0);
	/* All but one buffer to the device: RDH == RDT means empty. */
	e1000_wr(e, E1000_RDT, E1000_RING_SIZE - 1);
	e1000_wr(e, E1000_RDTR, 0);		/* no receive interrupt delay */
	e1000_wr(e, E1000_TDBAL, (u32)tx_pa);
	e1000_wr(e, E1000_TDBAH, (u32)(tx_pa >> 32));
	e1000_wr(e, E1000_TDLEN, E1000_RING_SIZE * sizeof(*e->tx));
	e1000_wr(e, E1000_TDH, 0);
	e1000_wr(e, E1000_TDT, 0);
	return 0;
}

static int e1000_init_device(struct e1000_priv *e, struct net_device *dev)
{
	int err = e1000_reset(e);

	if (!err)
		err = e1000_read_mac(e, dev->dev_addr);
	if (!err)
		err = e1000_setup_rings(e);
	if (err)
		return err;
	/* Link up, full duplex, speed from auto-detection. */
	e1000_wr(e, E1000_CTRL, (e1000_rd(e, E1000_CTRL) | E1000_CTRL_SLU |
				 E1000_CTRL_ASDE | E1000_CTRL_FD));
	for (u32 i = 0; i < E1000_MTA_LEN; i++)
		e1000_wr(e, E1000_MTA + 4 * i, 0);	/* no multicast groups */
	/* Unicast to RAL0/RAH0 and broadcast, 2 KiB buffers, CRC stripped. */
	e1000_wr(e, E1000_RCTL, E1000_RCTL_EN | E1000_RCTL_BAM |
		 E1000_RCTL_BSIZE_2048 | E1000_RCTL_SECRC);
	e1000_wr(e, E1000_TIPG, E1000_TIPG_DEFAULT);
	/* Pad short frames, standard collision settings for full duplex. */
	e1000_wr(e, E1000_TCTL, E1000_TCTL_EN | E1000_TCTL_PSP |
		 E1000_TCTL_CT | E1000_TCTL_COLD_FD);
	return 0;
}

static int e1000_count;

int e1000_probe(struct pci_dev *pdev)
{
	struct net_device *dev = kzalloc(sizeof(*dev));
	struct e1000_priv *e = kzalloc(sizeof(*e));
	int err = -ENOMEM;

	if (!dev || !e)
		goto fail;
	pci_enable_device(pdev);
	e->regs = pci_map_bar(pdev, 0);
	err = e->regs ? e1000_init_device(e, dev) : -ENODEV;
	if (err)
		goto fail;
	snprintf(dev->name, sizeof(dev->name), "e1000-%d", e1000_count++);
	dev->mtu = ETH_DATA_LEN;
	memset(dev->broadcast, 0xff, ETH_ALEN);
	dev->ops = &e1000_ops;
	dev->priv = e;
	printk("e1000: %s: mac %02x:%02x:%02x:%02x:%02x:%02x, link %s\n",
	       dev->name, dev->dev_addr[0], dev->dev_addr[1], dev->dev_addr[2],
	       dev->dev_addr[3], dev->dev_addr[4], dev->dev_addr[5],
	       (e1000_rd(e, E1000_STATUS) & E1000_STATUS_LU) ? "up" : "down");
	return nic_register(dev);
fail:
	kfree(e);
	kfree(dev);
	return err;
}
