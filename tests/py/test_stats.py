# SPDX-License-Identifier: GPL-2.0-or-later
"""Statistics against known inputs: median, MAD, per-op values, bootstrap
determinism and coverage, and the digits a value is printed with."""

import random
import unittest

from kfront import stats


class TestSummaries(unittest.TestCase):
    def test_median_odd_even(self) -> None:
        self.assertEqual(stats.median([3, 1, 2]), 2)
        # Even count: the lower middle value, as the kernel takes it.
        self.assertEqual(stats.median([4, 1, 3, 2]), 2)
        self.assertEqual(stats.median([7]), 7)
        with self.assertRaises(ValueError):
            stats.median([])

    def test_mad(self) -> None:
        # median 3; deviations 2 1 0 1 6 -> median 1
        self.assertEqual(stats.mad([1, 2, 3, 4, 9]), 1)
        self.assertEqual(stats.mad([5, 5, 5]), 0)
        # median 2; deviations 1 0 1 2 -> lower middle 1
        self.assertEqual(stats.mad([1, 2, 3, 4]), 1.0)

    def test_summary_and_per_op(self) -> None:
        s = stats.summarize([10, 30, 20, 40, 1000])
        self.assertEqual((s.median, s.min, s.max, s.mad, s.n),
                         (30, 10, 1000, 10, 5))
        self.assertEqual(stats.per_op([1000, 2500], 1000), [1.0, 2.5])
        with self.assertRaises(ValueError):
            stats.per_op([1], 0)

    def test_median_se_uses_mad(self) -> None:
        xs = [1, 2, 3, 4, 9]
        expect = 1.2533 * 1.4826 * 1 / 5 ** 0.5
        self.assertAlmostEqual(stats.median_se(xs), expect)
        self.assertEqual(stats.median_se([4]), 0.0)


