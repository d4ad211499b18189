# SPDX-License-Identifier: GPL-2.0-or-later
"""Sources of truth (tools/kfront/truth.py): the simulator model chosen from
/proc/cpuinfo text, PMU-in-ring-0 versus TCG from the run's records, and
the truth line that heads every output."""

import unittest

from tests.py import FIXTURES
from kfront import collect, truth

CPUINFO = FIXTURES / "cpuinfo"


def cpu(name: str) -> truth.CpuId | None:
    return truth.parse_cpuinfo((CPUINFO / name).read_text(encoding="utf-8"))


def machine_of(log: str) -> dict:
    run = collect.collect_file(FIXTURES / log).runs[0]
    assert run.begin is not None
    return run.begin.payload["machine"]


class TestModelChoice(unittest.TestCase):
    def test_this_vm_is_zen5_nearest_zen4(self) -> None:
        c = cpu("zen5_vm.txt")
        self.assertEqual((c.vendor, c.family, c.model), ("AuthenticAMD", 0x1a, 2))
        choice = truth.sim_model_for(c)
        self.assertEqual(choice.model, "zen4")
        self.assertFalse(choice.exact)
        self.assertIn("Zen 5: nearest preset zen4", choice.note)

    def test_presets(self) -> None:
        for name, model, exact in (("zen4.txt", "zen4", True),
                                   ("sapphire_rapids.txt", "goldencove", True),
                                   ("skylake.txt", "skylake", True)):
            with self.subTest(cpuinfo=name):
                choice = truth.sim_model_for(cpu(name))
                self.assertEqual((choice.model, choice.exact), (model, exact))
        self.assertIn("Sapphire Rapids", truth.sim_model_for(cpu("sapphire_rapids.txt")).note)

    def test_newer_cores_are_named_nearest(self) -> None:
        for vendor, family, model, preset, said in (
                ('GenuineIntel', 6, 0xc6, 'goldencove', 'Arrow Lake (Lion Cove): nearest'),
                ('GenuineIntel', 6, 0xb5, 'goldencove', 'Arrow Lake-U (Redwood Cove)'),
                ('AuthenticAMD', 0x1a, 0x44, 'zen4', 'is Zen 5: nearest preset zen4'),
                ('AuthenticAMD', 0x1a, 0x50, 'zen4', 'is a Zen core past Zen 5 kfront does '
                 'not know: nearest preset zen4'),
                ('AuthenticAMD', 0x19, 0xb0, 'zen4', 'is a Zen core kfront does not know'),
                ('GenuineIntel', 6, 0x6a, 'skylake-nojcc', 'Ice Lake-X: nearest preset '
                 'skylake-nojcc (no JCC erratum'),
                ('GenuineIntel', 6, 0x3f, 'skylake-nojcc', 'Haswell-X: nearest preset '
                 'skylake-nojcc'),
                ('GenuineIntel', 6, 0xad, 'goldencove', 'its L1i is 64 KiB')):
            with self.subTest(model=hex(model)):
                choice = truth.sim_model_for(truth.CpuId(vendor, family, model))
                self.assertEqual((choice.model, choice.exact), (preset, False))
                self.assertIn(said, choice.note)

    def test_unknown_cpu_falls_back_to_skylake_and_says_so(self) -> None:
        self.assertIsNone(cpu("arm64.txt"))
        choice = truth.sim_model_for(None)
        self.assertEqual(choice.model, "skylake")
        self.assertIn("unknown", choice.note)
        other = truth.sim_model_for(truth.CpuId("GenuineIntel", 6, 0x1c))   # Atom
        self.assertEqual(other.model, "skylake")
        self.assertIn("no preset", other.note)

    def test_first_cpu_block_only(self) -> None:
        text = (CPUINFO / "sapphire_rapids.txt").read_text(encoding="utf-8")
        text += "\nprocessor\t: 2\nvendor_id\t: AuthenticAMD\ncpu family\t: 25\nmodel\t: 97\n"
        self.assertEqual(truth.parse_cpuinfo(text).vendor, "GenuineIntel")


class TestDecide(unittest.TestCase):
    def test_tcg_run_has_no_pmu_and_names_emulator_time(self) -> None:
        m = machine_of("real_quick.log")          # a real QEMU TCG capture
        t = truth.decide(m, "tcg", ["zen4"], "host CPU is Zen 5: nearest preset zen4",
                         "AMD EPYC (family 0x1a model 0x2)")
        self.assertFalse(t.pmu)
        self.assertIn("#UD", t.pmu_reason)
        self.assertEqual(t.environment, "QEMU TCG")
        self.assertEqual(t.sources, ["sim", "host", "emulator"])
        self.assertTrue(t.line.startswith("Truth: no PMU in ring 0 (QEMU TCG)"))
        self.assertIn("simulated front end zen4", t.line)
        self.assertIn("nearest preset zen4", t.line)
        self.assertIn("real-CPU time in user space on AMD EPYC", t.line)
        self.assertIn("emulator time, not CPU time", t.line)

    def test_pmu_in_ring0(self) -> None:
        t = truth.decide(machine_of("pmu_ring0.log"), None, [])
        self.assertTrue(t.pmu)
        self.assertEqual(t.environment, "bare metal")
        self.assertEqual(t.sources, ["pmu"])
        self.assertTrue(t.line.startswith("Truth: ring-0 PMU counters (bare metal"))
        self.assertNotIn("emulator", t.line)

    def test_no_host_says_why(self) -> None:
        t = truth.decide(machine_of("real_quick.log"), "tcg", [], host_note="skipped (--no-host)")
        self.assertIn("no real-CPU time: skipped (--no-host)", t.line)

    def test_round_trip(self) -> None:
        t = truth.decide(machine_of("real_quick.log"), "tcg", ["skylake"], "chosen by --sim")
        self.assertEqual(truth.Truth.from_dict(t.to_dict()), t)


if __name__ == "__main__":
    unittest.main()
