# SPDX-License-Identifier: GPL-2.0-or-later
# fesim plugin tests: the uop cache's rules, known answers.
"""Uop misses of tests/fesim/uopcases/uop_cases.S under Skylake's uop-cache
rules, with and without the JCC erratum, each derived by hand in the test
that checks it (docs/fesim.md, "Uop cache").
"""
from __future__ import annotations

import unittest

from fesim_support import regions, run_plugin, tools


def setUpModule() -> None:
    tools()      # once per process; skips the module without qemu-x86_64


class UopCacheRules(unittest.TestCase):
    """Known answers of tests/fesim/uopcases/uop_cases.S under Intel's rules.

    Every case is a loop of 100 passes over one measured 32-byte window W,
    entered from W-1 (begin marker, bytes 25..31, entered once: 1 cold
    miss) and left into W+1 (end marker: 1 cold miss). A window that cannot
    be cached misses on each of its 100 lookups: 100 + 2 = 102. The rules
    (docs/fesim.md, "Uop cache"): 6 slots per way, at most 2 branches per
    way, an unconditional jump ends a way, at most 3 ways per window (for
    all its entry points together), a macro-fused pair is 1 slot, a
    microcoded instruction a whole way, and with the JCC erratum a window
    holding a jump (or fused pair) that crosses or ends on a 32-byte
    boundary is never cached.
    """

    counts: dict[int, dict[str, dict]] = {}

    @classmethod
    def setUpClass(cls) -> None:
        recs = run_plugin([], "model=skylake:skylake-nojcc", "uop",
                          tools().build_uop_cases())[0]
        cls.counts = {r["slot"]: r["models"] for r in regions(recs)}

    def misses(self, slot: int, model: str = "skylake") -> int:
        return self.counts[slot][model]["uop_misses"]

    def test_not_taken_branches_keep_filling(self) -> None:
        # clc, 9 nops, jc, 8 nops, jc, dec+jnz: 21 slots from entry 0, one
        # stream across the two not-taken jc (three TBs). Ways: 6 | 6 | 6 |
        # 3 = 4 > 3: W is never cached, all 100 lookups miss. Issue 18:
        # hardware rule 102 (the old model took only the first TB's 11
        # uops, cached them in 2 ways and counted 3).
        self.assertEqual(self.misses(1), 102)
        self.assertEqual(self.misses(1, "skylake-nojcc"), 102)

    def test_jmp_ending_on_byte_31(self) -> None:
        # dec+jz (1 slot), 5 nops, jmp ending on byte 31: 7 slots, 2 ways.
        # With the erratum W is never cached: 100 + 2 = 102 (issue 18:
        # 102). Without it only the three cold misses (W-1, W, W+1).
        self.assertEqual(self.misses(2), 102)
        self.assertEqual(self.misses(2, "skylake-nojcc"), 3)

    def test_two_entry_points_per_window(self) -> None:
        # Five windows, each entered at A (0: 7 nops + jmp = 8 slots, 2
        # ways) and B (16: 13 nops + jmp = 14 slots, 3 ways; W4's B: 7
        # nops + dec+jnz = 8 slots, 2 ways). Entries of one window share
        # its 3 ways, so A and B evict each other: every one of the 10
        # lookups a pass misses: 5 x 2 x 100 = 1000, + W-1 + W+1 = 1002.
        # The issue quotes 1007 for its own (unpublished) program; with this
        # layout the published rules give 1002: the 5 x 2 x 100 part is the
        # same, the 5 more must come from its driver code, which we cannot
        # reproduce. The old model counted 12 (one entry per window, cached
        # on the first pass).
        self.assertEqual(self.misses(3), 1002)
        self.assertEqual(self.misses(3, "skylake-nojcc"), 1002)

    def test_macro_fused_pairs_take_one_slot(self) -> None:
        # test+jnz, test+jnz, 14 nops, dec+jnz: fused 17 slots in ways
        # [pair pair n n n n] [n x 6] [n n n n pair] = 3 ways, cached.
        # Unfused (20 slots, 4 ways) it would miss 102 times. Misses: W-1,
        # W, W+1, and once the lookup at byte 27 of W: after the last pass
        # the stream runs on past the cached entry's end (bytes 0..26) into
        # the padding nops, which is a lookup where the entry ends.
        self.assertEqual(self.misses(4), 4)

    def test_microcoded_takes_a_whole_way(self) -> None:
        # 3 nops | rep stosb | 3 nops | rep stosb | dec+jnz: 5 ways > 3
        # (9 slots, 2 ways, if rep stosb took one slot): never cached.
        self.assertEqual(self.misses(5), 102)
        self.assertEqual(self.misses(5, "skylake-nojcc"), 102)

    def test_jcc_erratum_on_a_fused_pair(self) -> None:
        # dec at bytes 29..31 of W, jnz at 0..1 of W+1: the jnz alone
        # touches no boundary, the fused pair crosses one. W is never
        # cached: 100; W-1: 1; W+1 is looked up at 0 on every pass (the jnz
        # starts there; cached after the first: 1) and once at byte 2 after
        # the last pass (end marker past the entry's end: 1) = 103.
        # Without the erratum: 4 cold misses.
        self.assertEqual(self.misses(6), 103)
        self.assertEqual(self.misses(6, "skylake-nojcc"), 4)


if __name__ == "__main__":
    unittest.main()
