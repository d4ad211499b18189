/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The list of real network cards the PCI probes found, and the DMA
 * memory helper their drivers share. */
#include <kfront/arch.h>
#include <kfront/compiler.h>
#include <kfront/errno.h>
#include <kfront/mm.h>
#include <kfront/nic.h>
#include <kfront/string.h>

static struct net_device *nics[NIC_MAX];
static int nr_nics;

int nic_register(struct net_device *dev)
{
	if (nr_nics >= NIC_MAX)
		return -ENOSPC;
	nics[nr_nics++] = dev;
	return 0;
}

struct net_device *nic_find(const char *prefix)
{
	size_t n = prefix ? strlen(prefix) : 0;

	for (int i = 0; i < nr_nics; i++) {
		if (!n || !strcmp(prefix, "auto") ||
		    !strncmp(nics[i]->name, prefix, n))
			return nics[i];
	}
	return NULL;
}

void nic_rx_frame(struct net_device *dev, const u8 *frame, u32 len)
{
	if (!(dev->flags & IFF_UP) || !dev->stack_ops || len < ETH_HLEN ||
	    len > ETH_FRAME_LEN) {
		dev->stats.rx_dropped++;
		return;
	}
	dev->stats.rx_packets++;
	dev->stats.rx_bytes += len;
	dev->stack_ops->rx_frame(dev, frame, len);
}

void nic_tx_done(struct net_device *dev, struct sk_buff *skb, u32 len)
{
	dev->stats.tx_packets++;
	dev->stats.tx_bytes += len;
	dev->stack_ops->tx_done(dev, skb);
}

/* Page allocations are physically contiguous and never freed: the rings
 * of a card live as long as the boot. */
void *nic_dma_alloc(u32 bytes, u64 *pa)
{
	u64 pages = ALIGN_UP(bytes, PAGE_SIZE) / PAGE_SIZE;
	void *va = alloc_pages(pages);

	if (!va)
		return NULL;
	memset(va, 0, pages * PAGE_SIZE);
	*pa = arch_virt_to_phys(va);
	return va;
}
