/* SPDX-License-Identifier: GPL-2.0-or-later */
/* PCI enumeration through memory-mapped configuration space (ECAM, where
 * ACPI's MCFG describes it) or configuration mechanism #1 (ports
 * 0xcf8/0xcfc), BAR sizing, capability lists, and the table of devices
 * with drivers. */
#include <asm/x86.h>
#include <kfront/acpi.h>
#include <kfront/arch.h>
#include <kfront/compiler.h>
#include <kfront/errno.h>
#include <kfront/pci.h>
#include <kfront/printk.h>

#define PCI_CONFIG_ADDRESS	0xcf8
#define PCI_CONFIG_DATA		0xcfc
#define PCI_CONFIG_ENABLE	0x80000000u	/* bit 31: a config cycle */
#define PCI_MAX_BUS		256
#define PCI_MAX_SLOT		32
#define PCI_MAX_FUNC		8
#define PCI_CAP_MAX_WALK	48	/* a looped list must not hang us */
#define PCI_CFG_SIZE		256	/* what the ports reach */
#define PCI_CFG_SIZE_ECAM	4096	/* PCI Express extended space */

/* Devices kfront drives. The 8254x parts share the legacy descriptor
 * format the e1000 driver uses; QEMU emulates the 82540EM. */
static const struct pci_driver pci_drivers[] = {
	{ 0x1af4, 0x1041, "virtio-net (modern)", virtio_net_probe },
	{ 0x1af4, 0x1000, "virtio-net (transitional)", virtio_net_probe },
	{ 0x8086, 0x100e, "Intel 82540EM", e1000_probe },
	{ 0x8086, 0x100f, "Intel 82545EM copper", e1000_probe },
	{ 0x8086, 0x1026, "Intel 82545GM copper", e1000_probe },
	{ 0x8086, 0x1076, "Intel 82541GI", e1000_probe },
	{ 0x8086, 0x107c, "Intel 82541PI", e1000_probe },
};

/* The ECAM window of segment 0, or NULL: then every access goes through
 * the ports. Mapped from bus ecam_bus_start on. */
static volatile u8 *ecam;
static u8 ecam_bus_start, ecam_bus_end;

static volatile void *ecam_addr(const struct pci_dev *pdev, u16 off)
{
	return ecam + ((u64)(pdev->bus - ecam_bus_start) << 20 |
		       (u32)pdev->slot << 15 | (u32)pdev->func << 12 | off);
}

/* An access the chosen mechanism cannot make: a bus outside the MCFG
 * range, or extended space through the ports. Reads see all ones, as
 * from an absent device; writes go nowhere. */
static bool pci_cfg_unreachable(const struct pci_dev *pdev, u16 off)
{
	if (ecam)
		return pdev->bus < ecam_bus_start || pdev->bus > ecam_bus_end ||
		       off >= PCI_CFG_SIZE_ECAM;
	return off >= PCI_CFG_SIZE;
}

static u32 pci_address(const struct pci_dev *pdev, u16 off)
{
	return PCI_CONFIG_ENABLE | (u32)pdev->bus << 16 |
	       (u32)pdev->slot << 11 | (u32)pdev->func << 8 | (off & 0xfc);
}

static u32 pci_cf8_read32(const struct pci_dev *pdev, u16 off)
{
	outl(PCI_CONFIG_ADDRESS, pci_address(pdev, off));
	return inl(PCI_CONFIG_DATA);
}

u32 pci_read32(const struct pci_dev *pdev, u16 off)
{
	off &= (u16)~3;
	if (pci_cfg_unreachable(pdev, off))
		return 0xffffffffu;
	if (ecam)
		return *(volatile u32 *)ecam_addr(pdev, off);
	return pci_cf8_read32(pdev, off);
}

u16 pci_read16(const struct pci_dev *pdev, u16 off)
{
	return (u16)(pci_read32(pdev, off) >> ((off & 2) * 8));
}

u8 pci_read8(const struct pci_dev *pdev, u16 off)
{
	return (u8)(pci_read32(pdev, off) >> ((off & 3) * 8));
}

void pci_write32(const struct pci_dev *pdev, u16 off, u32 v)
{
	off &= (u16)~3;
	if (pci_cfg_unreachable(pdev, off))
		return;
	if (ecam) {
		*(volatile u32 *)ecam_addr(pdev, off) = v;
		return;
	}
	outl(PCI_CONFIG_ADDRESS, pci_address(pdev, off));
	outl(PCI_CONFIG_DATA, v);
}

/* A real 16-bit write: the register beside the command register is the
 * status register, whose bits are cleared by writing ones. */
void pci_write16(const struct pci_dev *pdev, u16 off, u16 v)
{
	off &= (u16)~1;
	if (pci_cfg_unreachable(pdev, off))
		return;
	if (ecam) {
		*(volatile u16 *)ecam_addr(pdev, off) = v;
		return;
	}
	outl(PCI_CONFIG_ADDRESS, pci_address(pdev, off));
	outw(PCI_CONFIG_DATA + (off & 2), v);
}

