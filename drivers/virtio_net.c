/* SPDX-License-Identifier: GPL-2.0-or-later */
/* virtio-net over the virtio 1.0 modern PCI transport: split virtqueues
 * (receiveq1, transmitq1), polled, with driver-owned DMA buffers. */
#include <asm/x86.h>
#include <kfront/compiler.h>
#include <kfront/errno.h>
#include <kfront/nic.h>
#include <kfront/pci.h>
#include <kfront/printk.h>
#include <kfront/slab.h>
#include <kfront/string.h>
#include <kfront/net/skbuff.h>

/* struct virtio_pci_cap (virtio 1.0, 4.1.4), offsets in config space. */
#define VIRTIO_PCI_CAP_CFG_TYPE		3
#define VIRTIO_PCI_CAP_BAR		4
#define VIRTIO_PCI_CAP_OFFSET		8
#define VIRTIO_PCI_CAP_LENGTH		12
#define VIRTIO_PCI_NOTIFY_MULTIPLIER	16	/* notify cap only */

#define VIRTIO_PCI_CAP_COMMON_CFG	1
#define VIRTIO_PCI_CAP_NOTIFY_CFG	2
#define VIRTIO_PCI_CAP_ISR_CFG		3
#define VIRTIO_PCI_CAP_DEVICE_CFG	4

/* struct virtio_pci_common_cfg offsets. */
#define VCOMMON_DFSELECT	0x00	/* le32 device_feature_select */
#define VCOMMON_DF		0x04	/* le32 device_feature */
#define VCOMMON_GFSELECT	0x08	/* le32 driver_feature_select */
#define VCOMMON_GF		0x0c	/* le32 driver_feature */
#define VCOMMON_MSIX		0x10	/* le16 msix_config */
#define VCOMMON_NUMQ		0x12	/* le16 num_queues */
#define VCOMMON_STATUS		0x14	/* u8 device_status */
#define VCOMMON_Q_SELECT	0x16	/* le16 queue_select */
#define VCOMMON_Q_SIZE		0x18	/* le16 queue_size */
#define VCOMMON_Q_MSIX		0x1a	/* le16 queue_msix_vector */
#define VCOMMON_Q_ENABLE	0x1c	/* le16 queue_enable */
#define VCOMMON_Q_NOFF		0x1e	/* le16 queue_notify_off */
#define VCOMMON_Q_DESC		0x20	/* le64 queue_desc */
#define VCOMMON_Q_AVAIL		0x28	/* le64 queue_driver */
#define VCOMMON_Q_USED		0x30	/* le64 queue_device */

#define VIRTIO_STATUS_ACKNOWLEDGE	0x01
#define VIRTIO_STATUS_DRIVER		0x02
#define VIRTIO_STATUS_DRIVER_OK		0x04
#define VIRTIO_STATUS_FEATURES_OK	0x08
#define VIRTIO_STATUS_FAILED		0x80

#define VIRTIO_NET_F_MAC	5
#define VIRTIO_F_VERSION_1	32
#define VIRTIO_MSI_NO_VECTOR	0xffff

#define VIRTQ_DESC_F_WRITE	2	/* the device writes the buffer */
#define VIRTQ_AVAIL_F_NO_INTERRUPT 1	/* polled: no used-buffer interrupts */
#define VIRTQ_USED_F_NO_NOTIFY	1	/* the device is busy: no doorbell */

#define VNET_RXQ		0	/* receiveq1 */
#define VNET_TXQ		1	/* transmitq1 */
#define VNET_QUEUE_MAX		256
#define VNET_BUF_SIZE		2048	/* header + one 1514-byte frame */
#define VNET_RESET_POLLS	1000000

/* With VIRTIO_F_VERSION_1 every packet starts with this 12-byte header
 * (num_buffers included even without MRG_RXBUF). */