class TestBootstrap(unittest.TestCase):
    def test_deterministic(self) -> None:
        rng = random.Random(1)
        a = [100 + rng.gauss(0, 2) for _ in range(15)]
        b = [105 + rng.gauss(0, 2) for _ in range(15)]
        r1 = stats.bootstrap_ratio_ci(b, a, seed=42)
        r2 = stats.bootstrap_ratio_ci(b, a, seed=42)
        self.assertEqual(r1, r2)
        self.assertNotEqual(r1, stats.bootstrap_ratio_ci(b, a, seed=43))
        self.assertEqual(stats.seed_for("x", 1), stats.seed_for("x", 1))

    def test_known_ratio_is_significant(self) -> None:
        base = [1000.0 + i for i in range(-7, 8)]
        test = [x * 1.10 for x in base]
        iv = stats.bootstrap_ratio_ci(test, base)
        self.assertAlmostEqual(iv.value, 1.10)
        self.assertLessEqual(iv.lo, 1.10)
        self.assertGreaterEqual(iv.hi, 1.10)
        self.assertTrue(iv.excludes_one)
        self.assertIn("paired", iv.method)

    def test_equal_is_not_significant(self) -> None:
        rng = random.Random(7)
        a = [50 + rng.gauss(0, 1) for _ in range(20)]
        b = [50 + rng.gauss(0, 1) for _ in range(20)]
        iv = stats.bootstrap_ratio_ci(a, b, paired=False)
        self.assertFalse(iv.excludes_one)
        self.assertIn("independent", iv.method)

    def test_coverage_of_known_ratio(self) -> None:
        """A 95% interval should contain the true ratio most of the time."""
        rng = random.Random(2024)
        true_ratio, trials, hits = 1.05, 120, 0
        for t in range(trials):
            base = [100 + rng.gauss(0, 3) for _ in range(25)]
            test = [true_ratio * 100 + rng.gauss(0, 3) for _ in range(25)]
            iv = stats.bootstrap_ratio_ci(test, base, seed=t, resamples=400,
                                          paired=False)
            hits += iv.lo <= true_ratio <= iv.hi
        # Percentile bootstraps of a median run slightly narrow at n=25.
        self.assertGreaterEqual(hits / trials, 0.85)
        self.assertLessEqual(hits / trials, 1.0)

    def test_too_few_runs_and_zero(self) -> None:
        self.assertIsNone(stats.bootstrap_ratio_ci([1, 2], [1, 2]))
        self.assertIsNone(stats.bootstrap_ratio_ci([1, 2, 3], [0, 0, 0]))
        self.assertIsNone(stats.bootstrap_median_ci([1.0]))

    def test_zero_baseline_gives_an_unbounded_interval(self) -> None:
        # Base median 1 but 0 in many resamples (7 zeros of 15): the ratio
        # is unbounded above, and the interval must say so.
        base = [0.0] * 7 + [1.0] * 8
        test = [2.0] * 15
        iv = stats.bootstrap_ratio_ci(test, base, seed=5)
        self.assertTrue(iv.unbounded)
        self.assertEqual(iv.hi, float("inf"))
        self.assertFalse(iv.excludes_one and iv.lo < 1.0)
        self.assertEqual(iv.effective, iv.resamples)

    def test_undefined_resamples_give_no_interval(self) -> None:
        # 0/0 in many resamples: no interval, not a made-up one.
        base = [0.0] * 7 + [1.0] * 8
        test = [0.0] * 7 + [1.0] * 8
        self.assertIsNone(stats.bootstrap_ratio_ci(test, base, seed=5,
                                                   paired=True))

    def test_effective_count_when_few_are_dropped(self) -> None:
        base = [0.0] * 3 + [1.0] * 22
        test = [0.0] * 3 + [1.0] * 22
        iv = stats.bootstrap_ratio_ci(test, base, seed=5, paired=True)
        self.assertIsNotNone(iv)
        self.assertEqual(iv.effective, iv.resamples)  # none had median 0
        self.assertEqual((iv.lo, iv.hi), (1.0, 1.0))

    def test_p_value_agrees_with_the_interval(self) -> None:
        base = [1000.0 + i for i in range(-7, 8)]
        self.assertLess(stats.bootstrap_ratio_p([x * 1.1 for x in base],
                                                base), 0.05)
        rng = random.Random(7)
        a = [50 + rng.gauss(0, 1) for _ in range(20)]
        b = [50 + rng.gauss(0, 1) for _ in range(20)]
        self.assertGreater(stats.bootstrap_ratio_p(a, b, paired=False), 0.05)

    def test_holm(self) -> None:
        # Classic example: p = .01 .04 .03 .005 with m = 4.
        adj = stats.holm([0.01, 0.04, 0.03, 0.005])
        for got, want in zip(adj, [0.03, 0.06, 0.06, 0.02]):
            self.assertAlmostEqual(got, want)
        self.assertEqual(stats.holm([]), [])
        self.assertEqual(stats.holm([0.9, 0.8]), [1.0, 1.0])

    def test_lag1_autocorrelation(self) -> None:
        self.assertIsNone(stats.lag1_autocorrelation([1, 2]))
        self.assertIsNone(stats.lag1_autocorrelation([5, 5, 5, 5]))
        trend = [float(i) for i in range(20)]          # carries state
        self.assertGreater(stats.lag1_autocorrelation(trend),
                           stats.autocorrelation_limit(20))
        alternating = [1.0, -1.0] * 10
        self.assertAlmostEqual(stats.lag1_autocorrelation(alternating),
                               -0.95)
        rng = random.Random(11)
        noise = [rng.gauss(0, 1) for _ in range(200)]
        self.assertLess(abs(stats.lag1_autocorrelation(noise)),
                        stats.autocorrelation_limit(200))

    def test_median_ci_brackets_median(self) -> None:
        xs = [float(x) for x in range(1, 32)]
        iv = stats.bootstrap_median_ci(xs, seed=3)
        self.assertEqual(iv.value, 16)
        self.assertLess(iv.lo, 16)
        self.assertGreater(iv.hi, 16)


class TestNormalRange(unittest.TestCase):
    def test_median_of_the_range(self) -> None:
        """Two draws: their difference is normal with sd sqrt 2, so the
        median range is 0.6745 x sqrt 2; more draws, against a seeded
        simulation of 100,000 (its own error about 0.005)."""
        self.assertAlmostEqual(stats.normal_range_median(2), 0.67449 * 2 ** 0.5, places=3)
        rng = random.Random(7)
        for k in (3, 5):
            ranges = sorted(max(d) - min(d) for d in
                            ([rng.gauss(0, 1) for _ in range(k)] for _ in range(100_000)))
            self.assertAlmostEqual(stats.normal_range_median(k), ranges[50_000], delta=0.02)
        self.assertLess(stats.normal_range_median(3), stats.normal_range_median(4))
        with self.assertRaises(ValueError):
            stats.normal_range_median(1)


