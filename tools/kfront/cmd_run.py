# SPDX-License-Identifier: GPL-2.0-or-later
"""`kfront run`: set-up check, build, boot, collect, report - the main job."""
from __future__ import annotations

import argparse
import dataclasses
import datetime
import os
import re
import sys
from pathlib import Path
from typing import Any

from kfront import (argtypes, benchsplit, build, collect, kargs, lifecycle, model, names,
                    paths, pgo, qemu, output, records, report, results, robustness, sim,
                    simjobs, size, term, truth)
from kfront.runhost import HOST_KEYS, run_host
from kfront.progress import Progress
from kfront.wirepeer import WirePeer
from kfront.cmd_boot import add_boot_options, machine_config, machine_problem

# The kernel's status for a command line it refuses (README.md, "Exit
# status"); kfront run then exits 2, as for its own bad options.
KERNEL_BAD_CMDLINE = 2

FOOTPRINT_RE = re.compile(r'^\d+(,\d+)*$')


# Two timing processes by default: on the development VM two processes
# run back to back disagreed on about a quarter of the verdicts
# (docs/statistics.md, "Between runs"); the second costs the host
# harness's time once more.
HOST_REPEAT = 2


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser('run', help='build, boot the benchmark in QEMU, print the comparison',
                       description='Set-up check, build, boot the suite in QEMU, collect the '
                       'serial records and write serial.log, results.json, report.md, '
                       'report.html and charts to --out.')
    p.add_argument('--out', type=Path, help='output directory (default results/DATE-TIME/)')
    p.add_argument('--quick', action='store_true', help='short runs: a fast check')
    add_boot_options(p)
    p.add_argument('--variants', metavar='LIST', help='variants to run, e.g. O2,Os')
    p.add_argument('--variants-file', type=Path, metavar='FILE',
                   help='a variant table to build instead of bench/variants.ini')
    p.add_argument('--bench', metavar='GLOBS', help='benchmarks, e.g. "net.*,sched.ctxsw"')
    p.add_argument('--footprint', metavar='LIST', help='footprint sweep points, e.g. 0,16,64')
    p.add_argument('--state', choices=('warm', 'cold', 'both'),
                   help='front-end state of the counted runs: warm (default: one '
                        'unmeasured call of the same variant first), cold (right '
                        'after the previous variant), or both (docs/measurement.md)')
    p.add_argument('--sim', metavar='MODELS',
                   help='simulate the front end (fesim plugin): MODEL[@POLICY],..., e.g. '
                        'skylake,skylake@plru,skylake@random,zen4 (policies: lru, '
                        'plru, random, and noprefetch: LRU without next-line '
                        'prefetch; docs/fesim.md). Under '
                        'TCG it runs by default with the model nearest this CPU '
                        '(the truth line says which); "none" turns it off')
    p.add_argument('--sim-jobs', type=argtypes.sim_jobs, metavar='N',
                   help='boots to run at once under the simulator: several --sim '
                        'settings are dealt over them (at most one boot per '
                        'setting), one setting\'s benchmarks are (at most one '
                        'boot per benchmark); default: one per core; 1: one boot '
                        '(docs/fesim.md, "Parallel boots")')
    p.add_argument('--no-host', action='store_true',
                   help='skip the host harness (by default the same variants and '
                        'benchmarks also run in user space on this CPU, timed with '
                        'the TSC: the real-CPU column of the report)')
    p.add_argument('--host-repeat', type=argtypes.processes, default=HOST_REPEAT,
                   metavar='K',
                   help='run the host harness K times, one process after the other '
                   f'(1 to 9, default {HOST_REPEAT}): the first gives the figures, and a '
                   'real-CPU verdict that is not the same in every process calls no winner '
                   '(kfront host --repeat; docs/statistics.md, "Between runs")')
    p.add_argument('--baseline', metavar='VARIANT', default='O2',
                   help='the variant ratios and the verdict refer to (default O2)')
    p.add_argument('--wire', choices=sorted(qemu.NIC_DEVICES), metavar='NIC',
                   help='also run the net.wire_* benchmarks: a virtio or e1000 card '
                        'on QEMU user networking, against a peer this command '
                        'runs on 127.0.0.1 (their times include QEMU)')
    p.add_argument('--timeout', type=argtypes.positive_seconds, default=3600.0,
                   metavar='SECONDS',
                   help='give up on the boot after this long (default 3600)')
    output.add_options(p)
    p.add_argument('-v', '--verbose', action='store_true',
                   help="show the build's whole output (default: its [n/N] progress)")
    p.add_argument('extra', nargs='*', metavar='EXTRA_KERNEL_ARGS',
                   help='further kernel arguments after "--"')
    p.set_defaults(func=run)


