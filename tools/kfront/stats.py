# SPDX-License-Identifier: GPL-2.0-or-later
"""Statistics for benchmark samples: robust summaries, per-operation values,
bootstrap confidence intervals of medians and of ratios of medians, and the
rounding of a value to the digits its uncertainty supports.

The method and its justification are in docs/statistics.md. Everything here
is deterministic: the bootstrap draws from a `random.Random` seeded from the
caller's key, never from global state.
"""

from __future__ import annotations

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
# Normal-theory factors: SE(median) ~ 1.2533 * sigma / sqrt(n) and
# sigma ~ 1.4826 * MAD for normally distributed data.
MAD_TO_SIGMA = 1.4826
MEDIAN_SE_FACTOR = 1.2533


def median(xs: Sequence[float]) -> float:
    """The median; the mean of the two middle values for an even count."""
    if not xs:
        raise ValueError("median of no values")
    s = sorted(xs)
    n = len(s)
    mid = n // 2
    if n % 2:
        return float(s[mid])
    return (s[mid - 1] + s[mid]) / 2.0


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

    @property
    def excludes_one(self) -> bool:
        """True when the interval lies wholly above or below 1.0."""
        return self.lo > 1.0 or self.hi < 1.0

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
    rng = random.Random(seed)
    meds = sorted(median(_resample(rng, xs)) for _ in range(resamples))
    alpha = (1.0 - confidence) / 2.0
    return Interval(median(xs), _percentile(meds, alpha),
                    _percentile(meds, 1.0 - alpha), confidence, resamples,
                    "percentile bootstrap of the median over runs")


def bootstrap_ratio_ci(test: Sequence[float], base: Sequence[float],
                       seed: int = DEFAULT_SEED,
                       resamples: int = DEFAULT_RESAMPLES,
                       confidence: float = DEFAULT_CONFIDENCE,
                       paired: bool | None = None) -> Interval | None:
    """Interval of median(test) / median(base), bootstrapped over runs.

    With `paired` (the default when both have the same number of runs, as
    interleaved variants do) run i of both is drawn together, so drift that
    affected both alike cancels; otherwise each side is resampled alone.
    Returns None with too few runs or a zero base median.
    """
    if len(test) < MIN_RUNS_FOR_CI or len(base) < MIN_RUNS_FOR_CI:
        return None
    base_med = median(base)
    if base_med == 0:
        return None
    if paired is None:
        paired = len(test) == len(base)
    if paired and len(test) != len(base):
        raise ValueError("a paired bootstrap needs equal run counts")
    rng = random.Random(seed)
    ratios: list[float] = []
    n = len(base)
    for _ in range(resamples):
        if paired:
            idx = rng.choices(range(n), k=n)
            t, b = _resample(rng, test, idx), _resample(rng, base, idx)
        else:
            t, b = _resample(rng, test), _resample(rng, base)
        mb = median(b)
        if mb == 0:
            continue
        ratios.append(median(t) / mb)
    if not ratios:
        return None
    ratios.sort()
    alpha = (1.0 - confidence) / 2.0
    how = "paired" if paired else "independent"
    return Interval(median(test) / base_med, _percentile(ratios, alpha),
                    _percentile(ratios, 1.0 - alpha), confidence, resamples,
                    f"{how} percentile bootstrap over runs of the ratio "
                    "of medians")


# -- digits -----------------------------------------------------------------

def decimals_for(uncertainty: float) -> int:
    """Decimal places that an uncertainty supports.

    The uncertainty is kept to one significant digit, or two when its leading
    digit is 1 (so 0.14 is not rounded to 0.1, a 40% change); the value is
    rounded to the same place. Negative results mean rounding to tens,
    hundreds, ...
    """
    if uncertainty <= 0 or not math.isfinite(uncertainty):
        return 0
    exp = math.floor(math.log10(uncertainty))
    leading = uncertainty / 10.0 ** exp
    if round(leading, 6) < 2.0:
        exp -= 1
    return -exp


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


def format_interval(iv: Interval, resolution: float = 0.0) -> tuple[str, str,
                                                                      str]:
    """Value, low and high of an interval, with the digits it supports."""
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
