# SPDX-License-Identifier: GPL-2.0-or-later
"""The verdict: which variant wins, by how much, and how sure, per source
of truth, in the words people use ("Os ran 1.17 ± 0.02 times faster than
O2", hyperfine's phrasing).

Per workload point (benchmark and footprint) the winner is the variant
with the lowest median per operation, stated against the baseline (or,
when the baseline wins, against the runner-up). Per variant, wins, ties
and losses against the baseline follow the report's own rule: a ratio
counts only when its 95% bootstrap interval excludes 1 after Holm's
correction over all ratios of that counter (results.py, docs/statistics.md),
and one of the two medians is at least stats.NEXT_TO_NOTHING per operation
(exact simulated counts of a miss a run against none pass any bootstrap);
anything else is a tie. The geometric mean of the ratios gets a bootstrap
interval of its own: each resample redraws the runs of every point (paired
by run, as the ratios are) and takes the geometric mean of the resampled
ratios of medians. A point enters it only when both medians are at least
stats.NEXT_TO_NOTHING per operation: one point of a miss a run against
thousands (a ratio of 14611) would outweigh every other point.

Degenerate cases are said once: points where every variant's median is 0
collapse into one line per footprint.
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Iterable, Sequence

from . import robustness, sim, stats, truth
from .model import Counter, Ratio, Result, Results
from .results import counter_label

RULE = ("a win or loss needs the ratio's 95% bootstrap interval to exclude 1 "
        "after Holm's correction over all ratios of that counter, and one of the "
        f"two medians to be at least {stats.NEXT_TO_NOTHING:g} per operation; "
        "against a baseline median of 0 (no ratio), a loss needs every run above "
        "every run of the baseline; otherwise a tie")
LOWER_IS_BETTER = "lower is better"
NOT_ROBUST = "no winner: ranking not robust across simulator policies"
# the same for real-CPU time over several host-harness processes
# (repeats.py: kfront host --repeat)
NOT_REPEATED = "no winner: the verdict is not the same in every timing process"
GEOMEAN_RESAMPLES = 1000
TIME_COUNTERS = ("tsc", "cycles")
HOST_SOURCE = "Real CPU (host harness, user space, TSC)"

Point = tuple[str, "int | None"]       # (bench, footprint; None: not swept)
# Rankings not robust across simulator policies: (bench, footprint,
# counter) points, or the same mapped to the pairs of variants that flipped
# there (robustness.flipped(); None: the whole point)
NotRobust = "set[tuple[str, int, str]] | robustness.Flips"


def _flips(not_robust: NotRobust | None) -> robustness.Flips:
    if isinstance(not_robust, dict):
        return not_robust
    return dict.fromkeys(not_robust or ())


def _flipped(pairs: frozenset[frozenset[str]] | None, a: str, b: str | None = None) -> bool:
    """Whether a's order against b flipped (b None: against any variant)."""
    if pairs is None:
        return True
    return any(a in pr and (b is None or b in pr) for pr in pairs)


class Flipped(frozenset):
    """Pairs of variants whose order (or verdict) is not stable, with the
    words that say how, where the caller has them (repeats.flipped():
    "Os against O2: win, then tie")."""

    detail = ""


def _pairs_text(pairs: frozenset[frozenset[str]] | None) -> str:
    if not pairs:
        return ""
    if getattr(pairs, "detail", ""):
        return f" ({pairs.detail})"
    names = sorted(" and ".join(sorted(pr)) for pr in pairs)
    return f" (order changes between {'; '.join(names)})"


def unstable(counter: str) -> tuple[str, str]:
    """How a point that calls no winner for want of stability is said, and
    how its tally counts it: real-CPU time by the timing processes that
    disagree (repeats.py), a simulated count by the policies
    (robustness.py)."""
    if counter in TIME_COUNTERS:
        return NOT_REPEATED, "not repeated"
    return NOT_ROBUST, "not robust"


@dataclass
class Tally:
    wins: int = 0
    ties: int = 0
    losses: int = 0
    not_robust: int = 0                # points whose ranking depends on the policy
                                       # (sim) or on the timing process (host)
    geomean: float | None = None
    lo: float | None = None
    hi: float | None = None
    points: int = 0                    # points in the geometric mean
    left_out: int = 0                  # points with a median next to nothing
                                       # (stats.NEXT_TO_NOTHING) on either side
    every_run_same: bool = False       # every point's runs, both sides
    no_interval: str = ""              # why the geometric mean has none