struct virtio_net_hdr {
	u8 flags;
	u8 gso_type;
	u16 hdr_len;
	u16 gso_size;
	u16 csum_start;
	u16 csum_offset;
	u16 num_buffers;
} __packed;
BUILD_BUG_ON(sizeof(struct virtio_net_hdr) != 12);

struct virtq_desc {
	u64 addr;
	u32 len;
	u16 flags;
	u16 next;
};
BUILD_BUG_ON(sizeof(struct virtq_desc) != 16);

struct virtq_avail {
	u16 flags;
	u16 idx;
	u16 ring[];
};

struct virtq_used_elem {
	u32 id;
	u32 len;
};

struct virtq_used {
	u16 flags;
	u16 idx;
	struct virtq_used_elem ring[];
};

struct vnet_queue {
	u16 index;
	u16 size;
	struct virtq_desc *desc;
	struct virtq_avail *avail;
	struct virtq_used *used;
	u8 *bufs;			/* size buffers of VNET_BUF_SIZE */
	u64 bufs_pa;
	u16 avail_idx;			/* our copy of avail->idx */
	u16 last_used;			/* next used entry to consume */
	u16 nfree;			/* TX: free descriptors */
	u16 *free_ids;			/* TX: stack of free descriptor ids */
	volatile u16 *notify;		/* this queue's doorbell */
};

struct vnet_priv {
	struct pci_dev *pdev;
	volatile u8 *common;
	volatile u8 *device_cfg;
	volatile u8 *notify_base;
	u32 notify_mult;
	struct vnet_queue rx, tx;
};

static inline u8 cfg_rd8(struct vnet_priv *v, u32 off)
{
	return *(volatile u8 *)(v->common + off);
}

static inline u16 cfg_rd16(struct vnet_priv *v, u32 off)
{
	return *(volatile u16 *)(v->common + off);
}

static inline u32 cfg_rd32(struct vnet_priv *v, u32 off)
{
	return *(volatile u32 *)(v->common + off);
}

static inline void cfg_wr8(struct vnet_priv *v, u32 off, u8 val)
{
	*(volatile u8 *)(v->common + off) = val;
}

static inline void cfg_wr16(struct vnet_priv *v, u32 off, u16 val)
{
	*(volatile u16 *)(v->common + off) = val;
}

static inline void cfg_wr32(struct vnet_priv *v, u32 off, u32 val)
{
	*(volatile u32 *)(v->common + off) = val;
}

/* 64-bit fields are written as two halves, low first (4.1.3.1). */
static inline void cfg_wr64(struct vnet_priv *v, u32 off, u64 val)
{
	cfg_wr32(v, off, (u32)val);
	cfg_wr32(v, off + 4, (u32)(val >> 32));
}

/* Finds the structures the vendor capabilities point at (4.1.4). */
static int vnet_find_caps(struct vnet_priv *v)
{
	struct pci_dev *pdev = v->pdev;
	volatile u8 *bars[PCI_NUM_BARS] = { 0 };
	u8 pos = 0;

	while ((pos = pci_find_capability(pdev, PCI_CAP_ID_VNDR, pos))) {
		u8 type = pci_read8(pdev, pos + VIRTIO_PCI_CAP_CFG_TYPE);
		u8 bar = pci_read8(pdev, pos + VIRTIO_PCI_CAP_BAR);
		u32 off = pci_read32(pdev, pos + VIRTIO_PCI_CAP_OFFSET);
		volatile u8 *base;

		/* The PCI-config access window (type 5) points at no BAR. */
		if (type < VIRTIO_PCI_CAP_COMMON_CFG ||
		    type > VIRTIO_PCI_CAP_DEVICE_CFG ||
		    bar >= PCI_NUM_BARS || pdev->bar_io[bar])
			continue;
		if (!bars[bar])
			bars[bar] = pci_map_bar(pdev, bar);
		if (!bars[bar])
			return -ENOMEM;
		base = bars[bar] + off;
		if (type == VIRTIO_PCI_CAP_COMMON_CFG && !v->common) {
			v->common = base;
		} else if (type == VIRTIO_PCI_CAP_NOTIFY_CFG && !v->notify_base) {
			v->notify_base = base;
			v->notify_mult = pci_read32(pdev, pos +
						    VIRTIO_PCI_NOTIFY_MULTIPLIER);
		} else if (type == VIRTIO_PCI_CAP_DEVICE_CFG && !v->device_cfg) {
			v->device_cfg = base;
		}
	}
	return v->common && v->notify_base && v->device_cfg ? 0 : -ENODEV;
}