void pci_enable_device(struct pci_dev *pdev)
{
	u16 cmd = pci_read16(pdev, PCI_COMMAND);

	cmd |= PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER |
	       PCI_COMMAND_INTX_DISABLE;
	pci_write16(pdev, PCI_COMMAND, cmd);
}

volatile void *pci_map_bar(struct pci_dev *pdev, int i)
{
	if (i < 0 || i >= PCI_NUM_BARS || pdev->bar_io[i] || !pdev->bar[i] ||
	    !pdev->bar_size[i])
		return NULL;
	return arch_ioremap(pdev->bar[i], pdev->bar_size[i]);
}

u8 pci_find_capability(const struct pci_dev *pdev, u8 cap_id, u8 from)
{
	u8 pos;
	int n;

	if (!(pci_read16(pdev, PCI_STATUS) & PCI_STATUS_CAP_LIST))
		return 0;
	pos = from ? pci_read8(pdev, from + 1) :
		     pci_read8(pdev, PCI_CAPABILITY_LIST);
	for (n = 0; pos && n < PCI_CAP_MAX_WALK; n++) {
		pos &= 0xfc;	/* the low two bits are reserved */
		if (pci_read8(pdev, pos) == cap_id)
			return pos;
		pos = pci_read8(pdev, pos + 1);
	}
	return 0;
}

/*
 * Sizes BAR i the standard way: write all ones, read back which address
 * bits stick, restore. Decoding is still off (the firmware may have left
 * it on: switch it off around the probe). Returns how many BAR slots the
 * BAR takes (2 for a 64-bit memory BAR).
 */
static int pci_size_bar(struct pci_dev *pdev, int i)
{
	u16 reg = PCI_BAR0 + 4 * i;
	u32 lo = pci_read32(pdev, reg), hi = 0, mlo, mhi = 0xffffffffu;
	bool is64 = !(lo & PCI_BAR_IO) &&
		    (lo & PCI_BAR_MEM_TYPE_MASK) == PCI_BAR_MEM_TYPE_64;
	u64 mask;

	pci_write32(pdev, reg, 0xffffffffu);
	mlo = pci_read32(pdev, reg);
	pci_write32(pdev, reg, lo);
	if (is64 && i + 1 < PCI_NUM_BARS) {
		hi = pci_read32(pdev, reg + 4);
		pci_write32(pdev, reg + 4, 0xffffffffu);
		mhi = pci_read32(pdev, reg + 4);
		pci_write32(pdev, reg + 4, hi);
	}
	pdev->bar_io[i] = lo & PCI_BAR_IO;
	if (pdev->bar_io[i]) {
		pdev->bar[i] = lo & PCI_BAR_IO_MASK;
		mask = (mlo & PCI_BAR_IO_MASK) | 0xffff0000u;
		pdev->bar_size[i] = mlo ? (u32)(~mask + 1) : 0;
		return 1;
	}
	pdev->bar[i] = ((u64)hi << 32 | lo) & PCI_BAR_MEM_MASK;
	mask = ((u64)mhi << 32 | mlo) & PCI_BAR_MEM_MASK;
	if (!is64)
		mask |= 0xffffffff00000000ULL;
	pdev->bar_size[i] = mlo ? ~mask + 1 : 0;
	return is64 ? 2 : 1;
}

static void pci_read_bars(struct pci_dev *pdev)
{
	u16 cmd = pci_read16(pdev, PCI_COMMAND);
	int i = 0;

	pci_write16(pdev, PCI_COMMAND,
		    cmd & (u16)~(PCI_COMMAND_IO | PCI_COMMAND_MEMORY));
	while (i < PCI_NUM_BARS)
		i += pci_size_bar(pdev, i);
	pci_write16(pdev, PCI_COMMAND, cmd);
}

static const struct pci_driver *pci_match(u16 vendor, u16 device)
{
	for (size_t i = 0; i < ARRAY_SIZE(pci_drivers); i++) {
		if (pci_drivers[i].vendor == vendor &&
		    pci_drivers[i].device == device)
			return &pci_drivers[i];
	}
	return NULL;
}

static void pci_probe_one(struct pci_dev *pdev)
{
	const struct pci_driver *drv = pci_match(pdev->vendor, pdev->device);
	int err;

	printk("pci: %02x:%02x.%u %04x:%04x class %06x%s%s\n", pdev->bus,
	       pdev->slot, pdev->func, pdev->vendor, pdev->device,
	       pdev->class_rev >> 8, drv ? " " : "", drv ? drv->name : "");
	if (!drv)
		return;
	pci_read_bars(pdev);
	pdev->driver = drv;
	err = drv->probe(pdev);
	if (err)
		printk("pci: %02x:%02x.%u: %s: probe failed (%d)\n", pdev->bus,
		       pdev->slot, pdev->func, drv->name, err);
}

