# SPDX-License-Identifier: GPL-2.0-or-later
"""`kfront host`: the suite in Linux user space, pinned to one CPU, timed
with the TSC on this machine's real CPU; with --valgrind, also counted
under callgrind (instructions and simulated L1i misses per region).

The host programs are built by host/meson.build from the kernel's measured
sources (docs/host-harness.md). They print the kernel's record format, so
the log is collected, turned into results.json (context "user") and
reported exactly like a serial log.
"""
from __future__ import annotations

import argparse
import concurrent.futures
import datetime
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable

from kfront import (argtypes, build, collect, kargs, lifecycle, model, names, paths,
                    output, pgo, placement, regions, repeats, report, results, term, vg)
from kfront.progress import Progress
from kfront.records import Run


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser('host', help='run the suite in user space on this CPU (and under valgrind)',
                       description='Build the host programs, run the suite in Linux user space '
                       'pinned to one CPU, variants interleaved, and write host.log, '
                       'results.json (context "user") and the reports to --out.')
    p.add_argument('--out', type=Path, help='output directory (default results/host-DATE-TIME/)')
    p.add_argument('--quick', action='store_true', help='short runs: a fast check')
    p.add_argument('--variants', metavar='LIST', help='variants to run, e.g. O2,Os')
    p.add_argument('--bench', metavar='GLOBS', help='benchmarks, e.g. "net.*,sched.chat"')
    p.add_argument('--variants-file', type=Path, metavar='FILE',
                   help='build the variants of FILE (e.g. bench/pgo-candidates.ini) '
                   'instead of bench/variants.ini, as kfront run --variants-file does')
    p.add_argument('--cpu', type=int, metavar='N',
                   help='CPU to pin to (default: the last one allowed)')
    p.add_argument('--valgrind', action='store_true',
                   help='also run each variant once under callgrind: vg.instructions, '
                   'vg.i1_misses')
    p.add_argument('--vg-runs', type=int, default=3, metavar='N',
                   help='counted runs per benchmark under valgrind (default 3)')
    p.add_argument('--repeat', type=argtypes.processes, default=1, metavar='K',
                   help='run the timing program K times, one process after the other '
                   '(1 to 9, default 1): the first gives the figures, and a verdict that '
                   'is not the same in every process calls no winner (docs/statistics.md, '
                   '"Between runs"); each further process writes host-N.log and results-N.json')
    p.add_argument('--keep-pages', action='store_true',
                   help='run every timing process from the program file as it stands, '
                   'whose code sits on the same physical pages in every process, instead '
                   'of a fresh copy of it for each (docs/statistics.md, "Where the code '
                   'lands")')
    p.add_argument('--huge-text', action='store_true',
                   help="run the timing program's code from one anonymous 2 MiB page, as "
                   "Linux maps its own text, instead of the file's 4 KiB page-cache pages: "
                   'every cache set index bit below 2 MiB then follows the link, not where '
                   'the pages landed (host/text_pages.c; docs/host-harness.md)')
    p.add_argument('--timeout', type=argtypes.positive_seconds, default=3600.0,
                   metavar='SECONDS',
                   help='give up on a host program after this long (default 3600)')
    output.add_options(p)
    p.add_argument('extra', nargs='*', metavar='EXTRA_ARGS',
                   help='further suite arguments after "--" (runs=, iters=, ...)')
    p.set_defaults(func=run)


def suite_args(args: argparse.Namespace) -> list[str]:
    sel = kargs.Selection(quick=args.quick, variants=args.variants, bench=args.bench,
                          extra=tuple(args.extra))
    return kargs.build(sel)


def variants_file(args: argparse.Namespace) -> Path:
    """The table this run builds from: --variants-file, else
    bench/variants.ini (like kfront run: a table never lingers in the
    build directory for the next command)."""
    vfile = getattr(args, 'variants_file', None)
    return vfile.resolve() if vfile is not None else names.DEFAULT_VARIANTS_FILE


def check_args(args: argparse.Namespace) -> str | None:
    vfile = getattr(args, 'variants_file', None)
    problem = vfile is not None and names.variants_file_problem(vfile)
    if problem:
        return problem
    problem = getattr(args, 'out', None) is not None and paths.out_problem(args.out)
    if problem:
        return problem
    problem = pgo.unavailable_variants(args.variants, variants_file(args))
    if problem:
        return f'--variants: {problem}'
    problem = (kargs.check_lists(args.variants, args.bench)
               or names.selection_problem(args.variants, args.bench, variants_file(args))
               or names.kernel_args_problem(list(args.extra)))
    if problem:
        return problem
    if args.cpu is not None and not 0 <= args.cpu < (os.cpu_count() or 1):
        return f'--cpu {args.cpu}: this machine has CPUs 0-{(os.cpu_count() or 1) - 1}'
    if args.vg_runs < 1:
        return '--vg-runs must be at least 1'
    if args.valgrind and not shutil.which('valgrind'):
        return '--valgrind needs valgrind (Debian package valgrind: ./kfront setup)'
    return None


