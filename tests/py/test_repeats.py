# SPDX-License-Identifier: GPL-2.0-or-later
"""Real-CPU verdicts over several timing processes (tools/kfront/repeats.py):
each variant's verdict against the baseline per process, the points where
they differ, and a verdict that calls no winner there and counts them
apart as "not repeated"."""

import dataclasses
import math
import unittest

from tests.py import FIXTURES
from kfront import collect, model, placement, repeats, results, stats, truthreport, verdict


def process(changes: dict[tuple[str, str], dict] | None = None,
            scale: dict[tuple[str, str], float] | None = None) -> model.Results:
    """The clean fixture's run as a host-harness process, with some ratios
    to O2 replaced and some medians per operation scaled."""
    run = collect.collect_file(FIXTURES / "clean.log").runs[0]
    r = model.from_dict(results.build_results(run, {"context": "user"}), "clean")
    for e in r.results:
        c = e.counters["tsc"]
        if (e.bench, e.variant) in (changes or {}):
            c.ratio = dataclasses.replace(c.ratio, **changes[(e.bench, e.variant)])
        if (e.bench, e.variant) in (scale or {}):
            f = scale[(e.bench, e.variant)]
            c.per_op = dataclasses.replace(c.per_op, median=c.per_op.median * f)
            c.samples = [x * f for x in c.samples]
            ratio = c.ratio
            lo, hi = ratio.lo * f, ratio.hi * f
            c.ratio = dataclasses.replace(ratio, value=ratio.value * f, lo=lo, hi=hi,
                                          excludes_one=lo > 1 or hi < 1,
                                          significant=lo > 1 or hi < 1)
    return r