# kernel/params.c's footprint default (tests/py/test_run_truth.py checks
# they agree): a simulated run keeps the full sweep at the quick sizes.
FULL_SWEEP = '0,32,64,128'


# Counted runs per benchmark under the simulator: its counts repeat from
# run to run (to within state carried between runs), so three runs give
# the median and the bootstrap's minimum.
SIM_RUNS = 3
# A benchmark's time budget under the simulator (ms of guest TSC): QEMU
# with several simulated settings runs code far slower than the quick
# budget (60 s) assumes, and its figures are counts, not times; the
# watchdog still ends a benchmark that hangs.
SIM_BUDGET_MS = 900000


def kernel_args(args: argparse.Namespace, simulated: bool = False) -> list[str]:
    """exit=qemu first: the user's extra arguments may replace it.

    simulated: the front-end simulator counts deterministically and slows
    QEMU severalfold, so a run without --quick boots with the quick
    suite's sizes (runs, iterations, budget) but the full footprint sweep
    (docs/truth.md, "Budgets"), SIM_RUNS counted runs and SIM_BUDGET_MS
    (leading defaults: the user's runs= and budget_ms= win); the host
    harness keeps the full sizes."""
    quick = args.quick or simulated
    footprint = args.footprint
    if simulated and not args.quick and footprint is None:
        footprint = FULL_SWEEP
    sel = kargs.Selection(quick=quick, variants=args.variants, bench=args.bench,
                          footprint=footprint, state=args.state,
                          extra=tuple(args.extra))
    leading = ('exit=qemu', f'runs={SIM_RUNS}', f'budget_ms={SIM_BUDGET_MS}') \
        if simulated else ('exit=qemu',)
    return kargs.build(sel, leading=leading)


def check_args(args: argparse.Namespace) -> str | None:
    problem = kargs.check_lists(args.variants, args.bench)
    if problem:
        return problem
    if args.footprint is not None and not FOOTPRINT_RE.match(args.footprint):
        return f'--footprint takes comma-separated numbers, got {args.footprint!r}'
    problem = args.footprint and names.footprint_problem(args.footprint)
    if problem:
        return f'--footprint: {problem}'
    problem = args.variants_file is not None and names.variants_file_problem(args.variants_file)
    if problem:
        return problem
    problem = getattr(args, 'out', None) is not None and paths.out_problem(args.out)
    if problem:
        return problem
    problem = pgo.unavailable_variants(
        args.variants, args.variants_file or paths.ROOT / 'bench' / 'variants.ini')
    if problem:
        return f'--variants: {problem}'
    problem = qemu.kernel_arg_problem(list(args.extra)) or machine_problem(args)
    if problem:
        return problem
    # the names, before anything builds: this run builds from --variants-file
    vfile = args.variants_file or names.DEFAULT_VARIANTS_FILE
    problem = (names.selection_problem(args.variants, args.bench, vfile, bool(args.wire), '--wire')
               or names.kernel_args_problem(list(args.extra), vfile))
    if problem:
        return problem
    if args.baseline and args.variants and \
            args.baseline not in args.variants.split(','):
        return f'--baseline {args.baseline} is not among --variants {args.variants}'
    if args.sim is not None and args.sim != 'none':
        try:
            sim.parse_models(args.sim)
        except sim.SimError as exc:
            return f'--sim: {exc}'
        if args.accel != 'tcg':
            return '--sim needs --accel tcg (the plugin is a TCG plugin)'
    return None