@dataclass
class Verdict:
    """One source of truth's verdict on one counter."""

    source: str                        # e.g. "Simulated front end (zen4)"
    counter: str
    baseline: str
    lines: list[str] = field(default_factory=list)
    winners: dict[Point, str] = field(default_factory=dict)   # "" = no winner
    tallies: dict[str, Tally] = field(default_factory=dict)


def counter_words(counter: str) -> tuple[str, str]:
    """(what the counter is per op, the comparative verb phrase)."""
    label = counter_label(counter)
    if counter in TIME_COUNTERS:
        return label, "ran {x} times faster than"
    short = label.split(" (")[0]
    if short.startswith("simulated "):
        model = label[label.find("(") + 1:label.find(")")] if "(" in label else ""
        short = short + (f" ({model})" if model else "")
    return label, "took {x} times fewer " + short + " than"


def _too_narrow(value: float, lo: float, hi: float, places: int,
                every_run_same: bool) -> str | None:
    """A value whose interval `places` decimals cannot show, as text: from
    runs that each gave one value (deterministic counts: "[1.485, 1.485]"
    or "± 0.000" would suggest noise), or an interval narrower than the
    last decimal (a few simulated misses' difference, or no width at all
    though some run differed); else None."""
    shown = _off_one(value, places)
    if every_run_same:
        return f"{value:.{shown}f} ({stats.EVERY_RUN_SAME})"
    if hi - lo < 10.0 ** -places:
        return f"{value:.{shown}f} ± <{10.0 ** -places:.{places}f}"
    return None


def _off_one(value: float, places: int, most: int = 6) -> int:
    """Decimals to show a ratio with: `places`, or more (up to `most`)
    where those would round a ratio that is not 1 to 1, so that a winner
    called on a deterministic difference of a few hundredths of a percent
    does not read "took 1.000 times fewer" (docs/measurement.md, "The same
    code at another offset": such differences are layout, not code)."""
    while places < most and value != 1 and round(value, places) == 1:
        places += 1
    return places


def _times(ratio: Ratio, invert: bool) -> str:
    """"1.17 ± 0.02": how many times lower one median is than the other.

    ratio is test/base; invert gives base/test (the test variant won)."""
    if ratio.lo is None or ratio.hi is None:
        value = 1 / ratio.value if invert else ratio.value
        return f"{value:.2f} (no interval)"
    if invert:
        value, lo, hi = 1 / ratio.value, 1 / ratio.hi, 1 / ratio.lo
    else:
        value, lo, hi = ratio.value, ratio.lo, ratio.hi
    narrow = _too_narrow(value, lo, hi, 3, ratio.every_run_same)
    if narrow:
        return narrow
    half = (hi - lo) / 2
    # hyperfine's two decimals, a third when the interval is that narrow
    digits = min(3, max(2, stats.decimals_for(half))) if half > 0 else 2
    below, above = value - lo, hi - value
    if min(below, above) * 2 < max(below, above):
        # a lopsided bootstrap interval (a median at one end of it): "±"
        # would show bounds it does not have, one of them maybe across 1
        return f"{value:.{digits}f} [{lo:.{digits}f}, {hi:.{digits}f}]"
    return f"{value:.{digits}f} ± {half:.{digits}f}"


def _points(entries: Sequence[Result], counter: str
            ) -> dict[Point, dict[str, Result]]:
    out: dict[Point, dict[str, Result]] = {}
    for e in entries:
        if counter in e.counters and e.state != "cold":
            out.setdefault((e.bench, e.footprint), {})[e.variant] = e
    return out


def _label(p: Point) -> str:
    return p[0] if p[1] is None else f"{p[0]} @{p[1]}"


def _per_op(e: Result, c: Counter) -> list[float]:
    return [s / e.iters for s in c.samples]


def _too_few_runs(pairs: Sequence[tuple[Sequence[float], Sequence[float]]]) -> bool:
    return any(min(len(t), len(b)) < stats.MIN_RUNS_FOR_CI for t, b in pairs)


