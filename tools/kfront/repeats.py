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

from . import placement, stats, verdict
from .model import Result, Results

COUNTER = 'tsc'
# kfront host --repeat: one process is the run as before; a process of the
# full sweep takes about 40 s on the development VM
MAX_PROCESSES = 9


def warm_points(results: Results) -> dict[tuple[str, int], dict[str, Result]]:
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


def _rows(by_process: list[dict[tuple[str, int], dict[str, Result]]],
          baseline: str) -> list[dict[str, Any]]:
    """One row per point of the first process that has the baseline: each
    other variant's verdict and time ratio in every process, and whether
    the verdicts are the same in all."""
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
    return rows


def moves(runs: list[Results]) -> dict[str, Any] | None:
    """How far the time ratios moved between runs (or processes) against
    the first one's intervals: summary()'s `moves` alone, for kfront
    compare and kfront study, which have two runs and no use for the
    rest."""
    baseline = runs[0].baseline or 'O2'
    by_process = [warm_points(r) for r in runs]
    return _moves(_rows(by_process, baseline), by_process[0], len(runs), baseline)


def summary(processes: list[Results]) -> dict[str, Any]:
    """Every point's verdicts and time ratios per variant in each process,
    in order, and whether the verdicts are the same in all: the
    `extra.host_repeats` block."""
    first = processes[0]
    baseline = first.baseline or 'O2'
    by_process = [warm_points(r) for r in processes]
    rows = _rows(by_process, baseline)
    pooled = _pooled(by_process, rows, baseline) if len(processes) > 1 else None
    for r in rows:
        r['pooled'] = {v: pooled['ratios'][(r['bench'], r['footprint'], v)]
                       for v in r['verdicts']
                       if pooled and (r['bench'], r['footprint'], v) in pooled['ratios']}
    return {'processes': len(processes), 'baseline': baseline,
            'placement': [placement.recorded(r.extra) for r in processes],
            'geomeans': _geomeans(by_process, baseline),
            'half_widths': [_half_width_median(ps) for ps in by_process],
            'moves': _moves(rows, by_process[0], len(processes), baseline),
            'pooled': None if pooled is None else {
                'tally': pooled['tally'], 'ratios': len(pooled['ratios']),
                'method': pooled['method']},
            'halves': _halves(by_process, rows, baseline),
            'rule': 'each variant\'s verdict against the baseline (verdict.outcome) in '
                    'every process; a point where one differs calls no winner for it',
            'points': len(rows), 'not_repeated': sum(not r['repeated'] for r in rows),
            'verdicts': sum(len(r['verdicts']) for r in rows),
            'verdicts_not_repeated': sum(len(r['flipped_pairs']) for r in rows),
            'rows': rows}


def _placement_of_all(block: dict[str, Any]) -> str | None:
    """placement.FRESH or placement.KEPT when every process says the same,
    else None."""
    kinds = set(block.get('placement') or [None])
    return kinds.pop() if len(kinds) == 1 and kinds <= {placement.FRESH, placement.KEPT} \
        else None


def placement_text(block: dict[str, Any]) -> str:
    """Where the processes' code ran from, when every process says the
    same; '' otherwise."""
    return {placement.FRESH: 'each process ran from a fresh copy of the program, so its '
                             'code sat on other physical pages',
            placement.KEPT: 'every process ran from the program file as it stood, its code '
                            'on the same physical pages: the processes do not sample where '
                            'the code lands'}.get(_placement_of_all(block), '')


def _half_width_median(points: dict[tuple[str, int], dict[str, Result]]) -> float | None:
    """The median over one process's ratios of its 95% interval's half
    width over the ratio: how noisy that process was. On a shared VM one
    process can be several times noisier than the next
    (docs/statistics.md), and its verdicts then call less."""
    widths = [iv[0] for vs in points.values() for e in vs.values()
              for iv in [_interval(e)] if iv is not None]
    return round(stats.median(widths), 4) if widths else None


def _pooled(by_process: list[dict[tuple[str, int], dict[str, Result]]],
            rows: list[dict[str, Any]], baseline: str) -> dict[str, Any]:
    """Each variant's time ratio to the baseline at each point of `rows`
    pooled over the processes (stats.two_level_ratio: processes, then
    their runs, resampled), Holm-corrected over all of them as a
    document's ratios are, with its verdict by the verdict's rule
    (verdict.called). Unlike the rule above (the same verdict in every
    process), it weighs how far the processes are apart rather than
    which side of the line each fell on: docs/statistics.md compares the
    two. Returns `ratios` by (bench, footprint, variant), each variant's
    `tally` and the `method`."""
    found: list[tuple[tuple[str, int, str], stats.Interval, float, list[float]]] = []
    for r in rows:
        point = (r['bench'], r['footprint'])
        for v in r['verdicts']:
            here = [ps.get(point, {}) for ps in by_process]
            if any(v not in h or baseline not in h for h in here):
                continue
            groups = [tuple(stats.per_op(h[name].counters[COUNTER].samples, h[name].iters)
                            for name in (v, baseline)) for h in here]
            iv, p = stats.two_level_ratio(
                groups, seed=stats.seed_for(r['bench'], r['footprint'], v, 'pooled'))
            if iv is None or p is None:
                continue
            medians = [stats.median([x for g in groups for x in g[i]]) for i in (0, 1)]
            found.append(((*point, v), iv, p, medians))
    ratios: dict[tuple[str, int, str], dict[str, Any]] = {}
    tally: dict[str, dict[str, int]] = {}
    for (key, iv, p, medians), adj in zip(found, stats.holm([f[2] for f in found])):
        outcome = verdict.called(iv.value, iv.excludes_one
                                 and adj < 1 - stats.DEFAULT_CONFIDENCE, *medians)
        ratios[key] = {'value': round(iv.value, 4), 'lo': round(iv.lo, 4),
                       'hi': None if iv.unbounded else round(iv.hi, 4),
                       'p': p, 'p_holm': adj, 'verdict': outcome}
        t = tally.setdefault(key[2], {verdict.WIN: 0, verdict.TIE: 0, verdict.LOSS: 0})
        t[outcome] += 1
    return {'ratios': ratios, 'tally': tally,
            'method': 'two-level percentile bootstrap over processes and their runs '
                      '(stats.two_level_ratio), Holm over the block\'s ratios'}


