# SPDX-License-Identifier: GPL-2.0-or-later
"""`kfront study`: measure, explain and write docs/findings.md (issue 19).

Four measurements. First, alone, the host harness times the variants on
this machine's CPU (`kfront host`): nothing else runs, so the timings are
as quiet as the machine allows. Then two runs side by side, whose figures
are counts that do not depend on load (the machine has two cores): the
kernel under the fesim simulator over a footprint sweep with several
models (`kfront run --sim`), and the host programs under callgrind for its
per-function counts (`kfront host --valgrind`). Last, alone again, the
same timings once more, minutes later: the document says which of the
first run's verdicts the second repeats. tools/kfront/study.py
turns the results into the findings document; the results directories
stay under --out, so every `kfront explain` command the document cites can
be run again.
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from kfront import build, names, paths, pgo, study

# skylake-nojcc beside skylake: which of skylake's uop-cache figures the
# JCC erratum decides (docs/findings.md, "The uop cache per model");
# skylake@noprefetch: which of the L1i figures the next-line prefetch
# decides (docs/hybrid.md, "At 128 filter rules")
MODELS = 'skylake,skylake-nojcc,zen4,goldencove,skylake@noprefetch'
VARIANTS = 'O2,Os,hybrid'
BENCH = 'net.*,sched.*,mix.*'
SWEEP = {True: '0,64', False: '0,32,64,128,256'}


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        'study', help='measure O2, Os and hybrid, explain the differences, write docs/findings.md',
        description=f'Run the footprint sweep in the simulator ({MODELS.replace(",", ", ")}) and '
        'the host harness with callgrind on this CPU, side by side, then explain every '
        'workload\'s O2/Os difference and regenerate docs/findings.md and its chart.')
    p.add_argument('--quick', action='store_true',
                   help=f'short runs, footprints {SWEEP[True]} (default {SWEEP[False]})')
    p.add_argument('--out', type=Path, default=None,
                   help='where both runs write (default results/study-DATE-TIME/)')
    p.add_argument('--variants-file', type=Path, default=None, metavar='FILE',
                   help='the variant table (default bench/variants.ini); it must define '
                   f'{VARIANTS.replace(",", ", ")}, e.g. bench/variants-asm-string.ini')
    p.add_argument('--doc', type=Path, default=None,
                   help='the document to write (default docs/findings.md, or '
                   'docs/findings-STEM.md for --variants-file STEM.ini)')
    p.add_argument('--from', dest='reuse', type=Path, default=None, metavar='DIR',
                   help='write the document from an earlier study\'s DIR/sim and DIR/host '
                   'without measuring again')
    p.set_defaults(func=run, needs_setup=True)


def shown(path: Path) -> Path:
    """A path as the document prints it: relative to the tree when inside
    it, so the commands work from any clone."""
    try:
        return path.resolve().relative_to(paths.ROOT.resolve())
    except ValueError:
        return path


def default_doc(variants_file: Path | None) -> Path:
    """docs/findings.md for bench/variants.ini; another table's findings
    go beside it, named after the table, and never replace them."""
    name = f'findings-{variants_file.stem}.md' if variants_file else 'findings.md'
    return paths.ROOT / 'docs' / name


def table_problem(variants_file: Path | None) -> str | None:
    """What keeps a --variants-file from a study: a table the build would
    refuse, or one without the variants the study compares."""
    if variants_file is None:
        return None
    problem = names.variants_file_problem(variants_file)
    if problem:
        return problem
    have = {v.name for v in pgo.variants.load(variants_file)}
    missing = [v for v in VARIANTS.split(',') if v not in have]
    if not missing:
        return None
    return (f'--variants-file {variants_file}: the study compares '
            f'{VARIANTS.replace(",", ", ")}; the table has no {", ".join(missing)}')


def commands(args: argparse.Namespace, out: Path) -> dict[str, list[str]]:
    out = shown(out)
    quick = ['--quick'] if args.quick else []
    table = ['--variants-file', str(shown(args.variants_file))] if args.variants_file else []
    sweep = SWEEP[args.quick]
    host = ['./kfront', 'host', *quick, *table, '--variants', VARIANTS, '--bench', BENCH]
    return {
        'host': [*host, '--out', str(out / 'host'), '--', f'footprint={sweep}'],
        'sim': ['./kfront', 'run', *quick, *table, '--no-host', '--sim', MODELS,
                '--variants', VARIANTS,
                '--bench', BENCH, '--footprint', sweep, '--out', str(out / 'sim')],
        'hostvg': [*host, '--valgrind', '--out', str(out / 'hostvg'), '--',
                   f'footprint={sweep}'],
        # the timings again, once the counting runs are done: which
        # verdicts repeat (docs/statistics.md, "Between runs")
        'host-again': [*host, '--out', str(out / 'host-again'), '--', f'footprint={sweep}'],
    }


def _start(name: str, cmd: list[str], out: Path, env: dict[str, str]
           ) -> tuple[subprocess.Popen, object]:
    log = (out / f'{name}.log').open('w')
    print(f'kfront study: {" ".join(cmd)}  (log: {out / name}.log)', flush=True)
    return subprocess.Popen(cmd, cwd=paths.ROOT, stdout=log, env=env,
                            stderr=subprocess.STDOUT), log


def _wait(name: str, proc: subprocess.Popen, log: object, out: Path) -> bool:
    status = proc.wait()
    log.close()  # type: ignore[attr-defined]
    if status != 0:
        print(f'kfront study: {name} run failed (exit {status}); see {out / name}.log',
              file=sys.stderr)
    return status == 0


def measure(cmds: dict[str, list[str]], out: Path, variants_file: Path | None = None) -> bool:
    """The timing run alone, then the counting runs side by side, each
    logging to OUT/NAME.log; True when all succeed."""
    out.mkdir(parents=True, exist_ok=True)
    # One build first, with the runs' table: two ninja runs in one build
    # directory would race.
    table = f'-Dvariants_file={variants_file.resolve()}' if variants_file else '-Dvariants_file='
    if not build.build(options=[table]):
        print('kfront study: build failed', file=sys.stderr)
        return False
    env = dict(os.environ, **{build.BUILT_ENV: str(paths.BUILD)})
    ok = _wait('host', *_start('host', cmds['host'], out, env), out)
    counting = {name: _start(name, cmds[name], out, env) for name in ('sim', 'hostvg')}
    for name, (proc, log) in counting.items():
        ok &= _wait(name, proc, log, out)
    ok &= _wait('host-again', *_start('host-again', cmds['host-again'], out, env), out)
    return ok


# The programs a study explained, kept in its folder: `--from` then shows
# the sizes and disassembly of the code that was measured, not of whatever
# build/ holds by then (another variant table, later code).
PROGRAMS = 'programs'


def keep_programs(out: Path) -> None:
    """Copy the kernel image and the host programs the runs used into
    OUT/programs/ (those that exist)."""
    keep = out / PROGRAMS
    keep.mkdir(parents=True, exist_ok=True)
    for src in [paths.kernel_path()] + [paths.BUILD / 'host' / f'kfront-host-{v}'
                                        for v in VARIANTS.split(',')]:
        if src.is_file():
            shutil.copy2(src, keep / src.name)


def programs(out: Path) -> tuple[Path, dict[str, Path]]:
    """(the kernel image, the host program of each variant) to explain a
    study's results with: its own copies when it kept them, else the
    current build's, with a warning that they must be the measured code."""
    keep = out / PROGRAMS
    base = keep if (keep / paths.kernel_path().name).is_file() else None
    if base is None:
        print(f'kfront study: {out} holds no {PROGRAMS}/ (a study before they were kept): '
              'sizes and disassembly come from build/, which must hold the code that '
              'was measured, built with bench/variants.ini', file=sys.stderr)
    kernel = (base or paths.BUILD) / paths.kernel_path().name
    host = {v: (base or paths.BUILD / 'host') / f'kfront-host-{v}' for v in VARIANTS.split(',')}
    missing = [str(p) for p in [kernel, *host.values()] if not p.is_file()]
    if missing:
        print(f'kfront study: missing {", ".join(missing)}: those sizes and excerpts are left '
              'out of the document', file=sys.stderr)
    return kernel, host