def run_program(cmd: list[str], log: Path, timeout: float,
                on_output: Callable[[bytes], None] | None = None,
                stderr: Path | None = None) -> int:
    """Run cmd with stdout captured to log (and streamed), stderr to the
    terminal or a file; its status, or 124 on timeout."""
    with open(log, 'wb') as fh, open(stderr or os.devnull, 'wb') as err:
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE,
                                stderr=err if stderr else None,
                                preexec_fn=lifecycle.die_with_parent)
        assert proc.stdout is not None
        deadline = time.monotonic() + timeout
        for chunk in iter(lambda: proc.stdout.read1(65536), b''):
            fh.write(chunk)
            if on_output:
                on_output(chunk)
            if time.monotonic() > deadline:
                proc.kill()
                proc.wait()
                return 124
        return proc.wait()


def host_exe(variant: str | None = None) -> Path:
    name = 'kfront-host' if variant is None else f'kfront-host-{variant}'
    return paths.BUILD / 'host' / name


def collect_run(log: Path, what: str) -> Run | None:
    col = collect.collect_file(log)
    for p in col.problems:
        if p.severity != 'note':
            print(f'kfront host: {what}: {p}', file=sys.stderr)
    return col.runs[-1] if col.runs else None



def run_suite_program(cmd: list[str], out: Path, timeout: float, who: str, what: str,
                      log_name: str = 'host.log', fresh: bool = True
                      ) -> tuple[Run | None, dict[str, Any], int]:
    """Run one host program into out/LOG_NAME and collect it: (the run, or
    None when the log holds no result, the results document's extra block,
    the exit status). who/what make the progress lines ("kfront host:
    running in user space; log: ..."). With fresh, the program is first
    replaced by a copy of itself, so that its code runs from new physical
    pages (placement.py)."""
    log = out / log_name
    print(f'{who}: {what}; log: {log}', flush=True)
    problem = placement.refresh(Path(cmd[0])) if fresh else ''
    if problem:
        print(f'{who}: {problem}', file=sys.stderr)
    placed = placement.FRESH if fresh and not problem else placement.KEPT
    frames = placement.frames(Path(cmd[0]))
    start = time.monotonic()
    status = run_program(cmd, log, timeout, Progress())
    elapsed = time.monotonic() - start
    print(f'{who}: the host harness ran {elapsed:.1f} s, status {status}', flush=True)
    run_ = collect_run(log, log.name)
    extra: dict[str, Any] = {'context': 'user', 'source': str(log),
                             'host': {'command': cmd, 'elapsed_s': round(elapsed, 1),
                                      'status': status,
                                      'placement': placed, 'frames': frames}}
    if run_ is None or not run_.of_type('result'):
        print(f'{who}: no result records in the log', file=sys.stderr)
        return None, extra, status
    return run_, extra, status


def repeat_processes(cmd: list[str], out: Path, timeout: float, who: str,
                     first: dict[str, Any], k: int, fresh: bool = True
                     ) -> tuple[str, list[dict[str, Any]]]:
    """Run the timing program k - 1 more times after the first process
    (whose results document is `first`), each into host-N.log and
    results-N.json, and store in first['extra']['host_repeats'] which
    verdicts are the same in every process (repeats.py). Returns '' or
    what went wrong (a process without results: the block is then left
    out), and the further processes' results documents that were made."""
    docs = [model.from_dict(first, 'the first process')]
    more: list[dict[str, Any]] = []
    for n in range(2, k + 1):
        run_, extra, status = run_suite_program(
            cmd, out, timeout, who, f'timing process {n} of {k}', log_name=f'host-{n}.log',
            fresh=fresh)
        if run_ is None or status != 0 or not run_.complete:
            return (f'timing process {n} of {k} did not complete (status {status}, see '
                    f'{out / f"host-{n}.log"}): the verdicts are those of the first '
                    'alone'), more
        extra['baseline'] = first.get('baseline')      # the first's, as kfront run set it
        more.append(results.build_results(run_, extra))
        docs.append(model.from_dict(more[-1],
                                    str(results.save(more[-1], out / f'results-{n}.json'))))
    block = repeats.summary(docs)
    first.setdefault('extra', {})['host_repeats'] = block
    print(f'{who}: {repeats.line(block)}', flush=True)
    return '', more