def sim_choice(args: argparse.Namespace) -> tuple[list[str], str]:
    """The simulator models of this run and why: --sim, else under TCG the
    model nearest this machine's CPU (truth.py), else none."""
    if args.sim == 'none':
        return [], 'turned off by --sim none'
    if args.sim:
        return sim.parse_models(args.sim), 'chosen by --sim'
    if args.accel != 'tcg':
        return [], 'the simulator is a TCG plugin; --accel kvm measures with the PMU'
    choice = truth.sim_model_for(truth.read_host_cpu())
    return [choice.model], choice.note


def default_out() -> Path:
    stamp = datetime.datetime.now().strftime('%Y%m%d-%H%M%S')
    return paths.ROOT / 'results' / stamp


def run(args: argparse.Namespace) -> int:
    problem = check_args(args)
    if problem:
        print(f'kfront run: {problem}', file=sys.stderr)
        return 2
    options = [f'-Dvariants_file={args.variants_file.resolve()}'] if args.variants_file \
        else ['-Dvariants_file=']
    print('kfront run: building', flush=True)
    if not build.build(options=options, quiet=not args.verbose):
        return 1
    out = args.out or default_out()
    out.mkdir(parents=True, exist_ok=True)
    log = out / 'serial.log'
    sim_out = None
    models, model_note = sim_choice(args)
    cfg = qemu.BootConfig(iso=paths.iso_path(), timeout=args.timeout,
                          kernel_args=kernel_args(args, bool(models)), **machine_config(args))
    text_pages = kargs.text_pages(cfg.kernel_args)
    if models:
        pages = ('; its iTLB in 2 MiB pages, as the kernel maps its code (textpages=2m)'
                 if text_pages == '2m' else '')
        print(f'kfront run: simulator {",".join(models)} ({model_note}){pages}', flush=True)
        if not args.quick:
            print('kfront run: simulated counts are deterministic: the kernel runs the '
                  'quick sizes with the full footprint sweep; the host harness runs '
                  'the full sizes', flush=True)
    if models:      # under TCG only: check_args and sim_choice see to it
        plugin = sim.plugin_path()
        if not plugin.exists():
            print(f'kfront run: --sim: the fesim plugin was not built ({plugin})',
                  file=sys.stderr)
            if args.sim:
                return 1
            models, model_note = [], f'the fesim plugin was not built ({plugin})'
            cfg.kernel_args = kernel_args(args)
    if models:
        sim_out = out / 'fesim.jsonl'
        try:
            # per-function figures need the symbols of this very image
            syms = sim.write_symbols(paths.kernel_path(), out / 'kfront.syms')
        except (sim.SimError, OSError) as exc:
            print(f'kfront run: --sim: no symbol table, no per-function figures: {exc}',
                  file=sys.stderr)
            syms = None
    # several settings: dealt over boots run at once (not with --wire: one
    # NIC peer serves one boot); one setting: its benchmarks are
    parts = simjobs.split(models, 1 if args.wire else
                          simjobs.jobs_for(len(models), args.sim_jobs)) if models else []
    order = benchsplit.kernel_order() if len(models) == 1 else []
    benches = bench_parts(args, order) if order else []
    cfgs = [cfg]

    def plugin_for(settings: list[str], sim_file: Path) -> list[str]:
        # the kernel's harness flushes before any region: nothing before
        # its first marker reaches a figure (docs/fesim.md, skip_boot)
        return sim.plugin_args(plugin, settings, sim_file, syms, skip_boot=True,
                               pages=text_pages)
    if len(benches) > 1:
        cfgs = [dataclasses.replace(
                    cfg, kernel_args=kernel_args(argparse.Namespace(**dict(
                        vars(args), bench=','.join(part))), True),
                    extra_qemu_args=cfg.extra_qemu_args + plugin_for(
                        models, out / f'fesim-{k + 1}.jsonl'))
                for k, part in enumerate(benches)]
        print(f'kfront run: benchmarks over {len(benches)} boots at once (each '
              'point starts from empty simulated caches, so the split changes no '
              f'figure; progress shown for the first): '
              f'{"; ".join(",".join(p) for p in benches)}', flush=True)
    elif len(parts) > 1:
        cfgs = [dataclasses.replace(cfg, extra_qemu_args=cfg.extra_qemu_args + plugin_for(
                    part, out / f'fesim-{k + 1}.jsonl'))
                for k, part in enumerate(parts)]
        print(f'kfront run: simulator settings over {len(parts)} boots at once: '
              f'{"; ".join(",".join(p) for p in parts)}', flush=True)
    elif models:
        cfg.extra_qemu_args += plugin_for(models, sim_out)
    print(f'kfront run: booting in QEMU ({args.accel}, {args.firmware}'
          f'{", fesim " + ",".join(models) if models else ""}'
          f'{", wire " + args.wire if args.wire else ""}); serial log: {log}', flush=True)
    peer = None
    wire_peer: dict[str, Any] | None = None
    if args.wire:
        peer = WirePeer().start()
        cfg.extra_qemu_args += qemu.nic_qemu_args(args.wire, [])
        cfg.kernel_args.append(f'peer={qemu.GUEST_HOST_ADDR}:{peer.port}')
    logs = [log] + [out / f'serial-{k + 1}.log' for k in range(1, len(cfgs))]
    # benchmarks over boots: each boot's log holds its own benchmarks
    lifecycle.salvage_hint(f'./kfront collect {log} --out {out}' if len(benches) < 2 else
                           '; '.join(f'./kfront collect {lg} --out {out / f"boot-{k + 1}"}'
                                     for k, lg in enumerate(logs)))
    try:
        boots = qemu.boot_many(cfgs, logs, on_output=Progress())
    finally:
        if peer is not None:
            peer.close()
    lifecycle.clear_salvage_hint()
    # the first boot's records; the time until the last boot ended; the
    # CPU time of all boots (known only if each boot's is)
    cpu = [b.cpu_s for b in boots]
    res = dataclasses.replace(boots[0], elapsed_s=max(b.elapsed_s for b in boots),
                              cpu_s=None if None in cpu else sum(cpu))
    print(f'kfront run: QEMU ran {res.elapsed_s:.1f} s'
          f'{f" ({len(boots)} boots at once)" if len(boots) > 1 else ""}'
          f'{f", {res.cpu_s:.1f} s of CPU" if res.cpu_s is not None else ""}', flush=True)
    if any(b.status == KERNEL_BAD_CMDLINE and not b.timed_out for b in boots):
        # the kernel said why above and ran nothing: no log to collect
        print('kfront run: the kernel refused its command line (its message is '
              'above); nothing ran', file=sys.stderr)
        return 2
    merged_run = None
    if len(benches) > 1 and sim_out is not None:
        # a boot that failed fails the run: its status, else the first's
        res = dataclasses.replace(res, status=next(
            (b.status for b in boots if b.status != 0), boots[0].status),
            timed_out=any(b.timed_out for b in boots))
        merged_run, problem = merge_bench_boots(logs, benches, order,
                                                ' '.join(cfg.kernel_args), out, sim_out)
        if problem:
            print(f'kfront run: {problem}', file=sys.stderr)
            print('kfront run: each boot\'s records without the simulator: '
                  + '; '.join(f'./kfront collect {lg} --out {out / f"boot-{k + 1}"}'
                              for k, lg in enumerate(logs)), file=sys.stderr)
            return 1
    elif len(boots) > 1 and sim_out is not None:
        problem = merge_parallel(boots, logs, parts, models, out, sim_out)
        if problem:
            print(f'kfront run: --sim-jobs: {problem}', file=sys.stderr)
            print(f'kfront run: the first boot\'s records without the simulator: '
                  f'./kfront collect {log} --out {out}', file=sys.stderr)
            return 1
    if peer is not None:
        print(f'kfront run: {peer.summary()}', flush=True)
        wire_peer = peer.totals_dict()
    if res.timed_out:
        print(f'kfront run: timeout after {args.timeout:g} s; collecting what arrived',
              file=sys.stderr)
    host_doc, host_label, host_note = None, '', 'skipped (--no-host)'
    if args.wire and not args.no_host:
        host_note = 'not with --wire (the wire benchmarks need the emulated NIC)'
    elif not args.no_host:
        host_doc, host_note = run_host(args, out / 'host', host_selection(args))
        host_label = truth.host_label(truth.read_host_cpu()) if host_doc else ''
    tr = {'models': models, 'model_note': model_note, 'host_doc': host_doc,
          'host': host_label, 'host_note': host_note,
          # each boot's own times: how well the boots run at once were dealt
          'qemu_boots': [{'elapsed_s': round(b.elapsed_s, 1),
                          'cpu_s': None if b.cpu_s is None else round(b.cpu_s, 1)}
                         for b in boots],
          'sim_boots': parts if len(parts) > 1 else None,
          'bench_boots': [{'bench': part, 'cmdline': ' '.join(c.kernel_args),
                           'log': lg.name, 'fesim': f'fesim-{k + 1}.jsonl'}
                          for k, (part, c, lg) in enumerate(zip(benches, cfgs, logs))]
          if merged_run is not None else None}
    return finish(out, log, res, args, sim_out, wire_peer, tr, merged_run)


