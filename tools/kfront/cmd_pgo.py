# SPDX-License-Identifier: GPL-2.0-or-later
"""`kfront pgo`: train a profile in ring 0, build the profile-guided
variant, and measure it against O2, Os and hybrid in the simulator and on
this CPU, trained-on and held-out workloads apart (docs/pgo.md)."""
from __future__ import annotations

import argparse
import datetime
import json
import sys
from pathlib import Path
from typing import Any

from kfront import argtypes, build, cmd_host, cmd_run, collect, names, paths, pgo, pgo_layout, qemu, results
from kfront.progress import Progress

COMPARED = 'O2,Os,hybrid,pgo'
# with a function order from the simulator (docs/pgo.md, "pgo-layout")
COMPARED_LAYOUT = COMPARED + ',pgo-layout'


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser('pgo', help='train a profile in QEMU, build and measure the pgo variant',
                       description='Train the measured code in ring 0 (a -fprofile-arcs build '
                       'in build/pgo-train, its counters sent as records), write the .gcda '
                       'files to build/pgo/SET/, build the pgo variant, order its functions '
                       'from its call graph in the simulator (C3: the pgo-layout variant) and '
                       'run O2, Os, hybrid, pgo and pgo-layout in the simulator and the host '
                       'harness; '
                       'workloads outside the training set are reported as held out.')
    p.add_argument('--train', default='net.*', metavar='GLOBS',
                   help="training workloads (default net.*; e.g. 'sched.*,mix.*')")
    p.add_argument('--quick', action='store_true', help='short runs in training and measurement')
    p.add_argument('--out', type=Path, help='output directory (default results/pgo-DATE-TIME/)')
    p.add_argument('--sim', default='skylake', metavar='MODELS',
                   help="simulator models (default skylake; 'none' to skip)")
    p.add_argument('--no-host', action='store_true', help='skip the host harness')
    p.add_argument('--host-repeat', type=argtypes.processes, default=1, metavar='K',
                   help='time the variants in K host-harness processes (default 1): the '
                   'goals are the first\'s; the host goal\'s figures of each are printed '
                   'and stored')
    p.add_argument('--train-only', action='store_true', help='stop after writing the profile')
    p.add_argument('--timeout', type=float, default=1800.0, metavar='SECONDS',
                   help='QEMU time limit per boot (default 1800)')
    p.add_argument('--goals', type=Path, metavar='RESULTS.json',
                   help='train nothing: print the goals of --variant in a stored results.json '
                   '(a kfront run or kfront host of candidates, e.g. bench/pgo-candidates.ini)')
    p.add_argument('--variant', default='pgo', metavar='NAME',
                   help='with --goals: the profile-guided variant to judge (default pgo)')
    p.set_defaults(func=run)


def show_goals(args: argparse.Namespace) -> int:
    """The goals table of one variant of a stored results.json against
    its O2 and Os; the training set from the file's pgo record, else
    --train."""
    if args.variant in ('O2', 'Os'):
        print(f'kfront pgo: --variant {args.variant}: the goals compare a candidate '
              'with O2 and Os; name another variant', file=sys.stderr)
        return 2
    try:
        # read_json: no NaN, huge integer or deep nesting gets through
        data = results.read_json(args.goals)
    except results.ResultsError as exc:
        print(f'kfront pgo: --goals: not a results.json: {exc}', file=sys.stderr)
        return 2
    wrong = pgo.goals_document_error(data)
    if wrong is not None:
        print(f'kfront pgo: --goals {args.goals}: not a results.json ({wrong})',
              file=sys.stderr)
        return 2
    found = {r.get('variant') for r in data.get('results') or []}
    missing = [v for v in (args.variant, 'O2', 'Os') if v not in found]
    if missing:
        print(f'kfront pgo: --goals {args.goals}: no results of {", ".join(missing)} '
              f'(variants: {", ".join(sorted(str(v) for v in found))})', file=sys.stderr)
        return 2
    train = (data.get('pgo') or {}).get('train')
    if not train:
        # the file does not say: --train does, and must select something
        train = args.train
        problem = names.selection_problem(None, train)
        if problem:
            print(f"kfront pgo: --train: {problem.replace('--bench: ', '', 1)}",
                  file=sys.stderr)
            return 2
    g = pgo.goals(data, train, variant=args.variant)
    print(pgo.goals_text(g, f'{args.variant} in {args.goals}; trained on {train}'))
    if not g['trained']['sim_points'] and not g['held_out']['sim_points']:
        print('(no skylake simulator figures in this file: the simulator goal is not '
              'judged; a kfront run --sim skylake gives them)')
    return 0


