# SPDX-License-Identifier: GPL-2.0-or-later
# fesim plugin tests: instruction classes and function rows, known answers.
"""Counts of tests/fesim/classcases/class_cases.S: each region runs a
counted number of one instruction class (rep movs/stos, div,
length-changing prefixes, calls, boundary crossings, unaligned targets),
and one region checks the per-function rows (syms=) add up.
"""
from __future__ import annotations

import unittest

from fesim_support import regions, run_plugin, tools


def setUpModule() -> None:
    tools()      # once per process; skips the module without qemu-x86_64


class InstructionClasses(unittest.TestCase):
    """Known answers of tests/fesim/classcases/class_cases.S: each region
    runs a counted number of one class (docs/fesim.md, "Instruction
    classes"); region 8 checks the per-function rows (syms=)."""

    records: list[dict] = []

    @classmethod
    def setUpClass(cls) -> None:
        exe, syms = tools().build_class_cases()
        cls.records = run_plugin([], f"model=skylake,syms={syms}", "classes",
                                 exe)[0]

    def classes(self, slot: int) -> dict[str, int]:
        return next(r["classes"] for r in regions(self.records)
                    if r["slot"] == slot)

    def test_rep_movs(self) -> None:
        # 3 passes of rep movsb (rcx 5), then rep movsl with rcx 0
        c = self.classes(1)
        self.assertEqual((c["rep_movs"], c["rep_movs_iters"]), (3 + 1, 3 * 5))
        self.assertEqual(c["rep_stos"], 0)

    def test_rep_stos(self) -> None:
        c = self.classes(2)
        self.assertEqual((c["rep_stos"], c["rep_stos_iters"]), (2, 2 * 7))
        self.assertEqual(c["rep_movs"], 0)

    def test_div(self) -> None:
        self.assertEqual(self.classes(3)["div"], 3 * 10)

    def test_length_changing_prefix(self) -> None:
        # imm16 under 66h: add ax, imul, mov to memory; not mov r16 or imm8
        self.assertEqual(self.classes(4)["lcp"], 3 * 5)

    def test_calls_returns_indirect(self) -> None:
        c = self.classes(5)
        self.assertEqual((c["calls"], c["rets"], c["indirect_branches"]),
                         (2 * 4, 2 * 4, 2 * 4))
        # all targets aligned; return addresses are not counted
        self.assertEqual(c["unaligned_targets"], 0)

    def test_boundary_crossing(self) -> None:
        c = self.classes(6)
        self.assertEqual((c["cross16"], c["cross64"]), (2 * 10, 10))

    def test_unaligned_targets(self) -> None:
        self.assertEqual(self.classes(7)["unaligned_targets"], 6 - 1)

    def test_per_function_rows(self) -> None:
        header = self.records[0]
        cols = header["func_columns"]
        names = {r["id"]: r["name"] for r in self.records
                 if r["type"] == "func"}
        region = next(r for r in regions(self.records) if r["slot"] == 8)
        rows = {names[row[0]]: dict(zip(cols, row)) for row in region["funcs"]}
        self.assertEqual(set(rows), {"cc_attrib", "cf_work", "cf_div"})
        passes = 7
        self.assertEqual(rows["cf_work"]["insns"], 4 * passes)
        self.assertEqual(rows["cf_div"]["insns"], 5 * passes)
        self.assertEqual(rows["cc_attrib"]["insns"], 3 + 4 * passes)
        self.assertEqual(rows["cf_div"]["div"], passes)
        self.assertEqual(rows["cf_work"]["div"], 0)
        self.assertEqual(rows["cc_attrib"]["calls"], 2 * passes)
        # landings: calls into the callees, returns and jnz into the loop
        self.assertEqual(rows["cc_attrib"]["taken_branches"], 3 * passes - 1)
        # the rows add up to the region's figures
        for key, total in (("insns", region["insns"]),
                           ("bytes", region["bytes"]),
                           ("taken_branches", region["taken_branches"]),
                           ("div", region["classes"]["div"]),
                           ("skylake.uop_misses",
                            region["models"]["skylake"]["uop_misses"]),
                           ("skylake.l1i_misses",
                            region["models"]["skylake"]["l1i_misses"]),
                           ("skylake.itlb_misses",
                            region["models"]["skylake"]["itlb_misses"]),
                           ("skylake.l1i_prefetches",
                            region["models"]["skylake"]["l1i_prefetches"]),
                           ("skylake.itlb_l1_misses",
                            region["models"]["skylake"]["itlb_l1_misses"])):
            self.assertEqual(sum(r[key] for r in rows.values()), total, key)


if __name__ == "__main__":
    unittest.main()
