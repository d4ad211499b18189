# SPDX-License-Identifier: GPL-2.0-or-later
"""Are the simulated rankings robust across replacement policies?

`--sim skylake,skylake@plru,skylake@random` runs one model geometry under
several policy settings (docs/fesim.md, "Replacement and prefetch"); each
setting gives its own counters (sim.skylake.l1i_misses,
sim.skylake@plru.l1i_misses, ...). For every benchmark, footprint point
and counter, the variants are ordered by their per-operation median under
each setting; when the settings disagree on the order of any pair of
variants, the ranking is "not robust": which variant misses less depends
on a policy nobody publishes, so no winner should be called on it.

Two values within TIE_REL of each other (relative to the larger) are a
tie, and so are two values both next to nothing (under
stats.NEXT_TO_NOTHING per operation, where the verdict calls no winner
either: under random replacement a workload that fits the L1i still
loses a line now and then, 0.002 to 0.0055 misses an operation, and
their order is rounding); a pair that ties under one setting and is
ordered under another counts as a disagreement too.

The setting `@noprefetch` (LRU without the next-line prefetch) joins the
comparison the same way, except for its l1i_prefetches, which are 0 for
every variant: the prefetch's own counter has no order to compare there.

The uops each source delivered (uops_dsb, uops_mite) are volumes, not
misses: their order follows the uop misses', so they are left out, and the
counts of rankings stay those of the miss counters.

The result is a plain list of rows stored in results.json under
`extra.sim.robustness` (docs/results-schema.md); not_robust() is the one
call the verdict code uses.
"""
from __future__ import annotations

import re
from itertools import combinations
from typing import Any, Optional

from . import stats
from .sim import NO_PREFETCH
from .uopshare import DSB, MITE

TIE_REL = 0.01
# sim.MODEL[@POLICY].COUNTER
SIM_COUNTER_RE = re.compile(r'^sim\.([a-z0-9_-]+)(?:@([a-z]+))?\.([a-z0-9_]+)$')


def _base_counter(model: str, counter: str) -> str:
    return f'sim.{model}.{counter}'


def _setting(model: str, policy: str | None) -> str:
    return f'{model}@{policy}' if policy else model


def _sign(a: float, b: float) -> int:
    if abs(a - b) <= TIE_REL * max(abs(a), abs(b)) or stats.next_to_nothing(a, b):
        return 0
    return -1 if a < b else 1


def _median(entry: dict[str, Any], name: str) -> float | None:
    c = (entry.get('counters') or {}).get(name)
    if not isinstance(c, dict):
        return None
    med = (c.get('per_op') or {}).get('median')
    return float(med) if isinstance(med, (int, float)) else None


def _order(values: dict[str, float]) -> list[str]:
    """Variants from fewest to most events (ties: by name)."""
    return sorted(values, key=lambda v: (values[v], v))


def ranking(values: dict[str, float]) -> str:
    """The order as a reader should see it: "O2 = hybrid < Os", with "="
    between neighbours that tie (within TIE_REL). A bare "<" between two
    variants whose values tie would hide why a pair counts as flipped when
    every setting lists the variants in the same order."""
    order = _order(values)
    text = order[0] if order else ''
    for a, b in zip(order, order[1:]):
        text += (' = ' if _sign(values[a], values[b]) == 0 else ' < ') + b
    return text


def _footprint(entry: dict[str, Any]) -> int:
    """The sweep point as results.json stores it (packet-filter rules per
    packet), 0 for a benchmark without a sweep."""
    fp = entry.get('footprint')
    return int(fp) if isinstance(fp, int) else 0


def _groups(results: list[dict[str, Any]]
            ) -> dict[tuple[str, int, Any, Any, str], dict[str, dict[str, float]]]:
    """(bench, footprint, group, state, base counter) ->
    setting -> variant -> per-op median."""
    out: dict[tuple[str, int, Any, Any, str], dict[str, dict[str, float]]] = {}
    for e in results:
        if not isinstance(e, dict) or not isinstance(e.get('bench'), str):
            continue
        for name in e.get('counters') or {}:
            m = SIM_COUNTER_RE.match(name)
            if not m:
                continue
            model, policy, counter = m.groups()
            if policy == NO_PREFETCH and counter == 'l1i_prefetches':
                continue        # always 0 there: no order to compare
            if counter in (DSB, MITE):
                continue        # uops by source: volumes, not misses
            value = _median(e, name)
            if value is None:
                continue
            key = (e['bench'], _footprint(e), e.get('group'),
                   e.get('state'), _base_counter(model, counter))
            out.setdefault(key, {}).setdefault(
                _setting(model, policy), {})[str(e.get('variant'))] = value
    return out


