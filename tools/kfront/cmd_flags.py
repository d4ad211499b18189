# SPDX-License-Identifier: GPL-2.0-or-later
"""`kfront flags`: the flag explorer (see tools/kfront/flags.py)."""
from __future__ import annotations

import argparse
import datetime
import json
import sys
from pathlib import Path

from kfront import argtypes, build, collect, flags, kargs, names, paths, qemu, results, sim, size
from kfront.cmd_host import repeat_processes, run_suite_program

DEFAULT_CANDIDATES = paths.ROOT / 'bench' / 'hybrid-candidates.ini'
FLAGS_BUILD = paths.ROOT / 'build-flags'


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser('flags', help='build and rank candidate flag sets against O2 and Os',
                       description='Build one variant per candidate flag set, run the suite '
                       'under the front-end simulator and (unless --no-host) on this '
                       'machine\'s CPU in user space, and print a ranked table.')
    p.add_argument('candidates', nargs='?', type=Path, default=DEFAULT_CANDIDATES,
                   help='candidate file (default bench/hybrid-candidates.ini)')
    p.add_argument('--sim', default='skylake', help='simulator model(s) (default skylake)')
    p.add_argument('--bench', default='net.*,sched.*,mix.*,calib.memcpy20,calib.unlikely',
                   help='benchmarks to run')
    p.add_argument('--rank', choices=flags.METRICS, default='uop',
                   help='order of the table (default: simulated uop-cache misses, '
                   'since at footprint 0 the L1i seldom misses); '
                   'cpu: time on this CPU (host harness); tsc: time under QEMU TCG, '
                   'the emulator\'s, not a result')
    p.add_argument('--footprint', type=argtypes.footprint_point, default=0, metavar='N',
                   help='score at this one footprint (packet-filter rules; default 0). '
                   'Above 0 only the benchmarks swept there are scored: where the hot '
                   'code outgrows the L1i (32 rules and more)')
    p.add_argument('--full', action='store_true', help='full runs instead of quick ones '
                   'in QEMU (the host harness always takes full runs)')
    p.add_argument('--no-host', action='store_true',
                   help='skip the host harness: no CPU time column')
    p.add_argument('--host-repeat', type=argtypes.processes, default=1, metavar='K',
                   help='time each batch in K host-harness processes, one after the other '
                   '(default 1): the table gives the first\'s CPU time, a line after it '
                   'each process\'s and whether the order by CPU time is the same in all')
    p.add_argument('--out', type=Path, help='also write the scores as JSON here')
    p.add_argument('--timeout', type=argtypes.positive_seconds, default=3600.0,
                   metavar='SECONDS', help='give up on a boot after this long (default 3600)')
    p.set_defaults(func=run)


def work_dir() -> Path:
    """Where a run of the explorer keeps its batches: results/flags-DATE-TIME."""
    stamp = datetime.datetime.now().strftime('%Y%m%d-%H%M%S')
    return paths.ROOT / 'results' / f'flags-{stamp}'


def host_batch(args: argparse.Namespace, work: Path, n: int) -> list[dict] | None:
    """The batch's variants timed on this CPU by the host harness the
    batch's build made: full runs (a quick run's seven are too few on a
    noisy machine, and at one footprint a batch takes about a minute),
    in --host-repeat processes: their results documents, the first's
    first; None when the first did not complete (a later one that did
    not leaves the ones before it)."""
    exe = FLAGS_BUILD / 'host' / 'kfront-host'
    out = work / f'batch{n}-host'
    out.mkdir()
    cmd = [str(exe)] + kargs.build(kargs.Selection(bench=args.bench,
                                                   footprint=str(args.footprint)))
    run_, extra, status = run_suite_program(cmd, out, args.timeout, 'kfront flags',
                                            f'batch {n} on this CPU in user space')
    if run_ is None or status != 0 or not run_.complete:
        print(f'kfront flags: batch {n}: the host harness did not complete (status '
              f'{status}); no CPU time for this batch; see {out / "host.log"}',
              file=sys.stderr)
        return None
    first = results.build_results(run_, extra)
    docs = [first]
    if args.host_repeat > 1:
        problem, more = repeat_processes(cmd, out, args.timeout, 'kfront flags', first,
                                         args.host_repeat)
        if problem:
            print(f'kfront flags: batch {n}: {problem}', file=sys.stderr)
        docs += more
    return docs


