# SPDX-License-Identifier: GPL-2.0-or-later
"""Real-CPU verdicts over several timing processes (tools/kfront/repeats.py):
each variant's verdict against the baseline per process, the points where
they differ, and a verdict that calls no winner there and counts them
apart as "not repeated"."""

import dataclasses
import unittest

from tests.py import FIXTURES
from kfront import collect, model, repeats, results, truthreport, verdict


def process(changes: dict[tuple[str, str], dict] | None = None) -> model.Results:
    """The clean fixture's run as a host-harness process, with some ratios
    to O2 replaced."""
    run = collect.collect_file(FIXTURES / "clean.log").runs[0]
    r = model.from_dict(results.build_results(run, {"context": "user"}), "clean")
    for e in r.results:
        c = e.counters["tsc"]
        if (e.bench, e.variant) in (changes or {}):
            c.ratio = dataclasses.replace(c.ratio, **changes[(e.bench, e.variant)])
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