TRAIN_BUILD = paths.BUILD / 'pgo-train'


def build_training_image() -> bool:
    """The training image (its one variant arc-profiled) in build/pgo-train."""
    ini = paths.BUILD / 'pgo' / 'train-variants.ini'
    ini.parent.mkdir(parents=True, exist_ok=True)
    ini.write_text(pgo.train_variants_ini())
    return build.build(TRAIN_BUILD, targets=['iso/kfront.iso'],
                       options=[f'-Dvariants_file={ini}'])


def train(args: argparse.Namespace, out: Path) -> dict[str, Any] | None:
    tbuild = TRAIN_BUILD
    print(f'kfront pgo: building the training image in {tbuild}', flush=True)
    if not build_training_image():
        return None
    log = out / 'train.log'
    kargs = [f'bench={args.train}'] + (['quick'] if args.quick else [])
    cfg = qemu.BootConfig(iso=paths.iso_path(tbuild), timeout=args.timeout, kernel_args=kargs)
    print(f'kfront pgo: training on {args.train} in QEMU; serial log: {log}', flush=True)
    res = qemu.boot(cfg, log=log, on_output=Progress())
    col = collect.collect_file(log)
    bad = [p for p in col.problems if p.severity == 'error']
    if res.status != 0 or not col.runs or not col.complete or bad:
        for p in bad:
            print(f'kfront pgo: {log.name}: {p}', file=sys.stderr)
        print(f'kfront pgo: the training run did not complete cleanly (kernel status '
              f'{res.status}); no profile written', file=sys.stderr)
        return None
    run = col.runs[-1]
    payloads = [r.payload for r in run.records]
    try:
        meta = pgo.write_profile(payloads, args.train, extra={
            'records': sum(1 for p in payloads if str(p.get('t', '')).startswith('gcov_')),
            'kernel_args': kargs})
    except (pgo.ProfileError, pgo.gcda.GcdaError) as exc:
        print(f'kfront pgo: {exc}', file=sys.stderr)
        return None
    print(f'kfront pgo: profile {meta["checksum"]} ({meta["objects"]} objects, '
          f'{meta["records"]} records) in {pgo.pgo_profile.profile_dir(paths.BUILD, args.train)}',
          flush=True)
    return meta


def make_layout(args: argparse.Namespace, out: Path, meta: dict[str, Any],
                vfile: Path) -> dict[str, Any] | None:
    """The pgo-layout variant's function order: one simulator boot of the
    pgo variant on the training workloads (syms=, so the plugin counts
    call edges), C3 over them, written beside the profile. None (and
    pgo-layout left out, with the reason) when that fails."""
    rdir = out / 'layout'
    argv = ['run', '--variants', pgo_layout.BASE, '--baseline', pgo_layout.BASE,
            '--variants-file', str(vfile), '--bench', args.train, '--sim', 'skylake',
            '--no-host', '--out', str(rdir), *(['--quick'] if args.quick else [])]
    print(f'kfront pgo: call graph of {pgo_layout.BASE} on {args.train} in the simulator '
          '(pgo-layout is left out of this image: its order comes from this boot)',
          flush=True)
    _sub(argv)
    try:
        info = pgo_layout.make(rdir, meta)
    except pgo_layout.LayoutError as exc:
        print(f'kfront pgo: no function order, pgo-layout left out: {exc}', file=sys.stderr)
        return None
    print(f'kfront pgo: function order {info["checksum"]} (C3: {info["executed"]} of '
          f'{info["functions"]} functions executed, {info["edges"]} call edges) in '
          f'{pgo.pgo_profile.profile_dir(paths.BUILD, args.train)}/layout.txt', flush=True)
    return info


