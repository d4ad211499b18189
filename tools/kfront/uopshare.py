# SPDX-License-Identifier: GPL-2.0-or-later
"""The share of delivered uops that came from the uop cache.

The 2013 case for -Os was that hot kernel code fits the decoded-uop cache
better. Uop-cache misses per operation answer that only as a ratio of two
counts that may both be small (a variant with 7 misses an operation
against one with 0.0001 is "71,000 times" worse); the share of the uops
the uop cache delivered, uops_dsb / (uops_dsb + uops_mite), says how much
of the front end's work it did, on one scale for every variant: Intel
calls it DSB coverage. Each source that counts both gives one:

- the PMU (kernel or host harness): uops_dsb and uops_mite, the events of
  arch/x86/pmu_events.c (on AMD the op cache and the decoders);
- each simulated model: sim.MODEL.uops_dsb and sim.MODEL.uops_mite
  (the plugin's uop_hit_uops and uop_miss_uops).

A point's share is that of the two medians per operation. Ops from AMD's
loop buffer, and Intel's microcode sequencer's uops, are in neither
counter, so a share is of the uops the two counters see.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import stats
from .model import Result, Results

DSB, MITE = 'uops_dsb', 'uops_mite'
FORMULA = 'uops_dsb / (uops_dsb + uops_mite)'


@dataclass(frozen=True)
class Source:
    dsb: str            # counter names
    mite: str
    what: str           # "PMU" or "zen4, simulated"


def sources(results: Results) -> list[Source]:
    """Every source whose two counters are in the results, PMU first."""
    names = results.counter_names()
    found = [Source(DSB, MITE, 'PMU')] if {DSB, MITE} <= names else []
    models = sorted({n.split('.')[1] for n in names
                     if n.startswith('sim.') and n.endswith('.' + DSB)})
    found += [Source(f'sim.{m}.{DSB}', f'sim.{m}.{MITE}', f'{m}, simulated')
              for m in models if f'sim.{m}.{MITE}' in names]
    return found


Point = tuple[str, Any, Any]    # bench, footprint, state


def shares(results: Results, src: Source) -> dict[Point, dict[str, float]]:
    """Per point, each variant's share (0 to 1); a variant whose two
    medians are both 0 (no uops counted: e.g. a calibration benchmark) has
    none."""
    out: dict[Point, dict[str, float]] = {}
    for e in results.results:
        share = _share(e, src)
        if share is not None:
            out.setdefault((e.bench, e.footprint, e.state), {})[e.variant] = share
    return out


def share_of(dsb: float | None, mite: float | None) -> float | None:
    """uops_dsb / (uops_dsb + uops_mite) of two medians per operation;
    None where either is missing or no uops were counted."""
    if dsb is None or mite is None or dsb + mite <= 0:
        return None
    return dsb / (dsb + mite)


def _share(e: Result, src: Source) -> float | None:
    dsb, mite = e.counters.get(src.dsb), e.counters.get(src.mite)
    return share_of(dsb.per_op.median if dsb else None,
                    mite.per_op.median if mite else None)


def label(p: Point) -> str:
    bench, fp, state = p
    text = bench if fp is None else f'{bench} @{fp}'
    return f'{text} (cold)' if state == 'cold' else text


def percent(share: float) -> str:
    """One decimal; a share that rounds to 100 % or 0 % without being
    it says so (">99.9%", "<0.1%")."""
    text = f'{100 * share:.1f}%'
    if text == '100.0%' and share < 1:
        return '>99.9%'
    if text == '0.0%' and share > 0:
        return '<0.1%'
    return text


def variants_of(results: Results) -> list[str]:
    return [str(v.get('name')) for v in results.variants]


CALIBRATION = 'calib.'      # the harness's own microbenchmarks


def summary(results: Results) -> list[str]:
    """The terminal's lines: per source, per footprint (unswept workloads
    apart), each variant's median share over the points; warm runs only,
    the calibration benchmarks left out (report.md's table has them)."""
    out: list[str] = []
    names = variants_of(results)
    for src in sources(results):
        by_fp: dict[Any, list[dict[str, float]]] = {}
        for (bench, fp, state), per in shares(results, src).items():
            if state != 'cold' and not bench.startswith(CALIBRATION):
                by_fp.setdefault(fp, []).append(per)
        if not by_fp:
            continue
        out.append(f'Uop-cache share of delivered uops ({src.what}: {FORMULA} '
                   'of the medians per operation; the median over points, '
                   'calib.* left out; each point in report.md):')
        for fp in sorted(by_fp, key=lambda f: (f is not None, f or 0)):
            points = by_fp[fp]
            where = 'unswept workloads' if fp is None else f'footprint {fp}'
            parts = [f'{v} {percent(stats.median([p[v] for p in points if v in p]))}'
                     for v in names if any(v in p for p in points)]
            n = len(points)
            out.append(f'  {where} ({n} point{"" if n == 1 else "s"}): {", ".join(parts)}')
    return out


def table(results: Results, src: Source) -> tuple[list[str], list[list[str]]]:
    """report.md's table for one source: a row per point, a column per
    variant ("-" where the variant counted no uops there)."""
    names = variants_of(results)
    rows = [[label(p)] + [percent(per[v]) if v in per else '-' for v in names]
            for p, per in shares(results, src).items()]
    return ['benchmark'] + names, rows
