# SPDX-License-Identifier: GPL-2.0-or-later
"""Flat per-function tables for results.json (`sim_functions` from the fesim
plugin, `vg_functions` from callgrind; docs/results-schema.md).

Both tools report, for every measured region, a row of counts per function.
A function's figure per counted run follows the same overhead rule as the
region's own figures (tools/kfront/regions.py), applied to the function's
counts alone: what the function did in the run minus what it did in the
calibration region. The table keeps the top functions by the first column,
then the top few of every other column that list missed (a function with
few instructions and many misses still shows), and sums the rest into one
"other" row, so a result stays small however many functions ran.
"""
from __future__ import annotations

from typing import Any, Callable, Hashable

from . import regions

# This many functions by the first column, plus the top few of every
# other column, plus one "other" row for the rest.
TOP_FUNCTIONS = 10
TOP_PER_COLUMN = 3

# region number -> {function key: [count per column]}
RowsOf = Callable[[int], dict[Hashable, list[float]]]


def all_regions(p: dict[str, Any]) -> list[int]:
    """Every region the overhead rule reads for result payload p."""
    need = {s for s in p.get('regions') or [] if isinstance(s, int)}
    if p.get('method') == 'diff':
        need |= {s + 1 for s in need}
    else:
        first, count = int(p['calib_region']), int(p['calib_regions'])
        need |= set(range(first, first + count))
    return sorted(need)


def _mean(values: list[int]) -> float:
    return sum(values) / len(values) if values else 0.0


def per_function(p: dict[str, Any], rows_of: RowsOf, ncols: int
                 ) -> dict[Hashable, list[float]] | None:
    """Mean per counted run of every column, per function; None when a
    region the rule needs is missing."""
    try:
        rows = {seq: rows_of(seq) for seq in all_regions(p)}
    except (KeyError, TypeError, ValueError):
        return None
    keys = sorted({k for r in rows.values() for k in r}, key=str)
    out: dict[Hashable, list[float]] = {}
    for key in keys:
        means = []
        for col in range(ncols):
            vals = regions.per_run(
                p, lambda seq, c=col: round(rows[seq][key][c]) if key in rows[seq] else 0)
            if vals is None:
                return None
            means.append(_mean(vals))
        if any(means):
            out[key] = means
    return out


def top_keys(table: dict[Hashable, list[float]], ncols: int) -> list[Hashable]:
    def top(col: int, n: int) -> list[Hashable]:
        ranked = sorted(table, key=lambda k: (-table[k][col], str(k)))
        return [k for k in ranked[:n] if table[k][col] > 0]
    chosen = top(0, TOP_FUNCTIONS)
    for col in range(1, ncols):
        chosen += [k for k in top(col, TOP_PER_COLUMN) if k not in chosen]
    return chosen


def build(p: dict[str, Any], rows_of: RowsOf, columns: list[str],
          label: Callable[[Hashable], dict[str, Any]]) -> dict[str, Any] | None:
    """The table for result payload p: `columns` names the row columns,
    `label(key)` gives a row's identity (function name, and address where
    the tool knows it)."""
    table = per_function(p, rows_of, len(columns))
    if table is None:
        return None
    chosen = top_keys(table, len(columns))

    def row(values: list[float]) -> dict[str, float]:
        return {n: round(v, 3) for n, v in zip(columns, values)}
    rest = [k for k in table if k not in chosen]
    other = [sum(table[k][c] for k in rest) for c in range(len(columns))]
    return {'per': 'run', 'columns': columns,
            'top': [dict(**label(k), **row(table[k])) for k in chosen],
            'other': dict(functions=len(rest), **row(other))}