def valgrind_variant(variant: str, args: argparse.Namespace, out: Path
                     ) -> tuple[str, Run | None, vg.VgOutput | None, str]:
    """One variant under callgrind: (variant, its run, its regions, problem)."""
    cg_file = out / f'callgrind-{variant}.out'
    log = out / f'valgrind-{variant}.log'
    # The variant's own program holds only that variant: no variant= list.
    extra = [a for a in suite_args(args)
             if not a.startswith(('runs=', 'warmup=', 'budget_ms=', 'variant='))]
    # Time means nothing under valgrind: no budget worth the name.
    cmd = vg.command(host_exe(variant), cg_file,
                     extra + [f'runs={args.vg_runs}', 'warmup=1', 'budget_ms=3600000'])
    status = run_program(cmd, log, args.timeout, stderr=out / f'valgrind-{variant}.err')
    if status != 0:
        return variant, None, None, f'exit status {status} (see {log})'
    try:
        return variant, collect_run(log, log.name), vg.parse(cg_file), ''
    except vg.VgError as exc:
        return variant, None, None, str(exc)


def add_valgrind(run: Run, args: argparse.Namespace, out: Path) -> dict[str, Any]:
    """Run every variant of run under callgrind, in parallel, and merge."""
    names = list(dict.fromkeys(r.payload['variant'] for r in run.of_type('result')))
    print(f'kfront host: callgrind on {", ".join(names)} ({vg.version()}, I1 {vg.I1})',
          flush=True)
    start = time.monotonic()
    notes: list[str] = []
    workers = max(1, min(len(names), os.cpu_count() or 1))
    with concurrent.futures.ThreadPoolExecutor(workers) as pool:
        done = list(pool.map(lambda v: valgrind_variant(v, args, out), names))
    merged = 0
    for variant, vg_run, data, problem in done:
        if vg_run is None or data is None:
            notes.append(f'{variant}: {problem}')
            print(f'kfront host: valgrind {variant}: {problem}', file=sys.stderr)
            continue
        n, more = vg.merge_into_run(run, vg_run, data)
        merged += n
        notes += more
    print(f'kfront host: callgrind took {time.monotonic() - start:.1f} s; vg.* figures '
          f'in {merged} results', flush=True)
    return {'tool': 'callgrind --cache-sim=yes', 'version': vg.version(),
            'I1': vg.I1, 'D1': vg.D1, 'LL': vg.LL, 'runs': args.vg_runs,
            'command': vg.command(host_exe('VARIANT'), Path('callgrind-VARIANT.out'), []),
            'merged': merged, 'notes': notes,
            # callgrind always gives per-function costs (vg.series)
            'misses_of': regions.MISSES_MEASURED}


def default_out() -> Path:
    stamp = datetime.datetime.now().strftime('%Y%m%d-%H%M%S')
    return paths.ROOT / 'results' / f'host-{stamp}'


def run(args: argparse.Namespace) -> int:
    problem = check_args(args)
    if problem:
        print(f'kfront host: {problem}', file=sys.stderr)
        return 2
    print('kfront host: building', flush=True)
    options = [f'-Dvariants_file={variants_file(args)}'] \
        if getattr(args, 'variants_file', None) is not None else ['-Dvariants_file=']
    if not build.build(targets=['host'], options=options):
        return 1
    out = args.out or default_out()
    out.mkdir(parents=True, exist_ok=True)
    cmd = [str(host_exe())] + (['--cpu', str(args.cpu)] if args.cpu is not None else []) \
        + (['--huge-text'] if getattr(args, 'huge_text', False) else []) + suite_args(args)
    run_, extra, status = run_suite_program(cmd, out, args.timeout, 'kfront host',
                                            'running in user space',
                                            fresh=not args.keep_pages)
    if run_ is None:
        return status or 1
    if args.valgrind:
        extra['valgrind'] = add_valgrind(run_, args, out)
    data = results.build_results(run_, extra)
    repeat_problem = repeat_processes(cmd, out, args.timeout, 'kfront host', data,
                                      args.repeat, fresh=not args.keep_pages)[0] \
        if args.repeat > 1 else ''
    if repeat_problem:
        print(f'kfront host: {repeat_problem}', file=sys.stderr)
    typed = model.from_dict(data, str(results.save(data, out / 'results.json')))
    files = report.write_all(typed, out)
    output.emit_results(args, [out / 'results.json'], [typed])
    print()
    print(report.terminal_table(typed, color=term.use_color(sys.stdout)))
    print(f'\nkfront host: wrote {out / "results.json"} and {len(files)} report files in {out}')
    if status != 0 or not run_.complete:
        print(f'kfront host: the run did not complete cleanly (status {status})',
              file=sys.stderr)
        return status or 1
    if args.valgrind and extra['valgrind']['notes']:
        return 1
    return 1 if repeat_problem else 0
