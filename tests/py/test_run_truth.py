# SPDX-License-Identifier: GPL-2.0-or-later
"""`kfront run` under its sources of truth: which simulator model runs by
default, what the host harness is given, and how the reports lay the run
out (truth line on top, simulated counts | real-CPU time, TCG's TSC only as
emulator time without ratios or marks, the verdict).

The report tests start from tests/fixtures/real_quick.log (a real QEMU TCG
capture). The simulated column and the host document are SYNTHETIC: the
log's own TSC samples relabelled, to test the layout, not a measurement."""

import argparse
import copy
import tempfile
import unittest
from pathlib import Path
from unittest import mock

from tests.py import FIXTURES
from kfront import cmd_run, collect, model, report, results, truth

_DOC: list[dict] = []


def tcg_doc() -> dict:
    """real_quick.log's results with a truth key, a sim counter and a host
    document, as `kfront run` stores them (built once: bootstraps are slow)."""
    if not _DOC:
        run = collect.collect_file(FIXTURES / "real_quick.log").runs[0]
        doc = results.build_results(run, {"source": "real_quick.log"})
        for e in doc["results"]:
            if "tsc" in e["counters"]:
                e["counters"]["sim.zen4.l1i_misses"] = copy.deepcopy(e["counters"]["tsc"])
        host = copy.deepcopy(doc)
        host["context"] = "user"
        doc["truth"] = truth.decide(doc["machine"], "tcg", ["zen4"], "synthetic note",
                                    "AMD EPYC (family 0x1a model 0x2)").to_dict()
        doc["host"] = host
        _DOC.append(doc)
    return copy.deepcopy(_DOC[0])


def ns(**kw: object) -> argparse.Namespace:
    base = dict(sim=None, accel="tcg", quick=True, variants=None, bench=None,
                footprint=None, state=None, extra=[])
    base.update(kw)
    return argparse.Namespace(**base)


class TestSimChoice(unittest.TestCase):
    def test_default_under_tcg_follows_the_host_cpu(self) -> None:
        cpu = truth.parse_cpuinfo((FIXTURES / "cpuinfo" / "zen5_vm.txt").read_text())
        with mock.patch.object(truth, "read_host_cpu", return_value=cpu):
            models, note = cmd_run.sim_choice(ns())
        self.assertEqual(models, ["zen4"])
        self.assertIn("nearest preset zen4", note)

    def test_none_explicit_and_kvm(self) -> None:
        self.assertEqual(cmd_run.sim_choice(ns(sim="none"))[0], [])
        self.assertEqual(cmd_run.sim_choice(ns(sim="skylake,small"))[0], ["skylake", "small"])
        models, why = cmd_run.sim_choice(ns(accel="kvm"))
        self.assertEqual(models, [])
        self.assertIn("TCG plugin", why)

    def test_check_args(self) -> None:
        base = dict(variants_file=None, firmware="bios", cpu=None, memory=None, smp=None,
                    baseline="O2", extra=[], wire=None)
        self.assertIsNone(cmd_run.check_args(ns(**{**base, "sim": "none"})))
        self.assertIn("--baseline", cmd_run.check_args(
            ns(**{**base, "variants": "Os,hybrid"})) or "")

    def test_simulated_run_uses_quick_sizes_and_the_full_sweep(self) -> None:
        args = ns(quick=False)
        self.assertEqual(cmd_run.kernel_args(args), ['exit=qemu'])
        self.assertEqual(cmd_run.kernel_args(args, simulated=True),
                         ['exit=qemu', f'runs={cmd_run.SIM_RUNS}',
                          f'budget_ms={cmd_run.SIM_BUDGET_MS}', 'quick',
                          f'footprint={cmd_run.FULL_SWEEP}'])
        self.assertEqual(cmd_run.kernel_args(ns(quick=True), simulated=True),
                         ['exit=qemu', f'runs={cmd_run.SIM_RUNS}',
                          f'budget_ms={cmd_run.SIM_BUDGET_MS}', 'quick'])
        # the user's runs= wins over the simulator's default
        self.assertEqual(cmd_run.kernel_args(ns(quick=True, extra=['runs=5']), True),
                         ['exit=qemu', f'budget_ms={cmd_run.SIM_BUDGET_MS}', 'quick', 'runs=5'])
        self.assertIn('footprint=0', cmd_run.kernel_args(ns(quick=False, footprint='0'), True))
        params = (FIXTURES.parent.parent / "kernel" / "params.c").read_text(encoding="utf-8")
        self.assertIn(f'.key = "footprint", .type = PARAM_STR, .dflt_str = "{cmd_run.FULL_SWEEP}"',
                      params)

    def test_host_gets_the_suite_keys_only(self) -> None:
        sel = cmd_run.host_selection(ns(footprint="0,64", bench="net.*",
                                        extra=["runs=3", "exit=halt", "crash=ud", "iters=50"]))
        self.assertEqual(sel.extra, ("runs=3", "iters=50"))
        self.assertEqual(sel.footprint, "0,64")


