# SPDX-License-Identifier: GPL-2.0-or-later
"""`kfront sim-speed`: the simulator's slowdown against plain TCG.

docs/fesim.md's budgets compare the same boot with and without the fesim
plugin: the quick suite with the kernel arguments a simulated `kfront
run` uses (`runs=SIM_RUNS budget_ms=SIM_BUDGET_MS`). This command runs
`kfront run --quick --no-host` with `--sim none` (those arguments given
explicitly) and with each `--sim` list, in rounds (every list once per
round, the plain run first), and compares each list with the plain run
of its own round: this machine's speed drifts, a round's runs are
minutes apart. Two ratios per run, both from results.json's
`extra.qemu`:

- wall: QEMU's wall time until the last boot ended, as a user waits
  for it (kfront deals a simulated run over one boot per core, the plain
  run is one boot);
- CPU: the user + system seconds of every QEMU of the run, the work
  done, whatever the number of cores.

A run that failed or ended incomplete (a watchdog, a timeout) did other
work than the plain run: it is shown and left out of the ratios. A
plain and a simulated run whose kernels parsed different settings, or
measured different points, are an error.
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from kfront import argtypes, kargs, lifecycle, names, paths, sim, stats
from kfront.cmd_run import SIM_BUDGET_MS, SIM_RUNS

PRESETS = ('skylake', 'zen4', 'goldencove')
# issue 18's second budget: three models under three policy settings
NINE = ','.join(f'{m}{p}' for m in PRESETS for p in ('', '@plru', '@random'))
DEFAULT_SIMS = ('skylake', NINE)
ONE_SETTING_BUDGET = 3.0
NINE_SETTINGS_BUDGET = 10.0
# how long a stopped kfront run may take to stop its QEMU and keep its log
STOP_WAIT_S = 60


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        'sim-speed',
        help="measure the simulator's slowdown against plain TCG (docs/fesim.md, budgets)",
        description='Run the quick suite in QEMU without the simulator and with each '
                    '--sim list, in rounds, and print each list\'s slowdown against the '
                    'plain run of the same round (QEMU wall time and CPU time), with the '
                    'budget that applies: 3x for one setting, 10x for three models under '
                    'three policies. Writes sim-speed.json and every run\'s output to --out.')
    p.add_argument('--sim', action='append', metavar='MODELS',
                   help='a simulator setting list to time, as for kfront run --sim; '
                        'repeat for several (default: skylake, then the nine settings '
                        f'{NINE})')
    p.add_argument('--rounds', type=argtypes.rounds, default=3, metavar='N',
                   help='rounds: each runs the plain suite and every list once (default 3)')
    p.add_argument('--sim-jobs', type=argtypes.sim_jobs, metavar='N',
                   help='boots at once for the simulated runs, as for kfront run '
                        '(default: one per core)')
    p.add_argument('--out', type=Path,
                   help='output directory (default results/sim-speed-DATE-TIME/)')
    p.add_argument('--bench', metavar='GLOBS',
                   help='only these benchmarks, as for kfront run (a shorter check; the '
                        'budgets are for the whole quick suite)')
    p.set_defaults(func=main)


def budget_for(models: list[str]) -> float | None:
    """The budget docs/fesim.md gives for this list: one setting, or
    three models each under the three policies; None for others."""
    if len(models) == 1:
        return ONE_SETTING_BUDGET
    pairs = {sim.split_setting(m) for m in models}
    bases = {b for b, _ in pairs}
    if len(models) == 9 and len(pairs) == 9 and len(bases) == 3 and \
            all({p for b2, p in pairs if b2 == b} == set(sim.POLICIES) for b in bases):
        return NINE_SETTINGS_BUDGET
    return None


def run_args(sim_list: str | None, out: Path, bench: str | None,
             sim_jobs: int | None) -> list[str]:
    """The kfront run command line of one timed run."""
    args = [sys.executable, str(paths.ROOT / 'kfront'), 'run', '--quick', '--no-host',
            '--out', str(out)] + (['--bench', bench] if bench else [])
    if sim_list is None:
        # the arguments a simulated run boots with (cmd_run.kernel_args)
        return args + ['--sim', 'none', '--', f'runs={SIM_RUNS}',
                       f'budget_ms={SIM_BUDGET_MS}']
    if sim_jobs:
        args += ['--sim-jobs', str(sim_jobs)]
    return args + ['--sim', sim_list]


def timed_run(sim_list: str | None, out: Path, bench: str | None,
              sim_jobs: int | None) -> dict[str, Any]:
    """Run one kfront run (its output to out.log); what results.json says."""
    log = out.with_suffix('.log')
    cmd = run_args(sim_list, out, bench, sim_jobs)
    started = time.time()
    entry: dict[str, Any] = {'sim': sim_list or 'none', 'command': cmd[1:],
                             'load_before': os.getloadavg()[0], 'log': str(log)}
    with open(log, 'wb') as logf:
        proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=logf,
                                stderr=subprocess.STDOUT)
        try:
            entry['status'] = proc.wait()
        except BaseException:
            # a stop signal: let the run stop its QEMU itself, and if it
            # hangs at that, end it (its QEMU dies with it: PDEATHSIG)
            proc.terminate()
            try:
                proc.wait(timeout=STOP_WAIT_S)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
            raise
    try:
        if (out / 'results.json').stat().st_mtime < started:
            raise FileNotFoundError('not written by this run')
        res = json.loads((out / 'results.json').read_text(encoding='utf-8'))
    except (OSError, ValueError) as exc:
        entry['problem'] = f'no results.json from this run ({exc}); see {log}'
        return entry
    q = res.get('extra', {}).get('qemu', {})
    entry.update(elapsed_s=q.get('elapsed_s'), cpu_s=q.get('cpu_s'), boots=q.get('boots'),
                 complete=bool(res.get('complete')), config=res.get('config'),
                 points=sorted({f"{r.get('bench')}/{r.get('variant')}/{r.get('footprint')}/"
                                f"{r.get('state')}" for r in res.get('results', [])}))
    if entry['status'] != 0 or not entry['complete']:
        entry['problem'] = (f'exit status {entry["status"]}, '
                            f'{"complete" if entry["complete"] else "incomplete"}; see {log}')
    elif entry['elapsed_s'] is None:
        entry['problem'] = 'results.json has no QEMU time'
    return entry


def same_work(plain: dict[str, Any], run: dict[str, Any]) -> str | None:
    """Why a simulated run did other work than the plain one, or None."""
    if plain.get('config') != run.get('config'):
        return (f'the kernel parsed other settings: {plain.get("config")} without the '
                f'simulator, {run.get("config")} with {run["sim"]}')
    if plain.get('points') != run.get('points'):
        return f'other points measured with {run["sim"]} than without the simulator'
    return None


def ratio(run: dict[str, Any], plain: dict[str, Any], key: str) -> float | None:
    if run.get('problem') or plain.get('problem'):
        return None
    a, b = run.get(key), plain.get(key)
    return round(a / b, 3) if a is not None and b else None


def spread(values: list[float]) -> dict[str, Any]:
    """Median, minimum and maximum of the known values. The median is the
    project's (stats.median): of an even count the lower middle value, so
    every figure printed is one that was measured (docs/statistics.md)."""
    vals = [v for v in values if v is not None]
    if not vals:
        return {'n': 0}
    return {'n': len(vals), 'median': round(stats.median(vals), 3),
            'min': min(vals), 'max': max(vals)}


def summarise(rounds: list[list[dict[str, Any]]], sims: list[str]) -> list[dict[str, Any]]:
    """One row per list: its times and ratios over the rounds, its budget."""
    rows = []
    for k, sim_list in enumerate([None, *sims]):
        runs = [r[k] for r in rounds]
        models = sim.parse_models(sim_list) if sim_list else []
        row: dict[str, Any] = {
            'sim': sim_list or 'none',
            'settings': len(models),
            'elapsed_s': spread([None if r.get('problem') else r.get('elapsed_s')
                                 for r in runs]),
            'cpu_s': spread([None if r.get('problem') else r.get('cpu_s') for r in runs])}
        if sim_list:
            wall = [ratio(r[k], r[0], 'elapsed_s') for r in rounds]
            cpu = [ratio(r[k], r[0], 'cpu_s') for r in rounds]
            budget = budget_for(models)
            row.update(wall_ratio=spread(wall), cpu_ratio=spread(cpu), budget=budget)
            if budget is not None:
                row['wall_within_budget'] = sum(1 for w in wall if w is not None and w <= budget)
                row['cpu_within_budget'] = sum(1 for c in cpu if c is not None and c <= budget)
        rows.append(row)
    return rows


def fmt_spread(s: dict[str, Any], unit: str, rounds: int) -> str:
    """"2.37x [1.99, 2.62]": the median, then the range of several; how
    many rounds it is of, when runs were left out."""
    if not s.get('n'):
        return 'unavailable'
    digits = 2 if unit == 'x' else 1
    text = f'{s["median"]:.{digits}f}{unit}'
    if s['n'] > 1:
        text += f' [{s["min"]:.{digits}f}, {s["max"]:.{digits}f}]'
    if s['n'] < rounds:
        text += f' (of {s["n"]} round{"s" if s["n"] > 1 else ""})'
    return text


def rounds_text(n: int) -> str:
    return f'{n} round{"s" if n != 1 else ""}'


def print_summary(rows: list[dict[str, Any]], n_rounds: int) -> None:
    print(f'kfront sim-speed: median [min, max] over {rounds_text(n_rounds)}; a ratio is '
          'against the plain run of the same round')
    for row in rows:
        name = 'plain TCG (--sim none)' if row['sim'] == 'none' else \
            f'--sim {row["sim"]} ({row["settings"]} setting{"s" if row["settings"] > 1 else ""})'
        print(f'  {name}')
        print(f'    QEMU wall {fmt_spread(row["elapsed_s"], " s", n_rounds)}, '
              f'CPU {fmt_spread(row["cpu_s"], " s", n_rounds)}')
        if row['sim'] == 'none':
            continue
        print(f'    slowdown: wall {fmt_spread(row["wall_ratio"], "x", n_rounds)}, '
              f'CPU {fmt_spread(row["cpu_ratio"], "x", n_rounds)}')
        if row['budget'] is not None:
            n = row['wall_ratio'].get('n', 0)
            print(f'    budget {row["budget"]:g}x: wall within it in '
                  f'{row["wall_within_budget"]} of {rounds_text(n)}, CPU in '
                  f'{row["cpu_within_budget"]} of {row["cpu_ratio"].get("n", 0)}')
        else:
            print('    no budget for this list (docs/fesim.md: one setting, or three '
                  'models under three policies)')


def write_doc(out: Path, doc: dict[str, Any]) -> None:
    (out / 'sim-speed.json').write_text(json.dumps(doc, indent=1) + '\n', encoding='utf-8')


def one_run(rdir: Path, n: int, args: argparse.Namespace, k: int, sim_list: str | None,
            plain: dict[str, Any] | None) -> dict[str, Any]:
    """Round n's run of sim_list (None: the plain run), checked against
    the round's plain run, and a line on how it went."""
    rdir.mkdir(parents=True, exist_ok=True)
    label = 'plain' if sim_list is None else f'sim-{k}'
    started = time.monotonic()
    print(f'kfront sim-speed: round {n}/{args.rounds}: '
          f'{"--sim none" if sim_list is None else "--sim " + sim_list} '
          f'(output {rdir / label})', flush=True)
    run = timed_run(sim_list, rdir / label, args.bench, args.sim_jobs)
    if plain is not None and not run.get('problem') and not plain.get('problem'):
        why = same_work(plain, run)
        if why:
            run['problem'] = why
    if run.get('problem'):
        print(f'kfront sim-speed:   not counted: {run["problem"]}', file=sys.stderr)
    else:
        cpu = run.get('cpu_s')
        print(f'kfront sim-speed:   QEMU {run["elapsed_s"]} s wall, '
              f'{"unknown" if cpu is None else cpu} s CPU '
              f'({time.monotonic() - started:.0f} s in all, '
              f'load average {run["load_before"]:.1f} before)', flush=True)
    return run