static int vnet_negotiate(struct vnet_priv *v)
{
	u32 hi, lo;

	cfg_wr32(v, VCOMMON_DFSELECT, 0);
	lo = cfg_rd32(v, VCOMMON_DF);
	cfg_wr32(v, VCOMMON_DFSELECT, 1);
	hi = cfg_rd32(v, VCOMMON_DF);
	if (!(hi & (1u << (VIRTIO_F_VERSION_1 - 32))))
		return -ENODEV;		/* a legacy-only device */
	/* Only what we use: the MAC in config space and the 1.0 layout. No
	 * checksum offload, no merged buffers, no control queue. */
	cfg_wr32(v, VCOMMON_GFSELECT, 0);
	cfg_wr32(v, VCOMMON_GF, lo & (1u << VIRTIO_NET_F_MAC));
	cfg_wr32(v, VCOMMON_GFSELECT, 1);
	cfg_wr32(v, VCOMMON_GF, 1u << (VIRTIO_F_VERSION_1 - 32));
	cfg_wr8(v, VCOMMON_STATUS, cfg_rd8(v, VCOMMON_STATUS) |
		VIRTIO_STATUS_FEATURES_OK);
	if (!(cfg_rd8(v, VCOMMON_STATUS) & VIRTIO_STATUS_FEATURES_OK))
		return -EOPNOTSUPP;
	return (lo & (1u << VIRTIO_NET_F_MAC)) ? 0 : -ENODEV;
}

/* Allocates queue q's rings and buffers and tells the device where. */
static int vnet_setup_queue(struct vnet_priv *v, struct vnet_queue *q,
			    u16 index)
{
	u64 desc_pa, avail_pa, used_pa;
	u16 max;

	cfg_wr16(v, VCOMMON_Q_SELECT, index);
	max = cfg_rd16(v, VCOMMON_Q_SIZE);
	if (!max)
		return -ENODEV;
	q->index = index;
	q->size = min(max, (u16)VNET_QUEUE_MAX);
	q->desc = nic_dma_alloc(q->size * sizeof(struct virtq_desc), &desc_pa);
	q->avail = nic_dma_alloc(4 + 2 * q->size + 2, &avail_pa);
	q->used = nic_dma_alloc(4 + 8 * q->size + 2, &used_pa);
	q->bufs = nic_dma_alloc(q->size * VNET_BUF_SIZE, &q->bufs_pa);
	q->free_ids = kzalloc(q->size * sizeof(u16));
	if (!q->desc || !q->avail || !q->used || !q->bufs || !q->free_ids)
		return -ENOMEM;
	/* A smaller ring than the device's maximum is allowed (4.1.4.3.2). */
	cfg_wr16(v, VCOMMON_Q_SIZE, q->size);
	cfg_wr16(v, VCOMMON_Q_MSIX, VIRTIO_MSI_NO_VECTOR);
	cfg_wr64(v, VCOMMON_Q_DESC, desc_pa);
	cfg_wr64(v, VCOMMON_Q_AVAIL, avail_pa);
	cfg_wr64(v, VCOMMON_Q_USED, used_pa);
	q->notify = (volatile u16 *)(v->notify_base +
				     cfg_rd16(v, VCOMMON_Q_NOFF) *
				     v->notify_mult);
	q->avail->flags = VIRTQ_AVAIL_F_NO_INTERRUPT;
	/* Each descriptor owns one buffer for good. */
	for (u16 i = 0; i < q->size; i++) {
		q->desc[i].addr = q->bufs_pa + (u64)i * VNET_BUF_SIZE;
		q->desc[i].len = VNET_BUF_SIZE;
		q->free_ids[i] = i;
	}
	q->nfree = q->size;
	cfg_wr16(v, VCOMMON_Q_ENABLE, 1);
	return 0;
}