/* The probes keep pointers to their pci_dev: one static slot each. */
#define PCI_MAX_DRIVEN	8
static struct pci_dev pci_devs[PCI_MAX_DRIVEN];
static int pci_ndevs;

static int pci_scan_slot(u8 bus, u8 slot)
{
	struct pci_dev probe = { .bus = bus, .slot = slot };
	int found = 0;
	u8 nfunc = 1;

	for (u8 func = 0; func < nfunc; func++) {
		struct pci_dev *pdev = &probe;

		probe.func = func;
		probe.vendor = pci_read16(&probe, PCI_VENDOR_ID);
		if (probe.vendor == PCI_VENDOR_NONE)
			continue;
		if (func == 0 && (pci_read8(&probe, PCI_HEADER_TYPE) &
				  PCI_HEADER_MULTI_FUNC))
			nfunc = PCI_MAX_FUNC;
		probe.device = pci_read16(&probe, PCI_DEVICE_ID);
		probe.class_rev = pci_read32(&probe, PCI_CLASS_REVISION);
		found++;
		if (pci_match(probe.vendor, probe.device) &&
		    pci_ndevs < PCI_MAX_DRIVEN) {
			pdev = &pci_devs[pci_ndevs++];
			*pdev = probe;
		}
		pci_probe_one(pdev);
	}
	return found;
}

/* Segment 0's MCFG allocation, mapped; 0, or -errno with err filled. */
static int pci_ecam_map(char *err, size_t errlen)
{
	const struct acpi_info *ai = acpi_get();
	const struct acpi_mcfg_alloc *a = NULL;
	u64 size;

	for (u32 i = 0; i < ai->nmcfg; i++) {
		if (ai->mcfg[i].segment == 0) {
			a = &ai->mcfg[i];
			break;
		}
	}
	if (!a) {
		const char *why = "MCFG has none";

		if (!ai->present)
			why = ai->problem[0] ? ai->problem : "no ACPI tables";
		else if (!ai->mcfg_found)
			why = "no MCFG table";
		snprintf(err, errlen, "no ACPI MCFG entry for PCI segment 0 (%s)",
			 why);
		return -ENODEV;
	}
	size = (u64)(a->bus_end - a->bus_start + 1) << 20;
	ecam = arch_ioremap(a->base + ((u64)a->bus_start << 20), size);
	if (!ecam) {
		snprintf(err, errlen, "cannot map %llu MiB of ECAM at 0x%llx",
			 (unsigned long long)(size >> 20),
			 (unsigned long long)a->base);
		return -ENOMEM;
	}
	ecam_bus_start = a->bus_start;
	ecam_bus_end = a->bus_end;
	printk("pci: ECAM at 0x%llx, buses %02x-%02x\n",
	       (unsigned long long)a->base, a->bus_start, a->bus_end);
	return 0;
}

/*
 * Firmware tables can be wrong: before trusting ECAM unasked, the host
 * bridge's identity must read the same through it as through the ports
 * (the check Linux makes in its own way by insisting the window is
 * reserved in the memory map).
 */
static bool pci_ecam_agrees(void)
{
	struct pci_dev host = { 0 };
	u32 via_ecam, via_ports;

	if (ecam_bus_start != 0)
		return true;	/* nothing to compare on bus 0 */
	via_ecam = pci_read32(&host, PCI_VENDOR_ID);
	via_ports = pci_cf8_read32(&host, PCI_VENDOR_ID);
	if (via_ecam == via_ports)
		return true;
	printk("pci: ECAM reads %08x for 00:00.0, the ports %08x: using the ports\n",
	       via_ecam, via_ports);
	return false;
}

static int pci_choose_access(enum pci_access mode, char *err, size_t errlen)
{
	char why[120];

	if (mode == PCI_ACCESS_CF8)
		return 0;
	if (pci_ecam_map(why, sizeof(why))) {
		if (mode == PCI_ACCESS_ECAM) {
			snprintf(err, errlen, "pci=ecam: %s", why);
			return -ENODEV;
		}
		printk("pci: %s: using ports 0xcf8/0xcfc\n", why);
		return 0;
	}
	if (mode == PCI_ACCESS_AUTO && !pci_ecam_agrees())
		ecam = NULL;
	return 0;
}

int pci_init(enum pci_access mode, char *err, size_t errlen)
{
	static bool done;
	static int found;
	u32 first = 0, last = PCI_MAX_BUS - 1;

	if (done)
		return found;
	if (pci_choose_access(mode, err, errlen))
		return -ENODEV;
	done = true;
	if (ecam) {
		first = ecam_bus_start;
		last = ecam_bus_end;
	}
	/* Brute force over every bus: bridges need no special walking, and
	 * an absent device answers 0xffff at once. */
	for (u32 bus = first; bus <= last; bus++) {
		for (u8 slot = 0; slot < PCI_MAX_SLOT; slot++)
			found += pci_scan_slot((u8)bus, slot);
	}
	printk("pci: %d functions, configuration through %s\n", found,
	       ecam ? "ECAM" : "ports 0xcf8/0xcfc");
	return found;
}