def _halves(by_process: list[dict[tuple[str, int], dict[str, Result]]],
            rows: list[dict[str, Any]], baseline: str) -> dict[str, Any] | None:
    """With four processes or more: the verdicts of the first half of the
    processes against those of the second (the same number each), by
    each rule, so a run measures which rule's verdicts repeat: how many
    agree, how many are reversed (a win in one half, a loss in the
    other), how many each half calls (a win or a loss). The first rule:
    a verdict where every process of the half agrees, else "not
    repeated", which calls no winner and so counts as a tie here; the
    second: pooled over the half's processes."""
    k = len(by_process) // 2
    if k < 2:
        return None
    halves = (range(k), range(k, 2 * k))

    def by_repeat(half: range) -> dict[tuple[str, int, str], str]:
        out = {}
        for r in rows:
            for v, vs in r['verdicts'].items():
                seen = {vs[i] for i in half if vs[i] is not None}
                # a point not repeated calls no winner, as a tie does
                out[(r['bench'], r['footprint'], v)] = \
                    seen.pop() if len(seen) == 1 else verdict.TIE
        return out

    def by_pool(half: range) -> dict[tuple[str, int, str], str]:
        pooled = _pooled([by_process[i] for i in half], rows, baseline)
        return {key: p['verdict'] for key, p in pooled['ratios'].items()}

    out: dict[str, Any] = {'processes_each': k}
    for name, rule in (('repeat', by_repeat), ('pooled', by_pool)):
        a, b = rule(halves[0]), rule(halves[1])
        keys = sorted(set(a) & set(b))
        called = (verdict.WIN, verdict.LOSS)
        out[name] = {'verdicts': len(keys),
                     'agree': sum(a[x] == b[x] for x in keys),
                     'reversed': sum({a[x], b[x]} == set(called) for x in keys),
                     'called': [sum(h[x] in called for x in keys) for h in (a, b)]}
    return out


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


def half_widths_text(block: dict[str, Any]) -> str:
    """"±2.4 %, ±3.1 %, ...": each process's median interval half-width,
    or '' without them (a block from before them)."""
    hws = block.get('half_widths')
    if not isinstance(hws, list) or not any(h is not None for h in hws):
        return ''
    return ', '.join('n/a' if h is None else f'±{100 * h:.1f} %' for h in hws)


def pooled_text(block: dict[str, Any]) -> str:
    """"Os 8 wins, 9 ties, 11 losses; hybrid ...": the verdicts pooled over
    the processes, or '' without them (a block from before them)."""
    pooled = block.get('pooled')
    if not isinstance(pooled, dict) or not pooled.get('tally'):
        return ''
    return '; '.join(f'{v} ' + ', '.join(verdict.counted(t.get(k, 0), k)
                                         for k in (verdict.WIN, verdict.TIE, verdict.LOSS))
                     for v, t in pooled['tally'].items())


def halves_text(block: dict[str, Any], unit: tuple[str, str] = ('process', 'processes')
                ) -> str:
    """How often each rule's verdicts agree between the first and the
    second half of the processes (or the `unit` given, singular and
    plural), or '' with fewer than four."""
    h = block.get('halves')
    if not isinstance(h, dict) or 'pooled' not in h or 'repeat' not in h:
        return ''

    def one(r: dict[str, Any]) -> str:
        return (f"{r['agree']} of {r['verdicts']} agree, {r['reversed']} reversed, "
                f"{' and '.join(map(str, r['called']))} called a win or a loss")
    return (f"the first {h['processes_each']} {unit[1]} against the next "
            f"{h['processes_each']}: pooled, {one(h['pooled'])}; the same verdict in "
            f"every {unit[0]}, {one(h['repeat'])}")


def line(block: dict[str, Any]) -> str:
    """What the terminal says after the processes: how many verdicts repeat,
    how far the ratios moved, and each process's geometric means."""
    k, n, bad = block['processes'], block['verdicts'], block['verdicts_not_repeated']
    means = geomeans_text(block)
    moves = moves_text(block, detail=False)
    where = {placement.FRESH: ' (each from a fresh copy of the program)',
             placement.KEPT: ' (all from the program file as it stood)'
             }.get(_placement_of_all(block), '')
    return (f'{k} timing processes{where}: {n - bad} of {n} verdicts against '
            f'{block["baseline"]} the same in every one; {bad} not repeated '
            '(no winner called on those)'
            + (f'; {moves}' if moves else '')
            + (f'; geometric mean of the time ratios in each process: {means}'
               if means else '')
            + (f'. Which rule\'s verdicts repeat, {halves_text(block)} (pooled: '
               f'each point\'s runs of every process in a two-level bootstrap; '
               f'report.md has its verdicts)' if halves_text(block) else ''))
