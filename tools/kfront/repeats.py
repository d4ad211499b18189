# SPDX-License-Identifier: GPL-2.0-or-later
"""Do the real-CPU verdicts repeat from one host-harness process to the next?

Within one process the variants' runs are interleaved and resampled in
pairs, so an interval says how far the median could move if the same
process were run again under the same conditions. On a shared virtual
machine the conditions do not stay the same: another process of the same
program, minutes later, can turn a win into a tie, now and then into a
loss (docs/statistics.md, "Between runs": over seven timing runs of one
day, 10 of 56 verdicts were a win in one and a loss in another).

`kfront host --repeat K` (and `kfront run --host-repeat K`) runs the host
program K times, one process after the other. The first process's figures
are the run's; every process gives each variant's verdict against the
baseline at each point by the verdict's own rule (verdict.outcome()), and
a point where a variant's verdict is not the same in every process is
"not repeated" for that variant: the verdict calls no winner on it, as it
calls none on a simulated ranking that flips between replacement policies
(robustness.py). The rows are stored in results.json under
`extra.host_repeats` (docs/results-schema.md); flipped() is the one call
the verdict code uses.

Each row also keeps every process's time ratio, and the block says how
far the ratios moved between processes against how far the first
process's intervals say they would (`moves`): whether one process's
intervals can stand for the run's uncertainty, measured in every run
rather than assumed. kfront compare gives the same figure for two runs.
"""
from __future__ import annotations

import math
from typing import Any

from . import stats, verdict
from .model import Result, Results

COUNTER = 'tsc'
# kfront host --repeat: one process is the run as before; a process of the
# full sweep takes about 40 s on the development VM
MAX_PROCESSES = 9


def _points(results: Results) -> dict[tuple[str, int], dict[str, Result]]:
    """The warm results with a TSC counter, by (bench, footprint or 0)."""
    out: dict[tuple[str, int], dict[str, Result]] = {}
    for e in results.results:
        if COUNTER in e.counters and e.state != 'cold':
            out.setdefault((e.bench, e.footprint or 0), {})[e.variant] = e
    return out


def _ratio(here: dict[str, Result], v: str, baseline: str) -> float | None:
    """v's time ratio to the baseline at one point of one process, where
    both medians are at least stats.NEXT_TO_NOTHING an operation (the
    points the verdict's own geometric mean takes); None elsewhere."""
    if v not in here or baseline not in here:
        return None
    a = here[v].counters[COUNTER].per_op.median
    b = here[baseline].counters[COUNTER].per_op.median
    return a / b if stats.worth_a_ratio(a, b) else None


def _interval(e: Result) -> tuple[float, float] | None:
    """The first process's 95% interval of a time ratio as (half its width
    over the ratio, the standard deviation of the ratio's logarithm it
    implies, a normal's 1.96 on each side): how far that process's own
    figure could move. None without a bounded interval."""
    r = e.counters[COUNTER].ratio
    if (r is None or r.lo is None or r.hi is None or r.unbounded or r.value <= 0
            or r.lo <= 0):
        return None
    return (r.hi - r.lo) / 2 / r.value, math.log(r.hi / r.lo) / (2 * 1.96)


def summary(processes: list[Results]) -> dict[str, Any]:
    """Every point's verdicts and time ratios per variant in each process,
    in order, and whether the verdicts are the same in all: the
    `extra.host_repeats` block."""
    first = processes[0]
    baseline = first.baseline or 'O2'
    by_process = [_points(r) for r in processes]
    rows = []
    for point, variants in by_process[0].items():
        if baseline not in variants:
            continue
        verdicts: dict[str, list[str | None]] = {}
        ratios: dict[str, list[float | None]] = {}
        for v in variants:
            if v == baseline:
                continue
            verdicts[v], ratios[v] = [], []
            for points in by_process:
                here = points.get(point, {})
                verdicts[v].append(verdict.outcome(here[v], here[baseline], COUNTER)
                                   if v in here and baseline in here else None)
                r = _ratio(here, v, baseline)
                ratios[v].append(None if r is None else round(r, 4))
        flipped = [[v, baseline] for v, vs in verdicts.items() if len(set(vs)) > 1]
        rows.append({'bench': point[0], 'footprint': point[1], 'counter': COUNTER,
                     'verdicts': verdicts, 'ratios': ratios, 'repeated': not flipped,
                     'flipped_pairs': flipped})
    return {'processes': len(processes), 'baseline': baseline,
            'geomeans': _geomeans(by_process, baseline),
            'moves': _moves(rows, by_process[0], len(processes), baseline),
            'rule': 'each variant\'s verdict against the baseline (verdict.outcome) in '
                    'every process; a point where one differs calls no winner for it',
            'points': len(rows), 'not_repeated': sum(not r['repeated'] for r in rows),
            'verdicts': sum(len(r['verdicts']) for r in rows),
            'verdicts_not_repeated': sum(len(r['flipped_pairs']) for r in rows),
            'rows': rows}


