# SPDX-License-Identifier: GPL-2.0-or-later
"""The verdict (tools/kfront/verdict.py): hyperfine's wording, wins/ties/
losses under the stated rule, geometric means with intervals, degenerate
points said once, "not robust" points, and the ring-0 PMU path.

tests/fixtures/pmu_ring0.log is SYNTHETIC (tests/fixtures/make_pmu_log.py):
the real record format with made-up figures. It tests the path by which
ring-0 counters reach the verdict, not a measurement."""

import copy
import dataclasses
import math
import unittest

from tests.py import FIXTURES
from kfront import collect, model, results, stats, verdict


_PMU: list[model.Results] = []


def pmu_results() -> model.Results:
    """The fixture's results (built once: the ratio bootstraps take seconds)."""
    if not _PMU:
        run = collect.collect_file(FIXTURES / "pmu_ring0.log").runs[0]
        _PMU.append(model.from_dict(results.build_results(run, {"source": "pmu_ring0.log"})))
    return copy.deepcopy(_PMU[0])


class TestVerdict(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.res = pmu_results()
        cls.cycles = verdict.verdict(cls.res.results, "cycles", "O2", "Ring-0 PMU counters")
        cls.misses = verdict.verdict(cls.res.results, "l1i_misses", "O2",
                                     "Ring-0 PMU counters")

    def test_hyperfine_wording(self) -> None:
        lines = "\n".join(self.cycles.lines)
        self.assertRegex(lines, r"net\.tcp_rr @64: Os ran 1\.2\d+ \[1\.2\d+, 1\.2\d+\] times faster than O2")
        self.assertRegex("\n".join(self.misses.lines),
                         r"net\.tcp_rr @64: Os took 1\.9\d+ ± 0\.0\d+ times fewer "
                         r"L1 I-cache misses than O2")
        self.assertEqual(self.cycles.winners[("net.tcp_rr", 64)], "Os")

    def test_baseline_winner_against_runner_up_and_ties(self) -> None:
        # footprint 0: O2 fastest, hybrid within 2% of it: no clear winner
        self.assertEqual(self.cycles.winners[("net.tcp_rr", 0)], "")
        self.assertTrue(any(ln.startswith("net.tcp_rr @0: no clear winner (O2 and hybrid "
                                          "within noise") for ln in self.cycles.lines))

    def test_wins_ties_losses(self) -> None:
        os_, hy = self.cycles.tallies["Os"], self.cycles.tallies["hybrid"]
        self.assertEqual((os_.wins, os_.ties, os_.losses), (2, 0, 2))
        self.assertEqual((hy.wins, hy.ties, hy.losses), (2, 2, 0))
        self.assertIn("Os vs O2: 2 wins, 0 ties, 2 losses", "\n".join(self.cycles.lines))

    def test_a_ratio_without_the_mark_is_a_tie(self) -> None:
        res = pmu_results()
        for e in res.results:
            r = e.counters["cycles"].ratio
            if r is not None:
                r.significant = False
        v = verdict.verdict(res.results, "cycles", "O2", "x")
        self.assertEqual((v.tallies["Os"].wins, v.tallies["Os"].ties), (0, 4))
        self.assertTrue(all(w == "" for w in v.winners.values()))

    def test_geomean_and_interval(self) -> None:
        t = self.cycles.tallies["Os"]
        ratios = [e.counters["cycles"].per_op.median /
                  next(b for b in self.res.results if b.variant == "O2" and b.bench == e.bench
                       and b.footprint == e.footprint).counters["cycles"].per_op.median
                  for e in self.res.results if e.variant == "Os"]
        want = math.exp(sum(map(math.log, ratios)) / len(ratios))
        self.assertAlmostEqual(t.geomean, want, places=9)
        self.assertLess(t.lo, t.geomean)
        self.assertGreater(t.hi, t.geomean)
        self.assertEqual(t.points, 4)

    def test_geomean_ci_too_few_runs(self) -> None:
        value, lo, hi = verdict.geomean_ci([([2.0, 2.0], [1.0, 1.0])], seed=1)
        self.assertEqual((value, lo, hi), (2.0, None, None))
        self.assertEqual(verdict.no_interval_reason([([2.0, 2.0], [1.0, 1.0])]),
                         f"a point with fewer than {stats.MIN_RUNS_FOR_CI} runs")

    def test_a_geometric_mean_without_interval_says_why(self) -> None:
        # a point whose median is above 0 but with a run of 0 (a few misses
        # in some runs only): some resamples have a median of 0, whose log
        # does not exist
        pairs = [([1.0, 1.1, 0.9], [2.0, 2.1, 1.9]), ([0.0, 0.002, 0.001], [3.0, 3.0, 3.0])]
        value, lo, hi = verdict.geomean_ci(pairs, seed=1)
        self.assertIsNone(lo)
        t = verdict.Tally(wins=2, points=2, geomean=value,
                          no_interval=verdict.no_interval_reason(pairs))
        self.assertEqual(verdict._tally_line("Os", "O2", t),
                         f"Os vs O2: 2 wins, 0 ties, 0 losses; geometric mean of ratios "
                         f"{value:.3f} over 2 points (no interval: 1 point with a run of "
                         f"0, which a resampled median can hit)")

    def test_zero_points_collapse_to_one_line(self) -> None:
        lines = self.misses.lines
        self.assertIn("no L1 I-cache misses in any variant at footprint 0 (2 workloads)", lines)
        self.assertFalse([ln for ln in lines if ln.startswith("net.tcp_rr @0")])
        self.assertEqual(self.misses.tallies["Os"].left_out, 2)

    def test_next_to_nothing_stays_out_of_the_geometric_mean(self) -> None:
        # O2 one miss a run at net.tcp_rr @64 (next to nothing per
        # operation): Os's ratio there would be in the hundreds and outweigh
        # the other points; the point still counts in the tally
        res = pmu_results()
        o2 = next(e for e in res.results if e.variant == "O2"
                  and (e.bench, e.footprint) == ("net.tcp_rr", 64))
        c = o2.counters["l1i_misses"]
        c.samples = [1] * len(c.samples)
        c.per_op = dataclasses.replace(c.per_op, median=1 / o2.iters)
        self.assertLess(c.per_op.median, stats.NEXT_TO_NOTHING)
        v = verdict.verdict(res.results, "l1i_misses", "O2", "x")
        before, after = self.misses.tallies["Os"], v.tallies["Os"]
        self.assertEqual((after.points, after.left_out),
                         (before.points - 1, before.left_out + 1))
        self.assertEqual(after.wins + after.ties + after.losses,
                         before.wins + before.ties + before.losses)
        kept = [(e, next(b for b in res.results if b.variant == "O2" and
                         (b.bench, b.footprint) == (e.bench, e.footprint)))
                for e in res.results if e.variant == "Os"]
        logs = [math.log(e.counters["l1i_misses"].per_op.median /
                         b.counters["l1i_misses"].per_op.median)
                for e, b in kept
                if min(e.counters["l1i_misses"].per_op.median,
                       b.counters["l1i_misses"].per_op.median) >= stats.NEXT_TO_NOTHING]
        self.assertEqual(len(logs), after.points)
        self.assertAlmostEqual(after.geomean, math.exp(sum(logs) / len(logs)), places=9)
        self.assertIn(f"({after.left_out} with a median under 0.01 per operation "
                      "left out)", verdict._tally_line("Os", "O2", after))

    def test_next_to_nothing_on_both_sides_is_no_win(self) -> None:
        # a miss a run against none: exact counts pass any bootstrap, but
        # one miss in hundreds of operations is how rounding fell
        res = pmu_results()
        point = ("net.tcp_rr", 64)
        for e in res.results:
            if (e.bench, e.footprint) == point:
                c = e.counters["l1i_misses"]
                c.per_op = dataclasses.replace(
                    c.per_op, median=(1 if e.variant == "O2" else 0) / e.iters)
        r = next(e for e in res.results if e.variant == "Os"
                 and (e.bench, e.footprint) == point).counters["l1i_misses"].ratio
        self.assertTrue(r.marked)
        v = verdict.verdict(res.results, "l1i_misses", "O2", "x")
        self.assertEqual(v.winners[point], "")
        line = next(ln for ln in v.lines if ln.startswith("net.tcp_rr @64:"))
        self.assertRegex(line, r"^net\.tcp_rr @64: no winner \(Os 0 and O2 0\.\d+ per "
                               r"operation: both under 0\.01, next to nothing\)$")
        before, after = self.misses.tallies["Os"], v.tallies["Os"]
        self.assertEqual((after.wins, after.ties), (before.wins - 1, before.ties + 1))
        self.assertIn("one of the two medians to be at least 0.01 per operation",
                      verdict.RULE)

    def test_more_than_a_baseline_of_none_is_a_loss(self) -> None:
        """O2 with no misses at all, Os with some in every run: no ratio
        exists (O2's median is 0), and it is a loss, as none against some
        is a win (skylake@noprefetch, net.udp_rr at 32 rules: O2 0, Os 27)."""
        res = pmu_results()
        point = ("net.tcp_rr", 64)
        for e in res.results:
            if (e.bench, e.footprint) == point:
                c = e.counters["l1i_misses"]
                n = 0.0 if e.variant == "O2" else 27.0 * e.iters
                c.samples = [n] * len(c.samples)
                c.per_op = dataclasses.replace(c.per_op, median=n / e.iters)
                if e.variant != "O2":
                    c.ratio = None      # what results.py gives against a median of 0
        before = self.misses.tallies["Os"]
        v = verdict.verdict(res.results, "l1i_misses", "O2", "x")
        after = v.tallies["Os"]
        self.assertEqual((after.wins, after.losses), (before.wins - 1, before.losses + 1))
        self.assertIn("against a baseline median of 0 (no ratio), a loss needs every run "
                      "above every run of the baseline", verdict.RULE)
        # one run of O2 with as many: not every run above, a tie
        for e in res.results:
            if (e.bench, e.footprint) == point and e.variant == "O2":
                c = e.counters["l1i_misses"]
                c.samples = [27.0 * e.iters] + c.samples[1:]
        v = verdict.verdict(res.results, "l1i_misses", "O2", "x")
        self.assertEqual(v.tallies["Os"].losses, before.losses)

    def test_a_far_bound_says_where_it_comes_from(self) -> None:
        """A bound ten times the ratio or more, from a run next to nothing
        among runs that are not, is said to come from that run (sched.pipe
        under zen4: O2's runs 0.0002, 2.0021, 2.0002 uop-cache misses an
        operation gave "10.50 [10.49, 135008.50] times fewer")."""
        res = pmu_results()
        point = ("net.tcp_rr", 64)
        for e in res.results:
            if (e.bench, e.footprint) == point and e.variant == "O2":
                c = e.counters["l1i_misses"]
                c.samples = [0.0001 * e.iters] + c.samples[1:]
            if (e.bench, e.footprint) == point and e.variant == "Os":
                r = e.counters["l1i_misses"].ratio
                r.lo = r.value / 1000      # what resamples of that run give
        v = verdict.verdict(res.results, "l1i_misses", "O2", "x")
        line = next(ln for ln in v.lines if ln.startswith("net.tcp_rr @64:"))
        self.assertRegex(line, r"times fewer L1 I-cache misses than O2 \(the far bound: "
                               r"resamples of O2's \d+ runs, 0\.0001, .* per operation, "
                               r"that draw the one next to nothing more than once\)$")
        # an ordinary interval says nothing of the kind
        self.assertNotIn("far bound", "\n".join(self.misses.lines))

    def test_not_robust(self) -> None:
        v = verdict.verdict(self.res.results, "l1i_misses", "O2", "sim",
                            not_robust={("net.udp_stream", 64, "l1i_misses")})
        self.assertIn(f"net.udp_stream @64: {verdict.NOT_ROBUST}", v.lines)
        self.assertEqual(v.winners[("net.udp_stream", 64)], "")
        self.assertEqual(v.winners[("net.tcp_rr", 64)], "Os")

    def test_not_robust_from_the_stored_robustness(self) -> None:
        # kfront run --sim with MODEL@POLICY settings stores the rankings in
        # extra.sim.robustness; the verdict block reads them from there
        from kfront import truthreport
        res = pmu_results()
        res.extra = {"sim": {"robustness": {"rows": [
            {"bench": "net.udp_stream", "footprint": 64, "counter": "l1i_misses",
             "robust": False}]}}}
        lines = truthreport.verdict_lines(res)
        self.assertTrue(any(verdict.NOT_ROBUST in line for line in lines), lines)

    def test_a_point_not_robust_is_no_win_in_the_tally(self) -> None:
        v = verdict.verdict(self.res.results, "l1i_misses", "O2", "sim",
                            not_robust={("net.udp_stream", 64, "l1i_misses")})
        before, after = self.misses.tallies["Os"], v.tallies["Os"]
        self.assertEqual((before.not_robust, after.not_robust), (0, 1))
        self.assertEqual(after.wins + after.ties + after.losses + 1,
                         before.wins + before.ties + before.losses)
        # the ratio is still this setting's own figure
        self.assertEqual((after.geomean, after.points), (before.geomean, before.points))
        self.assertIn(", 1 not robust;", "\n".join(v.lines))
        self.assertNotIn("not robust;", "\n".join(self.misses.lines))

    def test_every_policy_setting_calls_no_winner_where_one_ranking_flips(self) -> None:
        # the stored row names the model's base counter and its settings;
        # the plru setting's verdict asks with its own counter name
        from kfront import robustness
        res = pmu_results()
        plru = "sim.skylake@plru.l1i_misses"
        for e in res.results:
            e.counters = {plru if k == "l1i_misses" else k: c
                          for k, c in e.counters.items()}
        stored = {"extra": {"sim": {"robustness": {"rows": [
            {"bench": "net.udp_stream", "footprint": 64,
             "counter": "sim.skylake.l1i_misses",
             "settings": ["skylake", "skylake@plru", "skylake@random"],
             "robust": False}]}}}}
        vs = verdict.verdicts(res, ["sim"], robustness.not_robust(stored))
        self.assertEqual([v.counter for v in vs], [plru])
        self.assertIn(f"net.udp_stream @64: {verdict.NOT_ROBUST}", vs[0].lines)
        self.assertEqual(vs[0].winners[("net.udp_stream", 64)], "")

    def test_only_the_pairs_that_flipped_lose_their_winner(self) -> None:
        # net.tcp_rr @64: Os has the fewest misses. Only O2 and hybrid change
        # order across policies: Os's win over O2 holds under every
        # setting, so it is called and counted; hybrid's order against O2
        # is counted apart
        from kfront import robustness
        stored = {"extra": {"sim": {"robustness": {"rows": [
            {"bench": "net.tcp_rr", "footprint": 64, "counter": "l1i_misses",
             "flipped_pairs": [["O2", "hybrid"]], "robust": False}]}}}}
        flips = robustness.flipped(stored)
        self.assertEqual(flips, {("net.tcp_rr", 64, "l1i_misses"):
                                 frozenset({frozenset({"O2", "hybrid"})})})
        v = verdict.verdict(self.res.results, "l1i_misses", "O2", "sim", flips)
        self.assertEqual(v.winners[("net.tcp_rr", 64)], "Os")
        os_, hy = v.tallies["Os"], v.tallies["hybrid"]
        self.assertEqual(os_.not_robust, 0)
        self.assertEqual((os_.wins, os_.ties, os_.losses),
                         tuple(getattr(self.misses.tallies["Os"], k)
                               for k in ("wins", "ties", "losses")))
        self.assertEqual(hy.not_robust, 1)
        # the best variant's own order flipped: no winner, and the pairs said
        stored["extra"]["sim"]["robustness"]["rows"][0]["flipped_pairs"] = [["O2", "Os"]]
        v = verdict.verdict(self.res.results, "l1i_misses", "O2", "sim",
                            robustness.flipped(stored))
        self.assertEqual(v.winners[("net.tcp_rr", 64)], "")
        self.assertIn(f"net.tcp_rr @64: {verdict.NOT_ROBUST} (order changes between "
                      "O2 and Os)", v.lines)
        self.assertEqual((v.tallies["Os"].not_robust, v.tallies["hybrid"].not_robust), (1, 0))
        # a stored row that does not say which pairs: the whole point
        del stored["extra"]["sim"]["robustness"]["rows"][0]["flipped_pairs"]
        v = verdict.verdict(self.res.results, "l1i_misses", "O2", "sim",
                            robustness.flipped(stored))
        self.assertIn(f"net.tcp_rr @64: {verdict.NOT_ROBUST}", v.lines)
        self.assertEqual((v.tallies["Os"].not_robust, v.tallies["hybrid"].not_robust), (1, 1))

    def test_report_names_footprint_0_of_a_swept_benchmark(self) -> None:
        # robustness rows store footprint 0 for an unswept benchmark too;
        # the report's table says "-" only for those
        from kfront import report
        res = pmu_results()
        row = {"footprint": 0, "counter": "sim.skylake.l1i_misses",
               "order": {"skylake": ["O2", "Os"], "skylake@plru": ["Os", "O2"]},
               "flipped_pairs": [["O2", "Os"]], "robust": False}
        res.extra = {"sim": {"robustness": {"rankings": 2, "tie_rel": 0.01, "rows": [
            dict(row, bench="net.tcp_rr"), dict(row, bench="sched.pipe")]}}}
        table = report._robustness_section(res).blocks[-1]
        self.assertEqual([[c.text for c in r[:2]] for r in table.rows],
                         [["net.tcp_rr", "0"], ["sched.pipe", "-"]])
        # rows without the tie-aware ranking (older results.json): the order
        self.assertEqual(table.rows[0][3].text, "skylake: O2 < Os; skylake@plru: Os < O2")
        res.extra["sim"]["robustness"]["rows"][0]["ranking"] = {
            "skylake": "O2 = Os", "skylake@plru": "Os < O2"}
        table = report._robustness_section(res).blocks[-1]
        self.assertEqual(table.rows[0][3].text, "skylake: O2 = Os; skylake@plru: Os < O2")

    def test_no_interval_is_no_verdict(self) -> None:
        # a ratio without an interval (a zero median in the resamples) is
        # neither a win nor "within noise": the medians are said plainly
        line = verdict._no_interval("sched.pipe", "Os", "O2", {"Os": 0.0, "O2": 0.0001})
        self.assertEqual(line, "sched.pipe: no verdict (no interval for the ratio): "
                               "Os 0, O2 0.0001 per operation")

    def test_render_states_lower_is_better_once(self) -> None:
        lines = verdict.render(verdict.verdicts(self.res, ["pmu"]))
        self.assertEqual(lines[0], "Verdict (lower is better; baseline O2)")
        self.assertEqual(sum("lower is better" in ln for ln in lines), 1)
        self.assertIn("Holm", lines[1])
        self.assertIn("  Ring-0 PMU counters: core cycles per operation", lines)
        self.assertIn("  Ring-0 PMU counters: L1 I-cache misses per operation", lines)

    def test_sim_verdicts_l1i_then_uop_per_model(self) -> None:
        """Each model's uop-cache misses get a verdict of their own, after
        its L1i misses; the other simulated counters none."""
        names = ["sim.zen4.uop_misses", "sim.skylake.l1i_misses",
                 "sim.zen4.l1i_misses", "sim.skylake.uop_misses",
                 "sim.skylake.itlb_misses", "sim.instructions",
                 "sim.skylake@plru.uop_misses", "l1i_misses"]
        self.assertEqual(verdict.sim_verdict_counters(names), [
            "sim.skylake.l1i_misses", "sim.skylake.uop_misses",
            "sim.skylake@plru.uop_misses",
            "sim.zen4.l1i_misses", "sim.zen4.uop_misses"])
        res = pmu_results()
        for e in res.results:
            e.counters = {f"sim.zen4.{k}": c for k, c in e.counters.items()
                          if k in ("l1i_misses", "cycles")}
            e.counters = {k.replace("cycles", "uop_misses"): c
                          for k, c in e.counters.items()}
        lines = verdict.render(verdict.verdicts(res, ["sim"]))
        self.assertIn("  Simulated front end (zen4, kernel code): simulated L1 "
                      "I-cache misses (zen4) per operation", lines)
        self.assertIn("  Simulated front end (zen4, kernel code): simulated "
                      "uop-cache misses (zen4) per operation", lines)

    def test_a_winner_next_to_nothing_is_said_plainly(self) -> None:
        """O2 at 0.0001 misses an operation against hybrid's 7.126 is a
        real win, but not "71260 times fewer": the medians are given."""
        r = model.Ratio("O2", 71260.0, 71260.0, 71260.0, "", significant=True,
                        every_run_same=True)
        winner, line = verdict._pair_line(
            "sched.ctxsw", "O2", "hybrid", r, {"O2": 0.0001, "hybrid": 7.126},
            "hybrid/O2", False, "took {x} times fewer misses than")
        self.assertEqual(winner, "O2")
        self.assertTrue(line.startswith(
            "sched.ctxsw: O2 0.0001 per operation, hybrid 7.126 (hybrid/O2 71260"),
            line)
        self.assertNotIn("times fewer", line)

    def test_no_verdict_from_emulator_time(self) -> None:
        run = collect.collect_file(FIXTURES / "real_quick.log").runs[0]
        tcg = model.from_dict(results.build_results(run, {}))
        self.assertEqual(verdict.verdicts(tcg, ["emulator"]), [])

    def test_a_lopsided_interval_is_shown_as_its_bounds(self) -> None:
        # a real host ratio: the median at the interval's lower end; "1.01 ±
        # 0.06" would read as an interval across 1
        r = model.Ratio("Os", 1 / 1.0133, 1 / 1.1389, 1 / 1.0133, "")
        self.assertEqual(verdict._times(r, True), "1.01 [1.01, 1.14]")

    def test_an_interval_that_excludes_1_before_holm_is_not_called_noise(self) -> None:
        # a real host ratio: [1.003, 1.023], p 0.011, Holm's p 0.099
        r = model.Ratio("O2", 1.0157, 1.0029, 1.0234, "", excludes_one=True,
                        p=0.011, p_holm=0.099, significant=False)
        _, line = verdict._pair_line("mix.tcp_rr_wakeup @64", "O2", "Os", r,
                                     {"O2": 1.0, "Os": 1.0157}, "Os/O2", False, "")
        self.assertEqual(line, "mix.tcp_rr_wakeup @64: no clear winner (Os/O2 1.016 "
                               "± 0.010 excludes 1, but not after Holm's "
                               "correction: p = 0.099)")
        self.assertNotIn("noise", line)

    def test_an_interval_of_no_width_is_said_so(self) -> None:
        # simulator counts: every run the same, the inverted bounds equal
        # to the last bit or nearly
        r = model.Ratio("O2", 1 / 1.485, 1 / 1.485, 1 / 1.485, "",
                        every_run_same=True)
        self.assertEqual(verdict._times(r, True), "1.485 (every run the same)")
        r = model.Ratio("O2", 0.35, 0.35, 0.35 * (1 + 1e-12), "",
                        every_run_same=True)
        self.assertEqual(verdict._times(r, False), "0.350 (every run the same)")
        # no width, but not from equal runs (nine runs alike and one not
        # can give that): only "narrower than the last decimal" is true
        r = model.Ratio("O2", 0.35, 0.35, 0.35, "")
        self.assertEqual(verdict._times(r, False), "0.350 ± <0.001")
        # a few misses' difference between runs: narrower than 3 decimals
        r = model.Ratio("O2", 1 / 1.48495, 1 / 1.4851, 1 / 1.4849, "")
        self.assertEqual(verdict._times(r, True), "1.485 ± <0.001")
        # a winner by a few misses in ten thousand: not "1.000 times fewer"
        r = model.Ratio("O2", 1 / 1.00018, 1 / 1.00018, 1 / 1.00018, "",
                        every_run_same=True)
        self.assertEqual(verdict._times(r, True), "1.0002 (every run the same)")
        r = model.Ratio("O2", 1.000004, 1.000004, 1.000004, "")
        self.assertEqual(verdict._times(r, False), "1.000004 ± <0.001")
        r = model.Ratio("O2", 1.0, 1.0, 1.0, "", every_run_same=True)
        self.assertEqual(verdict._times(r, False), "1.000 (every run the same)")

    def test_a_geometric_mean_of_no_width_is_said_so(self) -> None:
        # simulator counts the same in every run: "0.5819 [0.5819, 0.5819]"
        # would suggest an interval
        t = verdict.Tally(wins=3, points=3, geomean=0.58191, lo=0.58191,
                          hi=0.58191 * (1 + 1e-12), every_run_same=True)
        self.assertEqual(verdict._tally_line("Os", "O2", t),
                         "Os vs O2: 3 wins, 0 ties, 0 losses; geometric mean of "
                         "ratios 0.5819 (every run the same) over 3 points")
        t.lo, t.hi, t.every_run_same = 0.58190, 0.58194, False
        self.assertIn("ratios 0.5819 ± <0.0001 over 3 points",
                      verdict._tally_line("Os", "O2", t))
        t.lo, t.hi = 0.5813, 0.5826
        self.assertIn("ratios 0.5819 [0.5813, 0.5826] over 3 points",
                      verdict._tally_line("Os", "O2", t))

    def test_digits_follow_the_interval(self) -> None:
        r = model.Ratio("O2", 0.8, 0.79, 0.81, "")
        self.assertEqual(verdict._times(r, True), "1.250 ± 0.016")
        self.assertEqual(stats.decimals_for(0.016), 3)

    def test_a_winner_with_none_has_no_times_fewer(self) -> None:
        """A variant with no misses where the baseline has some (pgo at a
        footprint-sweep point) wins with its medians said, not 1/0 times."""
        r = model.Ratio("O2", 0.0, 0.0, 0.0, "", excludes_one=True,
                        every_run_same=True)
        self.assertTrue(r.marked)
        winner, line = verdict._pair_line("net.udp_rr @64", "pgo", "O2", r,
                                          {"pgo": 0.0, "O2": 3.5}, "pgo/O2", True,
                                          "took {x} times fewer misses than")
        self.assertEqual(winner, "pgo")
        self.assertEqual(line, "net.udp_rr @64: pgo 0 per operation, O2 3.5 (pgo/O2 0, every run the same)")

    def test_equal_counts_are_equal_not_noise(self) -> None:
        """Deterministic simulator counts that are the same in every run: an
        exact tie, not "within noise: 1.00 ± 0.00"."""
        r = model.Ratio("O2", 1.0, 1.0, 1.0, "")
        self.assertFalse(r.marked)
        winner, line = verdict._pair_line("calib.empty @0", "O2", "Os", r,
                                          {"O2": 12.0, "Os": 12.0}, "Os/O2", False,
                                          "took {x} times fewer misses than")
        self.assertEqual((winner, line), ("", "calib.empty @0: no winner (O2 and Os equal: "
                                               "12 per operation)"))
        # a tie with an interval still reads as noise
        r = model.Ratio("O2", 1.0, 0.99, 1.01, "")
        self.assertIn("within noise", verdict._pair_line("x @0", "O2", "Os", r,
                                                         {"O2": 1.0, "Os": 1.0}, "Os/O2",
                                                         False, "took {x} than")[1])


if __name__ == "__main__":
    unittest.main()