static void vnet_kick(struct vnet_queue *q)
{
	/* Descriptors and the ring entry must be visible before the index,
	 * and the index before the doorbell (x86 keeps stores in order; this
	 * stops the compiler reordering them). */
	barrier();
	WRITE_ONCE(q->avail->idx, q->avail_idx);
	mfence();
	if (!(READ_ONCE(q->used->flags) & VIRTQ_USED_F_NO_NOTIFY))
		*q->notify = q->index;
}

static void vnet_rx_post(struct vnet_queue *q, u16 id)
{
	q->desc[id].len = VNET_BUF_SIZE;
	q->desc[id].flags = VIRTQ_DESC_F_WRITE;
	q->avail->ring[q->avail_idx % q->size] = id;
	q->avail_idx++;
}

/* Returns finished TX descriptors to the free stack. */
static void vnet_tx_reclaim(struct vnet_queue *q)
{
	u16 used_idx = READ_ONCE(q->used->idx);

	barrier();
	while (q->last_used != used_idx) {
		u32 id = q->used->ring[q->last_used % q->size].id;

		if (id < q->size && q->nfree < q->size)
			q->free_ids[q->nfree++] = (u16)id;
		q->last_used++;
	}
}

static enum netdev_tx vnet_start_xmit(struct sk_buff *skb,
				      struct net_device *dev)
{
	struct vnet_priv *v = dev->priv;
	struct vnet_queue *q = &v->tx;
	u32 len = skb->len, frame_len = max(len, (u32)ETH_ZLEN);
	u8 *buf;
	u16 id;

	if (unlikely(len > ETH_FRAME_LEN))
		return NETDEV_TX_BUSY;
	if (unlikely(!q->nfree)) {
		vnet_tx_reclaim(q);
		if (!q->nfree) {
			dev->stats.tx_busy++;
			return NETDEV_TX_BUSY;
		}
	}
	id = q->free_ids[--q->nfree];
	buf = q->bufs + (u32)id * VNET_BUF_SIZE;
	/* No offloads: an all-zero header. One copy into our own buffer,
	 * so the skb is done with as soon as this returns. */
	memset(buf, 0, sizeof(struct virtio_net_hdr));
	memcpy(buf + sizeof(struct virtio_net_hdr), skb->data, len);
	if (len < frame_len)
		memset(buf + sizeof(struct virtio_net_hdr) + len, 0,
		       frame_len - len);
	q->desc[id].len = sizeof(struct virtio_net_hdr) + frame_len;
	q->desc[id].flags = 0;
	q->avail->ring[q->avail_idx % q->size] = id;
	q->avail_idx++;
	vnet_kick(q);
	nic_tx_done(dev, skb, len);
	return NETDEV_TX_OK;
}

static int vnet_poll(struct net_device *dev, int budget)
{
	struct vnet_priv *v = dev->priv;
	struct vnet_queue *q = &v->rx;
	int done = 0;

	dev->stats.polls++;
	vnet_tx_reclaim(&v->tx);
	while (done < budget) {
		u16 used_idx = READ_ONCE(q->used->idx);
		struct virtq_used_elem e;

		if (q->last_used == used_idx)
			break;
		barrier();	/* the entry is read after the index */
		e = q->used->ring[q->last_used % q->size];
		q->last_used++;
		if (e.id < q->size && e.len > sizeof(struct virtio_net_hdr))
			nic_rx_frame(dev, q->bufs + e.id * VNET_BUF_SIZE +
				      sizeof(struct virtio_net_hdr),
				      e.len - sizeof(struct virtio_net_hdr));
		if (e.id < q->size)
			vnet_rx_post(q, (u16)e.id);
		done++;
	}
	if (done)
		vnet_kick(q);
	if (done < budget)
		dev->napi_scheduled = false;
	return done;
}