def _moves(rows: list[dict[str, Any]], first: dict[tuple[str, int], dict[str, Result]],
           processes: int, baseline: str) -> dict[str, Any] | None:
    """How far a point's time ratio moved between processes (the largest
    of its ratios over the smallest, less one), against how far the first
    process's own 95% interval says it would move: medians over every
    (point, variant) with a ratio in each process, and the largest move
    with where it was. None with no such pair.

    If a process's interval were the whole uncertainty, the processes'
    log ratios would be `processes` normal draws with the spread that
    interval implies, and their range would exceed
    stats.normal_range_median(processes) x that spread half the time:
    `expected_median` is the median over the pairs of that move, and
    `beyond_expected` counts the pairs that moved more than their own
    (about half of `pairs`, were the intervals right). This is the figure
    that says whether one process's intervals can be taken as the run's
    uncertainty (docs/statistics.md, "Between runs")."""
    moved: list[tuple[float, dict[str, Any]]] = []
    widths: list[float] = []
    expected: list[float] = []
    beyond = 0
    # the same by footprint: where the moves are (docs/statistics.md:
    # runs hours apart move most at the footprints that spill the L1i)
    by_fp: dict[int, tuple[list[float], list[float]]] = {}
    factor = stats.normal_range_median(processes) if processes >= 2 else 0.0
    swept = {r['bench'] for r in rows if r['footprint']}
    for r in rows:
        for v, rs in r['ratios'].items():
            if not rs or any(x is None for x in rs):
                continue
            move = max(rs) / min(rs) - 1
            moved.append((move, {'bench': r['bench'], 'footprint': r['footprint'],
                                 'swept': r['bench'] in swept, 'variant': v,
                                 'ratios': rs}))
            fp = by_fp.setdefault(r['footprint'], ([], []))
            fp[0].append(move)
            iv = _interval(first[(r['bench'], r['footprint'])][v])
            if iv is not None:
                widths.append(iv[0])
                expected.append(math.exp(factor * iv[1]) - 1)
                fp[1].append(expected[-1])
                beyond += move > expected[-1]
    if not moved:
        return None
    top = max(moved, key=lambda m: m[0])
    return {'pairs': len(moved),
            'median': round(stats.median([m for m, _ in moved]), 4),
            'max': round(top[0], 4), 'max_at': top[1],
            'half_width_median': round(stats.median(widths), 4) if widths else None,
            'expected_median': round(stats.median(expected), 4) if expected else None,
            'with_interval': len(expected), 'beyond_expected': beyond,
            'by_footprint': [
                {'footprint': k, 'pairs': len(ms), 'median': round(stats.median(ms), 4),
                 'expected_median': round(stats.median(es), 4) if es else None}
                for k, (ms, es) in sorted(by_fp.items())] if len(by_fp) > 1 else None,
            'rule': f'per (point, variant): largest time ratio to {baseline} over the '
                    'processes / smallest - 1; half_width_median: the first process\'s '
                    '95% interval, half its width over the ratio, median; '
                    'expected_median: the median move those intervals give '
                    '(stats.normal_range_median), median; beyond_expected: pairs that '
                    'moved more than their own'}


def _geomeans(by_process: list[dict[tuple[str, int], dict[str, Result]]],
              baseline: str) -> dict[str, list[float | None]]:
    """Each variant's geometric mean of its time ratios to the baseline, one
    per process, over the points the verdict's own mean takes (both
    medians at least stats.NEXT_TO_NOTHING): how far the run's summary
    figure moves from process to process, which its interval, of one
    process's runs, does not say."""
    variants = sorted({v for points in by_process for vs in points.values() for v in vs
                       if v != baseline})
    out: dict[str, list[float | None]] = {}
    for v in variants:
        out[v] = []
        for points in by_process:
            ratios = [r for r in (_ratio(vs, v, baseline) for vs in points.values())
                      if r is not None]
            g = stats.geomean(ratios)
            out[v].append(None if g is None else round(g, 4))
    return out


