# SPDX-License-Identifier: GPL-2.0-or-later
"""Statistics against known inputs: median, MAD, per-op values, bootstrap
determinism and coverage, and the digits a value is printed with."""

import random
import unittest

from tests.py import ROOT  # noqa: F401  (puts tools/ on sys.path)
from kfront import stats


class TestSummaries(unittest.TestCase):
    def test_median_odd_even(self) -> None:
        self.assertEqual(stats.median([3, 1, 2]), 2)
        self.assertEqual(stats.median([4, 1, 3, 2]), 2.5)
        self.assertEqual(stats.median([7]), 7)
        with self.assertRaises(ValueError):
            stats.median([])

    def test_mad(self) -> None:
        # median 3; deviations 2 1 0 1 6 -> median 1
        self.assertEqual(stats.mad([1, 2, 3, 4, 9]), 1)
        self.assertEqual(stats.mad([5, 5, 5]), 0)
        # median 2.5; deviations 1.5 .5 .5 1.5 -> 1.0
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

    def test_median_ci_brackets_median(self) -> None:
        xs = [float(x) for x in range(1, 32)]
        iv = stats.bootstrap_median_ci(xs, seed=3)
        self.assertEqual(iv.value, 16)
        self.assertLess(iv.lo, 16)
        self.assertGreater(iv.hi, 16)


class TestDigits(unittest.TestCase):
    def test_decimals_for(self) -> None:
        self.assertEqual(stats.decimals_for(0.03), 2)
        self.assertEqual(stats.decimals_for(0.012), 3)   # leading 1: 2 digits
        self.assertEqual(stats.decimals_for(2.3), 0)
        self.assertEqual(stats.decimals_for(230), -2)
        self.assertEqual(stats.decimals_for(0), 0)

    def test_format_supported(self) -> None:
        self.assertEqual(stats.format_supported(123.456, 2.3), "123")
        self.assertEqual(stats.format_supported(123456, 230), "123500")
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
        self.assertEqual(stats.format_percent(0.0086), "0.86%")
        self.assertEqual(stats.format_percent(0.123), "12%")
        self.assertEqual(stats.format_percent(0.0), "0%")


if __name__ == "__main__":
    unittest.main()