def main(args: argparse.Namespace) -> int:
    sims = args.sim or list(DEFAULT_SIMS)
    for s in sims:
        try:
            sim.parse_models(s)
        except sim.SimError as exc:
            print(f'kfront sim-speed: --sim {s}: {exc}', file=sys.stderr)
            return 2
    # the timed runs build from the default variant table (kfront run
    # without --variants-file): a name that selects nothing is said now,
    # not once per run
    problem = args.bench and (kargs.check_lists(None, args.bench) or names.selection_problem(
        None, args.bench, names.DEFAULT_VARIANTS_FILE))
    if problem:
        print(f'kfront sim-speed: {problem}', file=sys.stderr)
        return 2
    out = args.out or paths.ROOT / 'results' / \
        f'sim-speed-{datetime.datetime.now().strftime("%Y%m%d-%H%M%S")}'
    if (out / 'sim-speed.json').exists():
        print(f'kfront sim-speed: {out} already holds a sim-speed run; give another --out',
              file=sys.stderr)
        return 2
    out.mkdir(parents=True, exist_ok=True)
    doc: dict[str, Any] = {'cpus': os.cpu_count(), 'bench': args.bench,
                           'sims': sims, 'rounds': []}
    runs: list[dict[str, Any]] = []
    try:
        for n in range(1, args.rounds + 1):
            runs = []
            for k, sim_list in enumerate([None, *sims]):
                runs.append(one_run(out / f'round-{n}', n, args, k, sim_list,
                                    runs[0] if runs else None))
            doc['rounds'].append(runs)
            runs = []
            doc['summary'] = summarise(doc['rounds'], sims)
            write_doc(out, doc)
    except (KeyboardInterrupt, lifecycle.Stopped) as exc:
        # stopped (a signal, ^C): keep what was measured, the round under
        # way too, before the stop is reported
        doc['stopped'] = str(exc) or exc.__class__.__name__
        doc['unfinished_round'] = runs
        write_doc(out, doc)
        print(f'kfront sim-speed: stopped; what was measured is in {out / "sim-speed.json"}',
              file=sys.stderr)
        raise
    print_summary(doc['summary'], args.rounds)
    if args.bench:
        print(f'kfront sim-speed: --bench {args.bench}: these benchmarks only; the budgets '
              'are for the whole quick suite')
    print(f'kfront sim-speed: wrote {out / "sim-speed.json"}')
    # a failed run, or one that measured other work than its round's
    # plain run, was left out of the ratios: not a clean measurement
    return 1 if any(r.get('problem') for rs in doc['rounds'] for r in rs) else 0
