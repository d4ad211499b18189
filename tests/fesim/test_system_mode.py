# SPDX-License-Identifier: GPL-2.0-or-later
# fesim plugin tests: system mode.
"""The validation regions in a booted test kernel (tests/fesim/mbstub, a
multiboot stub in long mode) under qemu-system-x86_64: the same figures as
in user mode, and a whole boot that repeats exactly. Skipped without
qemu-system-x86_64.
"""
from __future__ import annotations

import json
import subprocess
import unittest
from pathlib import Path

from fesim_support import PLAIN, QEMU_SYSTEM, regions, run_plugin, tools


def setUpModule() -> None:
    tools()      # once per process; skips the module without qemu-x86_64


def run_system(kernel: Path, args: str, name: str) -> tuple[list[dict], str]:
    """Boot the test kernel under qemu-system-x86_64 with the plugin."""
    t = tools()
    assert QEMU_SYSTEM is not None
    out = t.dir / f"{name}.jsonl"
    res = subprocess.run([QEMU_SYSTEM, "-kernel", str(kernel), "-m", "64",
                          "-display", "none", "-serial", "none",
                          "-monitor", "none", "-no-reboot",
                          # the guest's clocks, RTC included (SeaBIOS
                          # polls it), follow its instructions: a whole
                          # boot repeats exactly (docs/fesim.md)
                          "-icount", "shift=0,sleep=off", "-rtc", "clock=vm",
                          "-device", "isa-debug-exit,iobase=0xf4,iosize=4",
                          "-plugin", f"{t.plugin},{args},out={out}"],
                         timeout=120)
    # stub_main() returns 1 or 2: QEMU exits with (code << 1) | 1
    assert res.returncode in (3, 5), res.returncode
    text = out.read_text()
    return [json.loads(line) for line in text.splitlines()], text


@unittest.skipIf(QEMU_SYSTEM is None, "qemu-system-x86_64 not installed")
class SystemMode(unittest.TestCase):
    """The same regions in a booted (multiboot, long mode) test kernel."""

    def test_same_figures_as_user_mode(self) -> None:
        t = tools()
        kernel = t.build_stub(2)
        sys_recs, text = run_system(kernel, PLAIN, "sys1")
        by_slot = {r["slot"]: r for r in regions(sys_recs) if r["occ"] == 0}
        for case, slot in [("loop_fit=50", 2), ("loop_2x=50", 3),
                           ("conflict9=1000", 4), ("split=10", 8)]:
            user = regions(run_plugin([case])[0])[0]
            with self.subTest(case=case):
                for key in ("insns", "bytes", "taken_branches",
                            "footprint_lines", "footprint_bytes"):
                    self.assertEqual(by_slot[slot][key], user[key], key)
                self.assertEqual(
                    by_slot[slot]["models"]["skylake"]["l1i_misses"],
                    user["models"]["skylake"]["l1i_misses"])
        self.assertIn(100, {r["slot"] for r in regions(sys_recs)})
        # determinism of a whole boot (icount: no wall-clock timing)
        _, text2 = run_system(kernel, PLAIN, "sys2")
        self.assertEqual(text, text2)


if __name__ == "__main__":
    unittest.main()
