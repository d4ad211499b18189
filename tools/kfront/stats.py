# SPDX-License-Identifier: GPL-2.0-or-later
"""Statistics for benchmark samples: robust summaries, per-operation values,
bootstrap confidence intervals of medians and of ratios of medians, and the
rounding of a value to the digits its uncertainty supports.

The method and its justification are in docs/statistics.md. Everything here
is deterministic: the bootstrap draws from a `random.Random` seeded from the
caller's key, never from global state.
"""

from __future__ import annotations

import bisect
import math
import random
import zlib
from dataclasses import asdict, dataclass
from typing import Any, Sequence

DEFAULT_RESAMPLES = 2000
DEFAULT_CONFIDENCE = 0.95
DEFAULT_SEED = 0x6B66  # "kf"
# Fewer runs than this give no interval: a bootstrap of 1-2 values is noise.
MIN_RUNS_FOR_CI = 3
# Next to nothing: fewer events than one per 100 operations (a miss or two
# a run of hundreds of operations). A ratio to such a count says how
# rounding fell, not how two variants compare: the verdict calls no winner
# between two such medians and leaves them out of its geometric mean,
# robustness ties them, and the study's crossovers need more.
NEXT_TO_NOTHING = 0.01


def next_to_nothing(a: float, b: float) -> bool:
    """Both per-operation figures under NEXT_TO_NOTHING: their order is
    how rounding fell (exact simulated counts of a miss a run against
    none pass any bootstrap)."""
    return max(a, b) < NEXT_TO_NOTHING


def worth_a_ratio(a: float, b: float) -> bool:
    """Both per-operation figures at least NEXT_TO_NOTHING: their ratio
    says how two variants compare, and may enter a geometric mean (with
    either side next to nothing it says how rounding fell: 0.0001 misses
    an operation against 7 is "71260 times fewer")."""
    return min(a, b) >= NEXT_TO_NOTHING


# Normal-theory factors: SE(median) ~ 1.2533 * sigma / sqrt(n) and
# sigma ~ 1.4826 * MAD for normally distributed data.
MAD_TO_SIGMA = 1.4826
MEDIAN_SE_FACTOR = 1.2533


def geomean(values: Sequence[float]) -> float | None:
    """Geometric mean of the positive values (a ratio of 0 or less has no
    logarithm: a point where a variant counted none); None without any."""
    vals = [v for v in values if v > 0]
    return math.exp(sum(map(math.log, vals)) / len(vals)) if vals else None