class TestTcgReport(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.res = model.from_dict(tcg_doc(), "tcg")
        cls.tmp = tempfile.TemporaryDirectory()
        report.write_all(cls.res, Path(cls.tmp.name))
        cls.md = (Path(cls.tmp.name) / "report.md").read_text(encoding="utf-8")
        cls.html = (Path(cls.tmp.name) / "report.html").read_text(encoding="utf-8")
        cls.term = report.terminal_table(cls.res, color=False)

    @classmethod
    def tearDownClass(cls) -> None:
        cls.tmp.cleanup()

    def test_truth_line_on_top(self) -> None:
        self.assertTrue(self.term.startswith("Truth: no PMU in ring 0 (QEMU TCG)"))
        self.assertTrue(self.md.splitlines()[2].startswith("Truth: no PMU in ring 0"))
        body = self.html[self.html.index("<body>"):]
        self.assertLess(body.index("Truth: no PMU in ring 0"), body.index("Machine:"))

    def test_primary_table_side_by_side(self) -> None:
        sec = "## Simulated counts | real-CPU time, per workload"
        self.assertIn(sec, self.md)
        header = self.md[self.md.index(sec):].splitlines()[2]
        self.assertIn("simulated L1 I-cache misses (zen4)/op", header)
        self.assertIn("real-CPU TSC ticks/op, user space", header)
        self.assertIn("Simulated counts | real-CPU time, per workload", self.term)

    def test_emulator_time_is_secondary_without_ratios(self) -> None:
        from kfront import truthreport
        self.assertIn(truthreport.EMULATOR_TITLE, self.md)
        self.assertIn(truthreport.EMULATOR_TITLE, self.term)
        emu = self.md[self.md.index(truthreport.EMULATOR_TITLE):]
        emu = emu[:emu.index("\n## ")]
        self.assertNotIn("ratio", emu.split("\n\n")[1])
        self.assertNotIn(" *", emu)
        # no main TSC table with ratios and stars
        self.assertNotIn("## TSC ticks (reference clock, not core cycles) per operation", self.md)
        self.assertNotIn("TSC ticks (reference clock, not core cycles) per operation (ratio",
                         self.term)
        self.assertLess(self.md.index("## Verdict"), self.md.index(truthreport.EMULATOR_TITLE))

    def test_verdict_from_sim_and_host_not_emulator(self) -> None:
        self.assertIn("Verdict (lower is better; baseline O2)", self.term)
        self.assertIn("Simulated front end (zen4, kernel code)", self.term)
        self.assertIn("Real CPU (host harness, user space, TSC)", self.term)
        self.assertEqual(self.term.count("lower is better"), 1)

    def test_host_run_alone_gets_a_real_cpu_verdict(self) -> None:
        host = model.from_dict(tcg_doc()["host"], "host")
        term = report.terminal_table(host, color=False)
        self.assertIn("Verdict (lower is better; baseline O2)", term)
        self.assertIn("  Real CPU (host harness, user space, TSC): ", term)

    def test_round_trip_keys(self) -> None:
        self.assertEqual(self.res.truth["sources"], ["sim", "host", "emulator"])
        self.assertIsNotNone(self.res.host)
        self.assertEqual(self.res.host.context, "user")


if __name__ == "__main__":
    unittest.main()
