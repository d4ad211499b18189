# SPDX-License-Identifier: GPL-2.0-or-later
"""iso/grub.cfg, the menu every boot goes through: what its entries may
set, and what it does under QEMU."""

import re
import unittest

from tests.py import FIXTURES

GRUB_CFG = FIXTURES.parent.parent / "iso" / "grub.cfg"


def grub_lines() -> list[str]:
    """The configuration's commands, comments left out."""
    text = GRUB_CFG.read_text(encoding="utf-8")
    return [ln.strip() for ln in text.splitlines()
            if ln.strip() and not ln.strip().startswith("#")]


class TestEntries(unittest.TestCase):
    def test_grub_entries_keep_the_kernel_default_sweep(self) -> None:
        # The footprint default lives in kernel/params.c (unit-tested in
        # tests/unit/test_cmdline.c); a GRUB entry that set footprint= would
        # give bare metal another default than `kfront run`.
        entries = [ln for ln in grub_lines() if ln.startswith("multiboot2")]
        self.assertGreaterEqual(len(entries), 5)
        self.assertFalse([ln for ln in entries if "footprint=" in ln])


class TestUnderQemu(unittest.TestCase):
    def qemu_branch(self) -> list[str]:
        lines = grub_lines()
        start = next(i for i, ln in enumerate(lines)
                     if re.match(r'if \[ "\$kfront_vendor" = "QEMU" \]', ln))
        end = lines.index("fi", start)
        return lines[start + 1:end]

    def test_no_keys_from_the_serial_port(self) -> None:
        # With the serial port as an input, GRUB's hidden menu waited 3.0 s
        # in every QEMU boot before the default entry (iso/grub.cfg); it
        # also never ended under a fixed -icount.
        branch = self.qemu_branch()
        self.assertIn("terminal_input console", branch)
        self.assertIn("set timeout=0", branch)
        inputs = [ln for ln in grub_lines() if ln.startswith("terminal_input")]
        self.assertEqual(inputs[-1], "terminal_input console")

    def test_real_machines_keep_the_serial_menu(self) -> None:
        lines = grub_lines()
        self.assertIn("terminal_input serial console", lines)
        self.assertIn("set timeout=5", lines)


if __name__ == "__main__":
    unittest.main()
