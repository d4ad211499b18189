# SPDX-License-Identifier: GPL-2.0-or-later
"""`kfront repeats`: do the real-CPU verdicts of several runs repeat?

`kfront host --repeat K` asks this of K processes it runs itself. Some
repeats cannot be run by one command: boots of one image on a bare-metal
box with different `placement=` arguments (each its own serial log,
docs/bare-metal.md), or runs on different days. Given their results.json,
this applies the same rule (repeats.py): at each point, each variant's
verdict against the baseline in every run, and a point where one differs
calls no winner for that variant. It also says how far the time ratios
moved between the runs against what the first run's intervals give, and
pools each point's runs over all of them.

Only real-CPU time is compared: a document's own TSC ticks when they
come from a CPU (bare metal, or the host harness), else the host
harness's results a `kfront run` document holds. Ring-0 TSC under QEMU
TCG times the emulator and is refused.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from . import kargs, model, output, repeats, report, results, truth
from .model import Results

UNIT = ('run', 'runs')


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        'repeats', help='do the real-CPU verdicts of several runs repeat?',
        description='For each benchmark point and variant: its verdict against the '
        'baseline (real-CPU TSC time) in every run, and whether it is the same in '
        'all; how far the time ratios moved between the runs against what the '
        "first run's 95% intervals give; the runs pooled. For boots of one image "
        'with different placement= (docs/bare-metal.md), or runs on different days. '
        'A point missing from a run counts as not repeated. Exit status: 0, 1 when '
        'the first run has no point with the baseline and another variant, 2 for '
        'unreadable input or runs without real-CPU time.')
    p.add_argument('files', type=Path, nargs='+', metavar='RESULTS.json',
                   help='two or more results.json; the first is the reference')
    p.add_argument('--json', action='store_true',
                   help='print the block (rows, verdicts, ratios) as JSON on stdout; '
                   'all other output goes to stderr')
    p.set_defaults(func=run, needs_setup=False)


def timed(doc: Results) -> tuple[Results | None, str]:
    """The part of a document that holds real-CPU time and what it is, or
    None and why there is none."""
    emulated = (doc.context != 'user'
                and truth.environment(doc.machine, None) == 'QEMU TCG')
    if not emulated and 'tsc' in doc.counter_names():
        return doc, 'its own results'
    if doc.host is not None and 'tsc' in doc.host.counter_names():
        return doc.host, 'its host harness'
    if emulated:
        return None, ('ring-0 TSC under QEMU TCG times the emulator, not a CPU, and it '
                      'holds no host-harness results')
    return None, 'no TSC time'


def placement_of(doc: Results) -> str:
    """Where the run's code sat in physical memory, in a few words."""
    kernel = report.code_placement_short(doc.config.get('placement'))
    if kernel:
        return kernel
    host = doc.extra.get('host') if isinstance(doc.extra, dict) else None
    kind = host.get('placement') if isinstance(host, dict) else None
    if kind:
        return f'host program: {kind}'
    return 'placement not recorded'


def cmdline_differences(docs: list[Results]) -> list[str]:
    """Kernel arguments, other than placement=, that are not the same in
    every run: a run that differs in them is not a repeat of the others."""
    def args(d: Results) -> dict[str, str]:
        return {kargs.key_of(a): a for a in str(d.cmdline or '').split()
                if kargs.key_of(a) != 'placement'}
    sets = [args(d) for d in docs]
    keys = sorted({k for s in sets for k in s})
    return [k for k in keys if len({s.get(k) for s in sets}) > 1]


def describe(block: dict[str, Any]) -> list[str]:
    """The block in lines: the tally, the points not repeated, the moves,
    each run's geometric means and the pooled verdicts."""
    k, n, bad = block['processes'], block['verdicts'], block['verdicts_not_repeated']
    out = [f'{k} runs: {n - bad} of {n} verdicts against {block["baseline"]} the same '
           f'in every run; {bad} not repeated (no winner called on those)']
    for r in block['rows']:
        for v in (pair[0] for pair in r['flipped_pairs']):
            where = r['bench'] + (f" @{r['footprint']}" if r['footprint'] else '')
            ratios = ', '.join('n/a' if x is None else f'{x:.3f}' for x in r['ratios'][v])
            said = ', then '.join('absent' if x is None else str(x) for x in r['verdicts'][v])
            out.append(f"  not repeated: {where} {v}: {said}"
                       f" (time ratios {ratios})")
    moves = repeats.moves_text(block, between='runs', first="the first run's")
    if moves:
        out.append(moves[0].upper() + moves[1:])
    for label, text in (('Geometric mean of the time ratios in each run',
                         repeats.geomeans_text(block)),
                        ("Each run's median 95 % interval half-width",
                         repeats.half_widths_text(block)),
                        ('Pooled over the runs (two-level bootstrap)',
                         repeats.pooled_text(block)),
                        ('Which rule repeats', repeats.halves_text(block, UNIT))):
        if text:
            out.append(f'{label}: {text}')
    return out


def run(args: argparse.Namespace) -> int:
    if len(args.files) < 2:
        print('kfront repeats: error: give two or more results.json', file=sys.stderr)
        return 2
    docs, parts = [], []
    try:
        for path in args.files:
            doc = model.load(path)
            part, what = timed(doc)
            if part is None:
                print(f'kfront repeats: error: {path}: {what}', file=sys.stderr)
                return 2
            docs.append(doc)
            parts.append((part, what))
    except results.ResultsError as exc:
        print(f'kfront repeats: error: {exc}', file=sys.stderr)
        return 2
    for path, doc, (_part, what) in zip(args.files, docs, parts):
        print(f'{path}: {what}; {placement_of(doc)}')
    differ = cmdline_differences(docs)
    if differ:
        print('Note: the runs differ in ' + ', '.join(f'{k}=' for k in differ)
              + ' as well as in placement=: they are not repeats of one run')
    block = repeats.summary([p for p, _ in parts])
    if not block['rows'] or not block['verdicts']:
        print('kfront repeats: no point with the baseline and another variant is in the '
              'first run', file=sys.stderr)
        output.emit_json(args, block)
        return 1
    print('\n'.join(describe(block)))
    output.emit_json(args, {'files': [str(f) for f in args.files],
                            'placements': [placement_of(d) for d in docs],
                            'differ_in': differ, **block})
    return 0
