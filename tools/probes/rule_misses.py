#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The simulator's misses in one group of functions, per run.

results.json keeps each result's top functions only (docs/results-schema.md,
`sim_functions`), so a figure summed over many small functions, such as
the 128 generated filter rules (nf_rule_NNNN), cannot be read back from
it. This probe sums the plugin's full per-function rows instead, over each
result's counted runs:

  tools/probes/rule_misses.py DIR [--functions nf_rule_] [--counter l1i_misses|uop_misses|itlb_misses|insns]

DIR is the output folder of `kfront run --sim ...` (fesim.jsonl, with
per-function rows, and serial.log); when the run dealt one setting's
benchmarks over several boots, run it again with `--sim-jobs 1`. Per
benchmark, footprint and variant it prints, for each simulator setting,
the counter per run in the functions whose names start with the given
prefix, and in all functions. docs/hybrid.md, "At 128 filter rules",
gives a run.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from kfront import collect, functable, sim  # noqa: E402


def sums(out: sim.SimOutput, payloads: list[dict[str, Any]], prefix: str,
         counter: str) -> list[dict[str, Any]]:
    """Per result payload: per setting, the counter's mean per counted run
    in the prefix's functions and in all functions, by the rule the
    results' per-function tables follow (functable.per_function: each
    function's count in a run less its count in the calibration)."""
    columns = out.func_columns[1:]      # the row columns after the id
    # a column of every setting (insns) or one per setting (MODEL.counter)
    settings = ([''] if counter in columns else
                [c.rsplit('.', 1)[0] for c in columns if c.endswith('.' + counter)])
    if not settings:
        raise sim.SimError(f'no per-function {counter} column (run with --sim, '
                           f'which writes per-function rows)')
    rows = []
    for p in payloads:
        if not isinstance(p.get('regions'), list) or not p['regions']:
            continue
        missing = [s for s in functable.all_regions(p) if s not in out.regions]
        if missing:
            raise sim.SimError(f'{p.get("bench")} {p.get("variant")}: region {missing[0]} '
                               'is not in the simulator output (a run split over boots? '
                               'use --sim-jobs 1)')
        table = functable.per_function(p, lambda seq: sim.function_rows(out, seq),
                                       len(columns)) or {}
        row: dict[str, Any] = {'bench': p.get('bench'), 'footprint': p.get('footprint'),
                               'variant': p.get('variant'), 'runs': len(p['regions'])}
        for s in settings:
            col = columns.index(f'{s}.{counter}' if s else counter)
            group = sum(v[col] for fid, v in table.items()
                        if out.funcs.get(fid, ('', 0))[0].startswith(prefix))
            row[s or 'every setting'] = {'group': group,
                                         'all': sum(v[col] for v in table.values())}
        rows.append(row)
    return rows


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog='rule_misses.py', description=__doc__.split('\n')[0])
    p.add_argument('dir', type=Path, metavar='DIR')
    p.add_argument('--functions', default='nf_rule_', metavar='PREFIX')
    p.add_argument('--counter', default='l1i_misses', choices=[*sim.PER_MODEL, 'insns'])
    p.add_argument('--json', action='store_true')
    args = p.parse_args(argv)
    try:
        out = sim.load(args.dir / 'fesim.jsonl')
        runs = collect.collect_file(args.dir / 'serial.log').runs
    except (sim.SimError, collect.CollectError, OSError) as exc:
        print(f'rule_misses: {args.dir}: {exc}', file=sys.stderr)
        return 2
    payloads = [r.payload for run in runs[-1:] for r in run.by_seq.values()
                if r.type == 'result']
    try:
        rows = sums(out, payloads, args.functions, args.counter)
    except sim.SimError as exc:
        print(f'rule_misses: {args.dir}: {exc}', file=sys.stderr)
        return 2
    if not rows:
        print(f'rule_misses: {args.dir}: no result with counted regions', file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    print(f'{args.counter} per run in {args.functions}* (and in all functions):')
    for r in rows:
        where = r['bench'] + (f' @{r["footprint"]}' if r['footprint'] is not None else '')
        figs = '; '.join(f'{s}: {v["group"]:.0f} ({v["all"]:.0f})' for s, v in r.items()
                         if isinstance(v, dict))
        print(f'  {where} {r["variant"]}: {figs}')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