def rows(data: dict[str, Any]) -> list[dict[str, Any]]:
    """One row per (bench, footprint, group, state, counter) simulated
    under two or more policy settings of one model, with each setting's
    variant order and whether all of them agree (`robust`)."""
    results = data.get('results') if isinstance(data, dict) else None
    out = []
    for key, by_setting in sorted(_groups(results or []).items(),
                                  key=lambda kv: tuple(map(str, kv[0]))):
        # only variants every setting measured can be compared
        variants = set.intersection(*(set(v) for v in by_setting.values()))
        if len(by_setting) < 2 or len(variants) < 2:
            continue
        flips = []
        for a, b in combinations(sorted(variants), 2):
            signs = {s: _sign(v[a], v[b]) for s, v in by_setting.items()}
            if len(set(signs.values())) > 1:
                flips.append([a, b])
        bench, fp, group, state, counter = key
        out.append({
            'bench': bench, 'footprint': fp, 'group': group,
            'state': state, 'counter': counter,
            'settings': sorted(by_setting),
            'order': {s: _order({k: v[k] for k in variants})
                      for s, v in sorted(by_setting.items())},
            'ranking': {s: ranking({k: v[k] for k in variants})
                        for s, v in sorted(by_setting.items())},
            'values': {s: {k: round(v[k], 6) for k in sorted(variants)}
                       for s, v in sorted(by_setting.items())},
            'flipped_pairs': flips,
            'robust': not flips,
        })
    return out


def summary(data: dict[str, Any]) -> dict[str, Any]:
    """What results.json stores under extra.sim.robustness."""
    table = rows(data)
    return {'tie_rel': TIE_REL, 'tie_below': stats.NEXT_TO_NOTHING,
            'rankings': len(table),
            'not_robust': sum(not r['robust'] for r in table), 'rows': table}


# (bench, footprint, counter) -> the pairs of variants whose order flipped
# between settings; None where a stored row does not say which (the whole
# point then counts as flipped)
Flips = dict[tuple[str, int, str], Optional[frozenset[frozenset[str]]]]


def flipped(data: dict[str, Any]) -> Flips:
    """Every ranking whose variant order differs between policy settings of
    one model, with the pairs that flipped; data is the loaded results.json.
    The ranking is one for all the model's settings, so a not-robust row
    gives the counter of each of them (sim.skylake.l1i_misses,
    sim.skylake@plru.l1i_misses, sim.skylake@random.l1i_misses): the
    verdict of every setting is asked with its own counter name, and none
    may call a winner on a pair that flipped. footprint is 0 for a
    benchmark run without a footprint. Uses the stored table when the run
    wrote one, else computes it."""
    stored = ((data.get('extra') or {}).get('sim') or {}).get('robustness') \
        if isinstance(data, dict) else None
    table = stored.get('rows') if isinstance(stored, dict) and \
        isinstance(stored.get('rows'), list) else rows(data)
    out: Flips = {}
    for r in table:
        if not isinstance(r, dict) or r.get('robust', True):
            continue
        bench, fp, counter = str(r['bench']), int(r['footprint']), str(r['counter'])
        pairs = r.get('flipped_pairs')
        flips = frozenset(frozenset(map(str, pr)) for pr in pairs
                          if isinstance(pr, list) and len(pr) == 2) \
            if isinstance(pairs, list) and pairs else None
        out[(bench, fp, counter)] = flips
        m = SIM_COUNTER_RE.match(counter)
        settings = r.get('settings')
        if m and isinstance(settings, list):
            out.update(((bench, fp, f'sim.{s}.{m.group(3)}'), flips)
                       for s in settings if isinstance(s, str))
    return out


def not_robust(data: dict[str, Any]) -> set[tuple[str, int, str]]:
    """(bench, footprint, counter) of every ranking that is not robust
    (flipped(), without the pairs)."""
    return set(flipped(data))
