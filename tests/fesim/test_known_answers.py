# SPDX-License-Identifier: GPL-2.0-or-later
# fesim plugin tests: the validation program's known answers, determinism.
"""Hand-worked figures for the cases of tools/fesim/validate/cases.S, run
by the validation program under qemu-x86_64 with the plugin: misses,
footprints and taken branches derived by hand in the comments, markers,
flushes, several models at once, a bad argument refused; and two runs
writing the same output byte for byte.
"""
from __future__ import annotations

import subprocess
import unittest

from fesim_support import PLAIN, QEMU, regions, run_plugin, tools


def setUpModule() -> None:
    tools()      # once per process; skips the module without qemu-x86_64


class KnownAnswers(unittest.TestCase):
    """Hand-worked figures for the cases in tools/fesim/validate/cases.S."""

    def one(self, case: str, args: str = PLAIN) -> dict:
        recs = regions(run_plugin([case], args)[0])
        self.assertEqual(len(recs), 1)
        self.assertTrue(recs[0]["closed"])
        return recs[0]

    def test_loop_fits(self) -> None:
        r = self.one("loop_fit=50")
        sky = r["models"]["skylake"]
        # markers 2 + 50 x (call, 4096 lea, ret, dec, jnz)
        self.assertEqual(r["insns"], 2 + 50 * 4100)
        self.assertEqual(r["taken_branches"], 3 * 50 - 1)
        # 16385 bytes of block + 24 bytes of driver up to the end marker
        self.assertEqual(r["footprint_bytes"], 16385 + 24)
        self.assertEqual(r["footprint_lines"], 257 + 1)
        # cold misses only: 257 block lines + 1 driver line
        self.assertEqual(sky["l1i_misses"], 258)

    def test_loop_twice_cache(self) -> None:
        sky = self.one("loop_2x=50")["models"]["skylake"]
        # 1025 block lines + the driver line, evicted by every pass
        self.assertEqual(sky["l1i_misses"], 50 * 1026 + 1)

    def test_straight(self) -> None:
        r = self.one("straight")
        self.assertEqual(r["footprint_bytes"], 32769 + 24)
        # 513 lines once; the driver line is evicted by the 32 KiB pass
        self.assertEqual(r["models"]["skylake"]["l1i_misses"], 513 + 2)
        # 4 KiB pages: the 32 KiB block spans 8 (or 9) pages
        self.assertIn(r["models"]["skylake"]["itlb_misses"], (8, 9, 10))

    def test_conflict_assoc_plus_one(self) -> None:
        sky = self.one("conflict9=1000")["models"]["skylake"]
        self.assertEqual(sky["l1i_misses"], 9 * 1000 + 1)

    def test_conflict_assoc(self) -> None:
        sky = self.one("conflict8=1000")["models"]["skylake"]
        self.assertEqual(sky["l1i_misses"], 8 + 1)

    def test_small_model_thrashes(self) -> None:
        # 8 KiB 4-way: the 16 KiB loop misses every line every pass
        sm = self.one("loop_fit=20", "model=small")["models"]["small"]
        self.assertEqual(sm["l1i_misses"], 20 * 258 + 1)

    # The LOOP_CASE driver window (begin marker 0..6, call 7..11, dec 12..14,
    # jnz 15..16, end marker 17..23) is looked up at four entry points,
    # each cached on its own (docs/fesim.md, "Uop cache"): 0 (the case's
    # call lands), 12 (the block's ret lands), 7 (jnz lands) and, once,
    # 17 (the last jnz falls through past what the entry at 12 holds: a
    # lookup where the cached ways end). Four cold misses; the model before
    # issue 18 counted one lookup per window and so one.
    DRIVER_ENTRIES = 4

    def test_dsb(self) -> None:
        # 32 windows of 8 uops (2 ways each) + ret window + driver entries
        sky = self.one("dsb_fit=1000")["models"]["skylake"]
        self.assertEqual(sky["uop_misses"], 32 + 1 + self.DRIVER_ENTRIES)
        # 32 one-byte NOPs need 6 ways > 3: every pass misses
        sky = self.one("dsb_dense=1000")["models"]["skylake"]
        self.assertEqual(sky["uop_misses"], 1000 + 1 + self.DRIVER_ENTRIES)

    def test_markers_inside_one_tb(self) -> None:
        recs = regions(run_plugin(["split=10"])[0])
        self.assertEqual([(r["seq"], r["slot"], r["occ"]) for r in recs],
                         [(i, 8, i) for i in range(10)])
        for r in recs:
            self.assertEqual((r["insns"], r["bytes"]), (7, 7 + 5 * 4 + 7))
            self.assertEqual(r["taken_branches"], 0)

    def test_flush_marker_empties_every_cache(self) -> None:
        # A flush marker (the kernel's harness puts one at the start of
        # every benchmark point) leaves each setting as at start-up,
        # random streams reseeded: code run after two flushes counts the
        # same under every policy, whatever ran between them.
        settings = "model=skylake:zen4@plru:goldencove@random"
        recs, _ = run_plugin(["flush", "loop_fit=5", "straight", "flush",
                              "loop_fit=5"], settings)
        head = recs[0]
        self.assertEqual((head["flush"], head["flushes"]), (True, 2))
        first, _, again = regions(recs)
        self.assertEqual(first["models"], again["models"])
        # cold: a page walk for each of the five pages the code spans
        self.assertEqual(again["models"]["skylake"]["itlb_misses"], 5)
        # without the flush the second pass is warm
        recs, _ = run_plugin(["flush", "loop_fit=5", "loop_fit=5"], settings)
        first, warm = regions(recs)
        self.assertEqual(warm["models"]["skylake"]["itlb_misses"], 0)
        self.assertLess(warm["models"]["skylake"]["l1i_misses"],
                        first["models"]["skylake"]["l1i_misses"])
        # flush=off ignores the markers: as if they were not there
        recs, _ = run_plugin(["loop_fit=5", "flush", "loop_fit=5"],
                             settings + ",flush=off")
        self.assertEqual((recs[0]["flush"], recs[0]["flushes"]), (False, 0))
        self.assertEqual(regions(recs)[1]["models"]["skylake"]["itlb_misses"], 0)

    def test_several_models(self) -> None:
        recs, _ = run_plugin(["loop_fit=5"], "model=skylake:zen4:goldencove")
        models = [r["name"] for r in recs if r["type"] == "model"]
        self.assertEqual(models, ["skylake", "zen4", "goldencove"])
        r = regions(recs)[0]
        self.assertEqual(set(r["models"]), set(models))

    def test_bad_argument_refused(self) -> None:
        t = tools()
        res = subprocess.run([QEMU, "-plugin", f"{t.plugin},model=p4",
                              str(t.exe), "split"],
                             capture_output=True, text=True, timeout=60)
        self.assertNotEqual(res.returncode, 0)
        self.assertIn("unknown model", res.stderr)


class Determinism(unittest.TestCase):
    def test_two_runs_identical(self) -> None:
        cases = ["loop_fit=20", "conflict9=300", "split=5"]
        args = "model=skylake:zen4:small"
        _, first = run_plugin(cases, args, "det1")
        _, second = run_plugin(cases, args, "det2")
        self.assertEqual(first, second)


if __name__ == "__main__":
    unittest.main()