def bench_parts(args: argparse.Namespace, order: list[str]) -> list[list[str]]:
    """The benchmarks of a one-setting simulated run dealt over boots run
    at once (benchsplit.py), in the suite's order (`order`, the image's
    benchmark table): one list per boot, one list for one boot. Not
    with --wire (one NIC peer serves one boot) nor with bench= among the
    extra kernel arguments (the split sets bench= itself)."""
    if args.wire or any(kargs.key_of(a) == 'bench' for a in args.extra):
        return []
    jobs = args.sim_jobs or len(os.sched_getaffinity(0))
    if jobs < 2:
        return []
    return benchsplit.deal(benchsplit.selected(args.bench, order), jobs)


def merge_bench_boots(logs: list[Path], benches: list[list[str]], order: list[str],
                      cmdline: str, out: Path, sim_out: Path) -> tuple[records.Run | None, str | None]:
    """The benchmark-split boots as one run with one fesim output
    (benchsplit.py), under the command line one boot would have had;
    (run, None), or (None, a problem). Every boot's own log and output
    stay in the folder."""
    runs = []
    for k, lg in enumerate(logs):
        col = collect.collect_file(lg)
        for p in col.problems:
            if p.severity != 'note':
                print(f'kfront run: {lg.name}: {p}', file=sys.stderr)
        if not col.runs:
            return None, f'the boot of {",".join(benches[k])} sent no records; its serial log: {lg}'
        runs.append(col.runs[-1])
    try:
        firsts = benchsplit.merge_fesim([out / f'fesim-{k + 1}.jsonl' for k in range(len(logs))],
                                        sim_out)
    except sim.SimError as exc:
        return None, f'the boots\' fesim outputs: {exc}'
    return benchsplit.merge_runs(runs, logs, firsts, order, cmdline), None