static int vnet_open(struct net_device *dev)
{
	dev->flags |= IFF_UP;
	return 0;
}

static void vnet_stop(struct net_device *dev)
{
	dev->flags &= ~IFF_UP;
}

/* The device and its rings live for the whole boot. */
static void vnet_uninit(struct net_device *dev)
{
}

static const struct net_device_ops vnet_ops = {
	.ndo_open = vnet_open,
	.ndo_stop = vnet_stop,
	.ndo_start_xmit = vnet_start_xmit,
	.ndo_poll = vnet_poll,
	.ndo_uninit = vnet_uninit,
};

static int vnet_reset(struct vnet_priv *v)
{
	cfg_wr8(v, VCOMMON_STATUS, 0);
	for (int i = 0; i < VNET_RESET_POLLS; i++) {
		if (!cfg_rd8(v, VCOMMON_STATUS))
			return 0;
		cpu_relax();
	}
	return -ETIMEDOUT;
}

/* The initialisation sequence of virtio 1.0, 3.1.1. */
static int vnet_init_device(struct vnet_priv *v, struct net_device *dev)
{
	int err = vnet_reset(v);

	if (err)
		return err;
	cfg_wr8(v, VCOMMON_STATUS, VIRTIO_STATUS_ACKNOWLEDGE);
	cfg_wr8(v, VCOMMON_STATUS, VIRTIO_STATUS_ACKNOWLEDGE |
		VIRTIO_STATUS_DRIVER);
	err = vnet_negotiate(v);
	if (!err)
		err = vnet_setup_queue(v, &v->rx, VNET_RXQ);
	if (!err)
		err = vnet_setup_queue(v, &v->tx, VNET_TXQ);
	if (err) {
		cfg_wr8(v, VCOMMON_STATUS, VIRTIO_STATUS_FAILED);
		return err;
	}
	for (int i = 0; i < ETH_ALEN; i++)
		dev->dev_addr[i] = v->device_cfg[i];	/* config.mac */
	/* Every RX buffer to the device before it goes live. */
	while (v->rx.nfree)
		vnet_rx_post(&v->rx, v->rx.free_ids[--v->rx.nfree]);
	cfg_wr8(v, VCOMMON_STATUS, cfg_rd8(v, VCOMMON_STATUS) |
		VIRTIO_STATUS_DRIVER_OK);
	vnet_kick(&v->rx);
	return 0;
}

static int vnet_count;

int virtio_net_probe(struct pci_dev *pdev)
{
	struct net_device *dev = kzalloc(sizeof(*dev));
	struct vnet_priv *v = kzalloc(sizeof(*v));
	int err;

	if (!dev || !v) {
		err = -ENOMEM;
		goto fail;
	}
	v->pdev = pdev;
	pci_enable_device(pdev);
	err = vnet_find_caps(v);
	if (!err)
		err = vnet_init_device(v, dev);
	if (err)
		goto fail;
	snprintf(dev->name, sizeof(dev->name), "virtio%d", vnet_count++);
	dev->mtu = ETH_DATA_LEN;
	memset(dev->broadcast, 0xff, ETH_ALEN);
	dev->ops = &vnet_ops;
	dev->priv = v;
	printk("virtio-net: %s: mac %02x:%02x:%02x:%02x:%02x:%02x, "
	       "queues %u/%u\n", dev->name, dev->dev_addr[0], dev->dev_addr[1],
	       dev->dev_addr[2], dev->dev_addr[3], dev->dev_addr[4],
	       dev->dev_addr[5], v->rx.size, v->tx.size);
	return nic_register(dev);
fail:
	kfree(v);
	kfree(dev);
	return err;
}