# The copy and checksum helpers alone (docs/hybrid.md, "The copy loop"):
# what decides the stream rows' O2/Os difference, from the same build.
HELPERS = ['tools/probes/helper_speed.py', '--variants', VARIANTS, '--rounds', '7']
HELPERS_OUT = 'helpers.txt'


def time_helpers(out: Path) -> None:
    """OUT/helpers.txt: the probe's table (nothing, with the reason on
    stderr, when it fails: the document then goes without it)."""
    res = subprocess.run([sys.executable, *HELPERS], cwd=paths.ROOT, capture_output=True,
                         text=True, check=False)
    if res.returncode == 0:
        (out / HELPERS_OUT).write_text(res.stdout, encoding='utf-8')
    else:
        print(f'kfront study: {" ".join(HELPERS)} failed (exit {res.returncode}): '
              f'{res.stderr.strip()[-300:]}', file=sys.stderr)


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding='utf-8')
    except OSError:
        return None


def load(path: Path) -> dict | None:
    try:
        return json.loads(path.read_text(encoding='utf-8'))
    except (OSError, ValueError):
        return None


def write(args: argparse.Namespace, out: Path, cmds: dict[str, list[str]],
          note: str) -> int:
    sim, host = load(out / 'sim' / 'results.json'), load(out / 'host' / 'results.json')
    hostvg = load(out / 'hostvg' / 'results.json')
    host_again = load(out / 'host-again' / 'results.json')
    if sim is None and host is None:
        print(f'kfront study: no results under {out}/sim or {out}/host', file=sys.stderr)
        return 1
    doc = args.doc or default_doc(args.variants_file)
    kernel, host_programs = programs(out)
    inp = study.Inputs(
        sim=sim, host=host, hostvg=hostvg, kernel=kernel, host_programs=host_programs,
        commands=[' '.join(str(shown(Path(a))) if a.startswith('/') else a for a in c)
                  for c in cmds.values()] +
                 [f'./kfront study --from {shown(out)}   # this document again'],
        sim_path=str(shown(out) / 'sim' / 'results.json'),
        host_path=str(shown(out) / 'host' / 'results.json'),
        hostvg_path=str(shown(out) / 'hostvg' / 'results.json'),
        host_again=host_again, host_again_path=str(shown(out) / 'host-again' / 'results.json'),
        helpers=_read(out / HELPERS_OUT), helpers_command=' '.join(HELPERS),
        variants_file=str(shown(args.variants_file)) if args.variants_file else '',
        chart=f'{doc.stem}/time-ratio.svg')
    text = study.render(inp)
    text = text.replace('\n## How to reproduce\n', f'\n{note}\n\n## How to reproduce\n', 1)
    doc.parent.mkdir(parents=True, exist_ok=True)
    doc.write_text(text, encoding='utf-8')
    chart = study.ratio_chart(host)
    if chart is not None:
        charts = doc.parent / doc.stem
        charts.mkdir(exist_ok=True)
        (charts / 'time-ratio.svg').write_text(chart, encoding='utf-8')
    print(f'kfront study: wrote {doc}')
    return 0