def cpu_label(host: dict) -> str:
    """The CPU the host harness ran on, as its machine record gives it."""
    m = host.get('machine') or {}
    fam, mod = m.get('family'), m.get('model')
    return (f"{m.get('brand', 'unknown')}, {m.get('vendor', '?')} family "
            f"{hex(fam) if isinstance(fam, int) else '?'} model "
            f"{hex(mod) if isinstance(mod, int) else '?'}"
            + (f", in a VM ({m['hypervisor']})" if m.get('hypervisor') else ''))


def run_batch(variants: list, args: argparse.Namespace, work: Path, n: int
              ) -> tuple[list, dict | None]:
    """The batch's scores (empty when its boot gave nothing) and its host
    harness results (None without)."""
    table = work / f'batch{n}.ini'
    flags.write_table(variants, table)
    print(f'kfront flags: batch {n}: {", ".join(v.name for v in variants)}', flush=True)
    if not build.build(FLAGS_BUILD, options=[f'-Dvariants_file={table}']):
        return [], None
    log, sim_out = work / f'batch{n}.log', work / f'batch{n}.fesim.jsonl'
    # One footprint: the only point scored (a region's figures do not
    # depend on the points run before it: docs/fesim.md, "Markers").
    cmdline = kargs.build(kargs.Selection(quick=not args.full, bench=args.bench,
                                          footprint=str(args.footprint)),
                          leading=('exit=qemu',))
    cfg = qemu.BootConfig(iso=paths.iso_path(FLAGS_BUILD), timeout=args.timeout,
                          kernel_args=cmdline)
    cfg.extra_qemu_args += sim.plugin_args(FLAGS_BUILD / 'tools' / 'fesim' / 'libfesim.so',
                                           sim.parse_models(args.sim), sim_out)
    res = qemu.boot(cfg, log=log)
    col = collect.collect_file(log)
    if not col.runs:
        print(f'kfront flags: batch {n} produced no results (kernel status {res.status}); '
              f'see {log}', file=sys.stderr)
        return [], None
    run = col.runs[-1]
    sim.merge_into_run(run, sim.load(sim_out))
    data = results.build_results(run, {'source': 'kfront flags'})
    hosts = None if args.no_host else host_batch(args, work, n)
    host = hosts[0] if hosts else None
    return flags.score_batch(data, size.analyze_build(FLAGS_BUILD), variants, host,
                             args.footprint, (hosts or [])[1:]), host


def run(args: argparse.Namespace) -> int:
    try:
        cands = flags.vt.load(args.candidates)
        sim.parse_models(args.sim)
    except (flags.vt.VariantError, sim.SimError) as exc:
        print(f'kfront flags: {exc}', file=sys.stderr)
        return 2
    problem = kargs.check_lists(None, args.bench) or names.selection_problem(None, args.bench)
    if not problem and args.footprint > 0:
        unswept = names.unswept_problem(args.bench)
        problem = unswept and f'--footprint {args.footprint}: {unswept}'
    if problem:
        print(f'kfront flags: {problem}', file=sys.stderr)
        return 2
    per_batch = []
    failed = False
    cpu = None
    # kept, so that a failed batch's message names a log that is still there
    work = work_dir()
    work.mkdir(parents=True, exist_ok=True)
    print(f'kfront flags: tables, serial logs, simulator output and host logs in {work}',
          flush=True)
    own = [r for r in flags.references(cands) if r not in flags.REFERENCES]
    if own:
        print('kfront flags: references from the file: ' + '; '.join(
            f'{r.name} = {r.cc} {" ".join(r.flags)}' for r in own), flush=True)
    for n, batch in enumerate(flags.batches(cands), 1):
        scores, host = run_batch(batch, args, work, n)
        if scores:
            per_batch.append(scores)
        if not scores or (host is None and not args.no_host):
            failed = True
        if host is not None:
            cpu = cpu_label(host)
    if not per_batch:
        return 1
    scores = flags.merge_scores(per_batch)
    table = flags.ranked_table(scores, args.rank, sorted(sim.parse_models(args.sim))[0], cpu,
                               args.footprint)
    print(table)
    (work / 'table.txt').write_text(table + '\n')
    if args.out:
        args.out.write_text(json.dumps([s.__dict__ for s in scores], indent=1))
    return 1 if failed else 0
