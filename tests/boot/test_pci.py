# SPDX-License-Identifier: GPL-2.0-or-later
"""PCI configuration access in QEMU: ECAM found through ACPI's MCFG on q35
(BIOS: ACPI 1.0 RSDT; UEFI: 2.0 XSDT), the ports on request and on the
i440FX machine, which has no MCFG, and a clear error when pci=ecam cannot
be honoured. The NIC must work in each case: the wire benchmark's
connection to a closed port on the host is refused, which takes a
working card, ARP and TCP through slirp."""
from __future__ import annotations

import unittest

from kfront import build, paths, qemu

BOOT_TIMEOUT = 120.0
CLOSED_PEER = 'peer=10.0.2.2:9'     # slirp answers for the host: refused


def setUpModule() -> None:
    if not build.build():
        raise RuntimeError('build failed')


def boot(*args: str, machine: str | None = None, firmware: str = 'bios',
         nic: str = 'e1000') -> qemu.BootResult:
    extra = ['-M', machine] if machine else []
    cfg = qemu.BootConfig(iso=paths.iso_path(), firmware=firmware, timeout=BOOT_TIMEOUT,
                          kernel_args=['bench=net.wire_rr', 'iters=1', 'runs=1', 'warmup=0',
                                       CLOSED_PEER, *args],
                          extra_qemu_args=extra + qemu.nic_qemu_args(nic, []))
    return qemu.boot(cfg)


class PciAccess(unittest.TestCase):
    def check_card_works(self, res: qemu.BootResult, card: str) -> None:
        self.assertIn(card, res.text)
        self.assertEqual(res.status, 3, res.text[-2000:])
        self.assertIn('refused', res.text)

    def test_q35_uses_ecam(self) -> None:
        res = boot()
        self.assertIn('acpi: MCFG: segment 0 buses 00-ff at 0xb0000000', res.text)
        self.assertIn('pci: ECAM at 0xb0000000, buses 00-ff', res.text)
        self.assertIn('configuration through ECAM', res.text)
        self.check_card_works(res, 'Intel 82540EM')

    def test_ports_on_request(self) -> None:
        res = boot('pci=cf8', nic='virtio')
        self.assertIn('configuration through ports 0xcf8/0xcfc', res.text)
        self.assertNotIn('pci: ECAM', res.text)
        self.check_card_works(res, 'virtio-net (modern)')

    def test_no_mcfg_falls_back_to_ports(self) -> None:
        res = boot(machine='pc')
        self.assertIn('acpi: no MCFG', res.text)
        self.assertIn('configuration through ports 0xcf8/0xcfc', res.text)
        self.check_card_works(res, 'Intel 82540EM')

    def test_ecam_required_but_absent(self) -> None:
        res = boot('pci=ecam', machine='pc')
        self.assertEqual(res.status, 2, res.text[-2000:])
        self.assertIn('kfront: error: pci=ecam: no ACPI MCFG entry for PCI segment 0', res.text)

    def test_bad_value(self) -> None:
        res = boot('pci=mmio')
        self.assertEqual(res.status, 2, res.text[-2000:])
        self.assertIn("bad value 'mmio' for 'pci': expected one of auto|ecam|cf8", res.text)

    @unittest.skipUnless(qemu.ovmf_firmware(), 'OVMF is not installed')
    def test_uefi_xsdt(self) -> None:
        res = boot(firmware='uefi', nic='virtio')
        self.assertRegex(res.text, r'acpi: RSDP revision 2 \(.*\), XSDT')
        self.assertIn('configuration through ECAM', res.text)
        self.check_card_works(res, 'virtio-net (modern)')


if __name__ == '__main__':
    unittest.main()
