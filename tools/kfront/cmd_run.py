# SPDX-License-Identifier: GPL-2.0-or-later
"""`kfront run`: set-up check, build, boot, collect, report - the main job."""
from __future__ import annotations

import argparse
import datetime
import re
import sys
from pathlib import Path
from typing import Any

from kfront import (argtypes, build, collect, kargs, lifecycle, model, paths, pgo, qemu,
                    report, results, sim, size)
from kfront.progress import Progress
from kfront.wirepeer import WirePeer
from kfront.cmd_boot import add_boot_options, machine_config, machine_problem

FOOTPRINT_RE = re.compile(r'^\d+(,\d+)*$')


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
                   help='also simulate the front end (fesim plugin): skylake,zen4,...')
    p.add_argument('--wire', choices=sorted(qemu.NIC_DEVICES), metavar='NIC',
                   help='also run the net.wire_* benchmarks: a virtio or e1000 card '
                        'on QEMU user networking, against a peer this command '
                        'runs on 127.0.0.1 (their times include QEMU)')
    p.add_argument('--timeout', type=argtypes.positive_seconds, default=3600.0,
                   metavar='SECONDS',
                   help='give up on the boot after this long (default 3600)')
    p.add_argument('extra', nargs='*', metavar='EXTRA_KERNEL_ARGS',
                   help='further kernel arguments after "--"')
    p.set_defaults(func=run)


def kernel_args(args: argparse.Namespace) -> list[str]:
    """exit=qemu first: the user's extra arguments may replace it."""
    sel = kargs.Selection(quick=args.quick, variants=args.variants, bench=args.bench,
                          footprint=args.footprint, state=args.state,
                          extra=tuple(args.extra))
    return kargs.build(sel, leading=('exit=qemu',))


def check_args(args: argparse.Namespace) -> str | None:
    problem = kargs.check_lists(args.variants, args.bench)
    if problem:
        return problem
    if args.footprint is not None and not FOOTPRINT_RE.match(args.footprint):
        return f'--footprint takes comma-separated numbers, got {args.footprint!r}'
    if args.variants_file is not None and not args.variants_file.is_file():
        return f'--variants-file {args.variants_file}: no such file'
    problem = pgo.unavailable_variants(
        args.variants, args.variants_file or paths.ROOT / 'bench' / 'variants.ini')
    if problem:
        return f'--variants: {problem}'
    problem = qemu.kernel_arg_problem(list(args.extra)) or machine_problem(args)
    if problem:
        return problem
    if args.sim is not None:
        try:
            sim.parse_models(args.sim)
        except sim.SimError as exc:
            return f'--sim: {exc}'
    return None


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
    if not build.build(options=options):
        return 1
    out = args.out or default_out()
    out.mkdir(parents=True, exist_ok=True)
    log = out / 'serial.log'
    cfg = qemu.BootConfig(iso=paths.iso_path(), timeout=args.timeout,
                          kernel_args=kernel_args(args), **machine_config(args))
    sim_out = None
    if args.sim:
        if args.accel != 'tcg':
            print('kfront run: --sim needs --accel tcg (the plugin is a TCG plugin)',
                  file=sys.stderr)
            return 2
        plugin = paths.BUILD / 'tools' / 'fesim' / 'libfesim.so'
        if not plugin.exists():
            print(f'kfront run: --sim: the fesim plugin was not built ({plugin})',
                  file=sys.stderr)
            return 1
        sim_out = out / 'fesim.jsonl'
        try:
            # per-function figures need the symbols of this very image
            syms = sim.write_symbols(paths.kernel_path(), out / 'kfront.syms')
        except (sim.SimError, OSError) as exc:
            print(f'kfront run: --sim: no symbol table, no per-function figures: {exc}',
                  file=sys.stderr)
            syms = None
        cfg.extra_qemu_args += sim.plugin_args(plugin, sim.parse_models(args.sim), sim_out,
                                               syms)
    print(f'kfront run: booting in QEMU ({args.accel}, {args.firmware}'
          f'{", fesim " + args.sim if args.sim else ""}'
          f'{", wire " + args.wire if args.wire else ""}); serial log: {log}', flush=True)
    peer = None
    wire_peer: dict[str, Any] | None = None
    if args.wire:
        peer = WirePeer().start()
        cfg.extra_qemu_args += qemu.nic_qemu_args(args.wire, [])
        cfg.kernel_args.append(f'peer={qemu.GUEST_HOST_ADDR}:{peer.port}')
    lifecycle.salvage_hint(f'./kfront collect {log} --out {out}')
    try:
        res = qemu.boot(cfg, log=log, on_output=Progress())
    finally:
        if peer is not None:
            peer.close()
    lifecycle.clear_salvage_hint()
    print(f'kfront run: QEMU ran {res.elapsed_s:.1f} s', flush=True)
    if peer is not None:
        print(f'kfront run: {peer.summary()}', flush=True)
        wire_peer = peer.totals_dict()
    if res.timed_out:
        print(f'kfront run: timeout after {args.timeout:g} s; collecting what arrived',
              file=sys.stderr)
    return finish(out, log, res, args, sim_out, wire_peer)


def finish(out: Path, log: Path, res: qemu.BootResult, args: argparse.Namespace,
           sim_out: Path | None = None, wire_peer: dict[str, Any] | None = None) -> int:
    """Collect the log, write results.json and the reports; the exit status.

    wire_peer: the host peer's totals of a --wire run, stored in results.json.
    """
    col = collect.collect_file(log)
    for p in col.problems:
        if p.severity != 'note':
            print(f'kfront run: {log.name}: {p}', file=sys.stderr)
    if not col.runs:
        print('kfront run: no result records in the serial log', file=sys.stderr)
        return 1
    extra = {'source': 'qemu', 'qemu': {'command': res.command, 'elapsed_s': round(res.elapsed_s, 1),
                                        'firmware': args.firmware, 'accel': args.accel,
                                        'cpu': args.cpu, 'memory_mb': args.memory,
                                        'smp': args.smp,
                                        'kernel_status': res.status}}
    if wire_peer:
        extra['wire_peer'] = wire_peer
    run = col.runs[-1]
    if sim_out is not None:
        try:
            simdata = sim.load(sim_out)
        except sim.SimError as exc:
            print(f'kfront run: --sim: {exc}', file=sys.stderr)
            return 1
        merged = sim.merge_into_run(run, simdata)
        extra['sim'] = sim.describe(simdata)
        print(f'kfront run: fesim: {len(simdata.regions)} regions, merged into '
              f'{merged} result records', flush=True)
    data = results.build_results(run, extra)
    try:
        data['sizes'] = size.analyze_build()
    except (size.SizeError, OSError) as exc:
        print(f'kfront run: no size report: {exc}', file=sys.stderr)
    typed = model.from_dict(data, str(results.save(data, out / 'results.json')))
    files = report.write_all(typed, out)
    print()
    print(report.terminal_table(typed, color=sys.stdout.isatty()))
    print(f'\nkfront run: wrote {out / "results.json"} and {len(files)} report files in {out}')
    if res.status != 0 or not col.complete:
        status = res.exit_code() if res.status != 0 else 1
        print(f'kfront run: the run did not complete cleanly (kernel status {res.status})',
              file=sys.stderr)
        return status
    return 0
