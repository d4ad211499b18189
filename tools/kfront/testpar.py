# SPDX-License-Identifier: GPL-2.0-or-later
"""Running one suite's test modules in parallel worker processes.

The boot tests spend their time in QEMU, one TCG thread each, and the
host tool's tests in one Python process, so on a machine with two cores two
workers halve a suite's wall time. Modules are
dealt to the workers longest first by their measured cost (MODULE_SECONDS,
re-measured by running each module alone, two at a time); each
worker is an ordinary `python3 -m unittest` run whose closing line gives
its counts, and its output is printed whole when it ends, so the workers'
lines never interleave. A module that starts several QEMUs itself
(EXCLUSIVE) runs alone after the workers.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from kfront import build, dealing, paths

# Wall seconds per test module on the 2-core development machine, two
# modules running at once as in `kfront test` (2026-12-06), per suite; a
# module not listed counts as its suite's DEFAULT_SECONDS.
MODULE_SECONDS = {
    'boot': {
        # re-measured after GRUB's 3 s wait left every boot (iso/grub.cfg)
        'test_lava_run': 61, 'test_boot': 43, 'test_nic': 24,
        'test_wire': 22, 'test_signals': 20, 'test_sim': 25, 'test_pci': 10,
        'test_boot_matrix': 10, 'test_kernel_placement': 10, 'test_truth_run': 7,
        # 30 s with build/pgo-train built; its first build (every fresh
        # clone) adds about 70 s
        'test_pgo_train': 100,
    },
    'py': {
        'test_collect_fuzz': 16, 'test_bad_documents': 11,
        'test_fesim_pgo_build': 7, 'test_output': 6, 'test_html_browser': 5,
        'test_collect': 5, 'test_variant_code': 4, 'test_compare': 4,
        'test_report': 4, 'test_pgo': 3, 'test_host_harness': 3,
        'test_bad_outputs': 3, 'test_cli': 3, 'test_wirepeer': 2,
        'test_model': 2, 'test_lava': 2, 'test_results': 2,
    },
}
DEFAULT_SECONDS = {'boot': 30, 'py': 1}
# Modules that start several QEMUs at once: they run alone, after the
# workers, so that no other boot shares the cores with them (a boot test
# that measures time, the TSC calibration, failed beside one).
EXCLUSIVE = {'boot': {'test_sim_split'}}


def cost(suite: str, module: str) -> float:
    return MODULE_SECONDS.get(suite, {}).get(module, DEFAULT_SECONDS.get(suite, 30))


_RAN_RE = re.compile(r'^Ran (\d+) tests? in ', re.M)
_COUNTS_RE = re.compile(r'(failures|errors|skipped|expected failures|'
                        r'unexpected successes)=(\d+)')


@dataclass
class WorkerResult:
    modules: list[str]
    ran: int
    failed: int
    skipped: int
    seconds: float
    output: str


def deal(modules: list[str], workers: int, suite: str) -> list[list[str]]:
    """Longest-processing-time-first assignment of a suite's modules to
    workers."""
    return dealing.deal_by_cost(modules, workers, lambda m: cost(suite, m))


def parse_counts(output: str) -> tuple[int, int, int]:
    """(ran, failed, skipped) from unittest's closing lines; a worker that
    printed no 'Ran N tests' line counts as one failure."""
    ran = _RAN_RE.findall(output)
    if not ran:
        return 0, 1, 0
    tail = output[output.rfind('Ran '):]
    counts = {k: int(v) for k, v in _COUNTS_RE.findall(tail)}
    failed = counts.get('failures', 0) + counts.get('errors', 0) + \
        counts.get('unexpected successes', 0)
    if 'FAILED' not in tail and 'OK' not in tail:
        failed += 1     # the runner itself died after its count line
    return int(ran[-1]), failed, counts.get('skipped', 0)


def run_parallel(root: Path, suite: str, workers: int,
                 verbose: bool) -> list[WorkerResult]:
    modules = sorted(p.stem for p in (root / 'tests' / suite).glob('test_*.py'))
    env = dict(os.environ)
    env[build.BUILT_ENV] = str(paths.BUILD)
    env['PYTHONPATH'] = os.pathsep.join(
        [str(root), str(root / 'tools'), env.get('PYTHONPATH', '')]).rstrip(
            os.pathsep)
    alone = [m for m in modules if m in EXCLUSIVE.get(suite, set())]
    shared = [m for m in modules if m not in alone]
    results = _run_groups(root, suite, deal(shared, workers, suite), env, verbose)
    if alone:
        results += _run_groups(root, suite, [alone], env, verbose)
    return results


def _run_groups(root: Path, suite: str, groups: list[list[str]], env: dict[str, str],
                verbose: bool) -> list[WorkerResult]:
    """One worker per group of modules, all at once; their results."""
    procs = []
    for group in groups:
        cmd = [sys.executable, '-m', 'unittest'] + (['-v'] if verbose else []) \
            + [f'tests.{suite}.{m}' for m in group]
        procs.append((group, time.monotonic(), subprocess.Popen(
            cmd, cwd=root, env=env, stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, text=True, errors='replace')))
    results = []
    for group, start, proc in procs:
        out, _ = proc.communicate()
        ran, failed, skipped = parse_counts(out)
        if proc.returncode != 0 and failed == 0:
            failed = 1
        results.append(WorkerResult(group, ran, failed, skipped,
                                    time.monotonic() - start, out))
    return results
