/* SPDX-License-Identifier: GPL-2.0-or-later */
/* PCI: configuration space access, bus enumeration, BARs and capabilities,
 * and the small table of devices kfront has drivers for. */
#ifndef KFRONT_PCI_H
#define KFRONT_PCI_H

#include <kfront/types.h>

/* Configuration space header (type 0) offsets. */
#define PCI_VENDOR_ID		0x00
#define PCI_DEVICE_ID		0x02
#define PCI_COMMAND		0x04
#define PCI_STATUS		0x06
#define PCI_CLASS_REVISION	0x08	/* class << 8 | revision */
#define PCI_HEADER_TYPE		0x0e
#define PCI_BAR0		0x10
#define PCI_CAPABILITY_LIST	0x34

#define PCI_COMMAND_IO		0x0001
#define PCI_COMMAND_MEMORY	0x0002
#define PCI_COMMAND_MASTER	0x0004	/* the device may DMA */
#define PCI_COMMAND_INTX_DISABLE 0x0400	/* polled drivers: no INTx line */

#define PCI_STATUS_CAP_LIST	0x0010
#define PCI_HEADER_MULTI_FUNC	0x80
#define PCI_VENDOR_NONE		0xffff

#define PCI_BAR_IO		0x1
#define PCI_BAR_MEM_TYPE_MASK	0x6
#define PCI_BAR_MEM_TYPE_64	0x4
#define PCI_BAR_MEM_MASK	(~0xfULL)
#define PCI_BAR_IO_MASK		(~0x3ULL)
#define PCI_NUM_BARS		6

#define PCI_CAP_ID_VNDR		0x09	/* vendor specific (virtio uses it) */

struct pci_dev {
	u8 bus, slot, func;
	u16 vendor, device;
	u32 class_rev;
	u64 bar[PCI_NUM_BARS];		/* base addresses, flag bits cleared */
	u64 bar_size[PCI_NUM_BARS];
	bool bar_io[PCI_NUM_BARS];
	const struct pci_driver *driver;
};

struct pci_driver {
	u16 vendor, device;
	const char *name;
	/* 0 when the device is driven; -errno otherwise (logged). */
	int (*probe)(struct pci_dev *pdev);
};

u8 pci_read8(const struct pci_dev *pdev, u16 off);
u16 pci_read16(const struct pci_dev *pdev, u16 off);
u32 pci_read32(const struct pci_dev *pdev, u16 off);
void pci_write16(const struct pci_dev *pdev, u16 off, u16 v);
void pci_write32(const struct pci_dev *pdev, u16 off, u32 v);

/* Turns on memory decoding and bus mastering, and masks INTx. */
void pci_enable_device(struct pci_dev *pdev);
/* An uncached mapping of memory BAR i, or NULL. */
volatile void *pci_map_bar(struct pci_dev *pdev, int i);
/* Offset of the first capability with id cap_id after offset from
 * (0 = start of the list); 0 if none. */
u8 pci_find_capability(const struct pci_dev *pdev, u8 cap_id, u8 from);

/* How configuration space is reached; the order of the pci= values. */
enum pci_access {
	PCI_ACCESS_AUTO,	/* ECAM when ACPI's MCFG has it and it checks out */
	PCI_ACCESS_ECAM,	/* ECAM or an error */
	PCI_ACCESS_CF8,		/* ports 0xcf8/0xcfc (first 256 bytes only) */
	PCI_ACCESS_COUNT,	/* names: pci_access_names (kernel/params.c) */
};

/* The pci= choices, indexed by the enum (kernel/params.c). */
extern const char *const pci_access_names[PCI_ACCESS_COUNT];

/* Chooses the access method, scans every bus once, logs what it finds
 * and probes the devices in the driver table. Returns the number of
 * functions found, or -ENODEV with err filled when pci=ecam cannot be
 * honoured. Later calls return the first result. Reads beyond what the
 * method reaches give all ones. */
int pci_init(enum pci_access mode, char *err, size_t errlen);

/* Probes of the drivers in the table (drivers/virtio_net.c, e1000.c). */
int virtio_net_probe(struct pci_dev *pdev);
int e1000_probe(struct pci_dev *pdev);

#endif