def flipped(extra: dict[str, Any]) -> dict[tuple[str, int, str], verdict.Flipped]:
    """(bench, footprint, 'tsc') of every point whose verdicts differ
    between processes, with the pairs (variant, baseline) that differ and
    their verdicts in words, from a results document's extra block; empty
    for a run of one process."""
    block = extra.get('host_repeats') if isinstance(extra, dict) else None
    rows = block.get('rows') if isinstance(block, dict) else None
    out: dict[tuple[str, int, str], verdict.Flipped] = {}
    for r in rows if isinstance(rows, list) else []:
        if not isinstance(r, dict) or r.get('repeated', True):
            continue
        pairs = [pr for pr in r.get('flipped_pairs') or []
                 if isinstance(pr, list) and len(pr) == 2]
        flips = verdict.Flipped(frozenset(map(str, pr)) for pr in pairs)
        verdicts = r.get('verdicts') if isinstance(r.get('verdicts'), dict) else {}
        # the words the verdict line gives, always: "Os against O2: win,
        # then tie" (without the verdicts, a row written by hand: the pair)
        flips.detail = '; '.join(
            f'{pr[0]} against {pr[1]}'
            + (': ' + ', then '.join(str(v) for v in verdicts[pr[0]])
               if verdicts.get(pr[0]) else '')
            for pr in pairs)
        out[(str(r['bench']), int(r['footprint']), str(r.get('counter', COUNTER)))] = flips
    return out


def geomeans_text(block: dict[str, Any]) -> str:
    """"Os/O2 1.092, 1.071; hybrid/O2 ...": each process's geometric mean."""
    base = block.get('baseline')
    return '; '.join(f'{v}/{base} ' + ', '.join('n/a' if g is None else f'{g:.3f}'
                                                  for g in gs)
                     for v, gs in (block.get('geomeans') or {}).items())


def moves_text(block: dict[str, Any], detail: bool = True, between: str = 'processes',
               first: str = "the first process's") -> str:
    """"a point's time ratio moved by a median of 4.4 % between processes
    (at most ...), where the first process's 95 % intervals (median
    ±5.4 %) would make that 2.7 %; 24 of 34 moved more than their own
    interval gives half the time ...", or '' without the figures (a block
    from before them).
    Without detail, the terminal's short form; `between` and `first` name
    the processes otherwise (kfront compare: "the runs", "A's")."""
    m = block.get('moves')
    if not isinstance(m, dict) or m.get('median') is None:
        return ''
    at = m.get('max_at') or {}
    # "@0" where the workload was swept, as the verdict lines write it
    where = (f"{at.get('bench')}"
             + (f" @{at.get('footprint')}" if at.get('swept') or at.get('footprint') else '')
             + f", {at.get('variant')}/{block.get('baseline')} "
             + ', then '.join(f'{x:.3f}' for x in at.get('ratios') or []))
    text = (f"a point's time ratio moved by a median of {100 * m['median']:.1f} % "
            f"between {between}"
            + (f" (at most {100 * m['max']:.1f} %: {where})" if detail else ''))
    hw, exp = m.get('half_width_median'), m.get('expected_median')
    if hw is None or exp is None:
        return text
    text += (f", where {first} 95 % intervals"
             + (f" (median ±{100 * hw:.1f} %)" if detail else '')
             + f" would make that {100 * exp:.1f} %")
    if detail and m.get('with_interval'):
        text += (f"; {m.get('beyond_expected')} of {m['with_interval']} moved more than "
                 "their own interval gives half the time (about half would, were the "
                 "intervals the whole uncertainty)")
    if detail and m.get('by_footprint'):
        text += ("; by footprint, moved against expected: " + ', '.join(
            f"{f['footprint']}: {100 * f['median']:.1f} %"
            + (f" against {100 * f['expected_median']:.1f} %"
               if f.get('expected_median') is not None else '')
            for f in m['by_footprint']))
    return text


def line(block: dict[str, Any]) -> str:
    """What the terminal says after the processes: how many verdicts repeat,
    how far the ratios moved, and each process's geometric means."""
    k, n, bad = block['processes'], block['verdicts'], block['verdicts_not_repeated']
    means = geomeans_text(block)
    moves = moves_text(block, detail=False)
    return (f'{k} timing processes: {n - bad} of {n} verdicts against '
            f'{block["baseline"]} the same in every one; {bad} not repeated '
            '(no winner called on those)'
            + (f'; {moves}' if moves else '')
            + (f'; geometric mean of the time ratios in each process: {means}'
               if means else ''))
