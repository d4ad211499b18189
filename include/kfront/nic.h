/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Real network cards found at boot (virtio-net, e1000): the drivers
 * register a struct net_device each, and a stack instance takes one over
 * (struct net_config.dev) instead of its loopback device. */
#ifndef KFRONT_NIC_H
#define KFRONT_NIC_H

#include <kfront/net/netdevice.h>

#define NIC_MAX		4

/* Called by a driver's probe; the device stays registered for the boot. */
int nic_register(struct net_device *dev);
/* The first registered card whose name starts with prefix ("virtio",
 * "e1000"); prefix NULL or "auto" takes the first card. */
struct net_device *nic_find(const char *prefix);

/* Driver helpers shared by the NIC drivers. */
/* Zeroed, physically contiguous memory (whole pages) for descriptor
 * rings and buffers; *pa gets its physical address. */
void *nic_dma_alloc(u32 bytes, u64 *pa);

/* A received frame to whoever owns the card (dev->stack_ops), with the
 * card's counters; frames nobody can take are counted as dropped. */
void nic_rx_frame(struct net_device *dev, const u8 *frame, u32 len);
/* A transmitted skb the driver has copied: back to the stack it came
 * from, with the card's counters. */
void nic_tx_done(struct net_device *dev, struct sk_buff *skb, u32 len);

#endif
