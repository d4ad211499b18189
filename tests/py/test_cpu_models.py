# SPDX-License-Identifier: GPL-2.0-or-later
"""The one x86 model table (arch/x86/cpu_model_table.h) as the host tool
reads it (tools/kfront/cpu_models.py): every line parsed or refused, every
core named in the kernel's enum and given a simulator preset, and lookups
that agree with the kernel's own test of cpu_uarch_lookup()."""

import re
import unittest

from tests.py import ROOT
from kfront import cpu_models, sim, truth


class TestTable(unittest.TestCase):
    def test_every_core_is_a_kernel_uarch_with_a_preset(self) -> None:
        header = (ROOT / "arch/x86/include/asm/cpu.h").read_text(encoding="utf-8")
        enum = {m.lower() for m in re.findall(r"\bUARCH_([A-Z0-9]+),", header)} - {"nr"}
        cores = {m.core for m in cpu_models.table()}
        self.assertGreater(len(cpu_models.table()), 40)
        self.assertEqual(cores - enum, set())
        self.assertEqual(cores - set(truth.CORE_PRESETS), set())
        for preset, _, _ in truth.CORE_PRESETS.values():
            self.assertIn(preset, sim.KNOWN_MODELS)

    def test_ranges_do_not_overlap(self) -> None:
        seen: dict[tuple[str, int, int], str] = {}
        for m in cpu_models.table():
            for model in range(m.first, m.last + 1):
                key = (m.vendor, m.family, model)
                self.assertNotIn(key, seen, f"{key} in two entries")
                seen[key] = m.core

    def test_lookups_agree_with_the_kernel_test(self) -> None:
        # The same cases as tests/unit/test_cpu_detect.c's test of
        # cpu_uarch_lookup(), which reads the same table through C.
        for vendor, family, model, core in (
                ("GenuineIntel", 6, 0x55, "skylake"), ("GenuineIntel", 6, 0xb5, "meteorlake"),
                ("GenuineIntel", 6, 0xbd, "lunarlake"), ("GenuineIntel", 6, 0xaf, None),
                ("AuthenticAMD", 0x17, 0x50, "zen"), ("AuthenticAMD", 0x17, 0x71, "zen2"),
                ("AuthenticAMD", 0x19, 0x61, "zen4"), ("AuthenticAMD", 0x1a, 0x02, "zen5"),
                ("AuthenticAMD", 0x1a, 0x7f, "zen5"), ("AuthenticAMD", 0x1a, 0x50, None),
                ("HygonGenuine", 0x18, 0x00, None)):
            with self.subTest(family=hex(family), model=hex(model)):
                entry = cpu_models.lookup(vendor, family, model)
                self.assertEqual(entry.core if entry else None, core)

    def test_a_line_in_another_form_is_refused(self) -> None:
        good = 'CPU_MODEL(INTEL, 0x06, 0x5e, 0x5e, SKYLAKE, "Skylake")\n'
        self.assertEqual(cpu_models.parse("/* a\n comment */\n" + good)[0].name, "Skylake")
        for bad in ('CPU_MODEL(INTEL, 6, 0x5e, 0x5e, SKYLAKE, "Skylake")',
                    'CPU_MODEL(INTEL, 0x06, 0x5f, 0x5e, SKYLAKE, "Skylake")',
                    '#define X 1'):
            with self.subTest(line=bad):
                with self.assertRaises(ValueError) as cm:
                    cpu_models.parse(good + "\n" + bad + "\n", "t.h")
                self.assertIn("t.h:3:", str(cm.exception))


if __name__ == "__main__":
    unittest.main()
