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
"""
from __future__ import annotations

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


def summary(processes: list[Results]) -> dict[str, Any]:
    """Every point's verdicts per variant in each process, in order, and
    whether they are the same in all: the `extra.host_repeats` block."""
    first = processes[0]
    baseline = first.baseline or 'O2'
    by_process = [_points(r) for r in processes]
    rows = []
    for point, variants in by_process[0].items():
        if baseline not in variants:
            continue
        verdicts: dict[str, list[str | None]] = {}
        for v in variants:
            if v == baseline:
                continue
            verdicts[v] = []
            for points in by_process:
                here = points.get(point, {})
                verdicts[v].append(verdict.outcome(here[v], here[baseline], COUNTER)
                                   if v in here and baseline in here else None)
        flipped = [[v, baseline] for v, vs in verdicts.items() if len(set(vs)) > 1]
        rows.append({'bench': point[0], 'footprint': point[1], 'counter': COUNTER,
                     'verdicts': verdicts, 'repeated': not flipped,
                     'flipped_pairs': flipped})
    return {'processes': len(processes), 'baseline': baseline,
            'geomeans': _geomeans(by_process, baseline),
            'rule': 'each variant\'s verdict against the baseline (verdict.outcome) in '
                    'every process; a point where one differs calls no winner for it',
            'points': len(rows), 'not_repeated': sum(not r['repeated'] for r in rows),
            'verdicts': sum(len(r['verdicts']) for r in rows),
            'verdicts_not_repeated': sum(len(r['flipped_pairs']) for r in rows),
            'rows': rows}


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
            ratios = []
            for vs in points.values():
                if v in vs and baseline in vs:
                    a = vs[v].counters[COUNTER].per_op.median
                    b = vs[baseline].counters[COUNTER].per_op.median
                    if stats.worth_a_ratio(a, b):
                        ratios.append(a / b)
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


def line(block: dict[str, Any]) -> str:
    """What the terminal says after the processes: how many verdicts repeat,
    and each process's geometric means."""
    k, n, bad = block['processes'], block['verdicts'], block['verdicts_not_repeated']
    means = geomeans_text(block)
    return (f'{k} timing processes: {n - bad} of {n} verdicts against '
            f'{block["baseline"]} the same in every one; {bad} not repeated '
            '(no winner called on those)'
            + (f'; geometric mean of the time ratios in each process: {means}'
               if means else ''))
