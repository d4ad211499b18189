# SPDX-License-Identifier: GPL-2.0-or-later
"""The report's "Why" tables (issue 19, item 3): under every significant
difference between a variant and the baseline, the functions that account
for most of it, from the per-function tables the results carry (the
simulator's `sim_functions`, callgrind's `vg_functions`).

One table per benchmark point and variant, for the first counter in
EXPLAINED order whose ratio is marked significant and that a table splits:
a significant time difference on the host is shown through callgrind's
instructions per function (the nearest count that a function table
holds), and says so. The disassembly behind each function is one
`kfront explain` command away; the table prints that command.
"""
from __future__ import annotations

from typing import Any

from . import explain, sim
from .model import Result, Results

TOP = 3
# (counter whose significance triggers a table, counter the table splits)
EXPLAINED = ('sim.{m}.l1i_misses', 'sim.{m}.uop_misses', 'sim.instructions',
             'vg.i1_misses', 'vg.instructions', 'tsc')


def _split_by(counter: str) -> str:
    """The per-function counter that explains `counter`."""
    return 'vg.instructions' if counter == 'tsc' else counter


def _candidates(entry: Result) -> list[str]:
    names = list(entry.counters)
    models = sim.models_of(names)
    out = []
    for pattern in EXPLAINED:
        out += [pattern.format(m=m) for m in models] if '{m}' in pattern else [pattern]
    return [c for c in out if c in entry.counters]


def _table_has(entry: Result, counter: str) -> bool:
    src, _, column = counter.partition('.')
    table = entry.functions.get(src)
    return bool(table) and column in table.get('columns', [])


def _raw(*entries: Result) -> dict[str, Any]:
    """The two results in the shape explain.differences() reads."""
    return {'results': [{'bench': e.bench, 'variant': e.variant, 'footprint': e.footprint,
                         'sim_functions': e.functions.get('sim'),
                         'vg_functions': e.functions.get('vg')} for e in entries]}


def _point(e: Result) -> tuple[Any, ...]:
    return (e.bench, e.group, e.footprint, e.state, e.wire)


def tables(results: Results) -> list[tuple[str, list[str], list[list[str]], str]]:
    """(title, headers, rows, caption) for every significant difference
    that a function table explains."""
    base = results.baseline
    by_point = {(_point(e), e.variant): e for e in results.results}
    out = []
    for e in results.results:
        b = by_point.get((_point(e), base))
        if e.variant == base or b is None:
            continue
        for counter in _candidates(e):
            ratio = e.counters[counter].ratio
            split = _split_by(counter)
            if ratio is None or not ratio.marked or not (
                    _table_has(e, split) and _table_has(b, split)):
                continue
            try:
                total, funcs = explain.differences(
                    _raw(b, e), e.bench, (base, e.variant), split, e.footprint)
            except explain.ExplainError:
                continue
            variants = (base, e.variant)
            rows = [[f.name, *explain.cells(f, total, variants, ',.1f')] for f in funcs[:TOP]]
            at = '' if e.footprint is None else f' --footprint {e.footprint}'
            via = (f' (a time difference, shown through {split} per function)'
                   if split != counter else '')
            title = (f'{e.label}: {e.variant} vs {base}, {counter} ratio '
                     f'{ratio.value:.3f}{via}')
            caption = (f'Difference {e.variant} - {base} per counted run: {total:+,.1f}. '
                       + (f'{explain.IN_OTHER_NOTE}. ' if any(f.unknown for f in funcs[:TOP])
                          else '')
                       + f'Disassembly of what differs: ./kfront explain RESULTS.json '
                       f'--bench {e.bench} --variants {base},{e.variant} '
                       f'--counter {split}{at}')
            out.append((title, ['function', base, e.variant, 'difference', 'share'],
                        rows, caption))
            break
    return out