class TestTwoLevel(unittest.TestCase):
    def test_pooled_ratio_holds_the_variation_between_groups(self) -> None:
        """Two processes whose runs each say 0.9 and 1.1 exactly: each alone
        excludes 1 (every resample the same ratio), pooled the interval
        must reach from the one to the other and hold 1."""
        base = [100.0 + i for i in range(9)]
        low = [x * 0.9 for x in base]
        high = [x * 1.1 for x in base]
        alone, p_alone = stats.bootstrap_ratio(low, base)
        self.assertTrue(alone.excludes_one)
        iv, p = stats.two_level_ratio([(low, base), (high, base)])
        self.assertLessEqual(iv.lo, 0.9 + 1e-9)
        self.assertGreaterEqual(iv.hi, 1.1 - 1e-9)
        self.assertFalse(iv.excludes_one)
        self.assertGreater(p, 0.05)
        self.assertIn("two-level", iv.method)
        # the same ratio in both: the interval is that ratio, p is 0
        same, p_same = stats.two_level_ratio([(low, base), (list(low), list(base))])
        self.assertAlmostEqual(same.lo, 0.9)
        self.assertAlmostEqual(same.hi, 0.9)
        self.assertEqual(p_same, 0.0)
        # deterministic for one seed
        self.assertEqual(stats.two_level_ratio([(low, base), (high, base)], seed=3),
                         stats.two_level_ratio([(low, base), (high, base)], seed=3))

    def test_needs_two_groups_of_paired_runs(self) -> None:
        base = [1.0, 2.0, 3.0]
        self.assertEqual(stats.two_level_ratio([(base, base)]), (None, None))
        self.assertEqual(stats.two_level_ratio([(base, base), (base[:2], base[:2])]),
                         (None, None))
        self.assertEqual(stats.two_level_ratio([(base, base), (base, base + [4.0])]),
                         (None, None))
        self.assertEqual(stats.two_level_ratio([(base, [0.0] * 3), (base, [0.0] * 3)]),
                         (None, None))


class TestDigits(unittest.TestCase):
    def test_decimals_for(self) -> None:
        # The Particle Data Group's rule on the three leading digits.
        self.assertEqual(stats.decimals_for(0.03), 3)    # 300: two digits
        self.assertEqual(stats.decimals_for(0.0354), 3)  # 354: two digits
        self.assertEqual(stats.decimals_for(0.0355), 2)  # 355: one digit
        self.assertEqual(stats.decimals_for(0.012), 3)   # 120: two digits
        self.assertEqual(stats.decimals_for(0.097), 2)   # 970: -> 0.10
        self.assertEqual(stats.decimals_for(0.949), 1)   # 949: one digit
        self.assertEqual(stats.decimals_for(2.3), 1)     # 230: two digits
        self.assertEqual(stats.decimals_for(4.2), 0)     # 420: one digit
        self.assertEqual(stats.decimals_for(230), -1)
        self.assertEqual(stats.decimals_for(0), 0)

    def test_format_supported(self) -> None:
        self.assertEqual(stats.format_supported(123.456, 2.3), "123.5")
        self.assertEqual(stats.format_supported(123.456, 4.2), "123")
        self.assertEqual(stats.format_supported(123456, 230), "123460")
        self.assertEqual(stats.format_supported(0.045678, 0.0012), "0.0457")
        self.assertEqual(stats.format_supported(1.02341, 0.0081), "1.023")
        # Exact integers print whole; exact per-op values show resolution.
        self.assertEqual(stats.format_supported(42, 0), "42")
        self.assertEqual(stats.format_supported(2.104, 0, 1 / 1000), "2.104")

    def test_significant_digits(self) -> None:
        self.assertEqual(stats.significant_digits(0.0019), 3)
        self.assertEqual(stats.significant_digits(0.03), 2)
        self.assertEqual(stats.significant_digits(0.3), 1)
        self.assertEqual(stats.significant_digits(0.0), 6)

    def test_format_interval_and_percent(self) -> None:
        iv = stats.Interval(1.3614, 1.3443, 1.3801, 0.95, 100, "")
        self.assertEqual(stats.format_interval(iv), ("1.361", "1.344",
                                                     "1.380"))
        # lopsided: one half-width would print this ratio of 53.6 as "0"
        # (sched.pipe's uop-cache misses, O2's runs 0.0002, 2.0021, 2.0002
        # an operation: resamples that draw the first twice)
        iv = stats.Interval(53.6214, 53.5711, 511270.0, 0.95, 1000, "")
        self.assertEqual(stats.format_interval(iv), ("53.62", "53.57", "500000"))
        iv = stats.Interval(1.012, 1.009, 1.14, 0.95, 1000, "")
        self.assertEqual(stats.format_interval(iv), ("1.0120", "1.0090", "1.14"))
        self.assertEqual(stats.format_percent(0.0086), "0.86%")
        self.assertEqual(stats.format_percent(0.123), "12%")
        self.assertEqual(stats.format_percent(0.0), "0%")


if __name__ == "__main__":
    unittest.main()