def geomean_ci(pairs: Sequence[tuple[Sequence[float], Sequence[float]]],
               seed: int, resamples: int = GEOMEAN_RESAMPLES,
               confidence: float = stats.DEFAULT_CONFIDENCE
               ) -> tuple[float, float | None, float | None]:
    """Geometric mean of median(test)/median(base) over points, with a
    percentile bootstrap interval (None, None when any point has fewer runs
    than stats.MIN_RUNS_FOR_CI or a resample gives a zero median)."""
    logs = [math.log(stats.median(t) / stats.median(b)) for t, b in pairs]
    value = math.exp(sum(logs) / len(logs))
    if _too_few_runs(pairs):
        return value, None, None
    rng = random.Random(seed)
    rand = rng.random
    means = []
    for _ in range(resamples):
        total = 0.0
        for t, b in pairs:
            nt, nb = len(t), len(b)
            if nt == nb:        # paired by run, like the ratios
                idx = [int(rand() * nt) for _ in range(nt)]
                ts, bs = sorted([t[i] for i in idx]), sorted([b[i] for i in idx])
            else:
                ts = sorted([t[int(rand() * nt)] for _ in range(nt)])
                bs = sorted([b[int(rand() * nb)] for _ in range(nb)])
            mt, mb = ts[(nt - 1) // 2], bs[(nb - 1) // 2]     # stats.median's rule
            if mt <= 0 or mb <= 0:
                return value, None, None
            total += math.log(mt / mb)
        means.append(math.exp(total / len(pairs)))
    means.sort()
    alpha = (1 - confidence) / 2
    return value, stats._percentile(means, alpha), stats._percentile(means, 1 - alpha)


def no_interval_reason(pairs: Sequence[tuple[Sequence[float], Sequence[float]]]) -> str:
    """Why geomean_ci() gave no interval for these points, in words."""
    if _too_few_runs(pairs):
        return f"a point with fewer than {stats.MIN_RUNS_FOR_CI} runs"
    zero = sum(1 for t, b in pairs if min(t) <= 0 or min(b) <= 0)
    return (f"{zero} point{'s' if zero != 1 else ''} with a run of 0, "
            "which a resampled median can hit")


def _no_interval(label: str, a: str, b: str, med: dict[str, float]) -> str:
    """A point whose ratio has no interval (a median of 0 in the resamples,
    too few runs): no verdict, and the medians said plainly."""
    return (f"{label}: no verdict (no interval for the ratio): {a} {med[a]:g}, "
            f"{b} {med[b]:g} per operation")


def _pair_line(label: str, winner: str, other: str, r: Ratio | None,
               med: dict[str, float], ratio_name: str, inverted: bool,
               phrase: str) -> tuple[str, str]:
    """(winner or "", the sentence) for winner against other, given the
    ratio (named ratio_name, e.g. "Os/O2") that compares them; inverted:
    the ratio is winner over other, so "times" reads it the other way."""
    if stats.next_to_nothing(med[winner], med[other]):
        return "", (f"{label}: no winner ({winner} {med[winner]:g} and {other} "
                    f"{med[other]:g} per operation: both under "
                    f"{stats.NEXT_TO_NOTHING:g}, next to nothing)")
    if r is None:
        return "", f"{label}: {winner} {med[winner]:g} vs {other} {med[other]:g}: no ratio"
    if r.lo is None or r.hi is None:
        return "", _no_interval(label, winner, other, med)
    if not r.marked and r.value == r.lo == r.hi == 1.0:
        # the same count in every run (the simulator is deterministic):
        # not noise, an exact tie
        return "", f"{label}: no winner ({winner} and {other} equal: " \
                   f"{med[winner]:g} per operation)"
    if not r.marked and r.excludes_one and r.significant is False:
        # the interval shown excludes 1 but Holm's correction over all
        # ratios of the counter does not: "within noise" would contradict
        # the figures on the same line
        holm = f": p = {r.p_holm:.2g}" if r.p_holm is not None else ""
        return "", (f"{label}: no clear winner ({ratio_name} {_times(r, False)} "
                    f"excludes 1, but not after Holm's correction{holm})")
    if not r.marked:
        return "", f"{label}: no clear winner ({winner} and {other} within noise: " \
                   f"{ratio_name} {_times(r, False)})"
    if (inverted and (r.value <= 0 or r.lo <= 0)) or \
            med[winner] < stats.NEXT_TO_NOTHING:
        # the winner's median (or a resample's) is 0, or next to nothing
        # while the other's is not: "N times fewer" has no N worth saying
        # (a miss in ten thousand operations against seven a operation
        # is "71260 times fewer"), so the medians are said plainly
        iv = (f", {stats.EVERY_RUN_SAME}" if r.every_run_same
              else f" [{r.lo:g}, {r.hi:g}]")
        return winner, (f"{label}: {winner} {med[winner]:g} per operation, {other} "
                        f"{med[other]:g} ({ratio_name} {r.value:g}{iv})")
    return winner, f"{label}: {winner} {phrase.format(x=_times(r, inverted))} {other}"


def _best(variants: dict[str, Result], counter: str, baseline: str) -> str:
    """The variant with the lowest median (the baseline among equals)."""
    return min(variants, key=lambda v: (variants[v].counters[counter].per_op.median,
                                        v != baseline))


# A bound this many times the ratio (or the ratio this many times a bound)
# is a far end worth saying where it comes from.
FAR_END = 10.0


def _far_end(pair: Sequence[str], variants: dict[str, Result], counter: str,
             r: Ratio | None) -> str:
    """Where a bootstrap bound far from the ratio comes from, when it is a
    run next to nothing among runs that are not: resamples that draw that
    run more than once take the median with them ("[10.49, 135008.50]"
    from runs of 0.0002, 2.0021 and 2.0002 misses an operation). "" when
    the interval is not that far out, or has another cause."""
    if r is None or r.lo is None or r.hi is None or r.lo <= 0 or \
            max(r.hi / r.value, r.value / r.lo) < FAR_END:
        return ""
    for v in pair:
        e = variants[v]
        c = e.counters[counter]
        runs = _per_op(e, c)
        if c.per_op.median >= stats.NEXT_TO_NOTHING and \
                any(x < stats.NEXT_TO_NOTHING for x in runs):
            return (f" (the far bound: resamples of {v}'s {len(runs)} runs, "
                    f"{', '.join(f'{x:g}' for x in runs)} per operation, that draw "
                    "the one next to nothing more than once)")
    return ""


def _point_line(label: str, variants: dict[str, Result], counter: str,
                baseline: str, phrase: str) -> tuple[str, str]:
    """(winner or "", the sentence) for one point."""
    med = {v: e.counters[counter].per_op.median for v, e in variants.items()}
    best = _best(variants, counter, baseline)
    if best != baseline and baseline in variants:
        # the best against the baseline: the best's ratio, inverted
        other, r, name, inverted = (baseline, variants[best].counters[counter].ratio,
                                    f"{best}/{baseline}", True)
    else:
        others = [v for v in med if v != best]
        if not others or baseline not in variants:
            return best, f"{label}: {best} (nothing to compare)"
        # the baseline best: against the runner-up, the runner-up's ratio
        other = min(others, key=lambda v: med[v])
        r, name, inverted = (variants[other].counters[counter].ratio,
                             f"{other}/{best}", False)
    winner, line = _pair_line(label, best, other, r, med, name, inverted, phrase)
    return winner, line + (_far_end((best, other), variants, counter, r) if winner else "")


def verdict(entries: Sequence[Result], counter: str, baseline: str, source: str,
            not_robust: NotRobust | None = None) -> Verdict:
    """The verdict of one source of truth on one counter (entries: one
    results document's results). not_robust: (bench, footprint, counter)
    points whose ranking changes between simulator policies, with the pairs
    of variants that change order where known: a point calls no winner
    when the best variant's order against another flipped, and a variant's
    tally counts the point apart when its order against the baseline did."""
    flips = _flips(not_robust)
    label, phrase = counter_words(counter)
    out = Verdict(source, counter, baseline)
    points = _points(entries, counter)
    zero_at: dict[int | None, int] = {}
    for p, variants in sorted(points.items(), key=lambda kv: (kv[0][1] or 0, kv[0][0])):
        if all(e.counters[counter].per_op.median == 0 for e in variants.values()):
            zero_at[p[1]] = zero_at.get(p[1], 0) + 1
            out.winners[p] = ""
            continue
        key = (p[0], p[1] or 0, counter)
        if key in flips and _flipped(flips[key], _best(variants, counter, baseline)):
            out.winners[p] = ""
            out.lines.append(f"{_label(p)}: {unstable(counter)[0]}"
                             f"{_pairs_text(flips[key])}")
            continue
        out.winners[p], line = _point_line(_label(p), variants, counter,
                                           baseline, phrase)
        out.lines.append(line)
    short = label.split(" (")[0]
    zero_lines = [f"no {short} in any variant "
                  + (f"at footprint {fp} ({n} workload{'s' if n != 1 else ''})"
                     if fp is not None else
                     f"of {n} unswept workload{'s' if n != 1 else ''}")
                  for fp, n in sorted(zero_at.items(), key=lambda kv: kv[0] or -1)]
    out.lines = zero_lines + out.lines
    out.tallies = _tallies(points, counter, baseline,
                           {p: flips[k] for p in points
                            if (k := (p[0], p[1] or 0, counter)) in flips})
    for v, t in out.tallies.items():
        out.lines.append(_tally_line(v, baseline, t, unstable(counter)[1]))
    return out


def _above_a_zero_baseline(test: Sequence[float], base: Sequence[float]) -> bool:
    """With the baseline's median at 0 there is no ratio to test: the
    variant loses when its median is not next to nothing and each of its
    runs is above each of the baseline's (at least MIN_RUNS_FOR_CI runs a
    side). Without this a variant with 27 misses an operation against
    none was a tie, while one with none against 27 was a win."""
    return (min(len(test), len(base)) >= stats.MIN_RUNS_FOR_CI
            and stats.median(base) == 0 and stats.median(test) >= stats.NEXT_TO_NOTHING
            and min(test) > max(base))


WIN, LOSS, TIE = "win", "loss", "tie"
OUTCOMES = (WIN, LOSS, TIE)


def called(value: float, significant: bool, median: float, base_median: float) -> str:
    """The rule's call on a ratio with an interval: WIN or LOSS where it is
    significant (its interval excludes 1 after Holm's correction) and
    neither median is next to nothing, else TIE. outcome() judges a
    result by it, repeats.py a ratio pooled over timing processes."""
    if significant and not stats.next_to_nothing(median, base_median):
        return WIN if value < 1 else LOSS
    return TIE


def outcome(e: Result, base: Result, counter: str) -> str:
    """A variant's result at one point against the baseline's, by the rule
    every tally counts with (RULE): WIN, LOSS or TIE."""
    c, bc = e.counters[counter], base.counters[counter]
    r = c.ratio
    if r is not None:
        return called(r.value, r.marked, c.per_op.median, bc.per_op.median)
    if _above_a_zero_baseline(_per_op(e, c), _per_op(base, bc)):
        return LOSS
    return TIE


def _tallies(points: dict[Point, dict[str, Result]], counter: str, baseline: str,
             not_robust: dict[Point, frozenset[frozenset[str]] | None] | None = None
             ) -> dict[str, Tally]:
    """Wins, ties and losses against the baseline over the points, and the
    geometric mean of the ratios. Where a variant's order against the
    baseline changes between simulator policies, the point is neither a
    win, a loss nor a tie for that variant: it is counted apart; its ratio,
    this setting's own figure, stays in the geometric mean. Where both
    medians are next to nothing (stats.NEXT_TO_NOTHING per operation) the
    point is a tie; where either is, its ratio, which rounding decides,
    stays out of the geometric mean."""
    not_robust = not_robust or {}
    tallies: dict[str, Tally] = {}
    pairs: dict[str, list[tuple[list[float], list[float]]]] = {}
    for p, variants in sorted(points.items(), key=lambda kv: (kv[0][0], kv[0][1] or 0)):
        base = variants.get(baseline)
        if base is None:
            continue
        for v, e in variants.items():
            if v == baseline:
                continue
            t = tallies.setdefault(v, Tally())
            c, bc = e.counters[counter], base.counters[counter]
            if p in not_robust and _flipped(not_robust[p], v, baseline):
                t.not_robust += 1
            else:
                o = outcome(e, base, counter)
                if o == WIN:
                    t.wins += 1
                elif o == LOSS:
                    t.losses += 1
                else:
                    t.ties += 1
            if stats.worth_a_ratio(c.per_op.median, bc.per_op.median):
                pairs.setdefault(v, []).append((_per_op(e, c), _per_op(base, bc)))
            else:
                t.left_out += 1
    for v, t in tallies.items():
        if pairs.get(v):
            t.points = len(pairs[v])
            t.geomean, t.lo, t.hi = geomean_ci(pairs[v], stats.seed_for(v, counter, "geomean"))
            if t.lo is None or t.hi is None:
                t.no_interval = no_interval_reason(pairs[v])
            t.every_run_same = all(stats.every_run_same(a, b) for a, b in pairs[v])
    return tallies


def counted(count: int, word: str) -> str:
    """The count and the word, plural unless the count is 1 ("1 loss",
    "2 losses")."""
    return f"{count} {word}" + ("" if count == 1 else "es" if word.endswith("s") else "s")


def _tally_line(variant: str, baseline: str, t: Tally, unstable: str = "not robust") -> str:
    line = (f"{variant} vs {baseline}: {counted(t.wins, 'win')}, {counted(t.ties, 'tie')}, "
            f"{counted(t.losses, 'loss')}")
    if t.not_robust:
        line += f", {t.not_robust} {unstable}"
    if t.geomean is None:
        line += (f"; no geometric mean (a median under {stats.NEXT_TO_NOTHING:g} "
                 "per operation at every point)")
    elif t.lo is None or t.hi is None:
        line += (f"; geometric mean of ratios {t.geomean:.3f} over {t.points} "
                 f"point{'s' if t.points != 1 else ''} (no interval: "
                 f"{t.no_interval or 'unknown'})")
    else:
        half = (t.hi - t.lo) / 2
        d = min(4, max(3, stats.decimals_for(half))) if half > 0 else 3
        gm = (_too_narrow(t.geomean, t.lo, t.hi, 4, t.every_run_same) or
              f"{t.geomean:.{d}f} [{t.lo:.{d}f}, {t.hi:.{d}f}]")
        line += (f"; geometric mean of ratios {gm} over {t.points} "
                 f"point{'s' if t.points != 1 else ''}")
    if t.left_out:
        line += (f" ({t.left_out} with a median under {stats.NEXT_TO_NOTHING:g} "
                 "per operation left out)")
    return line


def header(baseline: str) -> str:
    return f"Verdict ({LOWER_IS_BETTER}; baseline {baseline})"


# Each simulated model's verdicts, in this order: the L1i, where the
# footprint sweep shows the crossing, and the uop cache, where the
# variants differ at every footprint (docs/findings.md).
SIM_VERDICT_KINDS = ("l1i_misses", "uop_misses")


def sim_verdict_counters(names: Iterable[str]) -> list[str]:
    """sim.MODEL.KIND for every model and SIM_VERDICT_KINDS, by model."""
    names = set(names)
    return [c for m in sim.models_of(names) for k in SIM_VERDICT_KINDS
            if (c := f"sim.{m}.{k}") in names]


# The ring-0 PMU counters a verdict judges, in this order.
PMU_VERDICT_COUNTERS = ("cycles", "l1i_misses")


def judged_counters(results: Results) -> set[str]:
    """The counters of a document's own results that a verdict judges:
    real-CPU time of a host-harness run, ring-0 PMU cycles and L1i misses
    where rdpmc worked, each model's simulated L1i and uop-cache misses.
    Never the TSC of a kernel run (under TCG it is emulator time; on a
    machine with a PMU the verdict takes cycles)."""
    names = results.counter_names()
    out = set(sim_verdict_counters(names))
    if results.context == "user":
        out |= {"tsc"} & names
    elif truth.pmu_state(results.machine)[0]:
        out |= set(PMU_VERDICT_COUNTERS) & names
    return out


def verdicts(results: Results, truth_sources: Sequence[str],
             not_robust: NotRobust | None = None) -> list[Verdict]:
    """Every source of truth's verdicts for one run: ring-0 PMU counters
    (cycles, L1i misses), simulated L1i and uop-cache misses per model, and real-CPU time
    from the host harness (results.host). Never TSC of a TCG guest."""
    base = results.baseline or "O2"
    out: list[Verdict] = []
    names = results.counter_names()
    if "pmu" in truth_sources:
        for c in PMU_VERDICT_COUNTERS:
            if c in names:
                out.append(verdict(results.results, c, base, "Ring-0 PMU counters",
                                   not_robust))
    if "sim" in truth_sources:
        for c in sim_verdict_counters(names):
            model = c.split(".")[1]
            out.append(verdict(results.results, c, base,
                               f"Simulated front end ({model}, kernel code)", not_robust))
    host = results.host
    if "host" in truth_sources and host is not None and "tsc" in host.counter_names():
        out.append(verdict(host.results, "tsc", host.baseline or base,
                           HOST_SOURCE, not_robust))
    return out


def render(vs: Sequence[Verdict]) -> list[str]:
    """The verdict block as lines (terminal and report paragraphs alike)."""
    if not vs:
        return []
    out = [header(vs[0].baseline), f"Rule: {RULE}."]
    for v in vs:
        out.append(f"  {v.source}: {counter_label(v.counter)} per operation")
        out += [f"    {line}" for line in v.lines]
    return out