class Repeats(unittest.TestCase):
    def test_summary(self) -> None:
        first = process()
        second = process({("calib.calls", "Os"): {"significant": False}})
        block = repeats.summary([first, second, process()])
        self.assertEqual((block["processes"], block["points"], block["not_repeated"]),
                         (3, 3, 1))
        self.assertEqual((block["verdicts"], block["verdicts_not_repeated"]), (6, 1))
        row = next(r for r in block["rows"] if r["bench"] == "calib.calls")
        self.assertEqual(row["verdicts"], {"Os": ["win", "tie", "win"],
                                           "hybrid": ["tie", "tie", "tie"]})
        self.assertEqual((row["repeated"], row["flipped_pairs"]), (False, [["Os", "O2"]]))
        self.assertIn("3 timing processes: 5 of 6 verdicts against O2 the same in every one",
                      repeats.line(block))
        # each process's geometric mean of the time ratios, over the
        # points both medians count in (the same fixture thrice: equal)
        self.assertEqual(set(block["geomeans"]), {"Os", "hybrid"})
        self.assertEqual(len(set(block["geomeans"]["Os"])), 1)
        self.assertIn("geometric mean of the time ratios in each process: Os/O2 ",
                      repeats.line(block))
        flips = repeats.flipped({"host_repeats": block})
        self.assertEqual(flips, {("calib.calls", 0, "tsc"): frozenset({frozenset({"Os", "O2"})})})
        self.assertEqual(repeats.flipped({}), {})

    def test_moves_between_processes(self) -> None:
        """Each point's time ratio in every process, and how far the ratios
        moved against the first process's own interval."""
        first = process()
        block = repeats.summary([first, process(scale={("calib.calls", "Os"): 1.15})])
        row = next(r for r in block["rows"] if r["bench"] == "calib.calls")
        a, b = row["ratios"]["Os"]
        self.assertAlmostEqual(b / a, 1.15, places=3)
        moves = block["moves"]
        self.assertEqual(moves["max_at"]["bench"], "calib.calls")
        self.assertEqual(moves["max_at"]["variant"], "Os")
        self.assertAlmostEqual(moves["max"], 0.15, places=3)
        # every other (point, variant) did not move: the median is 0
        self.assertEqual(moves["median"], 0.0)
        self.assertEqual(moves["pairs"], sum(
            1 for r in block["rows"] for rs in r["ratios"].values() if None not in rs))
        ratio = next(e.counters["tsc"].ratio for e in first.results
                     if (e.bench, e.variant) == ("calib.calls", "Os"))
        hw = [(e.counters["tsc"].ratio.hi - e.counters["tsc"].ratio.lo) / 2
              / e.counters["tsc"].ratio.value
              for e in first.results if e.variant != "O2" and e.counters["tsc"].ratio]
        self.assertIsNotNone(ratio.lo)
        self.assertIsNotNone(moves["half_width_median"])
        self.assertGreaterEqual(moves["half_width_median"], min(hw) - 1e-4)
        self.assertLessEqual(moves["half_width_median"], max(hw) + 1e-4)
        text = repeats.moves_text(block)
        self.assertIn("a point's time ratio moved by a median of 0.0 % between processes (at most 15.0 %: "
                      "calib.calls, Os/O2 ", text)
        self.assertIn("95 % intervals would make that ", repeats.line(block))
        self.assertIn("95 % intervals (median ±", text)
        # two processes: the median range of two normal draws is 0.6745 x
        # sqrt 2 of their spread, the spread being the interval's log
        # width over 2 x 1.96; only calib.calls/Os moved at all
        sigma = math.log(ratio.hi / ratio.lo) / (2 * 1.96)
        self.assertAlmostEqual(stats.normal_range_median(2), 0.6745 * math.sqrt(2), places=3)
        self.assertGreater(moves["expected_median"], 0)
        self.assertEqual((moves["with_interval"], moves["beyond_expected"]),
                         (len(hw), int(0.15 > math.exp(0.9539 * sigma) - 1)))
        self.assertIn(f"; {moves['beyond_expected']} of {len(hw)} moved more than their "
                      "own interval gives half the time", text)
        self.assertIsNone(moves["by_footprint"])       # one footprint (none)
        # each process's noise: the median half-width of its intervals
        # (the second's ratios were moved, not its intervals' widths)
        self.assertEqual(block["half_widths"], [moves["half_width_median"]] * 2)
        self.assertEqual(repeats.half_widths_text(block).count("±"), 2)
        self.assertEqual(repeats.half_widths_text({}), "")
        # a sweep: the moves by footprint, where calib.calls moved
        swept = [process(), process(scale={("calib.calls", "Os"): 1.15})]
        for p in swept:
            for e in p.results:
                if e.bench == "calib.calls":
                    e.footprint = 32
        by_fp = repeats.summary(swept)["moves"]["by_footprint"]
        self.assertEqual([(f["footprint"], f["median"]) for f in by_fp],
                         [(0, 0.0), (32, 0.0)])
        self.assertEqual(by_fp[1]["pairs"], 2)     # Os and hybrid at 32: 0 and 15 %
        text = repeats.moves_text(repeats.summary(swept))
        self.assertIn("by footprint, moved against expected: 0: 0.0 % against ", text)
        self.assertIn("(at most 15.0 %: calib.calls @32, Os/O2 ", text)
        self.assertFalse(moves["max_at"]["swept"])
        # an older block, without the figures, says nothing of them
        self.assertEqual(repeats.moves_text({"baseline": "O2"}), "")

    def test_pooled_over_the_processes(self) -> None:
        """Each point's ratio pooled over the processes (a two-level
        bootstrap), with its verdict: where one process is far faster and
        the other far slower, the pooled interval holds 1 (a tie), where
        both agree it keeps their verdict; the tally counts them."""
        block = repeats.summary([process(), process(scale={("calib.calls", "Os"): 1.6})])
        row = next(r for r in block["rows"] if r["bench"] == "calib.calls")
        self.assertEqual(row["verdicts"]["Os"], ["win", "loss"])
        pooled = row["pooled"]["Os"]
        self.assertEqual(pooled["verdict"], "tie")
        self.assertLess(pooled["lo"], 1)
        self.assertGreater(pooled["hi"], 1)
        memcpy = next(r for r in block["rows"] if r["bench"] == "calib.memcpy20")
        self.assertEqual(memcpy["pooled"]["Os"]["verdict"], "loss")
        self.assertEqual({v: sum(t.values()) for v, t in block["pooled"]["tally"].items()},
                         {"Os": 3, "hybrid": 3})
        self.assertEqual(block["pooled"]["tally"]["Os"]["tie"], 2)
        self.assertEqual(repeats.pooled_text(block).split("; ")[0], "Os 0 wins, 2 ties, 1 loss")
        self.assertNotIn("two-level", repeats.line(block))    # two processes: no halves
        self.assertIsNone(block["halves"])       # two processes: no halves
        self.assertIsNone(repeats.summary([process()])["pooled"])

    def test_where_the_code_ran_from(self) -> None:
        # each process's extra.host.placement (placement.py); said only
        # when every process says the same, nothing for older documents
        def placed(how: str | None) -> model.Results:
            r = process()
            if how is not None:
                r.extra = {**r.extra, "host": {"placement": how}}
            return r
        fresh = repeats.summary([placed(placement.FRESH), placed(placement.FRESH)])
        self.assertEqual(fresh["placement"], [placement.FRESH, placement.FRESH])
        self.assertIn("fresh copy of the program", repeats.placement_text(fresh))
        self.assertIn("2 timing processes (each from a fresh copy of the program): ",
                      repeats.line(fresh))
        kept = repeats.summary([placed(placement.KEPT), placed(placement.KEPT)])
        self.assertIn("do not sample where the code lands", repeats.placement_text(kept))
        self.assertIn("2 timing processes (all from the program file as it stood): ",
                      repeats.line(kept))
        for mixed in ([placed(placement.FRESH), placed(placement.KEPT)],
                      [placed(None), placed(None)]):
            self.assertEqual(repeats.placement_text(repeats.summary(mixed)), "")

    def test_halves(self) -> None:
        """Four processes: the first two's verdicts against the last two's,
        by each rule. The last two made calib.calls/Os slower: both rules
        disagree there, and agree on the rest."""
        slow = {("calib.calls", "Os"): 1.6}
        block = repeats.summary([process(), process(), process(scale=slow),
                                 process(scale=slow)])
        h = block["halves"]
        self.assertEqual(h["processes_each"], 2)
        for rule in ("repeat", "pooled"):
            self.assertEqual((h[rule]["verdicts"], h[rule]["agree"], h[rule]["reversed"]),
                             (6, 5, 1), rule)
        self.assertIn("the first 2 processes against the next 2: pooled, 5 of 6 agree, "
                      "1 reversed", repeats.line(block))

    def test_verdict_calls_no_winner_where_a_process_differs(self) -> None:
        first = process()
        block = repeats.summary([first, process({("calib.calls", "Os"): {"value": 1.03}})])
        first.extra["host_repeats"] = block
        lines = "\n".join(truthreport.verdict_lines(first))
        self.assertIn(f"calib.calls: {verdict.NOT_REPEATED} (Os against O2: win, then loss)",
                      lines)
        self.assertIn("Os vs O2: 0 wins, 1 tie, 1 loss, 1 not repeated", lines)
        # one process: the verdict as before
        plain = "\n".join(truthreport.verdict_lines(process()))
        self.assertIn("calib.calls: Os ran", plain)
        self.assertNotIn("not repeated", plain)


if __name__ == "__main__":
    unittest.main()