def run(args: argparse.Namespace) -> int:
    if args.reuse is not None:
        saved = load(args.reuse / 'study.json') or {}
        if saved.get('variants_file') and args.variants_file is None:
            args.variants_file = paths.ROOT / saved['variants_file']
        return write(args, args.reuse, saved.get('commands', {}),
                     saved.get('note', ''))
    problem = table_problem(args.variants_file)
    if problem:
        print(f'kfront study: {problem}', file=sys.stderr)
        return 2
    stamp = datetime.datetime.now().strftime('%Y%m%d-%H%M%S')
    out = args.out or paths.ROOT / 'results' / f'study-{stamp}'
    cmds = commands(args, out)
    start = time.monotonic()
    load_before = os.getloadavg()[0]
    ok = measure(cmds, out, args.variants_file)
    took = time.monotonic() - start
    keep_programs(out)
    time_helpers(out)
    note = (f'Measured in {took:.0f} s wall; load average {load_before:.1f} when it '
            f'started (timings of a loaded machine are noisier: the intervals say how '
            f'much).')
    saved = {'commands': cmds, 'note': note}
    if args.variants_file:
        saved['variants_file'] = str(shown(args.variants_file))
    (out / 'study.json').write_text(json.dumps(saved, indent=1))
    print(f'kfront study: measurements took {took:.0f} s', flush=True)
    status = write(args, out, cmds, note)
    return status if ok else 1
