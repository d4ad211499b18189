# SPDX-License-Identifier: GPL-2.0-or-later
# fesim plugin tests: replacement policies, prefetch, the iTLB; known answers.
"""Misses of tests/fesim/policycases/policy_cases.S under LRU, tree-PLRU
and seeded random replacement, with and without next-line prefetch, and
the two-level iTLB, each derived by hand in the test that checks it
(docs/fesim.md, "Replacement and prefetch"); settings named and refused.
"""
from __future__ import annotations

import subprocess
import unittest

from fesim_support import QEMU, regions, run_plugin, tools


def setUpModule() -> None:
    tools()      # once per process; skips the module without qemu-x86_64


class PolicyCases(unittest.TestCase):
    """Known answers of tests/fesim/policycases/policy_cases.S (cold=on,
    skylake geometry; docs/fesim.md, "Replacement and prefetch")."""

    SETTINGS = "model=skylake:skylake@plru:skylake@random:skylake@noprefetch,cold=on"

    @classmethod
    def setUpClass(cls) -> None:
        t = tools()
        cls.exe = t.build_policy_cases()
        cls.on = cls.run_case(cls.SETTINGS, "pol_on")
        cls.off = cls.run_case("model=skylake,l1i_prefetch=0,cold=on",
                               "pol_off")

    @classmethod
    def run_case(cls, args: str, name: str) -> dict[int, dict]:
        recs = run_plugin([], args, name, cls.exe)[0]
        return {r["slot"]: r["models"] for r in regions(recs)}

    def test_plru_differs_from_lru_on_a_set_over_capacity(self) -> None:
        # Path P0, A0..A7, A0, B, A1, P0 (A*, B: one L1i set, 8 ways).
        # P0 and A0..A7: 9 cold misses, the 8 A lines fill ways 0..7 in
        # order. A0 again: a hit. B: a miss that evicts
        #   LRU: the least recently used line, A1 (A0 was just used);
        #   tree-PLRU: the tree bits point away from the last touch of
        #     every node: root -> right half (A0 in the left was last),
        #     node 4-7 -> 4,5 (7 was last), node 4,5 -> 4 (5 was last):
        #     A4.
        # A1 again: LRU misses (11 in all), PLRU hits (10). Next-line
        # prefetches go to the next set and change neither.
        self.assertEqual(self.on[1]["skylake"]["l1i_misses"], 11)
        self.assertEqual(self.on[1]["skylake@plru"]["l1i_misses"], 10)
        # random: B evicts one of 8 ways; A1 misses only if it was A1's
        self.assertIn(self.on[1]["skylake@random"]["l1i_misses"], (10, 11))
        self.assertEqual(self.off[1]["skylake"]["l1i_misses"], 11)

    def test_next_line_prefetch_on_a_loop_just_over_capacity(self) -> None:
        # M (marker line), L0..L575 (the loop, 9 lines per set), E = L576
        # (end marker); 10 passes.
        # Without prefetch, LRU with 9 lines per 8-way set misses every
        # loop line every pass: M + 576 x 10 + E = 5762.
        self.assertEqual(self.off[2]["skylake"]["l1i_misses"], 5762)
        self.assertEqual(self.off[2]["skylake"]["l1i_prefetches"], 0)
        # Tagged next-line prefetch: pass 1, M misses and prefetches L0;
        # each first use of a prefetched line prefetches the next, so
        # L0..L575 are prefetch hits and L1..L576 prefetched: 577. Every
        # later pass: L0 was evicted (9 lines per set) and misses, then
        # L1..L575 and E are prefetched again (each was evicted by the
        # ninth line of its set): 1 miss and 576 prefetches per pass.
        # After the last pass E is used and prefetches E + 1: 1 more.
        # Misses: 1 + 9 = 10; prefetches: 577 + 9 x 576 + 1 = 5762.
        sky = self.on[2]["skylake"]
        self.assertEqual(sky["l1i_misses"], 10)
        self.assertEqual(sky["l1i_prefetches"], 5762)
        # The setting @noprefetch is the override l1i_prefetch=0 under
        # LRU: every figure of every case the same.
        for slot, models in self.off.items():
            self.assertEqual(self.on[slot]["skylake@noprefetch"], models["skylake"], slot)

    def test_two_level_itlb(self) -> None:
        # M + T0..T143: 145 pages; T pages are 9 per L1 iTLB set (8 ways,
        # LRU): every visit misses the L1 iTLB, 1 + 144 x 10 = 1441, but
        # at most 2 share an STLB set (128 sets, 12 ways): the only page
        # walks are the 145 cold ones.
        sky = self.on[3]["skylake"]
        self.assertEqual(sky["itlb_accesses"], 1441)
        self.assertEqual(sky["itlb_l1_misses"], 1441)
        self.assertEqual(sky["itlb_misses"], 145)
        for setting in ("skylake@plru", "skylake@random"):
            self.assertEqual(self.on[3][setting]["itlb_misses"], 145)

    def test_random_is_seeded(self) -> None:
        again = self.run_case(self.SETTINGS, "pol_again")
        self.assertEqual(again, self.on)
        other = self.run_case("model=skylake@random,cold=on,seed=7",
                              "pol_seed")
        self.assertEqual(other[3]["skylake@random"]["itlb_misses"], 145)

    def test_settings_named_and_validated(self) -> None:
        t = tools()
        recs, _ = run_plugin(["split=1"], "model=skylake@plru:zen4@random")
        models = {r["name"]: r for r in recs if r["type"] == "model"}
        self.assertEqual(models["skylake@plru"]["l1i_policy"], "plru")
        self.assertEqual(models["skylake@plru"]["uop_policy"], "lru")
        self.assertEqual(models["zen4@random"]["uop_policy"], "random")
        self.assertEqual(models["skylake@plru"]["stlb_entries"], 1536)
        recs, _ = run_plugin(["split=1"], "model=zen4@noprefetch")
        model = next(r for r in recs if r["type"] == "model")
        self.assertEqual((model["name"], model["l1i_prefetch"], model["l1i_policy"],
                          model["uop_policy"]), ("zen4@noprefetch", 0, "lru", "lru"))
        for bad in ("model=skylake@mru", "model=skylake:skylake", "model=skylake@nopf",
                    "model=skylake,uop_policy=plru"):
            res = subprocess.run([QEMU, "-plugin", f"{t.plugin},{bad}",
                                  str(t.exe), "split"],
                                 capture_output=True, text=True, timeout=60)
            self.assertNotEqual(res.returncode, 0, bad)
            self.assertIn("fesim:", res.stderr, bad)


if __name__ == "__main__":
    unittest.main()