def median(xs: Sequence[float]) -> float:
    """The median; for an even count the lower of the two middle values.

    The kernel (bench/harness/stats.c) and the host harness take the same one, so a
    median is always a value that was measured and the host's figure equals
    the kernel's for integer counts (docs/statistics.md)."""
    if not xs:
        raise ValueError("median of no values")
    s = sorted(xs)
    return float(s[(len(s) - 1) // 2])


def mad(xs: Sequence[float]) -> float:
    """Median absolute deviation from the median (unscaled)."""
    m = median(xs)
    return median([abs(x - m) for x in xs])


@dataclass(frozen=True)
class Summary:
    """Robust summary of one counter's samples."""

    median: float
    min: float
    max: float
    mad: float
    n: int

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @property
    def relative_spread(self) -> float:
        """MAD relative to the median (0 when the median is 0)."""
        return abs(self.mad / self.median) if self.median else 0.0


def summarize(xs: Sequence[float]) -> Summary:
    if not xs:
        raise ValueError("summary of no values")
    return Summary(median(xs), float(min(xs)), float(max(xs)), mad(xs),
                   len(xs))


def per_op(samples: Sequence[float], iters: int) -> list[float]:
    """Per-run samples divided by the operations each run performed."""
    if iters <= 0:
        raise ValueError(f"iters must be positive, not {iters}")
    return [s / iters for s in samples]


def median_se(xs: Sequence[float]) -> float:
    """Standard error of the median, estimated from the MAD."""
    if len(xs) < 2:
        return 0.0
    return MEDIAN_SE_FACTOR * MAD_TO_SIGMA * mad(xs) / math.sqrt(len(xs))


def _normal_cdf(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def normal_range_median(k: int) -> float:
    """The median of the range (largest less smallest) of k independent
    standard normal draws: 0.954 for two (0.6745 x sqrt 2), 1.59 for
    three. Used to say how far k processes' figures would spread if each
    process's interval were the whole uncertainty (repeats.py).

    P(range <= r) = k * integral of phi(x) * (Phi(x + r) - Phi(x))^(k-1)
    over x (the smallest draw at x, the other k-1 within r of it), by
    Simpson's rule over [-9, 9], then bisection on r."""
    if k < 2:
        raise ValueError(f"a range needs at least two draws, not {k}")

    def cdf(r: float) -> float:
        n, lo, hi = 1800, -9.0, 9.0
        h = (hi - lo) / n
        total = 0.0
        for i in range(n + 1):
            x = lo + i * h
            f = (math.exp(-x * x / 2) / math.sqrt(2 * math.pi)
                 * (_normal_cdf(x + r) - _normal_cdf(x)) ** (k - 1))
            total += f * (1 if i in (0, n) else 4 if i % 2 else 2)
        return k * total * h / 3

    lo, hi = 0.0, 12.0
    for _ in range(40):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if cdf(mid) < 0.5 else (lo, mid)
    return (lo + hi) / 2


def seed_for(*parts: object) -> int:
    """A stable seed from a key (str hashes are salted per process)."""
    key = "\x1f".join(str(p) for p in parts).encode("utf-8")
    return (zlib.crc32(key) << 16) ^ DEFAULT_SEED


def _percentile(sorted_xs: Sequence[float], q: float) -> float:
    """Linear-interpolated percentile of sorted values, q in [0, 1]."""
    if len(sorted_xs) == 1:
        return float(sorted_xs[0])
    pos = q * (len(sorted_xs) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(sorted_xs) - 1)
    frac = pos - lo
    if frac == 0 or sorted_xs[lo] == sorted_xs[hi]:
        return float(sorted_xs[lo])
    if math.isinf(sorted_xs[hi]):
        return math.inf     # between a finite ratio and an infinite one
    return sorted_xs[lo] * (1 - frac) + sorted_xs[hi] * frac


def _resample(rng: random.Random, xs: Sequence[float],
              idx: list[int] | None = None) -> list[float]:
    """Draw len(xs) values with replacement (or take the given indices)."""
    if idx is None:
        return rng.choices(xs, k=len(xs))
    return [xs[i] for i in idx]


@dataclass(frozen=True)
class Interval:
    """A point estimate with a confidence interval."""

    value: float
    lo: float
    hi: float
    confidence: float
    resamples: int
    method: str
    # Resamples that gave a value; fewer than `resamples` when some had no
    # defined statistic (a zero baseline median under a zero test median).
    effective: int | None = None

    @property
    def excludes_one(self) -> bool:
        """True when the interval lies wholly above or below 1.0."""
        return self.lo > 1.0 or self.hi < 1.0

    @property
    def unbounded(self) -> bool:
        """True when the upper bound is infinite (a ratio whose baseline
        median was 0 in more than alpha/2 of the resamples)."""
        return math.isinf(self.hi)

    @property
    def half_width(self) -> float:
        return (self.hi - self.lo) / 2.0

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["excludes_one"] = self.excludes_one
        return d


def bootstrap_median_ci(xs: Sequence[float], seed: int = DEFAULT_SEED,
                        resamples: int = DEFAULT_RESAMPLES,
                        confidence: float = DEFAULT_CONFIDENCE
                        ) -> Interval | None:
    """Percentile bootstrap interval of the median of xs."""
    if len(xs) < MIN_RUNS_FOR_CI:
        return None
    if len(set(xs)) == 1:       # constant runs: every resample's median
        meds = [float(xs[0])] * resamples
    else:
        rng = random.Random(seed)
        meds = sorted(median(_resample(rng, xs)) for _ in range(resamples))
    alpha = (1.0 - confidence) / 2.0
    return Interval(median(xs), _percentile(meds, alpha),
                    _percentile(meds, 1.0 - alpha), confidence, resamples,
                    "percentile bootstrap of the median over runs")


def bootstrap_ratio(test: Sequence[float], base: Sequence[float],
                    seed: int = DEFAULT_SEED,
                    resamples: int = DEFAULT_RESAMPLES,
                    confidence: float = DEFAULT_CONFIDENCE,
                    paired: bool | None = None
                    ) -> tuple[Interval | None, float | None]:
    """The interval of median(test) / median(base) and the p-value of "it
    is 1" (bootstrap_ratio_ci, bootstrap_ratio_p), from one set of
    resamples: the two draw the same ones for the same seed, so a caller
    that wants both pays for them once."""
    if len(test) < MIN_RUNS_FOR_CI or len(base) < MIN_RUNS_FOR_CI:
        return None, None
    base_med = median(base)
    if base_med == 0:
        return None, None
    if paired is None:
        paired = len(test) == len(base)
    if paired and len(test) != len(base):
        raise ValueError("a paired bootstrap needs equal run counts")
    how = "paired" if paired else "independent"
    return _from_resamples(_ratio_resamples(test, base, random.Random(seed),
                                            resamples, paired),
                           median(test) / base_med, resamples, confidence,
                           f"{how} percentile bootstrap over runs of the ratio "
                           "of medians")


def _from_resamples(ratios: list[float], value: float, resamples: int,
                    confidence: float, method: str
                    ) -> tuple[Interval | None, float | None]:
    """The percentile interval of the resampled ratios (those with a
    defined ratio; no interval where more than alpha/2 had none) and the
    p-value of "it is 1": twice the smaller share on one side of 1."""
    if not ratios:
        return None, None
    ratios = sorted(ratios)
    below = _percentile_rank(ratios, 1.0)
    p = min(1.0, 2.0 * min(below, 1.0 - below))
    alpha = (1.0 - confidence) / 2.0
    if resamples - len(ratios) > alpha * resamples:
        return None, p
    return Interval(value, _percentile(ratios, alpha), _percentile(ratios, 1.0 - alpha),
                    confidence, resamples, method, len(ratios)), p


def bootstrap_ratio_ci(test: Sequence[float], base: Sequence[float],
                       seed: int = DEFAULT_SEED,
                       resamples: int = DEFAULT_RESAMPLES,
                       confidence: float = DEFAULT_CONFIDENCE,
                       paired: bool | None = None) -> Interval | None:
    """Interval of median(test) / median(base), bootstrapped over runs.

    With `paired` (the default when both have the same number of runs, as
    interleaved variants do) run i of both is drawn together, so drift that
    affected both alike cancels; otherwise each side is resampled alone.

    A resample whose base median is 0 has an infinite ratio (test median
    above 0) or none at all (0/0). Infinite ratios stay in the percentile
    order, so when they exceed alpha/2 of the resamples the upper bound is
    infinite, never a finite number that only looks like a bound. Undefined
    ones are dropped and counted (`effective`); when they exceed alpha/2 no
    interval can be given. Returns None with too few runs, a zero base
    median, or too many undefined resamples.
    """
    return bootstrap_ratio(test, base, seed, resamples, confidence, paired)[0]


def _ratio_resamples(test: Sequence[float], base: Sequence[float],
                     rng: random.Random, resamples: int, paired: bool
                     ) -> list[float]:
    """Ratios of medians of `resamples` resamples; 0/0 ones left out."""
    ratios: list[float] = []
    if len(set(test)) == 1 and len(set(base)) == 1:
        # Constant runs (a simulator's or callgrind's exact counts): every
        # resample draws the same medians, so the loop's answer is known.
        mt, mb = test[0], base[0]
        one = [mt / mb] if mb != 0 else [math.inf] if mt != 0 else []
        return one * resamples
    n = len(base)
    for _ in range(resamples):
        if paired:
            idx = rng.choices(range(n), k=n)
            t, b = _resample(rng, test, idx), _resample(rng, base, idx)
        else:
            t, b = _resample(rng, test), _resample(rng, base)
        mt, mb = median(t), median(b)
        if mb != 0:
            ratios.append(mt / mb)
        elif mt != 0:
            ratios.append(math.inf)
    return ratios


def _percentile_rank(sorted_xs: Sequence[float], x: float) -> float:
    """Share of values below x plus half the share equal to it."""
    lo = bisect.bisect_left(sorted_xs, x)
    hi = bisect.bisect_right(sorted_xs, x)
    return (lo + (hi - lo) / 2.0) / len(sorted_xs)


def bootstrap_ratio_p(test: Sequence[float], base: Sequence[float],
                      seed: int = DEFAULT_SEED,
                      resamples: int = DEFAULT_RESAMPLES,
                      paired: bool | None = None) -> float | None:
    """Two-sided bootstrap p-value of "the ratio of medians is 1".

    Twice the smaller share of resampled ratios on one side of 1.0 (the
    percentile-interval's dual: the 95% interval excludes 1.0 exactly when
    p < 0.05, up to interpolation). Same resamples as bootstrap_ratio_ci
    for the same seed. None where that gives no interval."""
    return bootstrap_ratio(test, base, seed, resamples, DEFAULT_CONFIDENCE,
                           paired)[1]


def two_level_ratio(groups: Sequence[tuple[Sequence[float], Sequence[float]]],
                    seed: int = DEFAULT_SEED, resamples: int = DEFAULT_RESAMPLES,
                    confidence: float = DEFAULT_CONFIDENCE
                    ) -> tuple[Interval | None, float | None]:
    """The ratio of medians of test over base, pooled over several groups
    of runs (one group per timing process: its test and base runs,
    interleaved, so paired), with an interval that holds the variation
    between the groups as well as within them, and the p-value of "it is
    1" from the same resamples.

    Each resample draws as many groups as there are, with replacement,
    then within each drawn group its runs in pairs, with replacement, and
    takes the ratio of the medians of everything drawn: a two-level
    (hierarchical) percentile bootstrap. With few groups it still
    understates the variation between them (two groups give three
    distinct draws); docs/statistics.md measures how its verdicts repeat.
    None (and no p) with fewer than two groups, a group of too few or
    unpaired runs, or a zero base median; no interval (but a p) where
    too many resamples drew a zero base median."""
    if len(groups) < 2 or any(len(t) != len(b) or len(t) < MIN_RUNS_FOR_CI
                              for t, b in groups):
        return None, None
    all_t = [x for t, _ in groups for x in t]
    all_b = [x for _, b in groups for x in b]
    base_med = median(all_b)
    if base_med == 0:
        return None, None
    rng = random.Random(seed)
    ratios: list[float] = []
    for _ in range(resamples):
        t: list[float] = []
        b: list[float] = []
        for _g in range(len(groups)):
            gt, gb = groups[rng.randrange(len(groups))]
            idx = rng.choices(range(len(gb)), k=len(gb))
            t += [gt[i] for i in idx]
            b += [gb[i] for i in idx]
        mb = median(b)
        if mb != 0:
            ratios.append(median(t) / mb)
    return _from_resamples(ratios, median(all_t) / base_med, resamples, confidence,
                           "two-level percentile bootstrap over processes and their "
                           "runs of the ratio of medians")


def holm(pvalues: Sequence[float]) -> list[float]:
    """Holm-Bonferroni adjusted p-values, in the order given.

    Controls the chance of any false "significant" among a family of
    comparisons (all ratios of one counter in a report) without assuming
    they are independent."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    adjusted = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * pvalues[i]))
        adjusted[i] = running
    return adjusted


def lag1_autocorrelation(xs: Sequence[float]) -> float | None:
    """Lag-1 autocorrelation of a series in run order (None below 3 runs or
    with no variation): near 0 for independent runs; runs that carry state
    (warming caches, drift) give clearly positive values."""
    n = len(xs)
    if n < MIN_RUNS_FOR_CI:
        return None
    mean = sum(xs) / n
    dev = [x - mean for x in xs]
    var = sum(d * d for d in dev)
    if var == 0:
        return None
    return sum(dev[i] * dev[i + 1] for i in range(n - 1)) / var


def autocorrelation_limit(n: int) -> float:
    """|r1| above this flags a series: the 95% band of r1 for n independent
    values is about +-1.96/sqrt(n) (Bartlett)."""
    return 1.96 / math.sqrt(n) if n > 0 else math.inf


# -- digits -----------------------------------------------------------------

def decimals_for(uncertainty: float) -> int:
    """Decimal places that an uncertainty supports, by the Particle Data
    Group's rule on its three highest-order digits: 100-354 keep two
    significant digits, 355-949 one, and 950-999 round up to 1000 and keep
    two (so 0.0970 shows as 0.10). The value is rounded to the same place.
    Negative results mean rounding to tens, hundreds, ...
    """
    if uncertainty <= 0 or not math.isfinite(uncertainty):
        return 0
    exp = math.floor(math.log10(uncertainty))
    three = int(round(uncertainty / 10.0 ** (exp - 2), 6))
    if three >= 1000:       # log10 rounding put us one decade low
        exp += 1
        three //= 10
    if three <= 354:
        return -(exp - 1)
    return -exp     # 355-949: one digit; 950-999: 1.0 x 10^(exp+1)


def significant_digits(relative_spread: float, limit: int = 6) -> int:
    """Significant digits that a relative spread supports (1..limit).

    A 0.19% spread supports 3 digits (1.23x), 3% supports 2, 30% only 1.
    """
    if relative_spread <= 0 or not math.isfinite(relative_spread):
        return limit
    return max(1, min(limit, math.floor(-math.log10(relative_spread)) + 1))


def round_supported(value: float, uncertainty: float,
                    resolution: float = 0.0) -> tuple[float, int]:
    """Round value to the place its uncertainty supports.

    `resolution` is the smallest step the data can show (1/iters for a
    per-operation value of integer counts); it stands in for the uncertainty
    when the samples did not vary. Returns (rounded value, decimals >= 0 to
    print); a value rounded to tens or more prints with 0 decimals.
    """
    unc = abs(uncertainty)
    res = abs(resolution)
    if unc == 0 and res == 0:
        # Exact data: integers as they are, others to 6 significant digits.
        if float(value).is_integer():
            return float(value), 0
        unc = abs(value) * 1e-6 if value else 1e-6
    dec = decimals_for(unc) if unc > 0 else 99
    if res > 0:
        # Never more decimals than the smallest step the data can show.
        dec = min(dec, -math.floor(math.log10(res) + 1e-9))
    return round(value, dec), max(dec, 0)


def format_supported(value: float, uncertainty: float,
                     resolution: float = 0.0) -> str:
    """The value as text with only the digits the data supports."""
    if not math.isfinite(value):
        return str(value)
    rounded, dec = round_supported(value, uncertainty, resolution)
    if dec == 0:
        return f"{int(round(rounded)):d}"
    return f"{rounded:.{dec}f}"


EVERY_RUN_SAME = "every run the same"


def every_run_same(*series: Sequence[float]) -> bool:
    """True if each series holds one value only, run after run: the
    deterministic counts of the front-end simulator usually do. Their
    interval has no width, and "[1.485, 1.485]" would read as a measured
    spread: callers say EVERY_RUN_SAME instead. A zero-width bootstrap
    interval alone does not mean this (nine equal runs and one other give
    one too), so it is asked of the runs themselves."""
    return all(len(s) > 0 and min(s) == max(s) for s in series)


def format_interval(iv: Interval, resolution: float = 0.0) -> tuple[str, str,
                                                                      str]:
    """Value, low and high of an interval, with the digits it supports.

    A lopsided interval (a median at one end of its bootstrap interval, one
    side more than twice the other) rounds each bound by its own side and
    the value by the nearer one: its half-width would round the value to
    the far side's place, a ratio of 53.6 in [53.57, 511270] to "0"."""
    below, above = iv.value - iv.lo, iv.hi - iv.value
    if min(below, above) >= 0 and min(below, above) * 2 < max(below, above):
        return (format_supported(iv.value, min(below, above), resolution),
                format_supported(iv.lo, below, resolution),
                format_supported(iv.hi, above, resolution))
    unc = iv.half_width
    return (format_supported(iv.value, unc, resolution),
            format_supported(iv.lo, unc, resolution),
            format_supported(iv.hi, unc, resolution))


def format_percent(fraction: float, uncertainty: float | None = None) -> str:
    """A fraction as a percentage: with the digits `uncertainty` supports,
    or else to two significant digits (a spread of a spread is rough)."""
    pct = fraction * 100.0
    if pct == 0 or not math.isfinite(pct):
        return f"{pct:g}%"
    if uncertainty is not None:
        return format_supported(pct, abs(uncertainty) * 100.0) + "%"
    dec = max(0, 1 - math.floor(math.log10(abs(pct))))
    return f"{pct:.{dec}f}%"