def annotate(results_json: Path, meta: dict[str, Any],
             order: dict[str, Any] | None = None) -> None:
    """results.json gains `pgo`: training set, profile checksum and tree,
    and which workloads were trained on and which held out; with a
    function order, its checksum and pgo-layout's figures (`layout`); with
    several timing processes, the host goal's figures of each."""
    data = json.loads(results_json.read_text())
    trained, held = pgo.split_held_out((r['bench'] for r in data.get('results', [])),
                                       meta['train'])
    data['pgo'] = {'train': meta['train'], 'checksum': meta['checksum'],
                   'tree': meta['tree'], 'trained': trained, 'held_out': held,
                   'goals': pgo.goals(data, meta['train'])}
    if order is not None:
        data['pgo']['layout'] = {k: order[k] for k in (
            'checksum', 'method', 'functions', 'executed', 'edges', 'max_cluster')}
        data['pgo']['layout']['points'] = pgo_layout.compare(data)
    by_process = goals_by_process(results_json, data, meta['train'])
    results_json.write_text(json.dumps(data, indent=1) + '\n')
    print(pgo.goals_text(data['pgo']['goals'], results_json.parent.name), flush=True)
    if by_process:
        print(by_process, flush=True)
    if order is not None:
        print(pgo_layout.compare_text(data['pgo']['layout']['points'],
                                      results_json.parent.name), flush=True)


def goals_by_process(results_json: Path, data: dict[str, Any], train: str) -> str:
    """With several timing processes (as many as data's
    extra.host_repeats says; process N's document is results-N.json beside
    results.json, whose document is `data`): the host goal's figures of
    each, stored in data's pgo block (`host_goals_by_process`), and the
    line that says them ('' with one process). One process's geometric
    mean moves less than its points, but it moves (docs/statistics.md)."""
    repeated = (data.get('extra') or {}).get('host_repeats') or {}
    more = [results_json.with_name(f'results-{n}.json')
            for n in range(2, int(repeated.get('processes') or 1) + 1)]
    if not more:
        return ''
    by_process = pgo.host_goals_by_process(
        [data] + [json.loads(f.read_text()) for f in more], train)
    data['pgo']['host_goals_by_process'] = by_process
    text = pgo.host_goals_by_process_text(by_process)
    return f'kfront pgo: {text}' if text else ''


def run(args: argparse.Namespace) -> int:
    if args.goals is not None:
        return show_goals(args)
    try:
        pgo.pgo_profile.set_name(args.train)
    except pgo.ProfileError as exc:
        print(f'kfront pgo: --train: {exc}', file=sys.stderr)
        return 2
    # before any build or boot: a training set that selects no benchmark
    problem = names.selection_problem(None, args.train)
    if problem:
        print(f"kfront pgo: --train: {problem.replace('--bench: ', '', 1)}", file=sys.stderr)
        return 2
    out = args.out or paths.ROOT / 'results' / datetime.datetime.now().strftime(
        'pgo-%Y%m%d-%H%M%S')
    # before the training: the runs write into these, and refuse one that
    # already holds a run only after it
    for problem in (paths.out_problem(out, ()),
                    *(paths.out_problem(out / sub) for sub in ('layout', 'qemu', 'host'))):
        if problem:
            print(f'kfront pgo: {problem}', file=sys.stderr)
            return 2
    out.mkdir(parents=True, exist_ok=True)
    meta = train(args, out)
    if meta is None:
        return 1
    if args.train_only:
        return 0
    vfile = paths.BUILD / 'pgo' / f'variants-{pgo.pgo_profile.set_name(args.train)}.ini'
    vfile.write_text(pgo.use_variants_ini(
        (paths.ROOT / 'bench' / 'variants.ini').read_text(), args.train))
    quick = ['--quick'] if args.quick else []
    order = make_layout(args, out, meta, vfile) if args.sim != 'none' else None
    compared = COMPARED_LAYOUT if order is not None else COMPARED
    # one timing process inside the run, as when docs/pgo.md's figures were
    # taken: the host harness's own run below times the variants again
    argv = ['run', '--variants', compared, '--variants-file', str(vfile),
            '--out', str(out / 'qemu'), '--host-repeat', '1', *quick]
    if args.sim != 'none':
        argv += ['--sim', args.sim]
    status = _sub(argv)
    if (out / 'qemu' / 'results.json').exists():
        annotate(out / 'qemu' / 'results.json', meta, order)
    if not args.no_host and status == 0:
        status = _sub(['host', '--variants', compared, '--variants-file', str(vfile),
                       '--out', str(out / 'host'), '--repeat', str(args.host_repeat),
                       *quick])
        if (out / 'host' / 'results.json').exists():
            annotate(out / 'host' / 'results.json', meta, order)
    print(f'kfront pgo: wrote {out}')
    return status


def _sub(argv: list[str]) -> int:
    """Another kfront command in this process, with its own defaults."""
    from kfront import cli
    args = cli.make_parser().parse_args(argv)
    assert args.func in (cmd_run.run, cmd_host.run)
    return int(args.func(args) or 0)