def merge_parallel(boots: list[qemu.BootResult], logs: list[Path], parts: list[list[str]],
                   models: list[str], out: Path, sim_out: Path) -> str | None:
    """The parallel boots' fesim outputs as one (simjobs.py); a problem,
    or None. Every boot's own log and output stay in the folder."""
    for k, (b, part) in enumerate(zip(boots, parts)):
        if b.timed_out or b.status is None:
            how = 'timed out' if b.timed_out else f'ended without a kernel exit (QEMU {b.qemu_rc})'
            return (f'the boot of {",".join(part)} {how}; its serial log: {logs[k]}')
    try:
        simjobs.merge([out / f'fesim-{k + 1}.jsonl' for k in range(len(parts))],
                      parts, models, sim_out)
    except sim.SimError as exc:
        return str(exc)
    return None


def host_selection(args: argparse.Namespace) -> kargs.Selection:
    """The same selection for the host harness: suite keys only (no exit=,
    serve=, crash=: those are the kernel's)."""
    extra = tuple(a for a in args.extra if kargs.key_of(a) in HOST_KEYS)
    return kargs.Selection(quick=args.quick, variants=args.variants, bench=args.bench,
                           footprint=args.footprint, state=args.state, extra=extra)


def finish(out: Path, log: Path, res: qemu.BootResult, args: argparse.Namespace,
           sim_out: Path | None = None, wire_peer: dict[str, Any] | None = None,
           tr: dict[str, Any] | None = None, split_run: records.Run | None = None) -> int:
    """Collect the log, write results.json and the reports; the exit status.

    wire_peer: the host peer's totals of a --wire run, stored in results.json.
    tr: the simulator models and the host harness's results (run()).
    split_run: the run of benchmark-split boots (merge_bench_boots), already
    collected: then log is not read again.
    """
    tr = tr or {}
    if split_run is not None:
        run, complete = split_run, split_run.complete
    else:
        col = collect.collect_file(log)
        for p in col.problems:
            if p.severity != 'note':
                print(f'kfront run: {log.name}: {p}', file=sys.stderr)
        if not col.runs:
            print('kfront run: no result records in the serial log', file=sys.stderr)
            return 1
        run, complete = col.runs[-1], col.complete
    extra = {'source': 'qemu', 'qemu': {'command': res.command, 'elapsed_s': round(res.elapsed_s, 1),
                                        'cpu_s': None if res.cpu_s is None else round(res.cpu_s, 1),
                                        'firmware': args.firmware, 'accel': args.accel,
                                        'cpu': args.cpu, 'memory_mb': args.memory,
                                        'smp': args.smp,
                                        'kernel_status': res.status}}
    if tr.get('qemu_boots'):
        extra['qemu']['boots'] = tr['qemu_boots']
    if wire_peer:
        extra['wire_peer'] = wire_peer
    names = [str(v.get('name')) for v in (run.begin.payload.get('variants') or [])] \
        if run.begin else []
    if getattr(args, 'baseline', None) in names:
        extra['baseline'] = args.baseline
    elif getattr(args, 'baseline', None):
        print(f'kfront run: --baseline {args.baseline}: not a variant of this run '
              f'({", ".join(names)}); using the default', file=sys.stderr)
    if sim_out is not None:
        try:
            simdata = sim.load(sim_out)
        except sim.SimError as exc:
            print(f'kfront run: --sim: {exc}', file=sys.stderr)
            return 1
        merged = sim.merge_into_run(run, simdata)
        extra['sim'] = sim.describe(simdata)
        if tr.get('sim_boots'):
            extra['sim']['boots'] = tr['sim_boots']
        if tr.get('bench_boots'):
            extra['sim']['bench_boots'] = tr['bench_boots']
        print(f'kfront run: fesim: {len(simdata.regions)} regions, merged into '
              f'{merged} result records', flush=True)
    data = results.build_results(run, extra)
    decided = truth.decide(data['machine'], args.accel, tr.get('models', []),
                           tr.get('model_note', ''), tr.get('host', ''),
                           tr.get('host_note', ''))
    data['truth'] = decided.to_dict()
    if tr.get('host_doc'):
        data['host'] = tr['host_doc']
    if sim_out is not None:
        rob = data['extra']['sim']['robustness'] = robustness.summary(data)
        if rob['rankings']:
            print(f'kfront run: fesim: {rob["not_robust"]} of {rob["rankings"]} '
                  'rankings not robust across policy settings', flush=True)
    try:
        data['sizes'] = size.analyze_build()
    except (size.SizeError, OSError) as exc:
        print(f'kfront run: no size report: {exc}', file=sys.stderr)
    typed = model.from_dict(data, str(results.save(data, out / 'results.json')))
    files = report.write_all(typed, out)
    output.emit_results(args, [out / 'results.json'], [typed])
    print()
    print(report.terminal_table(typed, color=term.use_color(sys.stdout)))
    print(f'\nkfront run: wrote {out / "results.json"} and {len(files)} report files in {out}')
    if res.status != 0 or not complete:
        status = res.exit_code() if res.status != 0 else 1
        print(f'kfront run: the run did not complete cleanly (kernel status {res.status})',
              file=sys.stderr)
        return status
    return 0
