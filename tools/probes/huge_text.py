#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Does running the host program's code from a 2 MiB page move its time
ratios?

`kfront host --huge-text` moves the timing program's code onto an
anonymous 2 MiB page (host/text_pages.c) instead of its file's 4 KiB
page-cache pages. This probe runs `kfront host --repeat K` without and
with it, alternately, R rounds (file, huge, file, huge, ...), and
compares the two within each round, point by point:

  tools/probes/huge_text.py [--rounds 2] [--repeat 6] [--out DIR]
                            [-- footprint=0,32,64,128,256]
  tools/probes/huge_text.py --from DIR      (the analysis of a former run)

Per round and footprint group (0; 32 and 64; 128 and above): over the
(point, variant) pairs, the geometric mean of the huge page's time ratio
to O2 over the file pages' (each the median over the K processes), and at
how many pairs it is lower; per variant, the same for its time alone
(which also carries the machine's drift between the two runs, minutes
apart); and how far each run's ratios moved between its processes
against what its first process's intervals give. Each run's folder is
OUT/round-R-file and OUT/round-R-huge (`kfront host`'s own output);
OUT/huge_text.json holds the figures. docs/host-harness.md gives a run.
"""
from __future__ import annotations

import argparse
import datetime
import json
import math
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from kfront import model, paths, repeats  # noqa: E402

SELECTION = ['--variants', 'O2,Os,hybrid', '--bench', 'net.*,sched.*,mix.*']
DEFAULT_ARGS = ('footprint=0,32,64,128,256',)
GROUPS = (('0', lambda f: f == 0), ('32-64', lambda f: 0 < f <= 64),
          ('128+', lambda f: f > 64))


def processes(run: Path) -> list[model.Results]:
    """A `kfront host --repeat K` folder's K documents, in order."""
    first = model.load(run / 'results.json')
    block = first.extra.get('host_repeats') or {}
    k = int(block.get('processes') or 1)
    return [first] + [model.load(run / f'results-{n}.json') for n in range(2, k + 1)]


def ratios(docs: list[model.Results]) -> dict[tuple[str, int, str], float]:
    """(bench, footprint, variant) -> the median over the processes of its
    time ratio to the baseline."""
    out = {}
    for row in repeats.summary(docs)['rows']:
        for v, rs in row['ratios'].items():
            xs = [x for x in rs if x]
            if xs:
                out[(row['bench'], row['footprint'], v)] = statistics.median(xs)
    return out


def times(docs: list[model.Results]) -> dict[tuple[str, int, str], float]:
    """(bench, footprint, variant) -> the median over the processes of its
    TSC ticks per operation."""
    seen: dict[tuple[str, int, str], list[float]] = {}
    for d in docs:
        for (bench, footprint), here in repeats.warm_points(d).items():
            for variant, e in here.items():
                seen.setdefault((bench, footprint, variant), []).append(
                    e.counters[repeats.COUNTER].per_op.median)
    return {k: statistics.median(v) for k, v in seen.items()}


def paired(file: dict[tuple[str, int, str], float], huge: dict[tuple[str, int, str], float],
           keep: Any) -> dict[str, Any] | None:
    """Geometric mean of huge/file over the keys both have that `keep`
    accepts, and how many are lower on the huge page."""
    logs = [math.log(huge[k] / file[k]) for k in file
            if k in huge and keep(k) and file[k] > 0 and huge[k] > 0]
    if not logs:
        return None
    return {'pairs': len(logs), 'huge_lower': sum(x < 0 for x in logs),
            'geomean': round(math.exp(statistics.fmean(logs)), 4)}


def analyse_round(file_docs: list[model.Results], huge_docs: list[model.Results]
                  ) -> dict[str, Any]:
    """One round's comparison (module docstring)."""
    fr, hr = ratios(file_docs), ratios(huge_docs)
    ft, ht = times(file_docs), times(huge_docs)
    variants = sorted({k[2] for k in ft})
    out: dict[str, Any] = {'ratios': {}, 'times': {}, 'moves': {}, 'huge_bytes': []}
    for name, in_group in GROUPS:
        out['ratios'][name] = paired(fr, hr, lambda k, g=in_group: g(k[1]))
        out['times'][name] = {v: paired(ft, ht, lambda k, g=in_group, v=v: g(k[1]) and k[2] == v)
                              for v in variants}
    for kind, docs in (('file', file_docs), ('huge', huge_docs)):
        m = repeats.summary(docs)['moves'] or {}
        out['moves'][kind] = {'median': m.get('median'), 'expected': m.get('expected_median')}
    out['huge_bytes'] = [(d.config.get('text_pages') or {}).get('huge_bytes') for d in huge_docs]
    return out


def print_round(n: int, r: dict[str, Any]) -> None:
    print(f'round {n}: huge_bytes per process {r["huge_bytes"]}')
    for name, _ in GROUPS:
        p = r['ratios'][name]
        if p:
            print(f'  footprint {name}: time ratio to O2, huge/file {p["geomean"]:.3f} '
                  f'(lower at {p["huge_lower"]} of {p["pairs"]} points)')
        for v, t in r['times'][name].items():
            if t:
                print(f'    {v} time, huge/file {t["geomean"]:.3f} (lower at {t["huge_lower"]} '
                      f'of {t["pairs"]})')
    for kind, m in r['moves'].items():
        if m['median'] is not None:
            exp = '' if m['expected'] is None else f' (intervals give {100 * m["expected"]:.1f} %)'
            print(f'  {kind}: ratios moved {100 * m["median"]:.1f} % between processes{exp}')


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--rounds', type=int, default=2)
    ap.add_argument('--repeat', type=int, default=6)
    ap.add_argument('--out', type=Path)
    ap.add_argument('--from', dest='source', type=Path, metavar='DIR',
                    help='analyse the rounds a former run left in DIR')
    ap.add_argument('args', nargs='*', help='suite arguments (default: '
                    + ' '.join(DEFAULT_ARGS) + ')')
    a = ap.parse_args(argv)
    if a.rounds < 1 or not 2 <= a.repeat <= 9:
        print('huge_text: --rounds takes 1 or more, --repeat 2 to 9', file=sys.stderr)
        return 2
    out = a.source or a.out or paths.ROOT / 'results' / datetime.datetime.now().strftime(
        'huge-text-%Y%m%d-%H%M%S')
    if a.source is None:
        problem = paths.out_problem(out) if a.out else None
        if problem:
            print(f'huge_text: {problem}', file=sys.stderr)
            return 2
        out.mkdir(parents=True, exist_ok=True)
        for n in range(1, a.rounds + 1):
            for kind in ('file', 'huge'):
                cmd = [str(paths.ROOT / 'kfront'), 'host', *SELECTION, '--repeat', str(a.repeat),
                       '--out', str(out / f'round-{n}-{kind}')] \
                    + (['--huge-text'] if kind == 'huge' else []) \
                    + ['--', *(a.args or DEFAULT_ARGS)]
                print(f'huge_text: round {n}, {kind}: {" ".join(cmd)}', flush=True)
                log = out / f'round-{n}-{kind}.log'
                with open(log, 'w') as fh:
                    status = subprocess.run(cmd, stdout=fh, stderr=subprocess.STDOUT).returncode
                if status:
                    print(f'huge_text: the run failed (status {status}): {log}', file=sys.stderr)
                    return 1
    found = {}
    n = 1
    while (out / f'round-{n}-file').is_dir() and (out / f'round-{n}-huge').is_dir():
        found[n] = analyse_round(processes(out / f'round-{n}-file'),
                                 processes(out / f'round-{n}-huge'))
        print_round(n, found[n])
        n += 1
    if not found:
        print(f'huge_text: no round-N-file and round-N-huge folders in {out}', file=sys.stderr)
        return 2
    (out / 'huge_text.json').write_text(json.dumps(found, indent=1) + '\n')
    print(f'huge_text: wrote {out / "huge_text.json"}')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
