# SPDX-License-Identifier: GPL-2.0-or-later
"""`kfront explain`: the functions behind a difference between two variants."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from kfront import explain, paths, results


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        'explain', help='the functions that account for a difference between two variants',
        description='From the per-function tables of a results.json (the '
        'simulator\'s, kfront run --sim, for sim.* counters; callgrind\'s, '
        'kfront host --valgrind, for vg.* counters): the functions that account '
        'for most of the difference in a counter between two variants of one '
        'benchmark, with their sizes and a disassembly excerpt of the patterns '
        'that differ (rep movs, div, calls, a cold block in line).')
    p.add_argument('results', type=Path, nargs='?', metavar='RESULTS.json',
                   help='default: the newest results/*/results.json')
    p.add_argument('--bench', required=True, metavar='B', help='benchmark, e.g. calib.memcpy20')
    p.add_argument('--variants', default='O2,Os', metavar='A,B',
                   help='the two variants, difference B - A (default O2,Os)')
    p.add_argument('--counter', default='sim.instructions', metavar='C',
                   help='a sim.* or vg.* counter with a per-function column '
                   '(default sim.instructions)')
    p.add_argument('--footprint', type=int, default=None, metavar='KIB',
                   help='the sweep point to explain (default: the first result)')
    p.add_argument('--top', type=int, default=8, metavar='N',
                   help='functions to list, 1 to 100 (default 8)')
    p.add_argument('--elf', type=Path, default=None,
                   help='the program the results came from (default build/kfront.elf; for vg.* '
                   'counters build/host/kfront-host-VARIANT)')
    p.set_defaults(func=run, needs_setup=False)


def _newest_results() -> Path | None:
    """The results.json written last (by time: folder names sort `host-*`
    after every dated one)."""
    found = list((paths.ROOT / 'results').glob('*/results.json'))
    return max(found, key=lambda p: p.stat().st_mtime) if found else None


def _elf_problem(elf: Path) -> str | None:
    """Why a given --elf cannot be the program the results came from."""
    try:
        with open(elf, 'rb') as fh:
            magic = fh.read(4)
    except OSError as exc:
        return f'--elf {elf}: {exc.strerror or exc}'
    return None if magic == b'\x7fELF' else f'--elf {elf}: not an ELF program'


def programs(args: argparse.Namespace, variants: tuple[str, ...]
             ) -> tuple[Path | None, Path | None]:
    """The code each variant's figures came from: the kernel image for
    simulated counters, each variant's host program for callgrind's."""
    if explain.source(args.counter) == 'vg':
        if args.elf:
            return args.elf, args.elf
        return (paths.BUILD / 'host' / f'kfront-host-{variants[0]}',
                paths.BUILD / 'host' / f'kfront-host-{variants[1]}')
    elf = args.elf or paths.kernel_path()
    return elf, elf


def run(args: argparse.Namespace) -> int:
    variants = tuple(v for v in args.variants.split(',') if v)
    if len(variants) != 2 or variants[0] == variants[1]:
        print(f'kfront explain: --variants: expected two different variants A,B, '
              f'got {args.variants!r}', file=sys.stderr)
        return 2
    if not 1 <= args.top <= 100:
        print(f'kfront explain: --top: expected 1 to 100, got {args.top}', file=sys.stderr)
        return 2
    problem = args.elf is not None and _elf_problem(args.elf)
    if problem:
        print(f'kfront explain: {problem}', file=sys.stderr)
        return 2
    path = args.results or _newest_results()
    if path is None:
        print('kfront explain: no RESULTS.json given and none under results/', file=sys.stderr)
        return 2
    try:
        # read_json: no NaN, huge integer or deep nesting gets through
        data = results.read_json(path)
        explain.check_document(data)
        total, funcs = explain.differences(data, args.bench, variants, args.counter,
                                           args.footprint)
    except results.ResultsError as exc:
        print(f'kfront explain: {exc}', file=sys.stderr)
        return 2
    except explain.BadDocument as exc:
        print(f'kfront explain: {path}: {exc}', file=sys.stderr)
        return 2
    except explain.ExplainError as exc:
        # a bench, variant or counter the document lacks: bad input, as in
        # report and compare
        print(f'kfront explain: {path}: {exc}', file=sys.stderr)
        return 2
    missing = explain.annotate(funcs, programs(args, variants), variants, args.top)
    print(explain.render(args.bench, variants, args.counter, total, funcs, args.top))
    if missing:
        print(f'(sizes and disassembly unavailable: {missing})')
    return 0
