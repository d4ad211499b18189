#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Does where the host program's code lands in physical memory move its
time ratios?

Every process of one program file runs its code from the same page-cache
pages, so `kfront host --repeat K --keep-pages` repeats one placement K
times. This probe makes C byte-identical copies of the host program (new
files, so new pages) and runs each copy R times, round by round (copy 1,
copy 2, ..., copy C, then again), always from one path, so that the
processes' arguments and stack layout are the same. If the placement did
not matter, a point's time ratios would differ between copies no more
than between two rounds of one copy.

  tools/probes/code_placement.py [--copies 6] [--rounds 2] [--variants O2,Os,hybrid]
                                 [--bench GLOBS] [--out DIR] [-- footprint=0,32,64,128,256]

Per (point, variant): F, the between-copy mean square of the log time
ratio over the within-copy one, and p, the share of 2000 relabellings of
the copies within each round (seeded) whose F is as large. p < 0.05 in
about 5 % of the pairs is what chance gives. Prints, per footprint, the
median F and how many pairs have p < 0.05, then the pairs with the largest
F and their ratio per copy; writes every figure to OUT/placement.json and
keeps each process's log (copy-C-round-R.log). docs/statistics.md, "Where
the code lands", gives a run.
"""
from __future__ import annotations

import argparse
import datetime
import json
import math
import random
import shutil
import sys
from pathlib import Path
from typing import Any, Sequence

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from kfront import (build, cmd_host, collect, model, paths, placement, repeats,  # noqa: E402
                    results, stats)

RELABELLINGS = 2000
DEFAULT_ARGS = ('variant=O2,Os,hybrid', 'bench=net.*,sched.*,mix.*',
                'footprint=0,32,64,128,256')


def f_statistic(groups: Sequence[Sequence[float]]) -> float | None:
    """Between-group over within-group mean square (one-way analysis of
    variance) of equal-sized groups; None when the groups do not vary
    within (no scale to judge by)."""
    c, r = len(groups), len(groups[0])
    means = [sum(g) / r for g in groups]
    grand = sum(means) / c
    between = r * sum((m - grand) ** 2 for m in means) / (c - 1)
    within = sum((x - m) ** 2 for g, m in zip(groups, means) for x in g) / (c * (r - 1))
    return None if within <= 0 else between / within


def copy_effect(by_round: Sequence[Sequence[float]], seed: int) -> tuple[float, float] | None:
    """(F, p) for values by_round[r][c] (round r, copy c): F of the copies
    as groups; p, the share of relabellings (the copies shuffled within
    each round, which keeps any drift between rounds) with an F at least as
    large. None when F is undefined."""
    def groups(rows: Sequence[Sequence[float]]) -> list[list[float]]:
        return [[row[c] for row in rows] for c in range(len(rows[0]))]
    observed = f_statistic(groups(by_round))
    if observed is None:
        return None
    rng = random.Random(seed)
    at_least = 0
    for _ in range(RELABELLINGS):
        shuffled = [rng.sample(list(row), len(row)) for row in by_round]
        f = f_statistic(groups(shuffled))
        at_least += f is not None and f >= observed * (1 - 1e-12)
    return observed, (at_least + 1) / (RELABELLINGS + 1)


def analyse(docs: list[model.Results], copies: int, rounds: int) -> dict[str, Any]:
    """docs in the order they ran (round by round, copy by copy): each
    (point, variant)'s ratios, F and p, and a summary by footprint."""
    block = repeats.summary(docs)
    pairs = []
    for r in block['rows']:
        for v, rs in r['ratios'].items():
            if any(x is None or x <= 0 for x in rs):
                continue
            by_round = [[math.log(x) for x in rs[k * copies:(k + 1) * copies]]
                        for k in range(rounds)]
            fp = copy_effect(by_round, stats.seed_for(r['bench'], r['footprint'], v))
            if fp is None:
                continue
            pairs.append({'bench': r['bench'], 'footprint': r['footprint'], 'variant': v,
                          'F': round(fp[0], 3), 'p': round(fp[1], 4),
                          'ratio_by_copy': [[round(rs[k * copies + c], 4) for k in range(rounds)]
                                            for c in range(copies)]})
    by_fp: dict[int, list[dict[str, Any]]] = {}
    for p in pairs:
        by_fp.setdefault(p['footprint'], []).append(p)
    return {'copies': copies, 'rounds': rounds, 'baseline': block['baseline'],
            'by_footprint': [{'footprint': k, 'pairs': len(ps),
                              'median_F': round(stats.median([p['F'] for p in ps]), 3),
                              'p_below_0_05': sum(p['p'] < 0.05 for p in ps)}
                             for k, ps in sorted(by_fp.items())],
            'pairs': sorted(pairs, key=lambda p: -p['F'])}


