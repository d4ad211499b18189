# SPDX-License-Identifier: GPL-2.0-or-later
"""`kfront test`: every test of the project, one summary line at the end.

Suites: native unit tests and the simulator's validation tests, registered
with Meson (`meson test`), pyflakes over the Python code (counted as one
test), the host tool's Python tests (tests/py) and the QEMU boot tests
(tests/boot).
"""
from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import time
import unittest
from dataclasses import dataclass
from pathlib import Path

from kfront import build, paths, testpar

# tests/fesim runs under meson (suite 'fesim'), with the plugin it built.
PY_SUITES = ('py', 'boot')
# Suites whose modules run in parallel worker processes (tools/kfront/
# testpar.py): the boot tests wait on QEMU, the Python tests on one Python
# process, one core each.
PARALLEL_SUITES = {'boot': 2, 'py': 2}
# The Python the linter reads: the tool and every test.
LINT_DIRS = ('tools', 'tests')


@dataclass
class Tally:
    passed: int = 0
    failed: int = 0
    skipped: int = 0

    def add(self, other: 'Tally') -> None:
        self.passed += other.passed
        self.failed += other.failed
        self.skipped += other.skipped

    def line(self) -> str:
        s = f'{self.passed} passed, {self.failed} failed'
        return s + (f', {self.skipped} skipped' if self.skipped else '')


def run_meson_tests() -> Tally:
    """meson test, counted from its JSON log."""
    res = subprocess.run(['meson', 'test', '-C', str(paths.BUILD), '--print-errorlogs',
                          '--num-processes', '2'],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    tally = Tally()
    log = paths.BUILD / 'meson-logs' / 'testlog.json'
    for line in log.read_text().splitlines() if log.exists() else []:
        result = json.loads(line).get('result', '')
        if result in ('OK', 'EXPECTEDFAIL'):
            tally.passed += 1
        elif result == 'SKIP':
            tally.skipped += 1
        else:
            tally.failed += 1
    if res.returncode != 0 or tally.failed:
        sys.stdout.write(res.stdout[-20000:])
    if res.returncode != 0 and not tally.failed:
        tally.failed += 1   # meson itself failed (e.g. a test did not build)
    return tally


def pyflakes_command() -> list[str] | None:
    """Debian ships pyflakes as pyflakes3; a pip install names it pyflakes."""
    exe = shutil.which('pyflakes3') or shutil.which('pyflakes')
    return [exe] if exe else None


def run_lint(dirs: list[Path]) -> Tally:
    """pyflakes over dirs, one test: passed when it finds nothing."""
    cmd = pyflakes_command()
    if cmd is None:
        print('   lint: skipped: pyflakes is not installed '
              '(Debian package pyflakes3: ./kfront setup)', flush=True)
        return Tally(skipped=1)
    res = subprocess.run(cmd + [str(d) for d in dirs], stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True)
    findings = res.stdout.strip()
    if res.returncode == 0 and not findings:
        return Tally(passed=1)
    print(findings or f'pyflakes exited with status {res.returncode}', flush=True)
    return Tally(failed=1)


class _CountingResult(unittest.TextTestResult):
    pass


def run_python_suite(name: str, verbose: bool) -> Tally:
    start_dir = paths.ROOT / 'tests' / name
    if not start_dir.is_dir():
        return Tally()
    loader = unittest.TestLoader()
    suite = loader.discover(str(start_dir), pattern='test_*.py', top_level_dir=str(paths.ROOT))
    runner = unittest.TextTestRunner(stream=sys.stdout, verbosity=2 if verbose else 1,
                                     resultclass=_CountingResult)
    result = runner.run(suite)
    failed = len(result.failures) + len(result.errors) + len(result.unexpectedSuccesses)
    skipped = len(result.skipped)
    return Tally(passed=result.testsRun - failed - skipped, failed=failed, skipped=skipped)


def run_parallel_suite(name: str, workers: int, verbose: bool) -> Tally:
    tally = Tally()
    for w in testpar.run_parallel(paths.ROOT, name, workers, verbose):
        print(f'-- worker: {", ".join(w.modules)} ({w.seconds:.0f} s)')
        sys.stdout.write(w.output if (verbose or w.failed) else
                         w.output[w.output.rfind('Ran '):])
        tally.add(Tally(passed=w.ran - w.failed - w.skipped, failed=w.failed,
                        skipped=w.skipped))
    return tally


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser('test', help='run every test; ends with "N passed, N failed"')
    p.add_argument('--only', choices=('meson', 'lint') + PY_SUITES, action='append',
                   help='run only these suites (repeatable)')
    p.add_argument('-v', '--verbose', action='store_true')
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    only = set(args.only or ('meson', 'lint') + PY_SUITES)
    total = Tally()
    start = time.monotonic()
    # The tests check the project's own variant table: a table left by an
    # earlier `run --variants-file` must not decide what they see.
    if not build.build(options=['-Dvariants_file=']):
        print('0 passed, 1 failed')
        return 1
    # The tests import the tool's modules; make `tests.*` importable too.
    sys.path.insert(0, str(paths.ROOT))
    sys.path.insert(0, str(paths.ROOT / 'tools'))
    if 'meson' in only:
        print('== native tests (meson test)', flush=True)
        t = run_meson_tests()
        print(f'   meson: {t.line()}', flush=True)
        total.add(t)
    if 'lint' in only:
        print('== lint (pyflakes over tools/ and tests/)', flush=True)
        t = run_lint([paths.ROOT / d for d in LINT_DIRS])
        print(f'   lint: {t.line()}', flush=True)
        total.add(t)
    for name in PY_SUITES:
        if name in only:
            print(f'== tests/{name}', flush=True)
            workers = PARALLEL_SUITES.get(name, 1)
            t = (run_parallel_suite(name, workers, args.verbose) if workers > 1
                 else run_python_suite(name, args.verbose))
            print(f'   {name}: {t.line()}', flush=True)
            total.add(t)
    print(f'kfront test: {time.monotonic() - start:.0f} s')
    print(total.line())
    return 0 if total.failed == 0 else 1