def frames_line(seen: list[dict[str, Any]]) -> str:
    """Whether each copy's pages stayed on the same physical frames from
    round to round (placement.frames before each process)."""
    by_copy: dict[int, list[dict[str, Any]]] = {}
    for s in seen:
        by_copy.setdefault(s['copy'], []).append(s['frames'])
    why = next((f['unavailable'] for fs in by_copy.values() for f in fs
                if 'unavailable' in f), None)
    if why:
        return f'frames: unavailable ({why})'
    moved = [c for c, fs in sorted(by_copy.items())
             if any(f['runs'] != fs[0]['runs'] for f in fs[1:])]
    starts = ', '.join(f'{c}: {fs[0]["runs"][0][0]:#x}' for c, fs in sorted(by_copy.items()))
    return (f'frames (the first of each copy: {starts}): '
            + (f'copies {", ".join(map(str, moved))} moved between rounds' if moved
               else 'every copy on the same frames in every round'))


def print_summary(a: dict[str, Any], top: int = 10) -> None:
    print(f'{a["copies"]} copies x {a["rounds"]} rounds; time ratios to {a["baseline"]}; '
          'F: between-copy / within-copy mean square of the log ratio')
    print(f'{"footprint":>9} {"pairs":>5} {"median F":>8} {"p < 0.05":>8}')
    for f in a['by_footprint']:
        print(f'{f["footprint"]:>9} {f["pairs"]:>5} {f["median_F"]:>8.2f} '
              f'{f["p_below_0_05"]:>8}')
    n = sum(f['pairs'] for f in a['by_footprint'])
    print(f'(chance alone: median F about 1, p < 0.05 in about {0.05 * n:.1f} of {n})')
    print('largest F (ratio per copy, each round):')
    for p in a['pairs'][:top]:
        per_copy = '  '.join('/'.join(f'{x:.3f}' for x in c) for c in p['ratio_by_copy'])
        print(f'  {p["bench"]} @{p["footprint"]} {p["variant"]}: F {p["F"]:.1f}, '
              f'p {p["p"]:.4f}: {per_copy}')


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--copies', type=int, default=6)
    ap.add_argument('--rounds', type=int, default=2)
    ap.add_argument('--out', type=Path)
    ap.add_argument('--timeout', type=float, default=3600.0)
    ap.add_argument('args', nargs='*', help='suite arguments (default: '
                    + ' '.join(DEFAULT_ARGS) + ')')
    a = ap.parse_args(argv)
    if a.copies < 2 or a.rounds < 2:
        print('code_placement: --copies and --rounds take 2 or more', file=sys.stderr)
        return 2
    problem = paths.out_problem(a.out) if a.out else None
    if problem:
        print(f'code_placement: {problem}', file=sys.stderr)
        return 2
    if not build.build(targets=['host'], options=['-Dvariants_file=']):
        return 1
    out = a.out or paths.ROOT / 'results' / datetime.datetime.now().strftime(
        'placement-%Y%m%d-%H%M%S')
    (out / 'copies').mkdir(parents=True, exist_ok=True)
    copies = [out / 'copies' / str(c + 1) for c in range(a.copies)]
    for c in copies:
        shutil.copy2(cmd_host.host_exe(), c)
    program = out / 'program'              # every process runs from this one path
    args = a.args or list(DEFAULT_ARGS)
    docs = []
    seen: list[dict[str, Any]] = []       # each process's frames of its copy
    try:
        for k in range(a.rounds):
            for c, copy in enumerate(copies):
                log = out / f'copy-{c + 1}-round-{k + 1}.log'
                print(f'code_placement: copy {c + 1}, round {k + 1}: {log}', flush=True)
                copy.replace(program)
                seen.append({'copy': c + 1, 'round': k + 1,
                             'frames': placement.frames(program)})
                try:
                    status = cmd_host.run_program([str(program)] + args, log, a.timeout)
                finally:
                    program.replace(copy)
                col = collect.collect_file(log)
                if status != 0 or not col.runs or not col.runs[-1].complete:
                    print(f'code_placement: the process did not complete (status {status}, '
                          f'see {log})', file=sys.stderr)
                    return 1
                docs.append(model.from_dict(
                    results.build_results(col.runs[-1], {'context': 'user'}), str(log)))
    finally:
        shutil.rmtree(out / 'copies', ignore_errors=True)
    found = analyse(docs, a.copies, a.rounds)
    found['command'] = ['tools/probes/code_placement.py'] + argv
    found['frames'] = seen
    (out / 'placement.json').write_text(json.dumps(found, indent=1) + '\n')
    print_summary(found)
    print(frames_line(seen))
    print(f'code_placement: wrote {out / "placement.json"}')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
